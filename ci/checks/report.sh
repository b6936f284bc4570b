#!/usr/bin/env bash
# The check's report, from the results files alone (lib.sh: result, cell,
# time): the per-commit table (one row per file named by a number, in
# order, but the base's 00), the time per step, the failures, and the last line
# "N passed, N failed, N skipped". Exits non-zero when anything failed.
# usage: report.sh RESULTS-DIR [START-EPOCH]
source "$(dirname "$0")/../lib.sh"

dir=$1 t0=${2:-}
passed=0 failed=0 skipped=0
failures=() keys=()
declare -A secs=()
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	while IFS=$'\t' read -r what a b; do
		case $what in
		ok) passed=$((passed + a)) ;;
		skip) skipped=$((skipped + a)) ;;
		FAIL) failed=$((failed + a)); failures+=("$b") ;;
		time)
			[ -n "${secs[$a]+x}" ] || keys+=("$a")
			secs[$a]=$(( ${secs[$a]:-0} + b )) ;;
		esac
	done <"$f"
done

# A run with no result at all checked nothing
[ $((passed + failed + skipped)) != 0 ] || { failed=1; failures+=("no results in $dir: nothing was checked"); }

rows=("#|commit|checkpatch|build on|build off|new warnings (W=1, sparse, kernel-doc)|htmldocs|boots|guest tests (pass/skip/fail)|KUnit")
for n in $(find "$dir" -maxdepth 1 -type f -printf '%f\n' | grep -E '^[0-9]+$' | sort -n || true); do
	f=$dir/$n
	[ "$((10#$n))" != 0 ] || continue
	row="$((10#$n))"
	for c in commit checkpatch "build on" "build off" warnings htmldocs boots tests kunit; do
		row+="|$(cell_of "$f" "$c")"
	done
	rows+=("$row")
done
if [ ${#rows[@]} -gt 1 ]; then
	say ""
	say "Per-commit summary"
	printf '%s\n' "${rows[@]}" | column -t -s '|' >&2
fi
if [ ${#keys[@]} -gt 0 ]; then
	say ""
	t="Time:"
	for k in "${keys[@]}"; do t+=" $k ${secs[$k]}s "; done
	[ -z "$t0" ] || t+=" total $(( $(date +%s) - t0 ))s"
	say "$t"
fi
if [ ${#failures[@]} -gt 0 ]; then
	say "Failures:"
	printf '  %s\n' "${failures[@]}" >&2
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
