#!/usr/bin/env bash
# Unit tests of the workbench's judges, in seconds and without a kernel:
#   verdict-*  ci/verdict.sh on the canned console logs of ci/unit/verdict/
#              (real-*.log: logs of real boots of the series' tip)
#   plan-*     ci/plan.sh on fake kernel trees (TREE=a temporary directory
#              with the files the requirements grep), with the canned
#              ci/unit/plan/*.conf for the logic and the real ci/*.conf for
#              what the series needs
#   names-*    every test name of ci/tests.conf and ci/matrix.conf is one
#              the guest knows
#   wakes-*    ci/wakes.py's tally of a canned trace
#   guest-*    ci/guest/init.c on the host, in a harness: its check of
#              dt.tests/dt.skip (guest_names.c), and on a fake clock its
#              jiffies drift without data and its early wake-ups
#              (guest_clock.c), and one idle window for the tests that
#              judge it, each in its own process (guest_idle.c), the
#              benchmark's interrupt counts (guest_irqs.c), the
#              all_idle replay on canned traces (guest_allidle.c), and
#              tick_device's /proc/timer_list (guest_timerlist.c), and
#              the verdict by clauses (guest_clauses.c)
# Prints "unit ok NAME" or "unit FAIL NAME" per case, ends with
# "N passed, N failed" and exits non-zero when a case failed.
# usage: run.sh [PATTERN]   (only the cases whose name matches PATTERN)
set -uo pipefail
export LC_ALL=C

unit=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$unit/../.." && pwd)
only=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); echo "unit ok $1${2:+: $2}"; }
fail() {
	failed=$((failed + 1)); echo "unit FAIL $1: $2"
	[ -z "${3:-}" ] || printf '%s\n' "$3" | tail -n 12 | sed 's/^/    /'
}
want() { [ -z "$only" ] || [[ $1 == *$only* ]]; }

# ---- verdict ----------------------------------------------------------------
# CASE LOG QEMU_RC ok|fail PATTERN: the verdict's exit status, and PATTERN
# (extended regex) in its output (the verdict line on stderr, then stdout).
verdict() {
	local name=verdict-$1 log=$unit/verdict/$2 rc=$3 expect=$4 pat=$5 out vrc
	want "$name" || return 0
	[ -r "$log" ] || { fail "$name" "no canned log $log"; return; }
	# A copy: the verdict must judge the log as it is, and not touch it.
	cp "$log" "$tmp/console.log"
	out=$(TOP=$top bash "$top/ci/verdict.sh" "unit-$1" "$tmp/console.log" "$rc" 300 12 2>&1)
	vrc=$?
	if [ "$expect" = ok ] && [ $vrc != 0 ]; then
		fail "$name" "verdict failed a run that should pass (exit $vrc)" "$out"
	elif [ "$expect" = fail ] && [ $vrc = 0 ]; then
		fail "$name" "verdict passed a run that should fail" "$out"
	elif ! grep -qE -- "$pat" <<<"$out"; then
		fail "$name" "no /$pat/ in the verdict" "$out"
	else
		ok "$name" "$(grep -m1 -E '^BOOT (OK|FAIL)' <<<"$out" | sed 's/ (12s, log .*//' | cut -c1-140)"
	fi
}

verdict good            good.log             0   ok   '^boot=ok tests_pass=3 tests_skip=1 tests_fail=0 secs=12$'
verdict real-tip        real-tip-smp2.log    0   ok   '^boot=ok tests_pass=14 tests_skip=0 tests_fail=0 secs=12$'
verdict booted-again    booted-again.log     0   ok   '^BOOT OK   unit-booted-again: 3 passed, 1 skipped \(12s, booted again after an emulator hang: .*console\.log\.hang1\)'
verdict demo-mode       demo.log             0   ok   '^BOOT OK   unit-demo-mode: 0 passed, 0 skipped'
verdict panic           panic.log            0   fail 'BOOT FAIL unit-panic: console: .*Kernel panic - not syncing'
verdict warning         warning.log          0   fail 'BOOT FAIL unit-warning: console: .*WARNING: CPU: 1'
verdict missing-end     no-end.log           0   fail 'BOOT FAIL unit-missing-end: guest did not finish'
verdict not-ok          not-ok.log           0   fail 'BOOT FAIL unit-not-ok: 1 guest test\(s\) failed: idle_skips \('
verdict not-ok-counts   not-ok.log           0   fail '^boot=fail tests_pass=2 tests_skip=1 tests_fail=1 '
verdict must-fail       must-fail.log        0   fail 'BOOT FAIL .*guest test\(s\) failed: must_fail'
verdict fewer-results   plan-short.log       0   fail 'BOOT FAIL unit-fewer-results: KTAP plan 1\.\.4 but 3 result\(s\)'
verdict more-results    plan-long.log        0   fail 'BOOT FAIL unit-more-results: KTAP plan 1\.\.4 but 5 result\(s\)'
verdict all-skipped     zero-run.log         0   fail 'BOOT FAIL unit-all-skipped: no guest test ran: 0 passed, 3 skipped'
verdict empty-plan      zero-plan.log        0   fail 'BOOT FAIL unit-empty-plan: no guest test ran: 0 passed, 0 skipped'
verdict real-unknown    real-unknown.log     0   fail 'BOOT FAIL unit-real-unknown: 2 guest test\(s\) failed: sleep_sanee \(unknown test\), trace_event \(unknown test\)'
verdict unknown-test    unknown.log          0   fail 'BOOT FAIL unit-unknown-test: 1 guest test\(s\) failed: sleep_sanee \(unknown test\)'
verdict no-plan         no-plan.log          0   fail 'BOOT FAIL unit-no-plan: KTAP results without a plan line'
verdict plan-after      plan-after.log       0   fail 'BOOT FAIL unit-plan-after: KTAP results before the plan line'
verdict no-ktap         no-ktap.log          0   fail 'BOOT FAIL unit-no-ktap: no KTAP plan line \(1\.\.N\) and no results; no guest test ran'
verdict out-of-sequence out-of-sequence.log  0   fail 'BOOT FAIL unit-out-of-sequence: KTAP results out of sequence: result 3 is numbered 2'
verdict two-plans       two-plans.log        0   fail 'BOOT FAIL unit-two-plans: 2 KTAP plan lines, one expected'
verdict timeout         timeout.log          124 fail 'BOOT FAIL unit-timeout: timeout after 300s'
verdict timeout-kill    timeout.log          137 fail 'BOOT FAIL unit-timeout-kill: timeout after 300s'
verdict timeout-good    good.log             124 fail 'BOOT FAIL unit-timeout-good: timeout after 300s'

# ---- plan -------------------------------------------------------------------
# CASE TOP TREE BOOT ok|fail EXPECTED: ok: stdout is EXPECTED exactly;
# fail: plan.sh exits non-zero, prints nothing on stdout, and EXPECTED (an
# extended regex) on stderr.
plan() {
	local name=plan-$1 ptop=$2 tree=$3 boot=$4 expect=$5 exp=$6 out err prc
	want "$name" || return 0
	out=$(TOP=$ptop TREE=$tree WORK=$tmp/work bash "$top/ci/plan.sh" "$boot" 2>"$tmp/err")
	prc=$?
	err=$(cat "$tmp/err")
	if [ "$expect" = ok ]; then
		if [ $prc = 0 ] && [ "$out" = "$exp" ]; then ok "$name" "$boot: $out"
		else fail "$name" "$boot: exit $prc, got '$out', expected '$exp'" "$err"; fi
	else
		if [ $prc != 0 ] && [ -z "$out" ] && grep -qE -- "$exp" <<<"$err"; then ok "$name" "$err"
		else fail "$name" "$boot: exit $prc, stdout '$out', no /$exp/ on stderr" "$err"; fi
	fi
}

# A workbench top with the canned confs; a copy of it for each broken conf.
canned() {	# DIR [LINE...]: DIR/ci with the canned confs, LINEs added to tests.conf
	local d=$1; shift
	mkdir -p "$d/ci"
	cp "$unit/plan/tests.conf" "$unit/plan/boots.conf" "$d/ci/"
	[ $# = 0 ] || printf '%s\n' "$@" >>"$d/ci/tests.conf"
}
canned "$tmp/top"
mkdir -p "$tmp/empty" "$tmp/half/a" "$tmp/full/a" "$tmp/full/b" "$tmp/nox/a"
echo 'int feature_a;' >"$tmp/half/a/feature.c"
printf 'int feature_a;\nint feature_b(x);\n' >"$tmp/full/a/feature.c"
echo '#define gamma_on 1' >"$tmp/full/b/other.h"
echo 'int feature_b;' >"$tmp/nox/a/feature.c"

plan base-tree        "$tmp/top" "$tmp/empty" main  ok 'dt.tests=sleep_sane,multi dt.skip=alpha,beta,gamma'
plan half-tree        "$tmp/top" "$tmp/half"  main  ok 'dt.tests=sleep_sane,alpha,multi dt.skip=beta,gamma'
plan full-tree        "$tmp/top" "$tmp/full"  main  ok 'dt.tests=sleep_sane,alpha,beta,gamma,multi dt.skip='
plan regex-literal    "$tmp/top" "$tmp/nox"   main  ok 'dt.tests=sleep_sane,multi dt.skip=alpha,beta,gamma'
plan unnamed-boot     "$tmp/top" "$tmp/full"  extra ok 'dt.tests=sleep_sane,alpha,beta,gamma dt.skip='
plan own-tests        "$tmp/top" "$tmp/full"  solo  ok 'dt.tests=sleep_sane,delta,eps dt.skip='
plan own-tests-skip   "$tmp/top" "$tmp/empty" solo  ok 'dt.tests=sleep_sane,eps dt.skip=delta'
plan shared-test      "$tmp/top" "$tmp/empty" third ok 'dt.tests=sleep_sane,eps dt.skip='
plan unknown-boot     "$tmp/top" "$tmp/full"  mian  fail "no boot 'mian' in ci/boots.conf"
canned "$tmp/bad-regex" 'zeta          all          a/feature.c:feature_(a'
plan bad-regex        "$tmp/bad-regex" "$tmp/full" main fail "line 11 \(zeta\): invalid regular expression 'feature_\(a'"
canned "$tmp/no-req" 'zeta          all'
plan no-requirement   "$tmp/no-req" "$tmp/full" main fail 'line 11 \(zeta\): expected TEST BOOTS REQUIREMENT'
canned "$tmp/no-colon" 'zeta          all          feature_a'
plan no-colon         "$tmp/no-colon" "$tmp/full" main fail "line 11 \(zeta\): requirement 'feature_a' is not FILE:REGEX"
canned "$tmp/bad-boot" 'zeta          main,sollo   -'
plan unknown-boot-in-tests "$tmp/bad-boot" "$tmp/full" main fail "line 11 \(zeta\): boot 'sollo' is not in ci/boots.conf"

# The real confs. A fake tree at the tip: each file with the text its
# requirement in ci/tests.conf greps for (add one when a requirement is new).
tip=$tmp/tip
mkdir -p "$tip/arch/x86/kernel" "$tip/kernel/time" "$tip/include/trace/events"
echo 'void dyn_tick_idle_halt(void);' >"$tip/arch/x86/kernel/process.c"
printf 'static DEVICE_ATTR_RW(dyn_tick_state);\nstatic struct dyn_tick_stats stats;\nstatic unsigned long dyn_tick_ce_max_skip(void);\n\tif (cpu == tick_do_timer_cpu)\n' >"$tip/kernel/time/dyn-tick.c"
echo 'TRACE_EVENT(skip_end,' >"$tip/include/trace/events/dyn_tick.h"
boots=$(awk '$1 !~ /^(#|$)/ { print $1 }' "$top/ci/boots.conf")
first=$(head -n1 <<<"$boots")
all=$(awk '$1 !~ /^(#|$)/ && $2 == "all" { print $1 }' "$top/ci/tests.conf" | paste -sd, -)
# The tests of a boot that names none: "all", and "smp" with more than one vCPU
common() { awk -v v="$(awk -v b="$1" '$1 == b { print $2 }' "$top/ci/boots.conf")" \
	'$1 !~ /^(#|$)/ && ($2 == "all" || ($2 == "smp" && v > 1)) { print $1 }' "$top/ci/tests.conf" |
	paste -sd, -; }
own() { awk -v b="$1" '$1 !~ /^(#|$)/ && ("," $2 ",") ~ ("," b ",") { print $1 }' "$top/ci/tests.conf"; }
# Before the first patch, the first boot still runs a test (the verdict
# wants one that ran), and everything else skips.
base=$(common "$first")
plan real-base "$top" "$tmp/empty" "$first" ok "dt.tests=sleep_sane dt.skip=${base#sleep_sane,}"
# At the tip every boot runs its tests and nothing skips.
for b in $boots; do
	if [ -n "$(own "$b")" ]; then
		exp="dt.tests=$( (echo sleep_sane; own "$b") | paste -sd, -) dt.skip="
	else
		exp="dt.tests=$(common "$b") dt.skip="
	fi
	plan "real-tip-$b" "$top" "$tip" "$b" ok "$exp"
done

# ---- test names -------------------------------------------------------------
# Every name the confs give to the guest is one the guest knows: an unknown
# name is a failing test in the guest, but here it fails in seconds.
if want names-confs; then
	known=$(sed -n 's/^\t{ "\([a-z_0-9]*\)", t_[a-z_0-9]* },$/\1/p' "$top/ci/guest/init.c")
	std=$(sed -n 's/^std="\(.*\)"$/\1/p' "$top/ci/matrix.sh")
	unknown=()
	[ -n "$known" ] && [ -n "$std" ] || unknown+=("(cannot read the guest's test table or the matrix's std list)")
	while read -r name _; do
		case $name in ''|'#'*) continue ;; esac
		grep -qxF -- "$name" <<<"$known" || unknown+=("ci/tests.conf: $name")
	done <"$top/ci/tests.conf"
	while read -r row _ _ _ tests _; do
		case $row in ''|'#'*) continue ;; esac
		for t in ${tests//,/ }; do
			[ "$t" = std ] && continue
			grep -qxF -- "$t" <<<"$known" || unknown+=("ci/matrix.conf row $row: $t")
		done
	done <"$top/ci/matrix.conf"
	for t in ${std//,/ }; do
		grep -qxF -- "$t" <<<"$known" || unknown+=("ci/matrix.sh std: $t")
	done
	if [ ${#unknown[@]} = 0 ]; then ok names-confs "$(wc -l <<<"$known") guest tests; every name in tests.conf, matrix.conf and std is one"
	else fail names-confs "names the guest does not know: $(printf '%s; ' "${unknown[@]}")"; fi
fi

# The catchers of ci/mutants.conf (if there is one): a catcher the guest
# does not know is a failing test, which ci/mutants.sh would take for a
# killed mutant.
if want names-mutants && [ -r "$top/ci/mutants.conf" ]; then
	known=$(sed -n 's/^\t{ "\([a-z_0-9]*\)", t_[a-z_0-9]* },$/\1/p' "$top/ci/guest/init.c")
	unknown=()
	while IFS= read -r line; do
		mutant=${line%% *} catcher=${line##* | }
		case $catcher in kunit | build) continue ;; esac
		for t in ${catcher//,/ }; do
			grep -qxF -- "$t" <<<"$known" || unknown+=("$mutant: $t")
		done
	done < <(grep -vE '^(#|[[:space:]]*$)' "$top/ci/mutants.conf")
	if [ ${#unknown[@]} = 0 ]; then ok names-mutants "every catcher of ci/mutants.conf is a guest test, kunit or build"
	else fail names-mutants "ci/mutants.conf catchers the guest does not know (their 'not ok ... # unknown test' would count as a kill): $(printf '%s; ' "${unknown[@]}")"; fi
fi

# ---- guest ------------------------------------------------------------------
# ci/guest/init.c compiled for the host with the guest's warnings, inside a
# harness that never calls its main(): its check of the test names, and its
# clock judges on a fake clock.
guest() {	# CASE SOURCE SUMMARY
	local name=$1 src=$unit/$2 out
	want "$name" || return 0
	if ! out=$(gcc -O2 -Wall -Wextra -Werror -o "$tmp/$name" "$src" 2>&1); then
		fail "$name" "ci/unit/$2 does not build" "$out"
	elif out=$("$tmp/$name" 2>&1); then
		ok "$name" "$3 ($(grep -c '^ok' <<<"$out") checks)"
	else
		fail "$name" "$(grep -m1 '^FAIL' <<<"$out")" "$out"
	fi
}
guest guest-names guest_names.c "an unknown name in dt.tests or dt.skip is 'not ok N NAME # unknown test', once"
guest guest-clock guest_clock.c "no jiffies edge is NO DATA and fails its test; an early wake-up fails"
guest guest-runner guest_runner.c "each test in its own process: a crash fails that test alone, the next ones run; two results fail"
guest guest-idle guest_idle.c "idle_skips, jiffies_vs_monotonic and proc_stat_idle, each in its own process, judge one idle window"
guest guest-irqs guest_irqs.c "the benchmark's counts from /proc/interrupts: every kind but ERR and MIS, the IPIs (RES, CAL, TLB), the timer (LOC, IRQ 0)"
guest guest-allidle guest_allidle.c "all_idle: a skip beside a task fails; CPU 0 standing still (its task's clock jumps, no CPU 0 event) is not a task running"
guest guest-clauses guest_clauses.c "a verdict by clauses names each clause that failed, as written; the next result starts anew"
guest guest-timerlist guest_timerlist.c "tick_device's /proc/timer_list: the CPUs whose block names the device, the broadcast device apart"

# ---- hang dump --------------------------------------------------------------
# ci/qemu_dump.py on a canned "info registers -a" answer of two vCPUs: each
# EIP named from a System.map, the nearest text symbol below it; an address
# below every symbol is "?"; IF from EFLAGS bit 9.
if want hang-dump; then
	printf '%s\n' 'c1000000 T _text' 'c11f7060 T native_safe_halt' 'c11f7080 t foo_bar' \
		'c1300000 D some_data' >"$tmp/System.map"
	printf '%s\n' 'CPU#0' 'EAX=00000000 EBX=00000000 ECX=00000000 EDX=cfccca3c' \
		'EIP=c11f7072 EFL=00200246 [---Z-P-] CPL=0 II=0 A20=1 SMM=0 HLT=1' \
		'CPU#1' 'EIP=c11f7085 EFL=00000046 [---Z-P-] CPL=0 II=0 A20=1 SMM=0 HLT=0' \
		'CPU#2' 'EIP=00001000 EFL=00000002 [-------] CPL=0 II=0 A20=1 SMM=0 HLT=0' >"$tmp/regs"
	want_out=$(printf '%s\n' 'HANG cpu0: EIP c11f7072 native_safe_halt+0x12, IF 1, HLT 1' \
		'HANG cpu1: EIP c11f7085 foo_bar+0x5, IF 0, HLT 0' 'HANG cpu2: EIP 00001000 ?, IF 0, HLT 0')
	out=$(python3 "$top/ci/qemu_dump.py" --parse "$tmp/regs" "$tmp/System.map" 2>&1)
	if [ "$out" = "$want_out" ]; then ok hang-dump "3 vCPUs, EIPs named, IF and HLT read"
	else fail hang-dump "unexpected summary" "$out"; fi
fi

# ci/qemu_dump.py --race on real dumps (ci/unit/dump/): int3-race.log, the
# hang of a Debian boot on 2 vCPUs (both trapping on an INT3 at
# sched_clock_tick+0 that memory no longer held, bp_desc refs 0), and
# idle-hang.log, the harness self-test's guest waiting in its shell (one
# vCPU halted in do_idle); and on int3-race.log with one fact changed each,
# each of which makes it a hang of the guest's own that must not be booted
# again.
race() {	# CASE yes|no SED_EXPRESSION [LOG]
	local name=race-$1 expect=$2 out rc
	want "$name" || return 0
	sed -e "$3" "$unit/dump/${4:-int3-race.log}" >"$tmp/dump.log"
	out=$(python3 "$top/ci/qemu_dump.py" --race "$tmp/dump.log" 2>&1)
	rc=$?
	if { [ "$expect" = yes ] && [ $rc = 0 ]; } || { [ "$expect" = no ] && [ $rc = 1 ]; }; then
		ok "$name" "$(cut -c1-150 <<<"$out")"
	else
		fail "$name" "want $expect (exit $rc)" "$out"
	fi
}
race int3-stale   yes ''
race idle         no  '' idle-hang.log
race poke-busy    no  '/bp_desc/s/ 0x0$/ 0x1/'
# the INT3 still in memory at c10cf450, in every code line that shows it
race int3-present no  's/\(c10cf44c: \(0x.. \)\{4\}\)0x89/\10xcc/; s/\(c10cf44d: \(0x.. \)\{3\}\)0x89/\10xcc/'
race irqs-on      no  '/^HANG cpu[01]:/s/IF 0, HLT 0$/IF 1, HLT 0/'
race no-bp-desc   no  '/bp_desc/d'

# ---- warnings -------------------------------------------------------------
# lib.sh's warning_lines on a canned build log (TREE=/src/linux): the forms
# the compiler, sparse and kernel-doc print a path in, made relative to the
# tree, without line and column numbers, sorted; other lines dropped, and
# a log without any is no error (set -e: the pass would fail). And
# new_lines: only what the commit adds counts, code that moved does not,
# and a missing reference is an error.
warnings() {	# CASE EXPECTED-OUTPUT (stdin: the canned log)
	local name=warn-$1 out rc=0
	want "$name" || return 0
	out=$(TOP=$top TREE=/src/linux bash -c 'source "$TOP/ci/lib.sh"; warning_lines' 2>&1) || rc=$?
	if [ $rc = 0 ] && [ "$out" = "$2" ]; then ok "$name" "$(grep -c . <<<"$out") line(s)"
	else fail "$name" "exit $rc, or other lines than expected" "$out"; fi
}
warnings forms "kernel/time/dyn-tick.c: error: expected ';'
kernel/time/dyn-tick.c: warning: Function parameter or member 'cpu' not described in 'dyn_tick_kick'
kernel/time/dyn-tick.c: warning: no previous prototype for 'f' [-Wmissing-prototypes]
kernel/time/dyn-tick.c: warning: symbol 'x' was not declared. Should it be static?" <<'LOG'
  CC      kernel/time/dyn-tick.o
/src/linux/kernel/time/dyn-tick.c:120:6: warning: no previous prototype for 'f' [-Wmissing-prototypes]
../linux/kernel/time/dyn-tick.c:88:15: warning: symbol 'x' was not declared. Should it be static?
kernel/time/dyn-tick.c:301: warning: Function parameter or member 'cpu' not described in 'dyn_tick_kick'
kernel/time/dyn-tick.c:77:1: error: expected ';'
  120 | void f(void)
make[2]: *** [scripts/Makefile.build:250: kernel/time/dyn-tick.o] Error 1
LOG
warnings none "" <<'LOG'
  CC      kernel/time/dyn-tick.o
  LD      vmlinux
LOG
newlines() {	# CASE OLD NEW EXPECTED [fail]
	local name=warn-$1 out rc=0
	want "$name" || return 0
	printf '%b' "$2" >"$tmp/old.txt"
	printf '%b' "$3" >"$tmp/new.txt"
	[ "${5:-}" != missing ] || rm -f "$tmp/old.txt"
	out=$(TOP=$top bash -c 'source "$TOP/ci/lib.sh"; new_lines "$1" "$2"' _ "$tmp/old.txt" "$tmp/new.txt" 2>&1) || rc=$?
	if [ "${5:-}" = missing ]; then
		if [ $rc != 0 ] && grep -q "no warnings file .*old.txt" <<<"$out"; then ok "$name" "$out"
		else fail "$name" "a missing reference passed (exit $rc)" "$out"; fi
	elif [ $rc = 0 ] && [ "$out" = "$4" ]; then ok "$name" "${out:-no new warning}"
	else fail "$name" "exit $rc, got '$out', want '$4'" "$out"; fi
}
newlines added   'a.c: warning: x\n' 'a.c: warning: x\na.c: warning: y\n' 'a.c: warning: y'
newlines removed 'a.c: warning: x\na.c: warning: y\n' 'a.c: warning: y\n' ''
newlines same    'a.c: warning: x\n' 'a.c: warning: x\n' ''
newlines missing '' 'a.c: warning: x\n' '' missing

# ---- check report -----------------------------------------------------------
# ci/checks/report.sh on results files written here (lib.sh's format): the
# totals add each line's count, every FAIL is listed, the table has one row
# per commit file with its cells ("-" for a missing one), and the exit
# status follows the failures; no results at all is a failure.
report() {	# CASE DIR 0|1 PATTERN...: exit status, and each PATTERN in the output
	local name=report-$1 dir=$2 want_rc=$3 out rc p
	shift 3
	want "$name" || return 0
	rc=0
	out=$(TOP=$top bash "$top/ci/checks/report.sh" "$dir" 2>&1) || rc=$?
	[ "$rc" = "$want_rc" ] || { fail "$name" "exit $rc, want $want_rc" "$out"; return; }
	for p in "$@"; do
		grep -qE -- "$p" <<<"$out" || { fail "$name" "no /$p/ in the report" "$out"; return; }
	done
	ok "$name" "$(tail -n1 <<<"$out")"
}
r=$tmp/results
mkdir -p "$r/run" "$r/clean" "$r/empty"
printf 'time\tdeps\t3\ntime\ttree\t40\nok\t1\tmeta one\nFAIL\t1\tmeta two\nok\t1\tmail round trip\n' >"$r/run/series"
printf 'time\tbuild\t100\n' >"$r/run/00"
printf 'ok\t1\tcheckpatch 0001\ncell\tcheckpatch\tok\ncell\tcommit\tfirst patch\nok\t1\t[1] build on\ncell\tbuild on\tok\ncell\tbuild off\tok\nskip\t1\t[1] boot smp2: guest tests skipped\nok\t4\t[1] boot smp2: guest tests passed\ncell\ttests\t4/1/0\ntime\tbuild\t20\n' >"$r/run/01"
printf 'cell\tcommit\tsecond patch\nok\t18\t[2] boot smp2: guest tests passed\nFAIL\t2\t[2] boot smp2: 2 guest test(s) failed (log x)\ncell\tboots\tsmp2:FAIL \ncell\tkunit\tFAIL\ntime\tboot\t90\n' >"$r/run/02"
report totals "$r/run" 1 '^26 passed, 3 failed, 1 skipped$' '^  meta two$' \
	'^  \[2\] boot smp2: 2 guest test\(s\) failed \(log x\)$' 'Time: build 120s  boot 90s  deps 3s  tree 40s'
report table "$r/run" 1 '^1 +first patch +ok +ok +ok +- +- +- +4/1/0 +-$' '^2 +second patch +- +- +- +- +- +smp2:FAIL +- +FAIL$'
printf 'ok\t3\ta\ncell\tcommit\tonly\n' >"$r/clean/01"
report clean "$r/clean" 0 '^3 passed, 0 failed, 0 skipped$'
report empty "$r/empty" 1 'no results in .*: nothing was checked' '^0 passed, 1 failed, 0 skipped$'

# lib.sh's tool_results: one result per "TOOL ok/FAIL" line of a tool's
# output (ci/meta.sh, ci/selftest.sh), and a tool that failed without
# naming a failure is a failure of its own.
tool_results_case() {	# CASE RC OUTPUT EXPECTED-RESULTS
	local name=report-tool-$1 got
	want "$name" || return 0
	: >"$tmp/tool.res"
	TOP=$top bash -c 'source "$TOP/ci/lib.sh"; tool_results "$1" meta "$2" "" <<<"$3"' _ \
		"$tmp/tool.res" "$2" "$3" 2>/dev/null
	got=$(cat "$tmp/tool.res")
	if [ "$got" = "$(printf '%b' "$4")" ]; then ok "$name" "$(grep -c . <<<"$got") result(s)"
	else fail "$name" "other results than expected" "$got"; fi
}
tool_results_case lines   1 "meta ok   a: fine
meta FAIL b: unsigned
other line"                    'ok\t1\ta: fine\nFAIL\t1\tb: unsigned'
tool_results_case unnamed 2 "meta ok   a: fine" 'ok\t1\ta: fine\nFAIL\t1\tci/meta.sh exited with 2 and named no failure'

# ---- host clock ---------------------------------------------------------------
# ci/checks/hostclock.sh on console lines written here: the guest's realtime
# clock against the host's marks, within 100 ms, for the row's tests only.
hostclock() {	# CASE TESTS GUEST_NS|- 0|1 PATTERN
	local name=hostclock-$1 out rc
	want "$name" || return 0
	printf 'HOSTCLOCK longidle-start 5000000000\nHOSTCLOCK longidle-end 125000000000\n' >"$tmp/hc.log"
	[ "$3" = - ] || echo "LONGIDLE realtime_ns $3" >>"$tmp/hc.log"
	rc=0
	out=$(TOP=$top bash "$top/ci/checks/hostclock.sh" "$tmp/hc.log" "$2" 2>&1) || rc=$?
	if [ "$rc" = "$4" ] && grep -qE -- "$5" <<<"$out"; then ok "$name" "$out"
	else fail "$name" "exit $rc (want $4), no /$5/" "$out"; fi
}
hostclock close   sleep_sane,long_idle 120050000000 0 '^; long_idle: guest realtime vs host clock 50\.0 ms \(limit 100\)$'
hostclock off     long_idle            119800000000 1 'long_idle: guest realtime vs host clock 200\.0 ms'
hostclock no-line long_idle            -            1 'no host clock marks for long_idle'
hostclock no-mark suspend_idle         120000000000 1 'no host clock marks for suspend_idle'
hostclock other   sleep_sane           -            0 '^$'
hostclock below-1 long_idle            119999200000 0 'vs host clock 0\.8 ms'

# ---- wake-up tally ----------------------------------------------------------
# ci/wakes.py --tally on a canned trace (ci/unit/wakes/pit.log, with a
# System.map of its timer functions): only the timer interrupts between the
# two window markers count (not the serial port's, not those before or
# after), each named by the skip it ended or "tick", and by the timers that
# expired before the next one.
wakes() {	# CASE LOG EXPECTED-OUTPUT
	local name=wakes-$1 out
	want "$name" || return 0
	out=$(python3 "$top/ci/wakes.py" --tally "$2" --map "$unit/wakes/System.map" 2>&1)
	if [ "$out" = "$3" ]; then ok "$name" "$(head -n1 <<<"$out")"
	else fail "$name" "other tally than expected" "$out"; fi
}
wakes tally "$unit/wakes/pit.log" "irqs 9 window 1.000
3 tick, no skip ended | -
2 skip ended: max_skip | -
1 skip ended: max_skip | delayed_work_timer_fn
1 skip ended: timer | clocksource_watchdog
1 skip ended: timer | hrtimer_wakeup
1 tick, no skip ended | mix_interrupt_randomness"
if want wakes-no-end; then
	sed '/WAKES-WINDOW-END/d' "$unit/wakes/pit.log" >"$tmp/wakes-no-end.log"
fi
wakes no-end "$tmp/wakes-no-end.log" "irqs 0 window 0.000"

echo "$passed passed, $failed failed"
[ $failed = 0 ]
