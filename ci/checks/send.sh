#!/usr/bin/env bash
# The mail round trip (ci/send.sh: the series written as mail, a git
# send-email dry run, the mbox applied back with git am and compared).
# usage: send.sh RESULTS-FILE
source "$(dirname "$0")/../lib.sh"

if bash "$TOP/ci/send.sh" >&2; then
	result "$1" ok 1 "mail round trip"
else
	result "$1" FAIL 1 "mail round trip (make send)"
fi
