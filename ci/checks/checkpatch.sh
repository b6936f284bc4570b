#!/usr/bin/env bash
# checkpatch --strict on every patch file (ci/checkpatch.sh: 0 errors,
# 0 warnings, 0 checks), each into the results of its commit.
# usage: checkpatch.sh RESULTS-DIR   (patch N's results go to DIR/NN)
source "$(dirname "$0")/../lib.sh"

dir=$1 i=0
for p in $(series_patches); do
	i=$((i + 1))
	f=$dir/$(printf '%02d' "$i")
	if bash "$TOP/ci/checkpatch.sh" "$p"; then
		result "$f" ok 1 "checkpatch $(basename "$p")"
		cell "$f" checkpatch ok
	else
		result "$f" FAIL 1 "checkpatch $(basename "$p")"
		cell "$f" checkpatch FAIL
	fi
done
