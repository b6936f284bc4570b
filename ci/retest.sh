#!/usr/bin/env bash
# make retest: the loop after an edit. Build the kernel worktree as it is
# (uncommitted edits included; nothing is reset, checked out or applied)
# with the feature on, boot every boot of ci/boots.conf with its full test
# plan as the tip gets it, and run the KUnit suite where the tree has it.
# Ends with "N passed, N failed, N skipped"; exits non-zero on any failure.
# The tree is left exactly as it was found: the guest tests and the kernel
# build write only under $WORK.
source "$(dirname "$0")/lib.sh"
guard "$@"
set +e

[ -d "$TREE/.git" ] || die "retest: no kernel worktree at $TREE: run make tree first"
mkdir -p "$LOGDIR"
passed=0 failed=0 skipped=0
failures=()
bad() { failed=$((failed + 1)); failures+=("$1"); say "FAIL: $1"; }

cd "$TREE" || exit 1
desc="$(git log -1 --format='%h %s')"
edits=$(git status --porcelain --untracked-files=no | wc -l)
say "retest: $TREE at $desc, $edits file(s) with uncommitted edits"

bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null || die "retest: the guest userland does not build"
say "retest: building with NO_IDLE_HZ=y in $WORK/build-on (log $LOGDIR/retest-build.log)"
if ! bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on >"$LOGDIR/retest-build.log" 2>&1; then
	tail -n 30 "$LOGDIR/retest-build.log" >&2
	bad "build with NO_IDLE_HZ=y (log $LOGDIR/retest-build.log)"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi
passed=$((passed + 1))
grep -E 'warning:' "$LOGDIR/retest-build.log" >&2
hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-on/.config")

while read -r name vcpus args; do
	case $name in ''|'#'*) continue ;; esac
	say ""
	say "=== boot $name: $vcpus vCPU(s) ${args#-}"
	log="$LOGDIR/retest-$name.log"
	if ! run_boot "$name" "$vcpus" "$args" "$WORK/build-on/arch/x86/boot/bzImage" "$log" "$hz" 20; then
		bad "no test plan for boot $name (ci/plan.sh, ci/tests.conf)"
		continue
	fi
	plan=$boot_plan rc=$boot_rc tp=$tests_pass ts=$tests_skip tf=$tests_fail
	passed=$((passed + tp)) skipped=$((skipped + ts)) failed=$((failed + tf))
	[ "$ts" = 0 ] || bad "boot $name: $ts guest test(s) skipped, where the tip runs them all: $plan"
	if [ $rc = 0 ]; then
		passed=$((passed + 1))
	elif [ "$tf" = 0 ]; then
		bad "boot $name (log $log)"
	else
		failures+=("boot $name: $tf guest test(s) failed (log $log)")
	fi
done <"$TOP/ci/boots.conf"

if grep -qs DYN_TICK_KUNIT_TEST kernel/time/.kunitconfig; then
	say ""
	say "=== KUnit"
	if bash "$TOP/ci/kunit.sh" "$LOGDIR/retest-kunit.log" >&2; then passed=$((passed + 1))
	else bad "KUnit suite (log $LOGDIR/retest-kunit.log)"; fi
fi

if [ ${#failures[@]} -gt 0 ]; then
	say ""
	say "Failures:"
	printf '  %s\n' "${failures[@]}" >&2
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
