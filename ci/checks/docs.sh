#!/usr/bin/env bash
# The documentation as a reviewer builds it (ci/docs.sh: make
# SPHINXDIRS=timers htmldocs, and the ABI files checked by get_abi.pl):
# a warning the parent commit did not have fails.
# usage: docs.sh RESULTS-FILE N   (N 0: the base, the reference only;
# $LOGDIR/docs-N.txt)
source "$(dirname "$0")/../lib.sh"

f=$1 i=$2
out=$LOGDIR/docs-$i.txt
if ! bash "$TOP/ci/docs.sh" "$WORK/docs" >"$out"; then
	rm -f "$out"
	if [ "$i" = 0 ]; then
		result "$f" FAIL 1 "[0] the base's documentation does not build (make SPHINXDIRS=timers htmldocs)"
	else
		result "$f" FAIL 1 "[$i] the documentation does not build (make SPHINXDIRS=timers htmldocs)"
		cell "$f" htmldocs FAIL
	fi
	exit 0
fi
[ "$i" != 0 ] || exit 0
if ! new=$(new_lines "$LOGDIR/docs-$((i - 1)).txt" "$out"); then
	result "$f" FAIL 1 "[$i] no reference for the documentation's warnings: $new"
	cell "$f" htmldocs FAIL
elif [ -n "$new" ]; then
	n=$(printf '%s\n' "$new" | wc -l)
	result "$f" FAIL 1 "[$i] $n new htmldocs warning(s) against the parent"
	printf '%s\n' "$new" | sed 's/^/    + /' >&2
	cell "$f" htmldocs "+$n"
else
	result "$f" ok 1 "[$i] no new htmldocs warning"
	cell "$f" htmldocs 0
fi
