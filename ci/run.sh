#!/usr/bin/env bash
# The main job's last step: boot the tip's kernels with NO_IDLE_HZ on and
# off, 1 and 2 vCPUs, and show what the series does: the dyn-tick state and
# the idle timer interrupts per second.
source "$(dirname "$0")/lib.sh"

bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null
mkdir -p "$LOGDIR"
rows=("kernel|vCPUs|tick device|suitable|enabled|using APIC|idle timer irqs/s per CPU")
for kind in on off; do
	kernel="$WORK/build-$kind/arch/x86/boot/bzImage"
	[ -r "$kernel" ] || die "no kernel at $kernel: run make build"
	hz=$(sed -n 's/^CONFIG_HZ=//p' "$WORK/build-$kind/.config")
	# The boots of ci/boots.conf that name a tick device, with their
	# arguments (the HPET: nolapic; the PIT: hpet=disable nolapic)
	for boot in smp1 smp2 hpet pit; do
		conf=$(boot_conf "$boot")
		read -r vcpus args <<<"$conf"
		dev=$(grep -oE 'dt\.dev=[^ ]+' <<<"$args" | sed 's/.*=//' || true)
		log="$LOGDIR/run-$kind-$boot.log"
		bash "$TOP/ci/boot.sh" "$kernel" "$log" "$vcpus" "$args dt.mode=demo dt.hz=$hz" 120 >/dev/null 2>&1 ||
			die "boot failed, see $log"
		field() { sed -n "s/^$1:[[:space:]]*//p" "$log" | head -n1; }
		rate=$(sed -n 's/^DEMO idle timer interrupts.*: //p' "$log")
		rows+=("NO_IDLE_HZ=$( [ $kind = on ] && echo y || echo n )|$vcpus|${dev:--}|$(field suitable)|$(field enabled)|$(field 'using APIC')|$rate")
	done
done
echo
echo "dyn-tick at the tip of the series ($(git -C "$TREE" log -1 --format=%h series)), HZ=$hz, qemu-system-i386 -accel tcg:"
printf '%s\n' "${rows[@]}" | sed 's/||/|-|/g; s/||/|-|/g; s/|$/|-/' | column -t -s '|'
echo
echo "dyn_tick_state of the NO_IDLE_HZ=y kernel, 2 vCPUs:"
sed -n '/^DEMO dyn_tick_state:/,/^debug:/p' "$LOGDIR/run-on-smp2.log" | tail -n +2
