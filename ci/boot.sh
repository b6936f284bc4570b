#!/usr/bin/env bash
# Boot a kernel under qemu-system-i386 -accel tcg with the test guest and
# judge the run. The full console log is kept in LOG.
# usage: boot.sh BZIMAGE LOG SMP "KERNEL ARGS" [TIMEOUT]
# Exit 0 only when the guest printed its end line, no KTAP test failed, and
# the console shows no panic, BUG, WARNING, Oops or Call Trace.
source "$(dirname "$0")/lib.sh"

kernel=$1 log=$2 smp=$3 args=$4 tmo=${5:-300}
initrd=${INITRD:-$WORK/guest/initramfs.cpio}
mkdir -p "$(dirname "$log")"

start=$(date +%s)
set +e
timeout --foreground -k 5 "$tmo" qemu-system-i386 -accel tcg -M pc -m 256 -smp "$smp" \
	-display none -monitor none -serial "file:$log" -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=7 $args" </dev/null
rc=$?
set -e
secs=$(( $(date +%s) - start ))
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"

verdict=""
[ $rc = 124 ] || [ $rc = 137 ] && verdict="timeout after ${tmo}s"
if [ -z "$verdict" ]; then
	bad=$(grep -m1 -E 'Kernel panic|BUG:|WARNING:|Oops|Call Trace|UBSAN:|possible recursive locking|inconsistent lock state|circular locking' "$log" || true)
	[ -n "$bad" ] && verdict="console: $bad"
fi
if [ -z "$verdict" ] && ! grep -q '^DYNTICK-GUEST-END$' "$log"; then
	verdict="guest did not finish (unexpected reboot or exit, qemu rc $rc)"
fi
pass=$(grep -cE '^ok [0-9]+ [a-z_]+$|^ok [0-9]+ [a-z_]+ # [^S]' "$log" || true)
skip=$(grep -cE '^ok [0-9]+ [a-z_]+ # SKIP' "$log" || true)
fail=$(grep -cE '^not ok [0-9]+' "$log" || true)
if [ -z "$verdict" ] && [ "$fail" != 0 ]; then
	verdict="$fail guest test(s) failed: $(grep -E '^not ok' "$log" | awk '{print $4}' | paste -sd, -)"
fi

if [ -n "$verdict" ]; then
	say "BOOT FAIL $(basename "$log" .log): $verdict (${secs}s, log $log)"
	say "---- console tail ----"
	tail -n 25 "$log" >&2
	say "----------------------"
	echo "boot=fail tests_pass=$pass tests_skip=$skip tests_fail=$fail secs=$secs"
	exit 1
fi
say "BOOT OK   $(basename "$log" .log): $pass passed, $skip skipped (${secs}s)"
echo "boot=ok tests_pass=$pass tests_skip=$skip tests_fail=$fail secs=$secs"
