#!/usr/bin/env bash
# Regenerate the top-level NNNN-*.patch files and cover-letter.txt from the
# worktree's branch series (dyntick-base..series), whatever is checked out
# (after an interrupted check HEAD may sit on an older commit of series).
# Byte-stable when nothing changed. Refuses, unless FORCE=1:
#  - when HEAD has commits that are not on series (committed on a detached
#    HEAD or another branch): they would be left out without a word;
#  - when the patch files changed since the tree was last applied or
#    exported (a git pull) and this export would overwrite them.
# Afterwards the stamp (lib.sh) holds the exported series, so that make tree
# knows it is in the patch files and re-applies without asking.
source "$(dirname "$0")/lib.sh"

cd "$TREE" || exit 1
git rev-parse -q --verify refs/heads/series >/dev/null || die "no branch series in $TREE (make tree)"
base=$(base_commit)
n=$(git rev-list --count "$base..series")
[ "$n" -gt 0 ] || die "no commits on top of the base on series in $TREE"

stray=$(git rev-list --reverse HEAD ^series)
if [ -n "$stray" ]; then
	say "export: HEAD has commits that are not on series; make export writes series only:"
	# shellcheck disable=SC2086
	show_commits $stray
	if ! force; then
		ids=$(for c in $stray; do git rev-parse --short "$c"; done | paste -sd' ' -)
		say "To keep them: put them on series (git -C $TREE checkout series; git cherry-pick $ids) and run make export again."
		say "To export series without them: FORCE=1 make export."
		exit 1
	fi
	say "export: FORCE=1: exporting series without them"
fi
edits=$(uncommitted_edits) || die "export: git status failed in $TREE"
if [ -n "$edits" ]; then
	say "export: note: uncommitted edits in $TREE are not exported:"
	show_edits "$edits"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
subject=$(head -n1 "$TOP/ci/cover-letter.in")
git config branch.series.description "$(cat "$TOP/ci/cover-letter.in")"
git format-patch -q --no-signature --base="$base" --cover-letter \
	--cover-from-description=subject \
	--zero-commit -o "$tmp" "$base..series" >/dev/null

bench="(no benchmark results recorded yet: run make bench)"
[ -s "$TOP/bench/results.md" ] && bench=$(cat "$TOP/bench/results.md")
wakes="(no wake-up tally recorded yet: run make wakes)"
[ -s "$TOP/bench/wakes.md" ] && wakes=$(cat "$TOP/bench/wakes.md")
python3 - "$tmp"/0000-cover-letter.patch "$bench" "$wakes" <<'PY'
import sys
path, bench, wakes = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(path).read()
s = s.replace("@BENCH@", bench.rstrip("\n"))
s = s.replace("@WAKES@", wakes.rstrip("\n"))
# Date of the cover letter: that of the newest patch, for byte-stability.
open(path, "w").write(s)
PY
date=$(git log -1 --format='%aD' series)
sed -i "0,/^Date: .*/s//Date: $date/" "$tmp/0000-cover-letter.patch"

changed_patches() {	# patch files that this export adds, removes or rewrites
	local f
	for f in $( (cd "$TOP" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null
		    cd "$tmp" && ls [0-9][0-9][0-9][0-9]-*.patch) | grep -v '^0000-' | sort -u); do
		cmp -s "$TOP/$f" "$tmp/$f" || echo "$f"
	done
}
# The stamp's hash is that of the patch files the tree last matched; other
# patch files came from elsewhere (git pull, checkout) and are not in the tree.
old=$(stamp_get patches)
if [ -n "$old" ] && [ "$old" != "$(patches_hash "$TOP")" ]; then
	changed=$(changed_patches)
	if [ -n "$changed" ]; then
		say "export: the patch files changed since $TREE was last applied or exported (a git pull?); this export would overwrite or remove:"
		printf '%s\n' "$changed" | sed 's/^/    /' >&2
		if ! force; then
			say "To keep them: save your commits (git -C $TREE format-patch -o DIR dyntick-base..series), make tree FORCE=1 to apply the new patch files, git am what you still need from DIR, then make export."
			say "To overwrite them: FORCE=1 make export."
			exit 1
		fi
		say "export: FORCE=1: overwriting them"
	fi
fi

rm -f "$TOP"/[0-9][0-9][0-9][0-9]-*.patch
mv "$tmp/0000-cover-letter.patch" "$TOP/cover-letter.txt"
mv "$tmp"/[0-9][0-9][0-9][0-9]-*.patch "$TOP/"
stamp_put "$(git rev-parse series)" "$(patches_hash "$TOP")"
say "export: $n patches of series and cover-letter.txt written to $TOP ($subject)"
