#!/usr/bin/env bash
# Run scripts/checkpatch.pl --strict on every given patch (default: the
# series). A patch passes only with 0 errors, 0 warnings and 0 checks.
source "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- $(series_patches)
bad=0
for p in "$@"; do
	out=$(cd "$TREE" && PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --strict --show-types "$p" 2>&1 || true)
	total=$(printf '%s\n' "$out" | grep -E '^total: ' | tail -n1)
	if [ -z "$total" ]; then
		say "checkpatch FAIL $(basename "$p"): no result"; bad=1; continue
	fi
	if printf '%s' "$total" | grep -qE '^total: 0 errors, 0 warnings, 0 checks'; then
		say "checkpatch ok   $(basename "$p")"
	else
		say "checkpatch FAIL $(basename "$p"): ${total#total: }"
		printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' -A3 >&2 || true
		bad=1
	fi
done
exit $bad
