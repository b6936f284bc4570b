#!/usr/bin/env bash
# The README's test command: the unit tests of the workbench's judges
# (ci/unit/run.sh, seconds, no kernel), the per-commit check (ci/check.sh),
# then the robustness matrix at the tip (ci/matrix.sh), then random
# configurations at the tip (ci/randconfig.sh). Ends with the sum of all
# four: "N passed, N failed, N skipped". A failing unit test is counted
# and the rest still runs.
source "$(dirname "$0")/lib.sh"

mkdir -p "$LOGDIR"
# The packages first: the unit tests already need some of them.
bash "$TOP/ci/deps.sh" || say "test: installing the packages failed; the check will say what is missing"
# part VAR NAME SCRIPT: run ci/SCRIPT, its output also into
# $LOGDIR/NAME.out; its exit status (pipefail: the script's, as tee does
# not fail) in part_rc, its last "N passed, N failed" line in VAR.
part() {
	part_rc=0
	bash "$TOP/ci/$3" 2>&1 | tee "$LOGDIR/$2.out" || part_rc=$?
	printf -v "$1" '%s' "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGDIR/$2.out" | tail -n1 || true)"
}
part u unit unit/run.sh
urc=$part_rc
part c check check.sh
part m matrix matrix.sh
part r randconfig randconfig.sh

num() { printf '%s' "$1" | grep -oE "[0-9]+ $2" | grep -oE '^[0-9]+' || echo 0; }
p=$(( $(num "$u" passed) + $(num "$c" passed) + $(num "$m" passed) + $(num "$r" passed) ))
f=$(( $(num "$u" failed) + $(num "$c" failed) + $(num "$m" failed) + $(num "$r" failed) ))
s=$(num "$c" skipped)
if [ -z "$u" ]; then
	f=$((f + 1)); say "test: the unit tests (ci/unit/run.sh) did not finish, exit $urc"
elif [ "$(num "$u" failed)" != 0 ]; then
	say "test: $(num "$u" failed) unit test(s) of the workbench failed (the 'unit FAIL' lines of $LOGDIR/unit.out)"
elif [ "$urc" != 0 ]; then
	f=$((f + 1)); say "test: ci/unit/run.sh exited with $urc after '$u'"
fi
[ -n "$c" ] || { f=$((f + 1)); say "test: the check did not finish"; }
[ -n "$m" ] || { f=$((f + 1)); say "test: the matrix did not finish"; }
[ -n "$r" ] || { f=$((f + 1)); say "test: the random configurations did not finish"; }
echo
echo "$p passed, $f failed, $s skipped"
[ $f = 0 ]
