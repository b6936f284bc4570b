#!/usr/bin/env bash
# Random configurations at the tip of the series, with the feature forced on
# (kconfig-fragments/randconfig.config through KCONFIG_ALLCONFIG): each one
# must configure with NO_IDLE_HZ=y, build (vmlinux and modules), and give
# no compiler warning in a file the series touches.
# usage: randconfig.sh [SEED...]
#   SEED: a KCONFIG_SEED (0x1234) or "random" (a new one, printed); default
#   the seeds of $RANDSEEDS. A failure names its seed: replay it with
#   make randconfig SEEDS=SEED.
# KCONFIG_PROBABILITY=10 (RANDPROB): one option in ten on, so that a build
# takes minutes, not an hour. Ends with "N passed, N failed".
source "$(dirname "$0")/lib.sh"

RANDSEEDS=${RANDSEEDS:-0xc}
RANDPROB=${RANDPROB:-10}
mkdir -p "$LOGDIR"
[ -d "$TREE/.git" ] || die "randconfig: no kernel worktree at $TREE: run make tree first"
[ "$(git -C "$TREE" rev-parse HEAD)" = "$(git -C "$TREE" rev-parse series)" ] ||
	die "randconfig: $TREE is not at the tip of the series (git checkout series)"

passed=0 failed=0
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || read -r -a seeds <<<"$RANDSEEDS"
for seed in "${seeds[@]}"; do
	[ "$seed" = random ] && seed=$(printf '0x%08x' $(( (RANDOM << 16 | RANDOM) )))
	out=$WORK/build-rand-$seed log=$LOGDIR/randconfig-$seed.log
	t=$(date +%s)
	say "randconfig: seed $seed (KCONFIG_PROBABILITY=$RANDPROB), log $log"
	rm -rf "$out" && mkdir -p "$out"
	why=""
	if ! kmake "$out" KCONFIG_SEED="$seed" KCONFIG_PROBABILITY="$RANDPROB" \
		KCONFIG_ALLCONFIG="$FRAG/randconfig.config" randconfig >"$log" 2>&1; then
		why="randconfig failed"
	elif ! grep -qx 'CONFIG_NO_IDLE_HZ=y' "$out/.config"; then
		why="the configuration has no NO_IDLE_HZ=y"
	elif ! kmake "$out" >>"$log" 2>&1; then
		why="does not build"
	else
		w=$(series_warnings "$log")
		[ -z "$w" ] || why="$(wc -l <<<"$w") warning(s) in the series' files: $(head -n1 <<<"$w")"
	fi
	opts=$(grep -E '^CONFIG_(SMP|X86_LOCAL_APIC|DYN_TICK_USE_APIC|HPET_TIMER|MODULES|PREEMPTION)=' "$out/.config" 2>/dev/null | sed 's/^CONFIG_//' | paste -sd' ' - || true)
	if [ -z "$why" ]; then
		passed=$((passed + 1))
		say "randconfig ok   seed $seed ($(( $(date +%s) - t ))s; ${opts:-none of SMP, local APIC, DYN_TICK_USE_APIC, HPET, modules, preemption})"
		rm -rf "$out"
	else
		failed=$((failed + 1))
		say "randconfig FAIL seed $seed: $why ($(( $(date +%s) - t ))s; replay: make randconfig SEEDS=$seed; log $log)"
		tail -n 20 "$log" >&2
	fi
done
echo "$passed passed, $failed failed"
[ $failed = 0 ]
