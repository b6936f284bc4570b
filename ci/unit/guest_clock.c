// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the guest's clock judges, run on the host by ci/unit/run.sh
 * against a fake clock: ci/guest/init.c is compiled in with clock_gettime(),
 * clock_nanosleep() and times() replaced and its main() renamed (never
 * called: it would mount file systems and power off). Only functions that
 * read /proc and the clocks run here, nothing that writes to /sys.
 *   - jiffies_offset() with no usable edge (times() steps by two, or never
 *     moves) fails, in bounded time, and the drift and the test using it
 *     say NO DATA and fail;
 *   - worst_sleep_late() sees a sleep that returns early, and fails it; a
 *     sleep late in every round fails, and a host that stalls the guest
 *     for a while (every sleep that starts within 0.8 s is 5 ms late) does
 *     not fail it.
 */
#define clock_gettime fake_clock_gettime
#define clock_nanosleep fake_clock_nanosleep
#define times fake_times
#define main guest_main
#include "../guest/init.c"
#undef main
#include "capture.h"
#undef clock_gettime
#undef clock_nanosleep
#undef times

static int64_t now = 1000000000LL;	/* the fake CLOCK_MONOTONIC, in ns */
static int64_t sleep_error;		/* added to every sleep: < 0 is early */
static int64_t stall_from, stall_to;	/* a sleep that starts in [from, to) */
static int64_t stall_error;		/* ... has this added instead */
static enum { J_NORMAL, J_STEP2, J_STUCK } jmode;

int fake_clock_gettime(clockid_t clk, struct timespec *ts)
{
	(void)clk;
	now += 1000;	/* every read takes 1 us */
	ts->tv_sec = now / 1000000000LL;
	ts->tv_nsec = now % 1000000000LL;
	return 0;
}

int fake_clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	(void)clk;
	(void)flags;
	(void)rem;
	now += req->tv_sec * 1000000000LL + req->tv_nsec +
	       (now >= stall_from && now < stall_to ? stall_error : sleep_error);
	return 0;
}

clock_t fake_times(struct tms *t)
{
	int64_t step = 1000000000LL / sysconf(_SC_CLK_TCK);

	memset(t, 0, sizeof(*t));
	switch (jmode) {
	case J_STEP2:
		return (clock_t)(now / (2 * step) * 2);
	case J_STUCK:
		return 42;
	default:
		return (clock_t)(now / step);
	}
}

static int fails;

static void expect(int cond, const char *what)
{
	printf("%s %s\n", cond ? "ok  " : "FAIL", what);
	fails += !cond;
}

static struct drift d;
static struct sleeps sl;

static void run_drift(void)
{
	drift_start(&d);
	sleep_ns(5000000000LL);
	drift_end(&d);
}

static void run_sleeps(void)
{
	worst_sleep_late(&sl);
}

static void run_jiffies_test(void)
{
	idle_secs = 5;
	ncpu = 1;
	t_jiffies_vs_monotonic();
}

int main(void)
{
	const char *out;
	int64_t off, t0;

	setvbuf(stdout, NULL, _IOLBF, 0);

	jmode = J_NORMAL;
	expect(jiffies_offset(&off) == 0, "jiffies_offset: a usable edge gives an offset");
	out = capture(run_drift);
	printf("     %s\n", d.text);
	expect(d.ok && drift_within(&d, 10000000LL) && !strncmp(d.text, "jiffies drift ", 14) &&
	       !*out,
	       "drift: jiffies and the clock agree");

	jmode = J_STEP2;
	out = capture(run_drift);
	printf("%s     %s\n", out, d.text);
	expect(!d.ok && !drift_within(&d, 10000000LL) && strstr(d.text, "NO DATA") &&
	       strstr(out, "# no usable jiffies edge"),
	       "drift: times() stepping by two is no data, and fails");

	jmode = J_STUCK;
	t0 = now;
	expect(jiffies_offset(&off) == -1 && now - t0 < 4000000000LL,
	       "jiffies_offset: times() that never moves fails within 3 s");

	jmode = J_STEP2;
	out = capture(run_jiffies_test);
	printf("%s", out);
	expect(strstr(out, "not ok 1 jiffies_vs_monotonic # NO DATA") != NULL,
	       "jiffies_vs_monotonic: no data fails the test and says so");
	jmode = J_NORMAL;

	sleep_error = 300000;
	capture(run_sleeps);
	printf("     %s\n", sl.text);
	expect(sleeps_ok(&sl) && strstr(sl.text, "none early"), "sleeps: 0.3 ms late passes");

	sleep_error = -500000;
	capture(run_sleeps);
	printf("     %s\n", sl.text);
	expect(!sleeps_ok(&sl) && sl.earliest < 0 && strstr(sl.text, "EARLY WAKE-UP"),
	       "sleeps: a wake-up 0.5 ms early fails");

	sleep_error = 5000000;
	capture(run_sleeps);
	printf("     %s\n", sl.text);
	expect(!sleeps_ok(&sl) && strstr(sl.text, "none early"), "sleeps: 5 ms late fails");

	/*
	 * The host stalls the guest for 0.8 s once the warm-up is over: the
	 * first round's late sleeps are slept again in a later round.
	 */
	sleep_error = 300000;
	stall_error = 5000000;
	stall_from = now + 60000000LL;
	stall_to = stall_from + 800000000LL;
	capture(run_sleeps);
	printf("     %s\n", sl.text);
	expect(sleeps_ok(&sl) && sl.worst < 1000000, "sleeps: late for 0.8 s of a host stall passes");
	stall_to = 0;

	return fails != 0;
}
