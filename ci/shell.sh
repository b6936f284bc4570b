#!/usr/bin/env bash
# Boot the patched (feature-on) kernel into the guest's small shell on the
# serial console, for poking at /sys by hand. Quit with "poweroff" or C-a x.
# usage: shell.sh [VCPUS] [EXTRA KERNEL ARGS]
source "$(dirname "$0")/lib.sh"

smp=${1:-2}
kernel="$WORK/build-on/arch/x86/boot/bzImage"
[ -r "$kernel" ] || die "no kernel at $kernel: run make build first"
bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null
say "shell: try 'cat /sys/devices/system/timer/timer0/dyn_tick_state', 'idle 5', 'cat /proc/interrupts'"
hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-on/.config")
exec python3 "$TOP/ci/qemu_run.py" --interactive --kernel "$kernel" \
	--initrd "$WORK/guest/initramfs.cpio" --smp "$smp" --append "dt.mode=shell dt.hz=$hz ${2:-}"
