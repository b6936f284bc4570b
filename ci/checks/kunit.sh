#!/usr/bin/env bash
# The KUnit suite with the tree's own runner (ci/kunit.sh: kunit.py run
# --arch=i386 --kunitconfig=kernel/time), where the tree has the suite.
# usage: kunit.sh RESULTS-FILE LABEL   (log $LOGDIR/kunit-LABEL.log)
source "$(dirname "$0")/../lib.sh"

f=$1 label=$2
log=$LOGDIR/kunit-$label.log
if ! grep -qs DYN_TICK_KUNIT_TEST "$TREE/kernel/time/.kunitconfig"; then
	cell "$f" kunit -
	exit 0
fi
say ""
say "=== KUnit"
if bash "$TOP/ci/kunit.sh" "$log" >&2; then
	result "$f" ok 1 "[$label] KUnit suite"
	cell "$f" kunit ok
else
	result "$f" FAIL 1 "[$label] KUnit suite (log $log)"
	cell "$f" kunit FAIL
fi
