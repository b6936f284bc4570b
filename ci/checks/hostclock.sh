#!/usr/bin/env bash
# The guest's CLOCK_REALTIME against the host's clock, over the long idle
# (guest test long_idle) and over a suspend to idle (suspend_idle): the
# host notes its own clock at the guest's marks (ci/qemu_run.py: HOSTCLOCK
# MARK-start, MARK-end), the guest prints how far its realtime clock moved
# in between ("LINE realtime_ns N"). They must agree within 100 ms.
# usage: hostclock.sh LOG TESTS   (TESTS: the row's comma-separated tests)
# Prints "; TEST: guest realtime vs host clock N ms (limit 100)" per test
# of the two that the row runs; exits 1 when one is off or has no marks.
source "$(dirname "$0")/../lib.sh"

log=$1 tests=$2 rc=0
# TEST:MARK:LINE
for hc in long_idle:longidle:LONGIDLE suspend_idle:suspend:SUSPEND; do
	IFS=: read -r ht hm hl <<<"$hc"
	[[ ,$tests, == *,$ht,* ]] || continue
	h0=$(sed -n "s/^HOSTCLOCK $hm-start //p" "$log")
	h1=$(sed -n "s/^HOSTCLOCK $hm-end //p" "$log")
	g=$(sed -n "s/^$hl realtime_ns //p" "$log")
	if [ -z "$h0" ] || [ -z "$h1" ] || [ -z "$g" ]; then
		say "hostclock: no host clock marks for $ht in $log"
		printf '; %s: no host clock marks' "$ht"
		rc=1
		continue
	fi
	d=$(((h1 - h0) - g))
	d=${d#-}
	printf '; %s: guest realtime vs host clock %s ms (limit 100)' "$ht" "$(awk -v d="$d" 'BEGIN { printf "%.1f", d / 1e6 }')"
	[ "$d" -lt 100000000 ] || { say "hostclock: $ht: guest realtime off the host clock by $d ns"; rc=1; }
done
exit $rc
