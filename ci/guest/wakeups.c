// SPDX-License-Identifier: GPL-2.0
/*
 * Part of the test guest's /init, included by init.c (one program, one
 * translation unit): wake-ups the kernel delivers from the tick: RCU, irq_work, load balancing.
 */

/*
 * Latency of a wake-up that the kernel delivers from the tick, with
 * skipping off (the periodic tick) and on, in the same boot: @probe
 * returns the latency of one wake-up in ns, or -1 on error. The medians
 * are compared: a skip that ignores what the kernel still has to do delays
 * most wake-ups by up to the CPU's next timer, while the host descheduling
 * the emulator delays a few of either pass.
 */
struct wake_lat {
	int64_t median[2], worst[2];	/* [0]: skipping off, [1]: on */
	int errs;
};

/*
 * How much later than with the periodic tick the median may be: 10 ticks
 * and 2 ms. Measured at HZ=1000 over 10 boots with a kernel build running
 * beside them, the median was 0.8 ms shorter to 4.2 ms longer with skipping
 * on; with rcu_needs_cpu() ignored (mutant rcu-ignored) 433 ms longer.
 */
static int64_t wake_slack(void)
{
	return 10 * 1000000000LL / hz + 2000000LL;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

#define WAKE_ROUNDS	15

static void wake_latency(int64_t (*probe)(void *), void *arg, struct wake_lat *w)
{
	int64_t lat[WAKE_ROUNDS];
	int pass, i;

	memset(w, 0, sizeof(*w));
	for (pass = 0; pass < 2; pass++) {
		w->errs += !!write_str(SYSDIR "dyn_tick_state", pass ? "1" : "0");
		for (i = 0; i < WAKE_ROUNDS; i++) {
			/* Idle long enough for every CPU to be in a skip */
			sleep_ns(60000000LL + i * 7000000LL);
			lat[i] = probe(arg);
			if (lat[i] < 0)
				w->errs++;
		}
		qsort(lat, WAKE_ROUNDS, sizeof(lat[0]), cmp_i64);
		w->median[pass] = lat[WAKE_ROUNDS / 2];
		w->worst[pass] = lat[WAKE_ROUNDS - 1];
	}
}

static void wake_result(const struct wake_lat *w, const char *name, const char *what)
{
	int64_t bound = w->median[0] + wake_slack();

	CLAUSE(!w->errs);
	CLAUSE(w->median[1] <= bound);
	result_of(name,
	          "%s, median (worst) of %d: skipping off %.2f (%.2f) ms, on %.2f (%.2f) ms; median at most %.2f ms%s",
	          what, WAKE_ROUNDS, w->median[0] / 1e6, w->worst[0] / 1e6,
	          w->median[1] / 1e6, w->worst[1] / 1e6, bound / 1e6,
	          w->errs ? "; ERRORS in the probe" : "");
}

/* One membarrier(MEMBARRIER_CMD_GLOBAL): a synchronize_rcu() */
static int64_t rcu_probe(void *arg)
{
	int64_t t0 = mono_ns();

	(void)arg;
	if (syscall(__NR_membarrier, 1 /* MEMBARRIER_CMD_GLOBAL */, 0, 0))
		return -1;
	return mono_ns() - t0;
}

/*
 * RCU: a CPU that holds RCU callbacks must not skip (rcu_needs_cpu()), or
 * they, and the grace period's end, wait for its skip to end: up to
 * max_skip. membarrier(MEMBARRIER_CMD_GLOBAL) waits for a grace period.
 */
static void t_rcu_grace(void)
{
	struct wake_lat w;

	wake_latency(rcu_probe, NULL, &w);
	wake_result(&w, "rcu_grace", "membarrier(MEMBARRIER_CMD_GLOBAL)");
}

/*
 * irq_work: lazy irq_work (IRQ_WORK_LAZY) raises no interrupt; it runs from
 * the next tick, so a CPU that holds some must not skip
 * (irq_work_needs_cpu()). printk() wakes the readers of the log with such
 * work: a reader blocked in read() on /dev/kmsg gets a line written there
 * about a tick later, or, on a CPU that skips with the work pending, at the
 * skip's end.
 */
static int64_t kmsg_probe(void *arg)
{
	static const char line[] = "<7>dyntick: irq_work probe\n";
	int ready[2], done[2], kfd;
	int64_t t0, t1 = -1;
	char c = 0;
	pid_t pid;

	(void)arg;
	if (pipe(ready) || pipe(done))
		return -1;
	pid = fork();
	if (pid == 0) {
		char buf[512];
		int fd = open("/dev/kmsg", O_RDONLY);

		if (fd < 0 || lseek(fd, 0, SEEK_END) < 0 || write(ready[1], &c, 1) != 1)
			_exit(1);
		if (read(fd, buf, sizeof(buf)) <= 0)
			_exit(1);
		t1 = mono_ns();
		_exit(write(done[1], &t1, sizeof(t1)) == sizeof(t1) ? 0 : 1);
	}
	kfd = open("/dev/kmsg", O_WRONLY);
	if (pid < 0 || kfd < 0 || read(ready[0], &c, 1) != 1) {
		t1 = -1;
	} else {
		/* Long enough for the reader to block and every CPU to skip */
		sleep_ns(50000000LL);
		t0 = mono_ns();
		if (write(kfd, line, sizeof(line) - 1) != sizeof(line) - 1 ||
		    read(done[0], &t1, sizeof(t1)) != sizeof(t1))
			t1 = -1;
		else
			t1 -= t0;
	}
	if (kfd >= 0)
		close(kfd);
	if (pid > 0)
		stop(pid);
	close(ready[0]);
	close(ready[1]);
	close(done[0]);
	close(done[1]);
	return t1;
}

static void t_irq_work_lazy(void)
{
	struct wake_lat w;

	wake_latency(kmsg_probe, NULL, &w);
	wake_result(&w, "irq_work_lazy", "a line written to /dev/kmsg until a blocked reader has it");
}

/*
 * Load balancing: an idle CPU pulls work from its own tick, and a CPU in a
 * skip takes none. Two tasks that spin are started on CPU 0 (they inherit
 * its affinity) and then allowed on every CPU: the time until one of them
 * runs on another CPU. The CPU that leaves idle to run them kicks the
 * others out of their skips, so they tick and pull one within a few ticks,
 * as with the periodic tick; without the kick they would not look before
 * their next timer.
 */
static int64_t balance_probe(void *arg)
{
	int64_t t0, got = -1;
	pid_t pid[2];
	int p[2], i;

	(void)arg;
	if (pipe(p))
		return -1;
	pin_to(0);
	t0 = mono_ns();
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			int64_t now;

			pin_to(-1);
			while (sched_getcpu() == 0 && mono_ns() - t0 < 3000000000LL)
				;
			now = mono_ns();
			if (write(p[1], &now, sizeof(now)) != sizeof(now))
				_exit(1);
			for (;;)
				;
		}
	}
	if (read(p[0], &got, sizeof(got)) != sizeof(got))
		got = -1;
	for (i = 0; i < 2; i++)
		if (pid[i] > 0)
			stop(pid[i]);
	close(p[0]);
	close(p[1]);
	pin_to(-1);
	return got < 0 || pid[0] < 0 || pid[1] < 0 ? -1 : got - t0;
}

static void t_load_balance(void)
{
	struct wake_lat w;

	wake_latency(balance_probe, NULL, &w);
	wake_result(&w, "load_balance", "2 tasks spinning on cpu0 allowed everywhere, until one runs elsewhere");
}
