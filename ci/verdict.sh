#!/usr/bin/env bash
# Judge one guest run from its console log.
# usage: verdict.sh NAME LOG QEMU_RC TIMEOUT SECS
# Prints "boot=ok|fail tests_pass=N tests_skip=N tests_fail=N secs=N" on
# stdout, the verdict and, on failure, the console tail on stderr.
source "$(dirname "$0")/lib.sh"

name=$1 log=$2 rc=$3 tmo=$4 secs=$5
verdict=""
[ "$rc" = 124 ] || [ "$rc" = 137 ] && verdict="timeout after ${tmo}s"
if [ -z "$verdict" ]; then
	bad=$(grep -a -m1 -E 'Kernel panic|BUG:|WARNING:|Oops|Call Trace|UBSAN:|possible recursive locking|inconsistent lock state|circular locking|suspicious RCU usage|hung_task|soft lockup|rcu_sched self-detected stall|rcu: INFO' "$log" || true)
	[ -n "$bad" ] && verdict="console: $bad"
fi
if [ -z "$verdict" ] && ! grep -aq '^DYNTICK-GUEST-END$' "$log"; then
	verdict="guest did not finish (unexpected reboot or exit, qemu rc $rc)"
fi
pass=$(grep -acE '^ok [0-9]+ [a-z_]+$|^ok [0-9]+ [a-z_]+ # [^S]' "$log" || true)
skip=$(grep -acE '^ok [0-9]+ [a-z_]+ # SKIP' "$log" || true)
fail=$(grep -acE '^not ok [0-9]+' "$log" || true)
if [ -z "$verdict" ] && [ "$fail" != 0 ]; then
	verdict="$fail guest test(s) failed: $(grep -aE '^not ok' "$log" | awk '{print $4}' | paste -sd, -)"
fi

if [ -n "$verdict" ]; then
	say "BOOT FAIL $name: $verdict (${secs}s, log $log)"
	say "---- console tail ----"
	tail -n 25 "$log" >&2
	say "----------------------"
	echo "boot=fail tests_pass=$pass tests_skip=$skip tests_fail=$fail secs=$secs"
	exit 1
fi
say "BOOT OK   $name: $pass passed, $skip skipped (${secs}s)"
echo "boot=ok tests_pass=$pass tests_skip=$skip tests_fail=$fail secs=$secs"
