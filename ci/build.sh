#!/usr/bin/env bash
# Build an i386 kernel from the worktree (or SRC=) into OUT with fragments.
# usage: build.sh OUT FRAGMENT... [-- extra make args]
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

kmake "$out" tinyconfig >/dev/null
KCONFIG_CONFIG="$out/.config" "$TREE/scripts/kconfig/merge_config.sh" -m -O "$out" \
	"$out/.config" "${files[@]}" >"$out/merge.log" 2>&1 || { cat "$out/merge.log"; die "merge_config failed"; }
kmake "$out" olddefconfig >/dev/null

# Every fragment line must have taken effect, unless the symbol does not
# exist at this commit (a fragment for a later patch).
bad=0
for f in "${files[@]}"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*}; want=${line#*=} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}; want=n ;;
		*) continue ;;
		esac
		have=$(grep -E "^$sym=" "$out/.config" | cut -d= -f2- || true)
		[ -n "$have" ] || have=n
		[ "$have" = "$want" ] && continue
		if grep -rqsE "^(menu)?config ${sym#CONFIG_}\$" --include='Kconfig*' "$TREE"; then
			say "config: $sym=$have, fragment $(basename "$f") wants $want"
			bad=1
		fi
	done <"$f"
done
[ $bad = 0 ] || die "kernel configuration in $out does not match its fragments"

kmake "$out" "$@" bzImage
echo "$out/arch/x86/boot/bzImage"
