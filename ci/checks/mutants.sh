#!/usr/bin/env bash
# Every mutant of ci/mutants.conf still mutates the series tip: its
# substitution changes its file there. One that no longer matches (the
# code it mutates was rewritten) would fail in make mutants, which is not
# part of make test, and prove nothing. One result for all of them.
# usage: mutants.sh RESULTS-FILE   (the tree made by make tree)
source "$(dirname "$0")/../lib.sh"

f=$1 n=0 stale=()
tmp=$(mktemp -d "${DYNTICK_RUN:-${TMPDIR:-/tmp}}/mutants.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	n=$((n + 1))
	mutant_split "$line"
	if [ ${#mf[@]} != 6 ]; then
		stale+=("not 6 fields: ${line:0:40}")
		continue
	fi
	if ! git -C "$TREE" cat-file -e "series:${mf[1]}" 2>/dev/null; then
		stale+=("${mf[0]}: no ${mf[1]} at the tip")
		continue
	fi
	git -C "$TREE" show "series:${mf[1]}" >"$tmp/orig.c"
	rc=0
	perl -0pe "${mf[2]}" "$tmp/orig.c" >"$tmp/mutant.c" 2>"$tmp/mutant.err" || rc=$?
	if [ $rc != 0 ]; then
		stale+=("${mf[0]}: perl: $(head -n1 "$tmp/mutant.err")")
	elif cmp -s "$tmp/orig.c" "$tmp/mutant.c"; then
		stale+=("${mf[0]}: ${mf[1]} unchanged")
	fi
done <"$TOP/ci/mutants.conf"
if [ ${#stale[@]} = 0 ]; then
	result "$f" ok 1 "mutants: each of the $n substitutions of ci/mutants.conf changes its file at the tip"
else
	result "$f" FAIL 1 "mutants: substitutions that do not mutate the tip: $(printf '%s; ' "${stale[@]}")"
fi
