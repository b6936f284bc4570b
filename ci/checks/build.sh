#!/usr/bin/env bash
# Build the checked-out commit with NO_IDLE_HZ on and off (the small
# configuration: kconfig-fragments/base + dyntick-on/off), incrementally in
# $WORK/build-on and $WORK/build-off.
# usage: build.sh RESULTS-FILE N   (N 0: the base, whose builds are the
# reference of commit 1; a base that does not build ends the run: exit
# $STOP)
source "$(dirname "$0")/../lib.sh"

f=$1 i=$2
for kind in on off; do
	y=n
	[ $kind = off ] || y=y
	# The base has no NO_IDLE_HZ: its on and off configurations are the
	# same (2.5 minutes of ccache hits saved on a new machine).
	[ "$i" != 0 ] || [ $kind = on ] || seed_build "$WORK/build-on" "$WORK/build-off"
	log=$LOGDIR/build-$i-$kind.log
	if bash "$TOP/ci/build.sh" "$WORK/build-$kind" base "dyntick-$kind" >"$log" 2>&1; then
		[ "$i" = 0 ] || result "$f" ok 1 "[$i] build with NO_IDLE_HZ=$y"
		cell "$f" "build $kind" ok
	else
		tail -n 20 "$log" >&2
		if [ "$i" = 0 ]; then
			result "$f" FAIL 1 "[0] the base does not build ($kind, log $log)"
			exit "$STOP"
		fi
		result "$f" FAIL 1 "[$i] build with NO_IDLE_HZ=$y (log $log)"
		cell "$f" "build $kind" FAIL
	fi
	grep -E 'warning:' "$log" >&2 || true
done
