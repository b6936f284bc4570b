#!/usr/bin/env bash
# Unpack the packaged 6.1 tree into $TREE (once), make the reproducible base
# commit, and apply the series with git am on a fresh branch.
# usage: tree.sh            unpack if needed, reset to base, apply all patches
#        tree.sh --base     unpack if needed, leave the tree at the base
# Resetting throws away whatever the patch files do not carry, so tree.sh
# first refuses (exit 1) when there is such work in the tree, names it and
# says how to keep it: commits that are not in the patch files (on series or
# on a detached HEAD), uncommitted edits (lib.sh: uncommitted_edits), a git
# am/rebase/merge left open. FORCE=1 throws it away on purpose. With nothing
# to lose (series is what the patch files give, or what the last apply or
# export left, see the stamp in lib.sh) it re-applies without a word.
source "$(dirname "$0")/lib.sh"

mode=${1:-apply}
[ -r "$TARBALL" ] || die "$TARBALL not found: install linux-source-6.1 (make deps)"

# Interrupted (Ctrl-C, SIGTERM): no git am of ours is left half done.
am_running=0
on_signal() {
	[ "$am_running" = 0 ] || git -C "$TREE" am --abort >/dev/null 2>&1 || true
	exit "$1"
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# keep_work WHAT REV...: exit 1 if WHAT would lose work reachable from
# REV... or uncommitted in the tree, unless FORCE=1.
keep_work() {
	local what=$1 commits edits busy keep off c
	shift
	# When git cannot tell, refuse: nothing is thrown away on a guess.
	commits=$(unexported_commits "$@") || die "tree: cannot tell whether $TREE has commits of its own"
	edits=$(uncommitted_edits) || die "tree: cannot tell whether $TREE has uncommitted edits"
	busy=$(git_op_in_progress) || die "tree: cannot read the state of $TREE"
	[ -n "$commits$edits$busy" ] || return 0
	if force; then
		say "tree: FORCE=1: $what throws away:"
	else
		say "tree: $what would throw away work in $TREE:"
	fi
	if [ -n "$commits" ]; then
		say "  commits that are not in the patch files:"
		# shellcheck disable=SC2086
		show_commits $commits
	fi
	if [ -n "$edits" ]; then
		say "  uncommitted edits (git status --porcelain; ?? = new file):"
		show_edits "$edits"
	fi
	[ -z "$busy" ] || say "  $busy"
	if force; then
		# gc.auto=0 in the tree: the objects stay until someone runs git gc.
		[ -z "$commits" ] || say "tree: a commit thrown away stays in the object store for now: git -C $TREE branch rescue ID"
		return 0
	fi
	keep="To keep it:"
	[ -z "$edits" ] || keep+=" commit the edits (new files need git add -f),"
	off=$(for c in $commits; do git merge-base --is-ancestor "$c" refs/heads/series 2>/dev/null || git rev-parse --short "$c"; done | paste -sd' ' -)
	[ -z "$off" ] || keep+=" put the commits on series (git -C $TREE checkout series; git cherry-pick $off),"
	say "$keep run 'make export', which writes series to the patch files, then run this again."
	say "To throw it away: run again with FORCE=1 (make tree FORCE=1, or FORCE=1 with the target you ran)."
	exit 1
}

tarball_stamp="$WORK/tarball.stamp"
want_stamp="$(stat -c '%s %Y' "$TARBALL") $(installed_source_version)"
if [ ! -d "$TREE/.git" ] || [ "$(cat "$tarball_stamp" 2>/dev/null)" != "$want_stamp" ] ||
   ! git -C "$TREE" rev-parse -q --verify dyntick-base >/dev/null; then
	# A tree that is there is deleted: every branch of it counts.
	if git -C "$TREE" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		keep_work "unpacking $(basename "$TARBALL") anew" --branches HEAD
	fi
	say "tree: unpacking $TARBALL into $TREE"
	rm -rf "$TREE"
	mkdir -p "$TREE"
	tar -xJf "$TARBALL" -C "$TREE" --strip-components=1
	cd "$TREE" || exit 1
	git init -q -b base
	git config core.autocrlf false
	git config gc.auto 0
	# The Debian tarball's .gitignore ignores everything at the top level,
	# so the base commit has to add with -f.
	git add -f -A .
	ver=$(make -s kernelversion)
	base_git commit -q -m "Linux $ver from Debian linux-source-6.1" \
		-m "Unpacked from $(basename "$TARBALL") for the dyn-tick workbench."
	git tag -f dyntick-base >/dev/null
	echo "$want_stamp" >"$tarball_stamp"
	say "tree: base commit $(git rev-parse HEAD)"
fi

cd "$TREE" || exit 1
# The reset below keeps other branches; it loses series and a detached HEAD.
revs=(HEAD)
if git rev-parse -q --verify refs/heads/series >/dev/null; then revs+=(refs/heads/series); fi
keep_work "re-applying the series" "${revs[@]}"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f -B series dyntick-base
git clean -q -f -d -x >/dev/null 2>&1 || true
if [ "$mode" = "--base" ]; then
	stamp_put "$(git rev-parse HEAD)" ""	# "" = no patch files applied
	exit 0
fi

n=0
hash=$(patches_hash "$TOP")
am_running=1
for p in $(series_patches); do
	n=$((n + 1))
	if ! git am -q --committer-date-is-author-date --whitespace=nowarn "$p" >"$WORK/am.log" 2>&1; then
		file=$(grep -m1 -oE 'error: (patch failed: )?[^:]+' "$WORK/am.log" | sed -E 's/error: (patch failed: )?//' || true)
		cat "$WORK/am.log" >&2
		git am --abort >/dev/null 2>&1 || true
		am_running=0
		# What did apply came from the patch files: nothing of the user's.
		stamp_put "$(git rev-parse HEAD)" "$hash"
		die "patch $(basename "$p") does not apply (file: ${file:-unknown}); installed linux-source-6.1 is $(installed_source_version), the series was last verified on $VERIFIED_ON"
	fi
done
am_running=0
stamp_put "$(git rev-parse HEAD)" "$hash"
say "tree: applied $n patches on $(git rev-parse --short dyntick-base), tip $(git rev-parse --short HEAD)"
