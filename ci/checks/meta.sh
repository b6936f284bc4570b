#!/usr/bin/env bash
# The series as mail (ci/meta.sh: sign-offs, subject prefixes,
# MAINTAINERS.snippet): one result per "meta ok" or "meta FAIL" line.
# usage: meta.sh RESULTS-FILE
source "$(dirname "$0")/../lib.sh"

f=$1 rc=0
out=$(bash "$TOP/ci/meta.sh") || rc=$?
printf '%s\n' "$out" | sed 's/^/  /' >&2
while IFS= read -r l; do
	what=$(sed -E 's/^meta (ok|FAIL) +//' <<<"$l")
	case $l in
	"meta ok "*) result "$f" ok 1 "$what" ;;
	"meta FAIL "*) result "$f" FAIL 1 "$what" ;;
	esac
done <<<"$out"
# An exit without the line that says why is a failure of its own
if [ $rc != 0 ] && ! grep -q '^meta FAIL' <<<"$out"; then
	result "$f" FAIL 1 "ci/meta.sh exited with $rc and named no failure"
fi
