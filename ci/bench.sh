#!/usr/bin/env bash
# Benchmark, side by side: the unpatched periodic kernel (the base commit),
# the series' tip with NO_IDLE_HZ, and mainline NO_HZ_IDLE (base commit),
# from one base configuration. Numbers, not pass/fail. REPS rounds (5), the
# kernels interleaved in each (ci/bench.py); setups: 1, 2 and 4 vCPUs on
# the local APIC, 1 vCPU on the HPET and on the PIT (SETUPS="1:lapic 2:lapic ...").
# Writes bench/results.md (quoted by the cover letter) and prints it, and
# draws bench/timer-irqs.svg: timer interrupts per second of the three
# kernels in each workload (gnuplot).
source "$(dirname "$0")/lib.sh"

IDLE=${IDLE:-10}
REPS=${REPS:-5}
SETUPS=${SETUPS:-1:lapic 2:lapic 4:lapic 1:hpet 1:pit}
mkdir -p "$LOGDIR" "$TOP/bench"
# guard (lib.sh): the tree back on its branch also when the run is
# interrupted, as bench_kernels checks out the base commit.
guard "$@"
bench_kernels bench
hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-on/.config")
kargs=()
for k in base on nohz; do
	kargs+=(--kernel "$k=$WORK/build-$k/arch/x86/boot/bzImage:$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-$k/.config")")
done
sargs=()
for s in $SETUPS; do sargs+=(--setup "$s"); done
python3 "$TOP/ci/bench.py" --out "$WORK/bench" --logs "$LOGDIR" --initrd "$WORK/guest/initramfs.cpio" \
	--reps "$REPS" --idle "$IDLE" "${kargs[@]}" "${sargs[@]}" >/dev/null
cp "$WORK/bench/results.md" "$TOP/bench/results.md"

gnuplot <<EOF
set terminal svg size 880,460 font "sans,12" background rgb "white" noenhanced
set output "$TOP/bench/timer-irqs.svg"
set title "Timer interrupts per second by workload, HZ=$hz, QEMU TCG (median of $REPS runs)"
set ylabel "timer interrupts/s"
set logscale y
set yrange [0.1:10000]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left opaque box
set grid ytics
set datafile columnheaders
plot "$WORK/bench/chart.dat" using 2:xtic(1) title "periodic (unpatched)", \
     "" using 3 title "dyn-tick (NO_IDLE_HZ)", \
     "" using 4 title "NO_HZ_IDLE"
EOF
say "bench: chart written to bench/timer-irqs.svg"
cat "$TOP/bench/results.md"
