#!/usr/bin/env bash
# Judge one guest run from its console log.
# usage: verdict.sh NAME LOG QEMU_RC TIMEOUT SECS
# Prints "boot=ok|fail tests_pass=N tests_skip=N tests_fail=N secs=N" on
# stdout, the verdict and, on failure, the console tail on stderr.
#
# A run passes only when QEMU did not time out, the console has no kernel
# error report, the guest printed its end line and no KTAP test says
# "not ok". A run of the guest tests (every dt.mode but shell, demo, bench
# and wakes, as in ci/guest/init.c) must also print one KTAP plan line
# "1..N" before its results, exactly N results numbered 1 to N, and at least
# one test that ran and passed (an "ok" that is not "# SKIP"). Each clause
# that fails is named in the verdict.
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

# The guest's mode, from the command line the kernel printed (first
# dt.mode= wins, as in the guest). Without one the guest runs its tests.
mode=$(grep -a -m1 'Kernel command line:' "$log" | grep -oE ' dt\.mode=[^ ]*' | head -n1 | sed 's/.*=//' || true)
ktap=1
case $mode in shell|demo|bench|wakes) ktap=0 ;; esac

# One pass over the KTAP output: plan lines, results, their numbering.
# awk prints one value a line, read into the variables (never evaluated).
{ read -r plans; read -r plan; read -r planline; read -r firstres; read -r results
  read -r pass; read -r skip; read -r fail; IFS= read -r failed; IFS= read -r seqbad
} < <(awk '
	/^1\.\.[0-9]+$/ { plans++; if (plans == 1) { plan = substr($0, 4); planline = NR } next }
	/^(not )?ok [0-9]+( |$)/ {
		results++
		if (!firstres) firstres = NR
		nf = ($1 == "not") ? 3 : 2
		if ($nf + 0 != results && !seqbad) seqbad = "result " results " is numbered " $nf
		if ($1 == "not") {
			fail++
			n = $4; if ($0 ~ / # unknown test$/) n = n " (unknown test)"
			failed = failed (failed == "" ? "" : ", ") n
		} else if ($0 ~ /^ok [0-9]+ [^ ]* # SKIP/) skip++
		else pass++
	}
	END {
		gsub(/[^a-zA-Z0-9_.,() -]/, "?", failed); gsub(/[^a-zA-Z0-9 ]/, "?", seqbad)
		printf "%d\n%d\n%d\n%d\n%d\n%d\n%d\n%d\n%s\n%s\n",
			plans, plan, planline, firstres, results, pass, skip, fail, failed, seqbad
	}' "$log")

why=()
[ "$fail" != 0 ] && why+=("$fail guest test(s) failed: $failed")
if [ $ktap = 1 ]; then
	if [ "$plans" = 0 ]; then
		if [ "$results" = 0 ]; then why+=("no KTAP plan line (1..N) and no results")
		else why+=("KTAP results without a plan line (1..N)"); fi
	else
		[ "$plans" -gt 1 ] && why+=("$plans KTAP plan lines, one expected")
		[ "$firstres" != 0 ] && [ "$firstres" -lt "$planline" ] &&
			why+=("KTAP results before the plan line")
		[ "$results" != "$plan" ] && why+=("KTAP plan 1..$plan but $results result(s)")
	fi
	[ -n "$seqbad" ] && why+=("KTAP results out of sequence: $seqbad")
	[ "$pass" = 0 ] && why+=("no guest test ran: 0 passed, $skip skipped, $fail failed")
fi
if [ -z "$verdict" ] && [ ${#why[@]} -gt 0 ]; then
	verdict=$(IFS=';'; printf '%s' "${why[*]}" | sed 's/;/; /g')
fi

if [ -n "$verdict" ]; then
	say "BOOT FAIL $name: $verdict (${secs}s, log $log)"
	say "---- console tail ----"
	tail -n 25 "$log" >&2
	say "----------------------"
	echo "boot=fail tests_pass=$pass tests_skip=$skip tests_fail=$fail secs=$secs"
	exit 1
fi
# Booted again after the emulator's own hang (ci/qemu_run.py): said, not hidden
again=""
head -n1 "$log" | grep -aq '^qemu_run: boot 1 hung in the emulator' &&
	again=", booted again after an emulator hang: $log.hang1"
say "BOOT OK   $name: $pass passed, $skip skipped (${secs}s$again)"
echo "boot=ok tests_pass=$pass tests_skip=$skip tests_fail=$fail secs=$secs"
