#!/usr/bin/env bash
# Build the guest userland: one static i386 /init (glibc from gcc-multilib,
# no change to the host's package architectures) packed into an initramfs
# with the kernel tree's own usr/gen_init_cpio.
# usage: guest.sh OUTDIR   -> OUTDIR/initramfs.cpio
source "$(dirname "$0")/lib.sh"

out=$(realpath -m "${1:-$WORK/guest}")
mkdir -p "$out"
src="$TOP/ci/guest/init.c"

# init.c includes the other parts of the guest (ci/guest/*.c)
if [ ! -x "$out/init" ] || [ -n "$(find "$TOP/ci/guest" -name '*.c' -newer "$out/init")" ]; then
	gcc -m32 -march=i686 -static -O2 -Wall -Wextra -Werror -o "$out/init" "$src"
fi

gen="$out/gen_init_cpio"
if [ ! -x "$gen" ]; then
	gcc -O2 -o "$gen" "$TREE/usr/gen_init_cpio.c"
fi

cat >"$out/initramfs.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 0755 0 0
file /init $out/init 0755 0 0
LIST
"$gen" "$out/initramfs.list" >"$out/initramfs.cpio.tmp"
mv "$out/initramfs.cpio.tmp" "$out/initramfs.cpio"
echo "$out/initramfs.cpio"
