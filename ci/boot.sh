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

start=$(date +%s)
# ci/qemu_run.py, the one launcher: the machine, the serial console into
# LOG, QEMU's pid in the run's directory in a guarded run (lib.sh: guard),
# and at the timeout what the vCPUs were doing (ci/qemu_dump.py) appended
# to LOG and exit 124. In the background, as bash runs a trap only once the
# foreground command has ended: a SIGTERM to this script stops QEMU now.
python3 "$TOP/ci/qemu_run.py" --kernel "$kernel" --initrd "$initrd" --log "$log" \
	--smp "$smp" --timeout "$tmo" --append "$args" </dev/null &
qemu=$!
stop() { kill -TERM "$qemu" 2>/dev/null || true; wait "$qemu" || true; exit "$1"; }
trap 'stop 130' INT
trap 'stop 143' TERM
trap 'stop 129' HUP
rc=0
wait "$qemu" || rc=$?
trap - INT TERM HUP
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
exec bash "$TOP/ci/verdict.sh" "$(basename "$log" .log)" "$log" "$rc" "$tmo" "$(( $(date +%s) - start ))"
