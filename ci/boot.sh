#!/usr/bin/env bash
# Boot a kernel under qemu-system-i386 -accel tcg with the test guest and
# judge the run (ci/verdict.sh). The full console log is kept in LOG.
# usage: boot.sh BZIMAGE LOG SMP "KERNEL ARGS" [TIMEOUT]
# Exit 0 only when the guest printed its end line, no KTAP test failed, and
# the console shows no panic, BUG, WARNING, Oops, Call Trace or lockdep report.
source "$(dirname "$0")/lib.sh"

kernel=$1 log=$2 smp=$3 args=$4 tmo=${5:-300}
initrd=${INITRD:-$WORK/guest/initramfs.cpio}
mkdir -p "$(dirname "$log")"

# No PS/2 controller (i8042=off): probing the mouse takes seconds under TCG
# and would land in the first measurements of the guest.
start=$(date +%s)
set +e
timeout --foreground -k 5 "$tmo" qemu-system-i386 -accel tcg -M pc,i8042=off -m 256 -smp "$smp" \
	-display none -monitor none -serial "file:$log" -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=7 $args" </dev/null
rc=$?
set -e
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
exec bash "$TOP/ci/verdict.sh" "$(basename "$log" .log)" "$log" "$rc" "$tmo" "$(( $(date +%s) - start ))"
