#!/usr/bin/env bash
# Harness self-test: feed the workbench bad input on purpose and check that
# each is caught with a clear message. Prints "selftest ok CASE" or
# "selftest FAIL CASE" per case. Leaves the worktree at the series tip.
source "$(dirname "$0")/lib.sh"
set +e
export TOP WORK TREE LOGDIR

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kernel="$WORK/build-on/arch/x86/boot/bzImage"
fails=0

expect() {	# CASE PATTERN COMMAND...: COMMAND must fail and print PATTERN
	local name=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc != 0 ] && printf '%s\n' "$out" | grep -qE "$pat"; then
		echo "selftest ok   $name: $(printf '%s\n' "$out" | grep -m1 -E "$pat" | cut -c1-150)"
	else
		echo "selftest FAIL $name: not caught (exit $rc)"
		printf '%s\n' "$out" | tail -n 10 | sed 's/^/    /'
		fails=$((fails + 1))
	fi
}

# 1. A patch that does not apply: the first patch with a context line changed.
mkdir -p "$tmp/series"
first=$(series_patches | head -n1)
sed '0,/^ #include <linux\/cpu.h>$/s//  #include <linux\/cpu.h>/' "$first" >"$tmp/series/$(basename "$first")"
cmp -s "$first" "$tmp/series/$(basename "$first")" &&
	sed -i '0,/^ [a-z]/s/^ \([a-z]\)/ X\1/' "$tmp/series/$(basename "$first")"
expect patch-does-not-apply "does not apply.*file: .*installed linux-source-6.1 is .*verified on" \
	env TOP="$tmp/series" bash "$TOP/ci/tree.sh"

# 2. A checkpatch error.
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

# Back to the real series for the build and boot cases.
bash "$TOP/ci/tree.sh" >/dev/null 2>&1 || { echo "selftest FAIL restore: series does not apply"; exit 1; }

# 3. A commit that does not build.
echo "this is not C;" >>"$TREE/kernel/time/dyn-tick.c"
expect build-error "dyn-tick.c:[0-9]+:[0-9]+: error" \
	bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on
git -C "$TREE" checkout -q -- kernel/time/dyn-tick.c

# 4. A kernel that panics at boot (no init to run).
expect boot-panic "BOOT FAIL .*Kernel panic" \
	bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-panic.log" 1 "rdinit=/nonexistent" 60

# 5. A guest test that fails.
expect guest-test-fails "BOOT FAIL .*guest test\(s\) failed: must_fail" \
	bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-fail.log" 1 "dt.tests=sleep_sane,must_fail" 60

# 6. A guest that never finishes (hangs until the timeout).
expect boot-timeout "BOOT FAIL .*timeout after" \
	bash "$TOP/ci/boot.sh" "$kernel" "$LOGDIR/selftest-hang.log" 1 "dt.mode=shell dt.hang=1" 15

exit $fails
