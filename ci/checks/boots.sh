#!/usr/bin/env bash
# Boot the feature-on kernel ($WORK/build-on) with the guest tests
# (ci/boot.sh, judged by ci/verdict.sh): the first boot of ci/boots.conf
# with a 5 s idle, or at the tip every boot with its full plan and a 20 s
# idle, where no test may skip (a test that skips there, a renamed symbol in
# its requirement, tests nothing). A boot that passed must also read the
# same in the tree's own KTAP parser (kunit.py parse: passed, skipped,
# failed; no crash, no error).
# usage: boots.sh RESULTS-FILE LABEL tip|commit   (logs
# $LOGDIR/boot-LABEL-NAME.log; nothing boots unless the file says the
# feature-on build is ok)
source "$(dirname "$0")/../lib.sh"

f=$1 label=$2 at=$3
if [ "$(cell_of "$f" "build on")" != ok ]; then
	cell "$f" boots "not booted"
	exit 0
fi
hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-on/.config")
idle=5
[ "$at" != tip ] || idle=20
first=$(awk '!/^(#|$)/ { print $1; exit }' "$TOP/ci/boots.conf")
col="" tp=0 ts=0 tf=0
while read -r name vcpus args; do
	case $name in '' | '#'*) continue ;; esac
	[ "$at" = tip ] || [ "$name" = "$first" ] || continue
	say ""
	say "=== boot $name: $vcpus vCPU(s) ${args#-}"
	log=$LOGDIR/boot-$label-$name.log
	rc=0
	run_boot "$name" "$vcpus" "$args" "$WORK/build-on/arch/x86/boot/bzImage" \
		"$log" "$hz" "$idle" || rc=$?
	if [ $rc != 0 ]; then
		result "$f" FAIL 1 "[$label] no test plan for boot $name (ci/plan.sh, ci/tests.conf)"
		col+="$name:FAIL "
		continue
	fi
	tp=$((tp + tests_pass)) ts=$((ts + tests_skip)) tf=$((tf + tests_fail))
	[ "$tests_pass" = 0 ] || result "$f" ok "$tests_pass" "[$label] boot $name: guest tests passed"
	[ "$tests_skip" = 0 ] || result "$f" skip "$tests_skip" "[$label] boot $name: guest tests skipped"
	[ "$tests_fail" = 0 ] ||
		result "$f" FAIL "$tests_fail" "[$label] boot $name: $tests_fail guest test(s) failed (log $log)"
	if [ "$at" = tip ] && [ "$tests_skip" != 0 ]; then
		result "$f" FAIL 1 "[$label] boot $name: $tests_skip guest test(s) skipped at the tip, where all must run: $boot_plan"
	fi
	if [ "$boot_rc" = 0 ]; then
		result "$f" ok 1 "[$label] boot $name"
		col+="$name:ok "
		# The tree's KTAP parser must read the same results as the
		# verdict (ci/verdict.sh) in a boot that passed
		want="passed=$tests_pass skipped=$tests_skip failed=$tests_fail crashed=0 errors=0"
		got=$(ktap_counts "$log")
		if [ "$got" = "$want" ]; then
			result "$f" ok 1 "[$label] boot $name: kunit.py parse reads the same results"
		else
			result "$f" FAIL 1 "[$label] boot $name: kunit.py parse reads '$got', the verdict '$want'"
		fi
	else
		col+="$name:FAIL "
		# Failed tests are counted above; a boot that failed
		# otherwise (console, timeout, KTAP plan) is a failure of its own
		[ "$tests_fail" != 0 ] || result "$f" FAIL 1 "[$label] boot $name (log $log)"
	fi
done <"$TOP/ci/boots.conf"
cell "$f" boots "$col"
cell "$f" tests "$tp/$ts/$tf"
