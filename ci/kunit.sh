#!/usr/bin/env bash
# Run the series' KUnit suite with the tree's own kunit.py: an i386 kernel
# from kernel/time/.kunitconfig, booted in qemu-system-i386 (TCG), in its
# own build directory, with ccache.
# usage: kunit.sh LOG      (the tree at the commit to test)
source "$(dirname "$0")/lib.sh"

log=$1
cd "$TREE" || exit 1
if ! grep -qs DYN_TICK_KUNIT_TEST kernel/time/.kunitconfig; then
	echo "kunit: no dyn-tick suite in kernel/time/.kunitconfig at this commit"
	exit 1
fi
rc=0
python3 tools/testing/kunit/kunit.py run --arch=i386 --kunitconfig=kernel/time \
	--build_dir="$WORK/build-kunit" --jobs="$(nproc)" --timeout=600 \
	--make_options "CC=ccache gcc" >"$log" 2>&1 || rc=$?
grep -E '\[(PASSED|FAILED|SKIPPED|CRASHED)\]|Testing complete|^\[.*\] (Elapsed|Error)' "$log" | sed 's/^/    kunit: /' || true
[ $rc = 0 ] || tail -n 30 "$log" | sed 's/^/    kunit: /'
exit $rc
