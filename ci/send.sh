#!/usr/bin/env bash
# Write the series as mail, offline: an mbox, and a git send-email dry run
# addressed with scripts/get_maintainer.pl. Then re-apply the mbox to a
# fresh base and check that it gives the worktree's tip, tree for tree.
source "$(dirname "$0")/lib.sh"

out="$WORK/mail"
rm -rf "$out"
mkdir -p "$out"
patches=$(series_patches)
[ -n "$patches" ] || die "no patches"

# Addresses: get_maintainer.pl over every patch, run in the patched tree;
# maintainers go to To, lists and reviewers to Cc.
: >"$out/get_maintainer.txt"
for p in $patches; do
	(cd "$TREE" && PATH=/usr/bin:/bin:$PATH perl scripts/get_maintainer.pl \
		--no-git --no-git-fallback "$p") >>"$out/get_maintainer.txt" 2>/dev/null
done
grep 'maintainer:' "$out/get_maintainer.txt" | sed 's/ (.*//' | sort -u >"$out/to"
grep -v 'maintainer:' "$out/get_maintainer.txt" | sed 's/ (.*//' | sort -u | grep -vxFf "$out/to" >"$out/cc" || true
[ -s "$out/to" ] || echo "linux-kernel@vger.kernel.org" >"$out/to"
say "send: To: $(paste -sd, "$out/to" | sed 's/,/, /g')"
say "send: Cc: $(paste -sd, "$out/cc" | sed 's/,/, /g')"

cat "$TOP/cover-letter.txt" $patches >"$out/series.mbox"
say "send: mbox with $(grep -c '^From 0000' "$out/series.mbox") messages: $out/series.mbox"

addr=()
while IFS= read -r a; do addr+=(--to="$a"); done <"$out/to"
while IFS= read -r a; do addr+=(--cc="$a"); done <"$out/cc"
git -C "$TREE" send-email --dry-run --confirm=never --no-format-patch \
	--suppress-cc=self "${addr[@]}" \
	"$TOP/cover-letter.txt" $patches >"$out/send-email.txt" 2>&1 ||
	{ cat "$out/send-email.txt" >&2; die "git send-email --dry-run failed"; }
say "send: git send-email --dry-run: $(grep -c '^Subject: ' "$out/send-email.txt") messages ($out/send-email.txt)"

# Round trip: the mail must rebuild the tip exactly.
rt="$WORK/linux-roundtrip"
[ -e "$rt/.git" ] || git -C "$TREE" worktree add -q --detach "$rt" dyntick-base
git -C "$rt" am --abort >/dev/null 2>&1 || true
git -C "$rt" checkout -q -f --detach dyntick-base
git -C "$rt" am -q --empty=drop "$out/series.mbox" || die "git am of the mbox failed"
a=$(git -C "$rt" rev-parse 'HEAD^{tree}') b=$(git -C "$TREE" rev-parse 'series^{tree}')
[ "$a" = "$b" ] || die "round trip: git am of the mail gives tree $a, the worktree's tip is $b"
say "send: round trip ok: git am of the mbox on a fresh base gives tree $a, identical to the tip"
