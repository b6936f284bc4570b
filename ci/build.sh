#!/usr/bin/env bash
# Build an i386 kernel from the worktree (or SRC=) into OUT with fragments.
# usage: build.sh OUT FRAGMENT... [-- extra make args]
# The configuration starts from tinyconfig, or from the file BASECONFIG=
# names (ci/distro-config.sh: Debian's own).
source "$(dirname "$0")/lib.sh"

out=$(realpath -m "$1"); shift
frags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do frags+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
SRC=${SRC:-$TREE}
TREE=$SRC
mkdir -p "$out"

files=()
for f in "${frags[@]}"; do
	case $f in /*) files+=("$f") ;; *) files+=("$FRAG/$f.config") ;; esac
done

# The configuration is made again only when what it is made from changed:
# the fragments, every Kconfig file, the tiny.config files, the kconfig tool
# and the compiler. Making it costs about 15 s (tinyconfig is slow), and a
# rewritten .config makes kbuild sync and relink (about 10 s more): 25 s of
# every build of the check's 25, while only the commits that touch a Kconfig
# file change it.
key=$( {
	printf '%s\n' "${frags[@]}"
	[ -z "${BASECONFIG:-}" ] || cat "$BASECONFIG"
	cat "${files[@]}"
	gcc --version | head -n1
	(cd "$TREE" && find . \( -name .git -prune \) -o \( -name 'Kconfig*' -o -name tiny.config \
		-o -path './scripts/kconfig/*' \) -type f -print0 | sort -z | xargs -0 sha1sum)
} | sha1sum | cut -c1-40)
if [ -s "$out/.config" ] && [ "$(cat "$out/.config-key" 2>/dev/null)" = "$key" ]; then
	: # the configuration is the one these inputs give
else
	rm -f "$out/.config-key"
	if [ -n "${BASECONFIG:-}" ]; then
		cp "$BASECONFIG" "$out/.config"
	else
		kmake "$out" tinyconfig >/dev/null
	fi
	KCONFIG_CONFIG="$out/.config" "$TREE/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "${files[@]}" >"$out/merge.log" 2>&1 || { cat "$out/merge.log"; die "merge_config failed"; }
	kmake "$out" olddefconfig >/dev/null
fi

# Every fragment line must have taken effect (a later fragment overrides an
# earlier one), unless the symbol does not exist at this commit (a fragment
# for a later patch).
declare -A want=()
order=()
for f in "${files[@]}"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*}; val=${line#*=} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}; val=n ;;
		*) continue ;;
		esac
		[ -n "${want[$sym]+x}" ] || order+=("$sym")
		want[$sym]=$val
	done <"$f"
done
bad=0
for sym in "${order[@]}"; do
	have=$(grep -E "^$sym=" "$out/.config" | cut -d= -f2- || true)
	[ -n "$have" ] || have=n
	[ "$have" = "${want[$sym]}" ] && continue
	if grep -rqsE "^(menu)?config ${sym#CONFIG_}\$" --include='Kconfig*' "$TREE"; then
		say "config: $sym=$have, the fragments want ${want[$sym]}"
		bad=1
	fi
done
[ $bad = 0 ] || die "kernel configuration in $out does not match its fragments"
echo "$key" >"$out/.config-key"

# With modules on, build them too: modpost is where a missing export shows.
targets=(bzImage)
grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
kmake "$out" "$@" "${targets[@]}"
echo "$out/arch/x86/boot/bzImage"
