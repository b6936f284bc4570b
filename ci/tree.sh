#!/usr/bin/env bash
# Unpack the packaged 6.1 tree into $TREE (once), make the reproducible base
# commit, and apply the series with git am on a fresh branch.
# usage: tree.sh            unpack if needed, reset to base, apply all patches
#        tree.sh --base     unpack if needed, leave the tree at the base
source "$(dirname "$0")/lib.sh"

mode=${1:-apply}
[ -r "$TARBALL" ] || die "$TARBALL not found: install linux-source-6.1 (make deps)"

stamp="$WORK/tarball.stamp"
want_stamp="$(stat -c '%s %Y' "$TARBALL") $(installed_source_version)"
if [ ! -d "$TREE/.git" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want_stamp" ] ||
   ! git -C "$TREE" rev-parse -q --verify dyntick-base >/dev/null; then
	say "tree: unpacking $TARBALL into $TREE"
	rm -rf "$TREE"
	mkdir -p "$TREE"
	tar -xJf "$TARBALL" -C "$TREE" --strip-components=1
	cd "$TREE"
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
	echo "$want_stamp" >"$stamp"
	say "tree: base commit $(git rev-parse HEAD)"
fi

cd "$TREE"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f -B series dyntick-base
git clean -q -f -d -x >/dev/null 2>&1 || true
[ "$mode" = "--base" ] && exit 0

n=0
for p in $(series_patches); do
	n=$((n + 1))
	if ! git am -q --committer-date-is-author-date --whitespace=nowarn "$p" >"$WORK/am.log" 2>&1; then
		file=$(grep -m1 -oE 'error: (patch failed: )?[^:]+' "$WORK/am.log" | sed -E 's/error: (patch failed: )?//' || true)
		cat "$WORK/am.log" >&2
		git am --abort >/dev/null 2>&1 || true
		die "patch $(basename "$p") does not apply (file: ${file:-unknown}); installed linux-source-6.1 is $(installed_source_version), the series was last verified on $VERIFIED_ON"
	fi
done
say "tree: applied $n patches on $(git rev-parse --short dyntick-base), tip $(git rev-parse --short HEAD)"
