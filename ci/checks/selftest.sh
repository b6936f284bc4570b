#!/usr/bin/env bash
# The harness self-test (ci/selftest.sh): every case, a bug planted in a
# copy or on purpose, must be caught. One result per case.
# usage: selftest.sh RESULTS-FILE
source "$(dirname "$0")/../lib.sh"

f=$1 rc=0
st=$(bash "$TOP/ci/selftest.sh") || rc=$?
printf '%s\n' "$st" | grep -E '^selftest' >&2 || true
while IFS= read -r l; do
	what=$(sed -E 's/^selftest (ok|FAIL) +//' <<<"$l")
	case $l in
	"selftest ok "*) result "$f" ok 1 "selftest: $what" ;;
	"selftest FAIL "*) result "$f" FAIL 1 "harness self-test: $what" ;;
	esac
done <<<"$st"
if [ $rc != 0 ] && ! grep -q '^selftest FAIL' <<<"$st"; then
	result "$f" FAIL 1 "harness self-test: ci/selftest.sh exited with $rc and named no failed case"
fi
