#!/usr/bin/env bash
# What wakes an idle guest, by trace (ci/wakes.py): dyn-tick and mainline
# NO_HZ_IDLE, 1 vCPU, REPS rounds (5) of an IDLE-second window (10) in
# each setup: the PIT, and the PIT with tsc=reliable (no clocksource
# watchdog). SETUPS="DEVICE[,ARG...] ..." picks others. Numbers, not
# pass/fail: writes bench/wakes.md (quoted by the cover letter) and prints it.
source "$(dirname "$0")/lib.sh"

IDLE=${IDLE:-10}
REPS=${REPS:-5}
SETUPS=${SETUPS:-pit pit,tsc=reliable}
mkdir -p "$LOGDIR" "$TOP/bench"
guard "$@"
bench_kernels wakes
kargs=()
for k in on nohz; do
	kargs+=(--kernel "$k=$WORK/build-$k/arch/x86/boot/bzImage:$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-$k/.config")")
done
sargs=()
for s in $SETUPS; do sargs+=(--setup "$s"); done
python3 "$TOP/ci/wakes.py" --out "$WORK/bench/wakes.md" --logs "$LOGDIR" \
	--initrd "$WORK/guest/initramfs.cpio" --reps "$REPS" --idle "$IDLE" \
	"${kargs[@]}" "${sargs[@]}" >/dev/null
cp "$WORK/bench/wakes.md" "$TOP/bench/wakes.md"
cat "$TOP/bench/wakes.md"
