#!/usr/bin/env bash
# The full check (the README's test command): apply the series to a fresh
# base, checkpatch every patch, then for every commit oldest first build
# with NO_IDLE_HZ on and off, boot the feature-on kernel and run the guest
# tests that apply at that commit; then the harness self-test. Ends with
# "N passed, N failed, N skipped".
source "$(dirname "$0")/lib.sh"
# Traps for INT, TERM, HUP and EXIT (lib.sh: guard): an interrupted check
# puts the tree back on the ref it had (it checks out every commit in turn),
# kills the QEMUs it started and removes its run directory.
guard "$@"
set +e

mkdir -p "$LOGDIR"
# The warnings of an earlier run are no reference for this one
rm -f "$LOGDIR"/warn-*.txt "$LOGDIR"/docs-*.txt
passed=0 failed=0 skipped=0
failures=()
declare -A secs=()
rows=()

ok()   { passed=$((passed + 1)); }
bad()  { failed=$((failed + 1)); failures+=("$1"); say "FAIL: $1"; }
now()  { date +%s; }
timed() { local k=$1 t; shift; t=$(now); "$@"; local rc=$?; secs[$k]=$(( ${secs[$k]:-0} + $(now) - t )); return $rc; }
finish() {
	say ""
	say "Per-commit summary"
	printf '%s\n' "${rows[@]}" | column -t -s '|' >&2
	say ""
	say "Time: $(for k in deps tree checkpatch guest build warn boot kunit selftest send; do printf '%s %ss  ' "$k" "${secs[$k]:-0}"; done)total $(( $(now) - T0 ))s"
	if [ ${#failures[@]} -gt 0 ]; then
		say "Failures:"
		printf '  %s\n' "${failures[@]}" >&2
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
	exit $?
}

T0=$(now)
timed deps bash "$TOP/ci/deps.sh" || { bad "deps: installation failed"; finish; }
if ! timed tree bash "$TOP/ci/tree.sh" 2>"$LOGDIR/tree.log"; then
	cat "$LOGDIR/tree.log" >&2
	bad "series does not apply"
	finish
fi
cat "$LOGDIR/tree.log" >&2

declare -A cp=()
i=0
for p in $(series_patches); do
	i=$((i + 1))
	if timed checkpatch bash "$TOP/ci/checkpatch.sh" "$p"; then ok; cp[$i]=ok
	else bad "checkpatch $(basename "$p")"; cp[$i]=FAIL; fi
done

meta=$(timed checkpatch bash "$TOP/ci/meta.sh")
printf '%s\n' "$meta" | sed 's/^/  /' >&2
passed=$((passed + $(printf '%s\n' "$meta" | grep -c '^meta ok')))
while IFS= read -r l; do bad "${l#meta FAIL }"; done < <(printf '%s\n' "$meta" | grep '^meta FAIL')

timed guest bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null || { bad "guest userland does not build"; finish; }

cd "$TREE" || exit 1
tip=$(git rev-parse series)
commits=$(git rev-list --reverse "$(base_commit)..series")
rows+=("#|commit|checkpatch|build on|build off|new warnings (W=1, sparse, kernel-doc; htmldocs)|boots|guest tests (pass/skip/fail)|KUnit")

# Warnings are judged against the parent commit: start with the base.
files=$(git diff --name-only "$(base_commit)..series" -- '*.c' | paste -sd' ' -)
git checkout -q "$(base_commit)"
say "=== [0] base: build and reference warnings of: $files"
for kind in on off; do
	# The base has no NO_IDLE_HZ: its on and off configurations are the
	# same (2.5 minutes of ccache hits saved on a new machine).
	[ $kind = on ] || seed_build "$WORK/build-on" "$WORK/build-off"
	if ! timed build bash "$TOP/ci/build.sh" "$WORK/build-$kind" base "dyntick-$kind" >"$LOGDIR/build-0-$kind.log" 2>&1; then
		tail -n 20 "$LOGDIR/build-0-$kind.log" >&2
		bad "[0] the base does not build ($kind)"
		finish
	fi
	timed warn bash "$TOP/ci/warnings.sh" "$WORK/build-$kind" $files >"$LOGDIR/warn-0-$kind.txt" ||
		bad "[0] warnings pass failed ($kind)"
done
if ! timed warn bash "$TOP/ci/docs.sh" "$WORK/docs" >"$LOGDIR/docs-0.txt"; then
	rm -f "$LOGDIR/docs-0.txt"
	bad "[0] the base's documentation does not build (make SPHINXDIRS=timers htmldocs)"
fi
first_boot=$(grep -vE '^(#|$)' "$TOP/ci/boots.conf" | head -n1 | awk '{print $1}')
hz=1000
i=0
for c in $commits; do
	i=$((i + 1))
	git checkout -q "$c"
	subj=$(git log -1 --format=%s "$c" | cut -c1-50)
	say ""
	say "=== [$i] $(git log -1 --format='%h %s' "$c")"
	on=ok off=ok boots="" tp=0 ts=0 tf=0
	if timed build bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on >"$LOGDIR/build-$i-on.log" 2>&1; then ok
	else on=FAIL; bad "[$i] build with NO_IDLE_HZ=y (log $LOGDIR/build-$i-on.log)"; tail -n 20 "$LOGDIR/build-$i-on.log" >&2; fi
	if timed build bash "$TOP/ci/build.sh" "$WORK/build-off" base dyntick-off >"$LOGDIR/build-$i-off.log" 2>&1; then ok
	else off=FAIL; bad "[$i] build with NO_IDLE_HZ=n (log $LOGDIR/build-$i-off.log)"; tail -n 20 "$LOGDIR/build-$i-off.log" >&2; fi
	grep -E 'warning:' "$LOGDIR/build-$i-on.log" "$LOGDIR/build-$i-off.log" >&2
	warn=""
	for kind in on off; do
		[ "${!kind}" = ok ] || continue
		if ! timed warn bash "$TOP/ci/warnings.sh" "$WORK/build-$kind" $files >"$LOGDIR/warn-$i-$kind.txt"; then
			rm -f "$LOGDIR/warn-$i-$kind.txt"
			bad "[$i] W=1/sparse/kernel-doc pass failed ($kind)"; warn+="$kind:FAIL "; continue
		fi
		if ! new=$(new_lines "$LOGDIR/warn-$((i - 1))-$kind.txt" "$LOGDIR/warn-$i-$kind.txt"); then
			bad "[$i] no reference for the warnings with NO_IDLE_HZ=$([ $kind = on ] && echo y || echo n): $new"
			warn+="$kind:FAIL "
		elif [ -n "$new" ]; then
			n=$(printf '%s\n' "$new" | wc -l)
			bad "[$i] $n new warning(s) with NO_IDLE_HZ=$([ $kind = on ] && echo y || echo n) against the parent"
			printf '%s\n' "$new" | sed 's/^/    + /' >&2
			warn+="$kind:+$n "
		else
			ok; warn+="$kind:0 "
		fi
	done
	# The documentation, as make SPHINXDIRS=timers htmldocs builds it
	if ! timed warn bash "$TOP/ci/docs.sh" "$WORK/docs" >"$LOGDIR/docs-$i.txt"; then
		rm -f "$LOGDIR/docs-$i.txt"
		bad "[$i] the documentation does not build (make SPHINXDIRS=timers htmldocs)"; warn+="docs:FAIL "
	elif ! new=$(new_lines "$LOGDIR/docs-$((i - 1)).txt" "$LOGDIR/docs-$i.txt"); then
		bad "[$i] no reference for the documentation's warnings: $new"; warn+="docs:FAIL "
	elif [ -n "$new" ]; then
		bad "[$i] $(printf '%s\n' "$new" | wc -l) new htmldocs warning(s) against the parent"
		printf '%s\n' "$new" | sed 's/^/    + /' >&2
		warn+="docs:+$(printf '%s\n' "$new" | wc -l) "
	else
		ok; warn+="docs:0 "
	fi

	if [ $on = ok ]; then
		hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-on/.config")
		idle=5
		[ "$c" = "$tip" ] && idle=20
		while read -r name vcpus args; do
			case $name in ''|'#'*) continue ;; esac
			[ "$c" = "$tip" ] || [ "$name" = "$first_boot" ] || continue
			t=$(now)
			if ! run_boot "$name" "$vcpus" "$args" "$WORK/build-on/arch/x86/boot/bzImage" \
				"$LOGDIR/boot-$i-$name.log" "$hz" "$idle"; then
				bad "[$i] no test plan for boot $name (ci/plan.sh, ci/tests.conf)"
				boots+="$name:FAIL "
				continue
			fi
			secs[boot]=$(( ${secs[boot]:-0} + $(now) - t ))
			plan=$boot_plan rc=$boot_rc
			tp=$((tp + tests_pass)) ts=$((ts + tests_skip)) tf=$((tf + tests_fail))
			passed=$((passed + tests_pass)) skipped=$((skipped + tests_skip))
			failed=$((failed + tests_fail))
			# At the tip every test of the plan runs: a test that skips
			# there (a renamed symbol in its requirement) tests nothing.
			if [ "$c" = "$tip" ] && [ "$tests_skip" != 0 ]; then
				bad "[$i] boot $name: $tests_skip guest test(s) skipped at the tip, where all must run: $plan"
			fi
			if [ $rc = 0 ]; then ok; boots+="$name:ok "
			else
				boots+="$name:FAIL "
				if [ "$tests_fail" = 0 ]; then bad "[$i] boot $name (log $LOGDIR/boot-$i-$name.log)"
				else failures+=("[$i] boot $name: $tests_fail guest test(s) failed (log $LOGDIR/boot-$i-$name.log)"); fi
			fi
		done <"$TOP/ci/boots.conf"
	else
		boots="not booted"
	fi
	# The KUnit suite, with the tree's kunit.py, where the commit has it
	ku="-"
	if grep -qs DYN_TICK_KUNIT_TEST kernel/time/.kunitconfig; then
		if timed kunit bash "$TOP/ci/kunit.sh" "$LOGDIR/kunit-$i.log" >&2; then ok; ku=ok
		else ku=FAIL; bad "[$i] KUnit suite (log $LOGDIR/kunit-$i.log)"; fi
	fi
	rows+=("$i|$subj|${cp[$i]:-?}|$on|$off|${warn:-n/a}|$boots|$tp/$ts/$tf|$ku")
done
git checkout -q series

say ""
say "=== harness self-test"
t=$(now)
st=$(bash "$TOP/ci/selftest.sh")
st_rc=$?
secs[selftest]=$(( $(now) - t ))
printf '%s\n' "$st" | grep -E '^selftest' >&2
sp=$(printf '%s\n' "$st" | grep -c '^selftest ok' )
sf=$(printf '%s\n' "$st" | grep -c '^selftest FAIL' )
passed=$((passed + sp)) failed=$((failed + sf))
[ $st_rc = 0 ] || [ "$sf" != 0 ] || bad "selftest exited with $st_rc"
[ "$sf" = 0 ] || failures+=("harness self-test: $sf case(s) not caught")

say ""
say "=== mail round trip"
if timed send bash "$TOP/ci/send.sh" >&2; then ok; else bad "mail round trip (make send)"; fi
finish
