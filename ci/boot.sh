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

# In a guarded run (lib.sh: guard) QEMU leaves its pid in the run's
# directory, so that an interrupted run can find and kill it.
pidfile=()
[ -z "${DYNTICK_RUN:-}" ] || pidfile=(-pidfile "$DYNTICK_RUN/qemu.$$.pid")
# QEMU's monitor on a socket: 5 s before the timeout, what the vCPUs are
# doing (ci/qemu_dump.py) goes to LOG.hang, appended to LOG on a timeout.
mondir=$(mktemp -d "${DYNTICK_RUN:-${TMPDIR:-/tmp}}/mon.XXXXXX")
rm -f "$log.hang"
start=$(date +%s)
set +e
# No PS/2 controller (i8042=off): probing the mouse takes seconds under TCG
# and would land in the first measurements of the guest.
# In the background, as bash runs a trap only once the foreground command
# has ended: a SIGTERM to this script stops QEMU now, not at the timeout
# (timeout passes the signal on to QEMU).
timeout --foreground -k 5 "$tmo" qemu-system-i386 -accel tcg -M pc,i8042=off -m 256 -smp "$smp" \
	-display none -monitor "unix:$mondir/monitor,server=on,wait=off" -serial "file:$log" -no-reboot "${pidfile[@]}" \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=7 $args" </dev/null &
qemu=$!
(sleep $((tmo > 10 ? tmo - 5 : tmo / 2)) && python3 "$TOP/ci/qemu_dump.py" "$mondir/monitor" "$kernel" >"$log.hang" 2>&1) </dev/null >/dev/null 2>&1 &
watch=$!
unwatch() { pkill -P "$watch" 2>/dev/null; kill "$watch" 2>/dev/null; wait "$watch" 2>/dev/null; rm -rf "$mondir"; }
stop() { kill -TERM "$qemu" 2>/dev/null; wait "$qemu"; unwatch; exit "$1"; }
trap 'stop 130' INT
trap 'stop 143' TERM
trap 'stop 129' HUP
wait "$qemu"
rc=$?
trap - INT TERM HUP
unwatch
set -e
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
if { [ $rc = 124 ] || [ $rc = 137 ]; } && [ -s "$log.hang" ]; then
	{ echo; cat "$log.hang"; } >>"$log"
fi
rm -f "$log.hang"
exec bash "$TOP/ci/verdict.sh" "$(basename "$log" .log)" "$log" "$rc" "$tmo" "$(( $(date +%s) - start ))"
