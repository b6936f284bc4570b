// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the guest's long idle window, run on the host by
 * ci/unit/run.sh: ci/guest/init.c compiled in with clock_nanosleep()
 * replaced by a fake that counts the sleeps of the window's length in
 * memory shared with the tests' processes, and main() renamed (never
 * called). idle_skips, jiffies_vs_monotonic and proc_stat_idle judge one
 * window between them: run each by run_test(), in its own process as in
 * the guest, and the window must have been slept once, not once per test
 * (it is 20 s at the tip, and a window per test made every boot that runs
 * all three 40 s longer). What the three tests decide on the host's
 * /proc is not judged here.
 */
#define clock_nanosleep fake_clock_nanosleep
#define main guest_main
#include "../guest/init.c"
#undef main
#include "capture.h"
#undef clock_nanosleep

static int *windows;	/* sleeps of the window's length, in all processes */

int fake_clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	(void)clk;
	(void)flags;
	(void)rem;
	if (req->tv_sec == idle_secs)
		__atomic_add_fetch(windows, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static const struct test idle_tests[] = {
	{ "idle_skips", t_idle_skips },
	{ "jiffies_vs_monotonic", t_jiffies_vs_monotonic },
	{ "proc_stat_idle", t_proc_stat_idle },
};

static void run_idle_tests(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(idle_tests) / sizeof(idle_tests[0]); i++)
		run_test(&idle_tests[i]);
}

int main(void)
{
	const char *out;
	int ok;

	windows = mmap(NULL, sizeof(*windows), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (windows == MAP_FAILED) {
		printf("FAIL cannot map the counter: %s\n", strerror(errno));
		return 1;
	}
	hz = 100;
	ncpu = 1;
	out = capture(run_idle_tests);
	ok = *windows == 1 && test_no == 3;
	printf("%s 3 tests, %d results, the %d s window slept %d time(s) (want 1)\n%s",
	       ok ? "ok  " : "FAIL", test_no, idle_secs, *windows, out);
	return !ok;
}
