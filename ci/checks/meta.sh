#!/usr/bin/env bash
# The series as mail (ci/meta.sh: sign-offs, subject prefixes,
# MAINTAINERS.snippet): one result per "meta ok" or "meta FAIL" line.
# usage: meta.sh RESULTS-FILE
source "$(dirname "$0")/../lib.sh"

f=$1 rc=0
out=$(bash "$TOP/ci/meta.sh") || rc=$?
printf '%s\n' "$out" | sed 's/^/  /' >&2
tool_results "$f" meta "$rc" "" <<<"$out"
