#!/usr/bin/env bash
# Robustness matrix (ci/matrix.conf) at the tip of the series: every row is
# one guest run with its kernel fragments, vCPUs, boot arguments and guest
# scenario. usage: matrix.sh [ROW...]   (default: every row)
# Ends with "N passed, N failed" (rows).
source "$(dirname "$0")/lib.sh"
# Interrupted (lib.sh: guard): its QEMUs, also those of rows run side by
# side, are killed and its run directory removed.
guard "$@"

conf="$TOP/ci/matrix.conf"
std="sleep_sane,idle_skips,jiffies_vs_monotonic,proc_stat_idle,nanosleep_lateness,busy_cpu_ticks"
mkdir -p "$LOGDIR"
T0=$(date +%s)
want=" $* "

rows=()
while read -r row kernel vcpus args tests bound; do
	case $row in ''|'#'*) continue ;; esac
	[ $# = 0 ] || [[ $want == *" $row "* ]] || continue
	rows+=("$row|$kernel|$vcpus|$args|$tests|$bound")
done <"$conf"
[ ${#rows[@]} -gt 0 ] || die "no such row: $*"

bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null || die "guest userland does not build"
git -C "$TREE" checkout -q series || die "matrix: cannot check out series in $TREE"

builddir() { [ "$1" = dyntick-on ] && echo "$WORK/build-on" || echo "$WORK/build-m-${1//,/-}"; }
declare -A built=()
for r in "${rows[@]}"; do
	IFS='|' read -r row kernel _ <<<"$r"
	[ -n "${built[$kernel]:-}" ] && continue
	out=$(builddir "$kernel")
	say "matrix: building $kernel"
	: >"$LOGDIR/matrix-build-${kernel//,/-}.log"
	IFS=, read -ra frags <<<"$kernel"
	# A kernel that starts with "debian" is built from Debian's own i386
	# configuration (ci/distro-config.sh) instead of tinyconfig + base.
	base=(base) cfg=""
	if [ "${frags[0]}" = debian ]; then
		frags=("${frags[@]:1}") base=()
		cfg=$(bash "$TOP/ci/distro-config.sh" 2>>"$LOGDIR/matrix-build-${kernel//,/-}.log") ||
			{ built[$kernel]=FAIL; say "matrix: no Debian configuration (log $LOGDIR/matrix-build-${kernel//,/-}.log)"; continue; }
	fi
	blog="$LOGDIR/matrix-build-${kernel//,/-}.log"
	if BASECONFIG=$cfg bash "$TOP/ci/build.sh" "$out" "${base[@]}" "${frags[@]}" >>"$blog" 2>&1; then
		built[$kernel]=ok
		# No compiler warning in a file the series touches, in this
		# configuration either (the per-commit check judges W=1 and
		# sparse in its own; Debian's tree has warnings of its own)
		warn=$(series_warnings "$blog")
		if [ -n "$warn" ]; then
			built[$kernel]=FAIL
			say "matrix: kernel $kernel: compiler warnings in the series' files:"
			printf '%s\n' "$warn" | sed 's/^/    /' >&2
		fi
	else
		built[$kernel]=FAIL
		tail -n 20 "$LOGDIR/matrix-build-${kernel//,/-}.log" >&2
	fi
done
tb=$(( $(date +%s) - T0 ))

# run_row ROW-SPEC: boot one row and judge it; writes the row's line of the
# table ("row|vCPUs|arguments|ok or FAIL|bound|measured") to
# $LOGDIR/matrix-ROW.result, so that rows can also run side by side.
run_row() {
	local row kernel vcpus args tests bound out log hz tmo start rc vrc measured hc result
	IFS='|' read -r row kernel vcpus args tests bound <<<"$1"
	out=$(builddir "$kernel")
	[ "$args" = - ] && args=""
	args=${args//,/ }
	tests=${tests//std/$std}
	log="$LOGDIR/matrix-$row.log"
	rm -f "$LOGDIR/matrix-$row.result"
	if [ "${built[$kernel]}" != ok ]; then
		echo "$row|$vcpus|$args|FAIL|$bound|kernel $kernel does not build" >"$LOGDIR/matrix-$row.result"
		return
	fi
	hz=$(sed -n 's/^CONFIG_HZ=//p' "$out/.config")
	tmo=300
	[[ $tests == *long_idle* ]] && tmo=420
	say ""
	say "matrix: $row ($kernel, $vcpus vCPUs, ${args:-no arguments}): $tests"
	start=$(date +%s)
	python3 "$TOP/ci/qemu_run.py" --kernel "$out/arch/x86/boot/bzImage" \
		--initrd "$WORK/guest/initramfs.cpio" --log "$log" --smp "$vcpus" \
		--timeout "$tmo" --append "$args dt.hz=$hz dt.idle=20 dt.tests=$tests" && rc=0 || rc=$?
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
	bash "$TOP/ci/verdict.sh" "matrix-$row" "$log" "$rc" "$tmo" "$(( $(date +%s) - start ))" >/dev/null &&
		vrc=0 || vrc=$?
	{ grep -aE '^(not )?ok ' "$log" 2>/dev/null || true; } | sed "s/^/    [$row] /" >&2
	measured=$({ grep -aE '^(not )?ok ' "$log" 2>/dev/null || true; } | sed -E 's/^(not )?ok [0-9]+ //' |
		{ grep -v '^sleep_sane' || true; } | paste -sd ';' - | cut -c1-400)
	# The guest's realtime clock against the host's (a check of its own)
	if [ $vrc = 0 ]; then
		hc=0
		measured+=$(bash "$TOP/ci/checks/hostclock.sh" "$log" "$tests") || hc=$?
		[ $hc = 0 ] || vrc=1
	fi
	result=FAIL
	[ $vrc = 0 ] && result=ok
	echo "$row|$vcpus|${args:--}|$result|$bound|$measured" >"$LOGDIR/matrix-$row.result"
}

# The rows one after the other, but those that only idle (long_idle: two
# minutes each in a guest that takes a few timer interrupts a second) side
# by side at the end, where no other row's timing can suffer from them.
idlers=()
for r in "${rows[@]}"; do
	IFS='|' read -r _ _ _ _ tests _ <<<"$r"
	if [ "$tests" = long_idle ]; then idlers+=("$r"); else run_row "$r"; fi
done
if [ ${#idlers[@]} -gt 0 ]; then
	say ""
	say "matrix: $(printf '%s\n' "${idlers[@]}" | cut -d'|' -f1 | paste -sd' ' -) side by side"
	pids=()
	for r in "${idlers[@]}"; do run_row "$r" & pids+=($!); done
	# A row's run that ended without its result file is a failed row below
	wait "${pids[@]}" || true
fi

passed=0 failed=0
table=("row|vCPUs|kernel arguments|result|bound|measured")
for r in "${rows[@]}"; do
	row=${r%%|*}
	line=$(cat "$LOGDIR/matrix-$row.result" 2>/dev/null || true)
	[ -n "$line" ] || line="$row|-|-|FAIL|-|no result (the row's run ended without one)"
	case $(cut -d'|' -f4 <<<"$line") in
	ok) passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	table+=("$line")
done

say ""
say "Robustness matrix (builds ${tb}s, total $(( $(date +%s) - T0 ))s)"
printf '%s\n' "${table[@]}" | cut -d'|' -f1-4 | column -t -s '|' >&2
printf '%s\n' "${table[@]}" >"$LOGDIR/matrix-table.txt"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
