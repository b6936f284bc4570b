#!/usr/bin/env bash
# The series' documentation built as a reviewer builds it: make
# SPHINXDIRS=timers htmldocs with Debian's Sphinx, from the worktree as it
# is checked out, into OUT. Prints Sphinx's warnings normalized (no line
# numbers, no build paths), sorted, one a line, so that a commit can be
# compared with its parent as the W=1 and sparse warnings are (ci/check.sh).
# Every file is read again (-E): an incremental build would not repeat the
# warnings of the files that did not change. Then the ABI files, which the
# series' sysfs files are documented in, through scripts/get_abi.pl
# validate (one line a warning, prefixed "ABI: ").
# usage: docs.sh OUT
source "$(dirname "$0")/lib.sh"

out=$(realpath -m "$1")
mkdir -p "$out"
log=$out/htmldocs.log
if ! make -C "$TREE" O="$out" SPHINXDIRS=timers SPHINXOPTS=-E htmldocs >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "make SPHINXDIRS=timers htmldocs failed (log $log)"
fi
{
	# A build without warnings is no error (set -e, pipefail)
	{ grep -E 'WARNING|ERROR|SEVERE|CRITICAL' "$log" || true; } |
		sed -E "s#$TREE/##g; s#$out/##g; s#:[0-9]+:#:#g"
	(cd "$TREE" && perl scripts/get_abi.pl validate 2>&1) |
		sed -E 's/#[0-9]+:/:/' |
		awk '/^Warning:/ { if (w != "") print w; w = "ABI: " $0; next }
		     { gsub(/^[ \t]+/, " "); w = w $0 }
		     END { if (w != "") print w }'
} | sort
