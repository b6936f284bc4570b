#!/usr/bin/env bash
# W=1, sparse (C=2) and kernel-doc warnings of the C files the series
# touches (ci/warnings.sh), for each configuration that built, judged
# against the parent commit's: a warning the parent did not have fails.
# usage: warnings.sh RESULTS-FILE N FILE...   (N 0: the base, whose
# warnings are only the reference; $LOGDIR/warn-N-on.txt and -off.txt)
source "$(dirname "$0")/../lib.sh"

f=$1 i=$2 col=""
shift 2
for kind in on off; do
	y=n
	[ $kind = off ] || y=y
	[ "$(cell_of "$f" "build $kind")" = ok ] || continue
	out=$LOGDIR/warn-$i-$kind.txt
	if ! bash "$TOP/ci/warnings.sh" "$WORK/build-$kind" "$@" >"$out"; then
		rm -f "$out"
		result "$f" FAIL 1 "[$i] W=1/sparse/kernel-doc pass failed ($kind)"
		col+="$kind:FAIL "
		continue
	fi
	[ "$i" != 0 ] || continue
	# A missing reference (the parent's pass failed) is a failure, not
	# an empty reference: new_lines says which file is missing.
	if ! new=$(new_lines "$LOGDIR/warn-$((i - 1))-$kind.txt" "$out"); then
		result "$f" FAIL 1 "[$i] no reference for the warnings with NO_IDLE_HZ=$y: $new"
		col+="$kind:FAIL "
	elif [ -n "$new" ]; then
		n=$(printf '%s\n' "$new" | wc -l)
		result "$f" FAIL 1 "[$i] $n new warning(s) with NO_IDLE_HZ=$y against the parent"
		printf '%s\n' "$new" | sed 's/^/    + /' >&2
		col+="$kind:+$n "
	else
		result "$f" ok 1 "[$i] no new W=1/sparse/kernel-doc warning with NO_IDLE_HZ=$y"
		col+="$kind:0 "
	fi
done
[ "$i" = 0 ] || cell "$f" warnings "${col:-n/a}"
