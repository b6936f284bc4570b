#!/usr/bin/env bash
# The README's test command: the per-commit check (ci/check.sh), then the
# robustness matrix at the tip (ci/matrix.sh). Ends with the sum of both:
# "N passed, N failed, N skipped".
source "$(dirname "$0")/lib.sh"
set +e

mkdir -p "$LOGDIR"
bash "$TOP/ci/check.sh" 2>&1 | tee "$LOGDIR/check.out"
c=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGDIR/check.out" | tail -n1)
bash "$TOP/ci/matrix.sh" 2>&1 | tee "$LOGDIR/matrix.out"
m=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGDIR/matrix.out" | tail -n1)

num() { printf '%s' "$1" | grep -oE "[0-9]+ $2" | grep -oE '^[0-9]+' || echo 0; }
p=$(( $(num "$c" passed) + $(num "$m" passed) ))
f=$(( $(num "$c" failed) + $(num "$m" failed) ))
s=$(num "$c" skipped)
[ -n "$c" ] || { f=$((f + 1)); say "test: the check did not finish"; }
[ -n "$m" ] || { f=$((f + 1)); say "test: the matrix did not finish"; }
echo
echo "$p passed, $f failed, $s skipped"
[ $f = 0 ]
