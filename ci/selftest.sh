#!/usr/bin/env bash
# Harness self-test: feed the workbench bad input on purpose and check that
# each is caught with a clear message. Prints "selftest ok CASE" or
# "selftest FAIL CASE" per case. Leaves the worktree at the series tip.
# SELFTEST_CASES="CASE..." runs only those (default: all, listed in all=).
# The cases that change the worktree need it at a clean series tip (what
# make tree leaves) and give it back exactly so, also when they fail or the
# self-test is interrupted (st_begin/st_end, from the EXIT trap).
source "$(dirname "$0")/lib.sh"
# Traps for INT, TERM, HUP and EXIT (lib.sh: guard); run by check.sh, the
# self-test is guarded by the check's own.
guard "$@"
export TOP WORK TREE LOGDIR

all=(patch-does-not-apply checkpatch-error build-error boot-panic guest-test-fails
	guest-test-crashes wrong-tick-device boot-timeout boot-retry randconfig-loses-feature tree-refuses-commit tree-refuses-edit tree-reapplies-pulled
	export-detached export-refuses-stray interrupted-run interrupted-run-int docs-warning
	abi-warning warnings-no-reference mutant-stale)
read -ra cases <<<"${SELFTEST_CASES:-${all[*]}}"
want() { [[ " ${cases[*]} " == *" $1 "* ]]; }

# Temporary files in the run's directory: an interrupted run removes it.
tmp=$(mktemp -d "$DYNTICK_RUN/selftest.XXXXXX")
trap 'st_end; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
kernel="$WORK/build-on/arch/x86/boot/bzImage"
fails=0

pass() { echo "selftest ok   $1: $2"; }
flunk() {	# CASE WHY [OUTPUT]
	echo "selftest FAIL $1: $2"
	[ -z "${3:-}" ] || printf '%s\n' "$3" | tail -n 10 | sed 's/^/    /'
	fails=$((fails + 1))
}
for c in "${cases[@]}"; do
	[[ " ${all[*]} " == *" $c "* ]] || flunk "$c" "no such case (cases: ${all[*]})"
done

expect() {	# CASE PATTERN COMMAND...: COMMAND must fail and print PATTERN
	local name=$1 pat=$2 out rc
	shift 2
	rc=0
	out=$("$@" 2>&1) || rc=$?
	if [ $rc != 0 ] && printf '%s\n' "$out" | grep -qE "$pat"; then
		echo "selftest ok   $name: $(printf '%s\n' "$out" | grep -m1 -E "$pat" | cut -c1-150)"
	else
		echo "selftest FAIL $name: not caught (exit $rc)"
		printf '%s\n' "$out" | tail -n 10 | sed 's/^/    /'
		fails=$((fails + 1))
	fi
}

# st_begin CASE: the case may change the worktree; it must be at a clean
# series tip, which st_end restores: series at the same commit and checked
# out, no edits, the files the case created (st_new) gone, the same stamp.
# Otherwise the case fails without touching it: the work in it is not ours.
st_active=0
st_begin() {
	local why=""
	st_tip=$(git -C "$TREE" rev-parse -q --verify refs/heads/series) || true
	if [ -z "$st_tip" ]; then
		why="no branch series"
	elif [ "$(git -C "$TREE" symbolic-ref -q HEAD)" != refs/heads/series ]; then
		why="HEAD is not on series"
	elif [ -n "$(uncommitted_edits)$(git_op_in_progress)" ]; then
		why="uncommitted edits"
	elif [ -n "$(unexported_commits refs/heads/series)" ]; then
		why="series has commits that are not in the patch files"
	fi
	if [ -n "$why" ]; then
		flunk "$1" "$TREE is not a clean series tip ($why): left alone, run make tree"
		return 1
	fi
	st_new=()
	rm -f "$tmp/stamp"
	[ ! -e "$STAMP" ] || cp -p "$STAMP" "$tmp/stamp"
	st_active=1
	# series is the patch files' own: say so, for a tree applied before
	# the stamp existed (st_end puts the old stamp back).
	[ "$(stamp_commit)" = "$st_tip" ] || stamp_put "$st_tip" "$(patches_hash "$TOP")"
}
st_end() {
	local f
	[ "$st_active" = 1 ] || return 0
	st_active=0
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f -B series "$st_tip"
	for f in "${st_new[@]}"; do rm -f "$TREE/$f"; done
	if [ -e "$tmp/stamp" ]; then cp -p "$tmp/stamp" "$STAMP"; else rm -f "$STAMP"; fi
}
on_series_tip() { [ "$(git -C "$TREE" symbolic-ref -q HEAD)" = refs/heads/series ] && [ "$(git -C "$TREE" rev-parse series)" = "$st_tip" ]; }
short() { git -C "$TREE" rev-parse --short "$1"; }
test_commit() {	# SUBJECT: commit junk in dyn-tick.c on whatever is checked out
	echo "/* selftest */" >>"$TREE/kernel/time/dyn-tick.c"
	git -C "$TREE" -c user.name="Self Test" -c user.email=selftest@example.org \
		commit -q -a -m "$1"
}
copy_top() {	# DIR: what export.sh reads and writes, copied from $TOP
	mkdir -p "$1/ci" "$1/bench"
	cp "$TOP"/[0-9][0-9][0-9][0-9]-*.patch "$TOP/cover-letter.txt" "$1/"
	cp "$TOP/ci/cover-letter.in" "$1/ci/"
	[ ! -e "$TOP/bench/results.md" ] || cp "$TOP/bench/results.md" "$1/bench/"
	[ ! -e "$TOP/bench/wakes.md" ] || cp "$TOP/bench/wakes.md" "$1/bench/"
}
differing_patches() {	# DIR: patch files that differ between $TOP and DIR
	local f
	for f in $( (cd "$TOP" && ls [0-9][0-9][0-9][0-9]-*.patch; cd "$1" && ls [0-9][0-9][0-9][0-9]-*.patch) | sort -u); do
		cmp -s "$TOP/$f" "$1/$f" || echo "$f"
	done
}

# 1. A patch that does not apply: the first patch with a context line changed.
if want patch-does-not-apply && st_begin patch-does-not-apply; then
	mkdir -p "$tmp/series"
	first=$(series_patches | head -n1)
	sed '0,/^ #include <linux\/cpu.h>$/s//  #include <linux\/cpu.h>/' "$first" >"$tmp/series/$(basename "$first")"
	cmp -s "$first" "$tmp/series/$(basename "$first")" &&
		sed -i '0,/^ [a-z]/s/^ \([a-z]\)/ X\1/' "$tmp/series/$(basename "$first")"
	expect patch-does-not-apply "does not apply.*file: .*installed linux-source-6.1 is .*verified on" \
		env TOP="$tmp/series" bash "$TOP/ci/tree.sh"
	st_end	# back to the real series
fi

# 2. A checkpatch error.
if want checkpatch-error; then
	cat >"$tmp/0001-bad-style.patch" <<'PATCH'
From: Self Test <selftest@example.org>
Subject: [PATCH] timers: bad style on purpose

Signed-off-by: Self Test <selftest@example.org>
---
diff --git a/kernel/time/dyn-tick.c b/kernel/time/dyn-tick.c
--- a/kernel/time/dyn-tick.c
+++ b/kernel/time/dyn-tick.c
@@ -1,3 +1,4 @@
 // SPDX-License-Identifier: GPL-2.0
+int  dyn_tick_selftest_bad=1 ; 
 /*
  * Dynamic tick: skip periodic timer interrupts while every CPU is idle.
PATCH
	expect checkpatch-error "checkpatch FAIL 0001-bad-style.patch: [1-9][0-9]* errors" \
		bash "$TOP/ci/checkpatch.sh" "$tmp/0001-bad-style.patch"
fi

# 3. A commit that does not build.
if want build-error && st_begin build-error; then
	echo "this is not C;" >>"$TREE/kernel/time/dyn-tick.c"
	expect build-error "dyn-tick.c:[0-9]+:[0-9]+: error" \
		bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on
	st_end
fi

# 3b. A random configuration that loses the feature: the forced fragment
# with HIGH_RES_TIMERS on (NO_IDLE_HZ depends on it being off). Configures
# only, no build: ci/randconfig.sh must fail the seed and name it.
if want randconfig-loses-feature; then
	mkdir -p "$tmp/frag"
	sed 's/^# CONFIG_HIGH_RES_TIMERS is not set$/CONFIG_HIGH_RES_TIMERS=y/' \
		"$FRAG/randconfig.config" >"$tmp/frag/randconfig.config"
	expect randconfig-loses-feature "randconfig FAIL seed 0x5: the configuration has no NO_IDLE_HZ=y" \
		env FRAG="$tmp/frag" WORK="$tmp/work" LOGDIR="$tmp" bash "$TOP/ci/randconfig.sh" 0x5
fi

# 4. A kernel that panics at boot (no init to run).
want boot-panic &&
expect boot-panic "BOOT FAIL .*Kernel panic" \
	bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-panic.log" 1 "rdinit=/nonexistent" 60

# 5. A guest test that fails.
want guest-test-fails &&
expect guest-test-fails "BOOT FAIL .*guest test\(s\) failed: must_fail" \
	bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-fail.log" 1 "dt.tests=sleep_sane,must_fail" 60

# 5a. A guest test that crashes (a signal before it reports): it fails
# alone, with the reason, and the test after it still reports.
want guest-test-crashes &&
expect guest-test-crashes "BOOT FAIL .*guest test\(s\) failed: must_crash, must_fail" \
	bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-crash.log" 1 "dt.tests=sleep_sane,must_crash,must_fail" 60

# 5b. tick_device fails when the tick device is not the one the row expects:
# the lapic of a TCG guest, expected to be lapic-deadline
want wrong-tick-device &&
expect wrong-tick-device "BOOT FAIL .*guest test\(s\) failed: tick_device" \
	bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-tick-device.log" 1 \
	"dt.tests=sleep_sane,tick_device dt.dev=lapic-deadline" 60

# 6. A guest that never finishes (hangs until the timeout), and what its
# vCPU was doing, from QEMU's monitor (ci/qemu_dump.py), named from the
# System.map: the idle loop's halt; and its stack, with the idle loop on it.
if want boot-timeout; then
	expect boot-timeout "BOOT FAIL .*timeout after" \
		bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-hang.log" 1 "dt.mode=shell dt.hang=1" 15
	if line=$(grep -m1 -E '^HANG cpu0: EIP [0-9a-f]{8} [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+, IF [01], HLT [01]; 1 s later: ' \
		"$LOGDIR/selftest-hang.log"); then
		echo "selftest ok   hang-dump: $(cut -c1-150 <<<"$line")"
	else
		echo "selftest FAIL hang-dump: no named EIP of cpu0 in $LOGDIR/selftest-hang.log"
		fails=$((fails + 1))
	fi
	if line=$(grep -m1 -E '^HANG \| stack cpu0 text: .*do_idle\+0x' "$LOGDIR/selftest-hang.log"); then
		echo "selftest ok   hang-stack: $(cut -c1-150 <<<"$line")"
	else
		echo "selftest FAIL hang-stack: no do_idle on cpu0's stack in $LOGDIR/selftest-hang.log"
		fails=$((fails + 1))
	fi
	# A hang of the guest's own is not the emulator's race: not booted again
	if line=$(grep -m1 '^HANG emulator race: no: ' "$LOGDIR/selftest-hang.log") &&
		[ ! -e "$LOGDIR/selftest-hang.log.hang1" ]; then
		echo "selftest ok   hang-not-race: $(cut -c1-150 <<<"$line")"
	else
		echo "selftest FAIL hang-not-race: no 'HANG emulator race: no' in $LOGDIR/selftest-hang.log, or booted again"
		fails=$((fails + 1))
	fi
fi

# 6b. A hang taken for the emulator's race (DYNTICK_SELFTEST_RACE=1) is
# booted again once: the first boot's log and dump in LOG.hang1, LOG says
# so on its first line, and the second hang fails the run.
if want boot-retry; then
	rm -f "$LOGDIR/selftest-retry.log.hang1"
	expect boot-retry "BOOT FAIL .*timeout after" \
		env DYNTICK_SELFTEST_RACE=1 bash "$TOP/ci/boot.sh" "$kernel" \
		"$LOGDIR/selftest-retry.log" 1 "dt.mode=shell dt.hang=1" 15
	if head -n1 "$LOGDIR/selftest-retry.log" | grep -q '^qemu_run: boot 1 hung in the emulator, booted again' &&
		grep -q '^HANG cpu0: ' "$LOGDIR/selftest-retry.log.hang1" &&
		grep -q '^HANG cpu0: ' "$LOGDIR/selftest-retry.log"; then
		echo "selftest ok   boot-retry-logs: $(head -n1 "$LOGDIR/selftest-retry.log" | cut -c1-120)"
	else
		echo "selftest FAIL boot-retry-logs: no note on $LOGDIR/selftest-retry.log's first line or no dump in it and in .hang1"
		fails=$((fails + 1))
	fi
fi

# 7. A commit made in the worktree and not exported: make tree refuses and
# names it, the commit stays on series; FORCE=1 re-applies the patch files.
case_tree_refuses_commit() {
	local n=tree-refuses-commit subj="timers: Self-test commit that is not exported" c out forced rc
	st_begin "$n" || return 0
	test_commit "$subj"
	c=$(git -C "$TREE" rev-parse HEAD)
	rc=0
	out=$(bash "$TOP/ci/tree.sh" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -F "$subj" <<<"$out" | grep -qF "$(short "$c")" ||
	   ! grep -qF 'make export' <<<"$out" || ! grep -qF 'FORCE=1' <<<"$out"; then
		flunk "$n" "tree.sh did not refuse with the commit, make export and FORCE=1 (exit $rc)" "$out"
	elif [ "$(git -C "$TREE" rev-parse series)" != "$c" ]; then
		flunk "$n" "the commit is no longer the tip of series after the refusal"
	else
		rc=0
		forced=$(FORCE=1 bash "$TOP/ci/tree.sh" 2>&1) || rc=$?
		if [ $rc != 0 ] || ! on_series_tip; then
			flunk "$n" "FORCE=1 did not re-apply the patch files (exit $rc)" "$forced"
		else
			pass "$n" "exit 1 naming '$(grep -m1 -F "$subj" <<<"$out" | sed 's/^ *//')', commit kept on series; FORCE=1 re-applied to $(short "$st_tip")"
		fi
	fi
	st_end
}
want tree-refuses-commit && case_tree_refuses_commit

# 8. Uncommitted edits (a tracked file changed, a new file): make tree
# refuses and names the files, which stay as they are.
case_tree_refuses_edit() {
	local n=tree-refuses-edit new=kernel/time/selftest-new.c out rc sum
	st_begin "$n" || return 0
	echo "/* selftest */" >>"$TREE/kernel/time/dyn-tick.c"
	st_new+=("$new")
	echo "int selftest_new;" >"$TREE/$new"
	sum=$(cat "$TREE/kernel/time/dyn-tick.c" "$TREE/$new" | md5sum)
	rc=0
	out=$(bash "$TOP/ci/tree.sh" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -qE '^ +M kernel/time/dyn-tick.c$' <<<"$out" ||
	   ! grep -qE "^ +\?\? $new\$" <<<"$out" || ! grep -qF 'FORCE=1' <<<"$out"; then
		flunk "$n" "tree.sh did not refuse naming both files and FORCE=1 (exit $rc)" "$out"
	elif [ "$(cat "$TREE/kernel/time/dyn-tick.c" "$TREE/$new" 2>/dev/null | md5sum)" != "$sum" ] || ! on_series_tip; then
		flunk "$n" "the edits or series changed after the refusal"
	else
		pass "$n" "exit 1 naming kernel/time/dyn-tick.c (M) and $new (??), edits kept"
	fi
	st_end
}
want tree-refuses-edit && case_tree_refuses_edit

# 9. Nothing to lose: the patch files changed (a git pull rewording the last
# patch) while series is what the last apply left: re-applied without a
# word; back to the real patch files the same way; and without a stamp (a
# tree applied before stamps existed), series equal to the patch files.
case_tree_reapplies_pulled() {
	local n=tree-reapplies-pulled pulled="$tmp/pulled" out rc new last
	st_begin "$n" || return 0
	mkdir -p "$pulled"
	cp "$TOP"/[0-9][0-9][0-9][0-9]-*.patch "$pulled/"
	set -- "$pulled"/[0-9][0-9][0-9][0-9]-*.patch
	last=${!#}
	sed -i '0,/^Signed-off-by:/s//A sentence that a git pull brought.\n\n&/' "$last"
	rc=0
	out=$(env TOP="$pulled" bash "$TOP/ci/tree.sh" 2>&1) || rc=$?
	new=$(git -C "$TREE" rev-parse series)
	if [ $rc != 0 ] || grep -qi 'throw away' <<<"$out" || [ "$new" = "$st_tip" ] ||
	   [ "$(git -C "$TREE" rev-parse series^)" != "$(git -C "$TREE" rev-parse "$st_tip^")" ] ||
	   ! git -C "$TREE" log -1 --format=%B series | grep -q 'a git pull brought'; then
		flunk "$n" "the pulled patch files were not re-applied silently (exit $rc)" "$out"
		st_end
		return
	fi
	rc=0
	out=$(bash "$TOP/ci/tree.sh" 2>&1) || rc=$?
	if [ $rc != 0 ] || ! on_series_tip; then
		flunk "$n" "back to the real patch files: not re-applied silently (exit $rc)" "$out"
		st_end
		return
	fi
	rm -f "$STAMP"
	rc=0
	out=$(bash "$TOP/ci/tree.sh" 2>&1) || rc=$?
	if [ $rc != 0 ] || ! on_series_tip; then
		flunk "$n" "without a stamp: series equal to the patch files not re-applied silently (exit $rc)" "$out"
	else
		pass "$n" "pulled patch files applied silently ($(short "$st_tip") -> $(short "$new")), back again, and without a stamp"
	fi
	st_end
}
want tree-reapplies-pulled && case_tree_reapplies_pulled

# 10. make export with HEAD detached at an older commit of series (as an
# interrupted check left it) exports all of series, byte for byte the
# patch files it was applied from.
case_export_detached() {
	local n=export-detached top="$tmp/export" out rc diffs cl="cover-letter.txt differs (make bench since the last export?)"
	st_begin "$n" || return 0
	copy_top "$top"
	git -C "$TREE" checkout -q --detach series~3
	rc=0
	out=$(env TOP="$top" bash "$TOP/ci/export.sh" 2>&1) || rc=$?
	diffs=$(differing_patches "$top")
	cmp -s "$TOP/cover-letter.txt" "$top/cover-letter.txt" && cl="cover-letter.txt too"
	if [ $rc != 0 ] || [ -n "$diffs" ]; then
		flunk "$n" "exit $rc, differing: ${diffs:-none}" "$out"
	else
		set -- "$top"/[0-9][0-9][0-9][0-9]-*.patch
		pass "$n" "HEAD at series~3: $# patches written, byte-identical; $cl"
	fi
	st_end
}
want export-detached && case_export_detached

# 11. A commit on a detached HEAD that is not on series: make export refuses
# and names it, and writes nothing.
case_export_refuses_stray() {
	local n=export-refuses-stray top="$tmp/stray" subj="timers: Self-test commit on a detached HEAD" c out rc
	st_begin "$n" || return 0
	copy_top "$top"
	git -C "$TREE" checkout -q --detach series~1
	test_commit "$subj"
	c=$(git -C "$TREE" rev-parse HEAD)
	rc=0
	out=$(env TOP="$top" bash "$TOP/ci/export.sh" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -F "$subj" <<<"$out" | grep -qF "$(short "$c")" || ! grep -qF 'FORCE=1' <<<"$out"; then
		flunk "$n" "export.sh did not refuse naming the commit (exit $rc)" "$out"
	elif [ -n "$(differing_patches "$top")" ] || ! cmp -s "$TOP/cover-letter.txt" "$top/cover-letter.txt"; then
		flunk "$n" "export.sh refused but changed the patch files"
	else
		pass "$n" "exit 1 naming '$(grep -m1 -F "$subj" <<<"$out" | sed 's/^ *//')', nothing written"
	fi
	st_end
}
want export-refuses-stray && case_export_refuses_stray

# 12. An interrupted run (SIGTERM of a CI timeout, Ctrl-C's SIGINT), as
# check.sh has it: a guarded script that checked out an older commit, put
# junk into a file and boots a guest (ci/boot.sh) that never ends. The
# kernel is a 36-byte multiboot image (cli; hlt), so no build is needed.
# Afterwards the tree is back on series, nothing of the run is left running
# and its run directory is gone.
make_stub() {	# FILE: the kernel, and FILE.initrd
	local h=""
	le32() { printf '%08x' "$(($1 & 0xffffffff))" | sed -E 's/(..)(..)(..)(..)/\\x\4\\x\3\\x\2\\x\1/'; }
	# magic, flags (a.out kludge: load addresses below), checksum,
	# header/load address, load end and bss end (0: the whole file), entry
	for v in 0x1BADB002 0x10000 "-(0x1BADB002 + 0x10000)" 0x100000 0x100000 0 0 0x100020; do
		h+=$(le32 "$v")
	done
	# shellcheck disable=SC2059
	printf "$h\\xfa\\xf4\\xeb\\xfd" >"$1"
	echo initrd >"$1.initrd"
}
case_interrupted() {	# CASE SIGNAL
	local n=$1 sig=$2 runs="$tmp/runs-$2" hook="$tmp/hook.sh" pid qf qpid="" rc left why=""
	local want_rc=143
	[ "$sig" = TERM ] || want_rc=130
	st_begin "$n" || return 0
	[ -e "$tmp/stub" ] || make_stub "$tmp/stub"
	mkdir -p "$runs"
	cat >"$hook" <<'HOOK'
#!/usr/bin/env bash
source "$TOP/ci/lib.sh"
guard "$@"
trap 'git -C "$TREE" checkout -q -- kernel/time/dyn-tick.c' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
git -C "$TREE" checkout -q --detach series~2
echo "junk" >>"$TREE/kernel/time/dyn-tick.c"
mktemp -d "$DYNTICK_RUN/tmp.XXXXXX" >/dev/null
INITRD="$1.initrd" bash "$TOP/ci/boot.sh" "$1" "$2" 1 "" 300
HOOK
	# Its own run (no DYNTICK_RUN of ours), in $runs; INT not ignored, as
	# it would be for a background job of this script.
	env -u DYNTICK_RUN --default-signal=INT TMPDIR="$runs" \
		bash "$hook" "$tmp/stub" "$tmp/stub-$sig.log" >"$tmp/hook-$sig.out" 2>&1 &
	pid=$!
	for _ in $(seq 300); do
		for qf in "$runs"/dyntick-run.*/qemu.*.pid; do
			qpid=$(cat "$qf" 2>/dev/null) && break
		done
		[ -z "$qpid" ] || break
		sleep 0.1
	done
	[ -n "$qpid" ] || why="QEMU did not start"
	kill -"$sig" "$pid" || true
	for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && { why="still running 60 s after SIG$sig"; kill -KILL "$pid"; }
	rc=0
	wait "$pid" || rc=$?
	# Whatever of the run still runs: its command line names our stub.
	left=$(ps -eo pid=,args= | S="$tmp/stub" awk 'ENVIRON["S"] != "" && index($0, ENVIRON["S"]) { print }')
	if [ -z "$why" ]; then
		if [ "$rc" != "$want_rc" ]; then why="exit $rc, not $want_rc"
		elif [ -n "$left" ]; then why="still running: $left"
		elif [ -n "$(ls -A "$runs")" ]; then why="run directory left: $(ls "$runs")"
		elif ! on_series_tip; then why="the tree is at $(tree_ref), not on series"
		elif [ -n "$(uncommitted_edits)" ]; then why="edits left: $(uncommitted_edits)"
		fi
	fi
	if [ -n "$why" ]; then
		flunk "$n" "$why" "$(cat "$tmp/hook-$sig.out")"
	else
		pass "$n" "SIG$sig: exit $rc, QEMU $qpid killed, tree back on series at $(short "$st_tip"), no edits, run directory removed"
	fi
	st_end
}
want interrupted-run && case_interrupted interrupted-run TERM
want interrupted-run-int && case_interrupted interrupted-run-int INT

# 13. A new documentation warning: TEXT appended to FILE of the series (an
# uncommitted edit, which st_end undoes) must give a warning matching
# PATTERN that the tip's documentation, built the same way (ci/docs.sh),
# does not have.
case_docs_warning() {	# CASE FILE TEXT PATTERN
	local new
	st_begin "$1" || return 0
	if ! bash "$TOP/ci/docs.sh" "$tmp/docs" >"$tmp/docs-tip.txt" 2>"$tmp/docs.err"; then
		flunk "$1" "the tip's documentation does not build" "$(cat "$tmp/docs.err")"
	else
		printf '%b' "$3" >>"$TREE/$2"
		bash "$TOP/ci/docs.sh" "$tmp/docs" >"$tmp/docs-bad.txt" 2>>"$tmp/docs.err" || true
		new=$(new_lines "$tmp/docs-tip.txt" "$tmp/docs-bad.txt" || true)
		if grep -qE "$4" <<<"$new"; then
			pass "$1" "$(grep -m1 -E "$4" <<<"$new")"
		else
			flunk "$1" "the edit of $2 gives no new warning matching '$4'" "$new"
		fi
	fi
	st_end
}
# htmldocs: a title with too short an underline
want docs-warning && case_docs_warning docs-warning Documentation/timers/dyn-tick.rst \
	'\nA title\n====\n' 'dyn-tick.rst: WARNING: Title underline too short'
# scripts/get_abi.pl validate: an entry with a bad tag and no description
want abi-warning && case_docs_warning abi-warning Documentation/ABI/testing/sysfs-devices-system-timer \
	'What:\t\t/sys/devices/system/timer/timer0/selftest\nBadTag:\tx\n' \
	"^ABI: .*timer0/selftest' doesn't have a description"

# 14. The parent's warnings file is missing (its pass failed, or it is from
# no run at all): that is an error, never "no new warnings".
want warnings-no-reference &&
	expect warnings-no-reference "no warnings file .*/nosuch" new_lines "$tmp/nosuch" "$TOP/ci/lib.sh"

# 15. A mutant whose substitution no longer matches the tip (the code it
# mutated was rewritten): ci/checks/mutants.sh must fail and name it. The
# check runs on a copy of ci/ whose mutants.conf has one such line more.
case_mutant_stale() {
	mkdir -p "$tmp/mtop"
	cp -r "$TOP/ci" "$tmp/mtop/"
	printf '%s\n' 'stale-mutant | kernel/time/dyn-tick.c | s/no such code in the series/x/ | 1 | - | idle_skips' \
		>>"$tmp/mtop/ci/mutants.conf"
	: >"$tmp/mutants.res"
	TOP=$tmp/mtop bash "$tmp/mtop/ci/checks/mutants.sh" "$tmp/mutants.res" >/dev/null 2>&1 || true
	if grep -qE '^FAIL.*stale-mutant: kernel/time/dyn-tick.c unchanged' "$tmp/mutants.res"; then
		pass mutant-stale "$(grep -m1 -oE 'stale-mutant: [^;]*' "$tmp/mutants.res")"
	else
		flunk mutant-stale "the stale substitution was not named" "$(cat "$tmp/mutants.res")"
	fi
}
want mutant-stale && case_mutant_stale

exit $fails
