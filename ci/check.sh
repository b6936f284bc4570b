#!/usr/bin/env bash
# The full check (make check; the README's test command runs it first):
# apply the series to a fresh base, then one small script per check
# (ci/checks/), each writing its results to a file (lib.sh: result, cell):
#   series   checkpatch of every patch (into its commit's file), the
#            series as mail (meta)
#   00       the base: build, the reference warnings and htmldocs
#   NN       each commit, oldest first: build with NO_IDLE_HZ on and off,
#            W=1/sparse/kernel-doc and htmldocs warnings against the
#            parent, the guest boots (the first of ci/boots.conf; the tip
#            all of them, every test of their plans), KUnit
#   series   the harness self-test, the mail round trip
# ci/checks/report.sh then prints the per-commit table and ends with
# "N passed, N failed, N skipped", from the files in $LOGDIR/results alone.
source "$(dirname "$0")/lib.sh"
# Traps for INT, TERM, HUP and EXIT (lib.sh: guard): an interrupted check
# puts the tree back on the ref it had (it checks out every commit in turn),
# kills the QEMUs it started and removes its run directory.
guard "$@"

R=$LOGDIR/results
S=$R/series
mkdir -p "$LOGDIR"
# Nothing of an earlier run is reused: its results and warnings go.
rm -rf "$R" "$LOGDIR"/warn-*.txt "$LOGDIR"/docs-*.txt
mkdir -p "$R"
T0=$(date +%s)

report() { exec bash "$TOP/ci/checks/report.sh" "$R" "$T0"; }
timed() {	# FILE KEY COMMAND...: COMMAND's time into FILE
	local f=$1 k=$2 t rc=0
	shift 2
	t=$(date +%s)
	"$@" || rc=$?
	printf 'time\t%s\t%s\n' "$k" "$(($(date +%s) - t))" >>"$f"
	return $rc
}
# check FILE KEY NAME ARGS...: ci/checks/NAME.sh ARGS. A check writes its
# own results and exits 0, or 3 (STOP) when nothing after it can be judged
# (it wrote why). Any other exit (set -e, die) is a failure recorded here,
# and the run goes on.
check() {
	local f=$1 k=$2 c=$3 rc=0
	shift 3
	timed "$f" "$k" bash "$TOP/ci/checks/$c.sh" "$@" || rc=$?
	case $rc in
	0) ;;
	"$STOP") report ;;
	*) result "$f" FAIL 1 "check $c ($*) ended with exit $rc" ;;
	esac
}

timed "$S" deps bash "$TOP/ci/deps.sh" || { result "$S" FAIL 1 "deps: installation failed"; report; }
rc=0
timed "$S" tree bash "$TOP/ci/tree.sh" 2>"$LOGDIR/tree.log" || rc=$?
cat "$LOGDIR/tree.log" >&2
[ $rc = 0 ] || { result "$S" FAIL 1 "the series does not apply (make tree)"; report; }

check "$S" checkpatch checkpatch "$R"
check "$S" checkpatch meta "$S"
check "$S" checkpatch mutants "$S"
timed "$S" guest bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null ||
	{ result "$S" FAIL 1 "the guest userland does not build"; report; }

cd "$TREE" || exit 1
tip=$(git rev-parse series)
# Warnings are judged against the parent commit: start with the base.
files=$(git diff --name-only "$(base_commit)..series" -- '*.c' | paste -sd' ' -)
git checkout -q "$(base_commit)"
say "=== [0] base: build and reference warnings of: $files"
check "$R/00" build build "$R/00" 0
# shellcheck disable=SC2086 # the file list, one argument each
check "$R/00" warn warnings "$R/00" 0 $files
check "$R/00" warn docs "$R/00" 0
i=0
for c in $(git rev-list --reverse "$(base_commit)..series"); do
	i=$((i + 1))
	f=$R/$(printf '%02d' $i)
	git checkout -q "$c"
	say ""
	say "=== [$i] $(git log -1 --format='%h %s' "$c")"
	cell "$f" commit "$(git log -1 --format=%s "$c" | cut -c1-50)"
	at=commit
	[ "$c" != "$tip" ] || at=tip
	check "$f" build build "$f" $i
	# shellcheck disable=SC2086
	check "$f" warn warnings "$f" $i $files
	check "$f" warn docs "$f" $i
	check "$f" boot boots "$f" $i $at
	check "$f" kunit kunit "$f" $i
done
git checkout -q series

say ""
say "=== harness self-test"
check "$S" selftest selftest "$S"
say ""
say "=== mail round trip"
check "$S" send send "$S"
report
