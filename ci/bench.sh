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
# The base kernels come from the worktree at the base commit, so that they
# share ccache with the check's builds of the base; guard (lib.sh) puts
# the tree back on its branch also when the run is interrupted.
guard "$@"
if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	die "bench: $TREE has uncommitted edits; commit (and make export) or stash them first: the benchmark checks out the base commit"
fi

say "bench: building the three kernels"
git -C "$TREE" checkout -q "$(base_commit)"
seed_build "$WORK/build-off" "$WORK/build-base"
bash "$TOP/ci/build.sh" "$WORK/build-base" base dyntick-off >/dev/null
seed_build "$WORK/build-base" "$WORK/build-nohz"
bash "$TOP/ci/build.sh" "$WORK/build-nohz" base nohz-idle >/dev/null
git -C "$TREE" checkout -q series
bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on >/dev/null
bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null
grep -q '^CONFIG_NO_HZ_IDLE=y' "$WORK/build-nohz/.config" || die "nohz kernel lacks NO_HZ_IDLE"
grep -q '^CONFIG_NO_IDLE_HZ=y' "$WORK/build-on/.config" || die "dyn-tick kernel lacks NO_IDLE_HZ"

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
