#!/usr/bin/env bash
# The README's test command: the unit tests of the workbench's judges
# (ci/unit/run.sh, seconds, no kernel), the per-commit check (ci/check.sh),
# then the robustness matrix at the tip (ci/matrix.sh), then random
# configurations at the tip (ci/randconfig.sh). Ends with the sum of all
# four: "N passed, N failed, N skipped". A failing unit test is counted
# and the rest still runs.
source "$(dirname "$0")/lib.sh"
set +e

mkdir -p "$LOGDIR"
# The packages first: the unit tests already need some of them.
bash "$TOP/ci/deps.sh" || say "test: installing the packages failed; the check will say what is missing"
bash "$TOP/ci/unit/run.sh" 2>&1 | tee "$LOGDIR/unit.out"
urc=${PIPESTATUS[0]}
u=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOGDIR/unit.out" | tail -n1)
bash "$TOP/ci/check.sh" 2>&1 | tee "$LOGDIR/check.out"
c=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGDIR/check.out" | tail -n1)
bash "$TOP/ci/matrix.sh" 2>&1 | tee "$LOGDIR/matrix.out"
m=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGDIR/matrix.out" | tail -n1)
bash "$TOP/ci/randconfig.sh" 2>&1 | tee "$LOGDIR/randconfig.out"
r=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGDIR/randconfig.out" | tail -n1)

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
