#!/usr/bin/env bash
# make retest: the loop after an edit. Build the kernel worktree as it is
# (uncommitted edits included; nothing is reset, checked out or applied)
# with the feature on, boot every boot of ci/boots.conf with its full test
# plan as the tip gets it (ci/checks/boots.sh), and run the KUnit suite
# where the tree has it (ci/checks/kunit.sh). Ends with "N passed,
# N failed, N skipped" (ci/checks/report.sh); exits non-zero on any
# failure. The tree is left exactly as it was found: the guest tests and
# the kernel build write only under $WORK.
source "$(dirname "$0")/lib.sh"
guard "$@"

[ -d "$TREE/.git" ] || die "retest: no kernel worktree at $TREE: run make tree first"
R=$LOGDIR/retest-results
f=$R/retest
mkdir -p "$LOGDIR"
rm -rf "$R"
mkdir -p "$R"

desc="$(git -C "$TREE" log -1 --format='%h %s')"
edits=$(git -C "$TREE" status --porcelain --untracked-files=no | wc -l)
say "retest: $TREE at $desc, $edits file(s) with uncommitted edits"

bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null || die "retest: the guest userland does not build"
log=$LOGDIR/retest-build.log
say "retest: building with NO_IDLE_HZ=y in $WORK/build-on (log $log)"
if bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on >"$log" 2>&1; then
	result "$f" ok 1 "[retest] build with NO_IDLE_HZ=y"
	cell "$f" "build on" ok
	grep -E 'warning:' "$log" >&2 || true
else
	tail -n 30 "$log" >&2
	result "$f" FAIL 1 "[retest] build with NO_IDLE_HZ=y (log $log)"
	exec bash "$TOP/ci/checks/report.sh" "$R"
fi
# A check that ends without its results (set -e, die) is a failure too
rc=0
bash "$TOP/ci/checks/boots.sh" "$f" retest tip || rc=$?
[ $rc = 0 ] || result "$f" FAIL 1 "[retest] check boots ended with exit $rc"
rc=0
bash "$TOP/ci/checks/kunit.sh" "$f" retest || rc=$?
[ $rc = 0 ] || result "$f" FAIL 1 "[retest] check kunit ended with exit $rc"
exec bash "$TOP/ci/checks/report.sh" "$R"
