#!/usr/bin/env bash
# Benchmark, one run, side by side: the unpatched periodic kernel (the base
# commit), the series' tip with NO_IDLE_HZ, and mainline NO_HZ_IDLE (base
# commit), from one base configuration. Numbers, not pass/fail.
# Writes bench/results.md (quoted by the cover letter) and prints it, and
# draws bench/timer-irqs.svg: timer interrupts per second of the three
# kernels over alternating idle and busy phases (gnuplot).
source "$(dirname "$0")/lib.sh"

IDLE=${IDLE:-20}
BASETREE="$WORK/linux-base"
mkdir -p "$LOGDIR" "$TOP/bench"

if [ ! -d "$BASETREE/.git" ] && [ ! -f "$BASETREE/.git" ]; then
	git -C "$TREE" worktree add -q --detach "$BASETREE" dyntick-base
fi
git -C "$BASETREE" checkout -q --detach dyntick-base

say "bench: building the three kernels"
SRC="$BASETREE" bash "$TOP/ci/build.sh" "$WORK/build-base" base dyntick-off >/dev/null
SRC="$BASETREE" bash "$TOP/ci/build.sh" "$WORK/build-nohz" base nohz-idle >/dev/null
bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on >/dev/null
bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null
grep -q '^CONFIG_NO_HZ_IDLE=y' "$WORK/build-nohz/.config" || die "nohz kernel lacks NO_HZ_IDLE"
grep -q '^CONFIG_NO_IDLE_HZ=y' "$WORK/build-on/.config" || die "dyn-tick kernel lacks NO_IDLE_HZ"

cputicks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# run KIND VCPUS ARGS -> sets R_irq R_cpu R_drift R_late R_loops
run() {
	local kind=$1 smp=$2 args=$3 log="$LOGDIR/bench-$1-$2-${3:-lapic}.log" pid t0 c0 t1 c1 i
	local hz; hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-$kind/.config")
	qemu-system-i386 -accel tcg -M pc -m 256 -smp "$smp" -display none -monitor none \
		-serial "file:$log" -no-reboot -kernel "$WORK/build-$kind/arch/x86/boot/bzImage" \
		-initrd "$WORK/guest/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 $args dt.mode=bench dt.hz=$hz dt.idle=$IDLE" </dev/null &
	pid=$!
	for i in $(seq 600); do grep -q BENCH-IDLE-START "$log" 2>/dev/null && break; sleep 0.1; done
	sleep 1
	t0=$(date +%s.%N) c0=$(cputicks $pid)
	for i in $(seq 1200); do grep -q BENCH-IDLE-END "$log" 2>/dev/null && break; sleep 0.1; done
	t1=$(date +%s.%N) c1=$(cputicks $pid)
	for i in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	kill $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	if ! grep -q '^DYNTICK-GUEST-END' "$log" || grep -qE 'Kernel panic|BUG:|WARNING:|Oops|Call Trace' "$log"; then
		die "bench boot $kind/$smp/$args failed, see $log"
	fi
	R_irq=$(sed -n 's/^BENCH irq_per_s //p' "$log" | tr -d '\r')
	R_drift=$(sed -n 's/^BENCH drift_ms //p' "$log" | tr -d '\r')
	R_late=$(sed -n 's/^BENCH sleep_late_ms //p' "$log" | tr -d '\r')
	R_loops=$(sed -n 's/^BENCH loops_per_s //p' "$log" | tr -d '\r')
	R_cpu=$(echo "($c1 - $c0) / $(getconf CLK_TCK) / ($t1 - $t0 - 1) * 100" | bc -l)
	R_skip=$(sed -n 's/.*dyn-tick: pit can skip up to \([0-9]*\) ticks.*/\1/p' "$log" | head -n1)
	R_hz=$hz
}

declare -A irq cpu drift late loops
for spec in "1 lapic" "2 lapic" "1 pit"; do
	set -- $spec
	args=""
	[ "$2" = pit ] && args=nolapic
	for kind in base on nohz; do
		say "bench: $kind, $1 vCPU(s), $2"
		run $kind "$1" "$args"
		k="$kind/$1/$2"
		irq[$k]=$R_irq cpu[$k]=$R_cpu drift[$k]=$R_drift late[$k]=$R_late loops[$k]=$R_loops
		[ $kind = on ] && [ "$2" = pit ] && pit_skip=$R_skip
	done
done

# chart KIND: the guest's "CHART seconds rate" samples, 2 vCPUs, local APIC
chart() {
	local kind=$1 log="$LOGDIR/chart-$1.log" hz
	hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-$kind/.config")
	timeout 300 qemu-system-i386 -accel tcg -M pc -m 256 -smp 2 -display none -monitor none \
		-serial "file:$log" -no-reboot -kernel "$WORK/build-$kind/arch/x86/boot/bzImage" \
		-initrd "$WORK/guest/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 dt.mode=chart dt.hz=$hz" </dev/null || true
	if ! grep -q '^DYNTICK-GUEST-END' "$log" || grep -qE 'Kernel panic|BUG:|WARNING:|Oops|Call Trace' "$log"; then
		die "chart boot $kind failed, see $log"
	fi
	sed -n 's/^CHART //p' "$log" | tr -d '\r' >"$WORK/chart-$kind.dat"
}
for kind in base on nohz; do
	say "bench: chart, $kind, 2 vCPUs, idle and busy phases"
	chart $kind
done
gnuplot <<EOF
set terminal svg size 820,440 font "sans,12" background rgb "white" noenhanced
set output "$TOP/bench/timer-irqs.svg"
set title "Timer interrupts per second, 2 vCPUs, HZ=$R_hz (QEMU TCG); grey: both CPUs busy"
set xlabel "seconds"
set ylabel "timer interrupts/s, all CPUs"
set logscale y
set yrange [1:5000]
set xrange [0:24]
set key bottom right opaque box
set grid ytics
set object 1 rect from 4,1 to 8,5000 fc rgb "#e8e8e8" fs solid noborder behind
set object 2 rect from 12,1 to 16,5000 fc rgb "#e8e8e8" fs solid noborder behind
set object 3 rect from 20,1 to 24,5000 fc rgb "#e8e8e8" fs solid noborder behind
plot "$WORK/chart-base.dat" using 1:2 with linespoints pt 7 ps 0.5 lw 2 title "periodic (unpatched)", \
     "$WORK/chart-on.dat" using 1:2 with linespoints pt 5 ps 0.5 lw 2 title "dyn-tick (NO_IDLE_HZ)", \
     "$WORK/chart-nohz.dat" using 1:2 with linespoints pt 9 ps 0.5 lw 2 title "NO_HZ_IDLE"
EOF
say "bench: chart written to bench/timer-irqs.svg"

name() { case $1 in base) echo "periodic (unpatched)" ;; on) echo "dyn-tick (NO_IDLE_HZ)" ;; nohz) echo "NO_HZ_IDLE" ;; esac; }
{
	echo "| kernel | vCPUs | tick device | idle timer irqs/s (all CPUs) | host CPU of idle QEMU | jiffies behind CLOCK_MONOTONIC after ${IDLE} s | worst nanosleep lateness | CPU-bound loop vs periodic |"
	echo "|---|---|---|---|---|---|---|---|"
	for spec in "1 lapic" "2 lapic" "1 pit"; do
		set -- $spec
		for kind in base on nohz; do
			k="$kind/$1/$2"
			rel=$(echo "${loops[$k]} / ${loops[base/$1/$2]}" | bc -l)
			printf '| %s | %s | %s | %.1f | %.2f %% | %+.1f ms | %.2f ms | %.3f |\n' \
				"$(name $kind)" "$1" "$2" "${irq[$k]}" "${cpu[$k]}" "${drift[$k]}" "${late[$k]}" "$rel"
		done
	done
	echo
	floor=$(echo "$R_hz / ${pit_skip:-1}" | bc -l)
	printf 'HZ=%s, %s s idle, qemu-system-i386 -accel tcg -M pc -m 256, measured %s.\n' "$R_hz" "$IDLE" "$(date -u +%Y-%m-%d)"
	printf 'PIT floor: HZ / max_skip = %s / %s = %.1f interrupts/s; dyn-tick on the PIT: %.1f/s (%.2f x the floor).\n' \
		"$R_hz" "${pit_skip:-?}" "$floor" "${irq[on/1/pit]}" "$(echo "${irq[on/1/pit]} / $floor" | bc -l)"
	printf 'dyn-tick vs NO_HZ_IDLE with 2 vCPUs: %.2f x; idle host CPU vs periodic with 1 vCPU: %.1f x lower.\n' \
		"$(echo "${irq[on/2/lapic]} / ${irq[nohz/2/lapic]}" | bc -l)" \
		"$(echo "${cpu[base/1/lapic]} / ${cpu[on/1/lapic]}" | bc -l)"
} >"$TOP/bench/results.md"
cat "$TOP/bench/results.md"
