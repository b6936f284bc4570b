#!/usr/bin/env bash
# Warnings of the files the series touches, at the tree's current commit,
# for the configuration in OUT: gcc with W=1, sparse (C=2) and
# scripts/kernel-doc -none. Prints them normalized (no line numbers), one a
# line, sorted, so that two commits can be compared as mailing-list CI does.
# usage: warnings.sh OUT FILE.c...
source "$(dirname "$0")/lib.sh"

out=$(realpath -m "$1"); shift
objs=() srcs=()
for f in "$@"; do
	[ -f "$TREE/$f" ] || continue
	srcs+=("$f")
	objs+=("${f%.c}.o")
done
[ ${#objs[@]} -gt 0 ] || exit 0
# Only objects this configuration builds count.
have=()
for o in "${objs[@]}"; do
	[ -f "$out/$o" ] && have+=("$o")
done
[ ${#have[@]} -gt 0 ] || exit 0
log=$(mktemp)
kmake "$out" W=1 C=2 "${have[@]}" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; die "W=1 C=2 build failed"; }
for s in "${have[@]}"; do
	(cd "$TREE" && perl scripts/kernel-doc -none "${s%.o}.c") >>"$log" 2>&1 || true
done
warning_lines <"$log"
rm -f "$log"
