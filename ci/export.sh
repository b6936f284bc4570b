#!/usr/bin/env bash
# Regenerate the top-level NNNN-*.patch files and cover-letter.txt from the
# worktree's commits (dyntick-base..HEAD). Byte-stable when nothing changed.
source "$(dirname "$0")/lib.sh"

cd "$TREE"
base=$(base_commit)
n=$(git rev-list --count "$base..HEAD")
[ "$n" -gt 0 ] || die "no commits on top of the base in $TREE"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
subject=$(head -n1 "$TOP/ci/cover-letter.in")
git config branch.series.description "$(cat "$TOP/ci/cover-letter.in")"
git format-patch -q --no-signature --base="$base" --cover-letter \
	--cover-from-description=subject \
	--zero-commit -o "$tmp" "$base..HEAD" >/dev/null

bench="(no benchmark results recorded yet: run make bench)"
[ -s "$TOP/bench/results.md" ] && bench=$(cat "$TOP/bench/results.md")
python3 - "$tmp"/0000-cover-letter.patch "$bench" <<'PY'
import sys
path, bench = sys.argv[1], sys.argv[2]
s = open(path).read()
s = s.replace("@BENCH@", bench.rstrip("\n"))
# Date of the cover letter: that of the newest patch, for byte-stability.
open(path, "w").write(s)
PY
date=$(git log -1 --format='%aD' HEAD)
sed -i "0,/^Date: .*/s//Date: $date/" "$tmp/0000-cover-letter.patch"

rm -f "$TOP"/[0-9][0-9][0-9][0-9]-*.patch
mv "$tmp/0000-cover-letter.patch" "$TOP/cover-letter.txt"
mv "$tmp"/[0-9][0-9][0-9][0-9]-*.patch "$TOP/"
say "export: $n patches and cover-letter.txt written to $TOP ($subject)"
