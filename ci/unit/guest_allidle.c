// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the all_idle judge, run on the host by ci/unit/run.sh:
 * ci/guest/init.c compiled in with clock_gettime() replaced by a fake
 * clock and main() renamed (never called). Canned traces of two CPUs,
 * HZ=1000, so at most 16 ms of a skip beside a task:
 *   - a skip on CPU 1 for 30 ms of a task on CPU 0 fails;
 *   - the same with CPU 0 standing still for 28 ms of it (its task's
 *     clock jumped, CPU 0 traced nothing) passes, the stall reported;
 *   - the same jump while CPU 0 traced its ticks is no stall, and fails;
 *     the tick CPU 0 takes when it runs again does not hide the stall;
 *   - a jump of CPU 0's task says nothing of a task on CPU 1;
 *   - allidle_spin() records a jump of the clock as a gap, and the time
 *     from the wake-up to its first reading.
 */
#define clock_gettime fake_clock_gettime
#define main guest_main
#include "../guest/init.c"
#undef main
#undef clock_gettime

static int64_t now = 1000000000LL;	/* the fake CLOCK_MONOTONIC, in ns */
static int64_t jump_at, jump_by;	/* one jump of the clock, at that time */

int fake_clock_gettime(clockid_t clk, struct timespec *ts)
{
	(void)clk;
	now += 1000;	/* every read takes 1 us */
	if (jump_at && now >= jump_at) {
		now += jump_by;
		jump_at = 0;
	}
	ts->tv_sec = now / 1000000000LL;
	ts->tv_nsec = now % 1000000000LL;
	return 0;
}

static int fails;

static void expect(int cond, const char *what, const struct allidle_result *r)
{
	printf("%s %s: %d bad, the longest %.3f ms, %d stall(s) of at most %.3f ms, %.3f ms not counted\n",
	       cond ? "ok  " : "FAIL", what, r->bad, r->worst / 1e6, r->stalls, r->stall_max / 1e6,
	       r->stall_cut / 1e6);
	fails += !cond;
}

static char trace[8192];

static void line(int cpu, double ms, const char *what)
{
	size_t len = strlen(trace);

	snprintf(trace + len, sizeof(trace) - len,
		 "           <idle>-0       [%03d] d....  %4d.%06d: %s\n", cpu,
		 (int)(ms / 1000), (int)(ms * 1000) % 1000000, what);
}

#define SWITCH_TO(pid) "sched_switch: prev_comm=a prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=" #pid " next_prio=120"

/*
 * CPU SKIPS skips from 100 ms to 140 ms while CPU RUNS runs a task from
 * 110 ms to 150 ms; CPU 0 traces a tick every ms from 111 to 139 ms if
 * TICKS is 1, one tick at 138.5 ms (the one it missed) if 2.
 */
static int canned(int skips, int runs, int ticks, struct allidle_ev *ev)
{
	double t;

	trace[0] = 0;
	line(runs, 90, SWITCH_TO(0));
	line(skips, 100, "skip_start: ticks=40 limit=timer");
	line(runs, 110, SWITCH_TO(7));
	for (t = 111; ticks == 1 && t < 140; t++)
		line(0, t, "local_timer_entry: vector=236");
	if (ticks == 2)
		line(0, 138.5, "local_timer_entry: vector=236");
	line(skips, 140, "skip_end: ticks=40 cause=ipi");
	line(runs, 150, SWITCH_TO(0));
	return allidle_parse(trace, ev, 64);
}

#define MS 1000000LL

/*
 * canned(SKIPS, RUNS, TICKS) replayed with the task's gaps: from its
 * wake-up to its first reading at WOKE, and from JUMP_FROM to JUMP_TO if
 * JUMP_TO; at most 16 ms of skip beside a task. Returns the events read.
 */
static int replay(int skips, int runs, int ticks, int64_t woke, int64_t jump_from, int64_t jump_to,
		  struct allidle_result *r)
{
	static struct allidle_ev ev[64];
	struct allidle_gap gaps[2] = { { 0, woke }, { jump_from, jump_to } };
	int n = canned(skips, runs, ticks, ev);

	allidle_replay(ev, n, gaps, jump_to ? 2 : 1, 16 * MS, r);
	return n;
}

int main(void)
{
	struct allidle_result r;
	int64_t ms = MS, woke = 110 * MS + 20000, t0;
	int n, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	hz = 1000;
	ncpu = 2;

	n = replay(1, 0, 0, woke, 0, 0, &r);
	expect(n == 5 && r.bad == 1 && r.worst == 30 * ms && r.stalls == 0,
	       "cpu1 skips for 30 ms of a task on cpu0: fails", &r);

	n = replay(1, 0, 0, woke, 111 * ms, 139 * ms, &r);
	expect(r.bad == 0 && r.worst == 2 * ms && r.stalls == 1 && r.stall_max == 28 * ms,
	       "the same, cpu0 standing still for 28 ms of it: passes", &r);

	n = replay(1, 0, 1, woke, 111 * ms, 139 * ms, &r);
	expect(n == 34 && r.bad == 1 && r.worst == 30 * ms && r.stalls == 0,
	       "the same jump of the task's clock, cpu0 tracing its ticks: no stall, fails", &r);

	n = replay(1, 0, 2, woke, 111 * ms, 139 * ms, &r);
	expect(n == 6 && r.bad == 0 && r.stalls == 1 && r.stall_max == 27500000LL,
	       "the same, cpu0 taking the tick it missed before the task reads its clock: passes", &r);

	replay(0, 1, 0, woke, 111 * ms, 139 * ms, &r);
	expect(r.bad == 1 && r.worst == 30 * ms,
	       "cpu0 skips for 30 ms of a task on cpu1, cpu0's task stood still: fails", &r);

	replay(1, 0, 0, 135 * ms, 0, 0, &r);
	expect(r.bad == 0 && r.worst == 5 * ms && r.stalls == 1 && r.stall_max == 25 * ms,
	       "cpu0 switched to the task at 110 ms, which read its clock first at 135 ms: a stall, passes", &r);

	allidle_ngaps = 0;
	t0 = now;
	jump_at = now + 10 * ms;
	jump_by = 20 * ms;
	allidle_spin();
	ok = allidle_ngaps == 2 && allidle_gaps[0].from == 0 && allidle_gaps[0].to - t0 < ms &&
	     allidle_gaps[1].to - allidle_gaps[1].from > 20 * ms &&
	     allidle_gaps[1].to - allidle_gaps[1].from < 21 * ms;
	printf("%s allidle_spin: a jump of 20 ms is a gap: %d gaps, [0, +%.3f ms], [+%.3f, +%.3f ms]\n",
	       ok ? "ok  " : "FAIL", allidle_ngaps, (allidle_gaps[0].to - t0) / 1e6,
	       (allidle_gaps[1].from - t0) / 1e6, (allidle_gaps[1].to - t0) / 1e6);
	return fails || !ok;
}
