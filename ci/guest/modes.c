// SPDX-License-Identifier: GPL-2.0
/*
 * Part of the test guest's /init, included by init.c (one program, one
 * translation unit): demo, benchmark and wake-up tally modes (make run,
 * make bench, make wakes).
 */

/* ---- demo and benchmark modes ----------------------------------------- */

static void demo(void)
{
	char buf[512];

	wait_suitable();
	if (read_file(SYSDIR "dyn_tick_state", buf, sizeof(buf)) > 0)
		printf("DEMO dyn_tick_state:\n%s", buf);
	else
		printf("DEMO dyn_tick_state: (none: kernel without NO_IDLE_HZ)\n");
	printf("DEMO idle timer interrupts/s per CPU over 5 s: %.1f\n",
	       idle_rate(5000000000LL));
	printf("DYNTICK-GUEST-END\n");
}

/*
 * What wakes an idle guest (make wakes): the trace events of every timer
 * interrupt, the skips and the timers that expire, over dt.idle seconds
 * of idle between two trace markers (WAKES-WINDOW-BEGIN and -END, written
 * once the guest's own output has drained), printed between
 * "WAKES-TRACE-BEGIN" and "WAKES-TRACE-END" for ci/wakes.py to tally. The
 * events that a kernel lacks (dyn_tick without NO_IDLE_HZ, irq_vectors on
 * a kernel without the local APIC) stay off.
 */
static void wake_tally(void)
{
	static const char * const events[] = {
		"dyn_tick", "irq/irq_handler_entry", "irq_vectors/local_timer_entry",
		"timer/timer_expire_entry", "timer/hrtimer_expire_entry",
	};
	char path[128];
	unsigned int i;
	int fd, on = 0;

	settle();
	wait_suitable();
	if (access(TRACEDIR "events", F_OK))
		mount("tracefs", TRACEDIR, "tracefs", 0, NULL);
	write_str(TRACEDIR "buffer_size_kb", "2048");
	fd = open(TRACEDIR "trace", O_WRONLY | O_TRUNC);
	if (fd >= 0)
		close(fd);
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(path, sizeof(path), TRACEDIR "events/%s/enable", events[i]);
		if (!access(path, F_OK) && !write_str(path, "1"))
			on++;
	}
	printf("WAKES events %d window_s %d\n", on, idle_secs);
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
	/*
	 * The marker file stays open across the window: closing a file
	 * queues RCU callbacks, and the CPU would tick for them at its start.
	 */
	fd = open(TRACEDIR "trace_marker", O_WRONLY);
	sleep_ns(100000000LL);
	if (fd < 0 || write(fd, "WAKES-WINDOW-BEGIN", 18) != 18)
		printf("WAKES no marker\n");
	sleep_ns(idle_secs * 1000000000LL);
	if (fd < 0 || write(fd, "WAKES-WINDOW-END", 16) != 16)
		printf("WAKES no marker\n");
	if (fd >= 0)
		close(fd);
	write_str(TRACEDIR "events/enable", "0");
	printf("WAKES-TRACE-BEGIN\n");
	fflush(stdout);
	fd = open(TRACEDIR "trace", O_RDONLY);
	if (fd >= 0) {
		static char buf[65536];
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, n, stdout);
		close(fd);
	}
	printf("WAKES-TRACE-END\n");
	printf("DYNTICK-GUEST-END\n");
}

/*
 * One benchmark run (make bench): the workloads of bench/results.md in a
 * row. Around each measured window the guest prints "HOSTCPU name-begin"
 * and "HOSTCPU name-end"; the host notes QEMU's CPU time as it reads each
 * line (ci/qemu_run.py), so that its window is the guest's, give or take
 * the serial line's latency. Results are "BENCH key value" lines.
 */
#define BENCH_WINDOW_NS		3000000000LL	/* each active workload */
#define BENCH_PERIODS		{ 10, 37, 100 }	/* ms: a player, a poller */
#define BENCH_ODD_SLEEPS	150		/* sleeps of odd lengths */

static void mark(const char *name, const char *edge)
{
	printf("HOSTCPU %s-%s\n", name, edge);
	fflush(stdout);
}

/* Median, 99th percentile (nearest rank) and worst of @n samples, in ms */
static void print_lateness(const char *key, int64_t *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	printf("BENCH %s_median_ms %.3f\n", key, v[n / 2] / 1e6);
	printf("BENCH %s_p99_ms %.3f\n", key, v[(n * 99 + 99) / 100 - 1] / 1e6);
	printf("BENCH %s_worst_ms %.3f\n", key, v[n - 1] / 1e6);
}

/* Timer interrupts of one CPU so far (local APIC timer and IRQ 0) */
static long long cpu_timer_irqs(int cpu)
{
	return irq_count_cpu("LOC:", cpu) + irq_count_cpu("0:", cpu);
}

/* Idle: timer interrupts and jiffies against CLOCK_MONOTONIC */
static void bench_idle(void)
{
	long long i0, i1, a0, a1, p0, p1, v0[ST_NR], v1[ST_NR];
	int stats = have_stats(), i;
	struct drift d;
	int64_t m0, m1;
	double s;

	/*
	 * The counters are read outside the host's window: under TCG the
	 * reads of sysfs and /proc cost host time that is not the idle's.
	 */
	drift_start(&d);
	if (stats)
		stats_get(v0);
	a0 = all_irqs();
	p0 = ipi_irqs();
	i0 = timer_irqs();
	m0 = mono_ns();
	mark("idle", "begin");
	sleep_ns(idle_secs * 1000000000LL);
	mark("idle", "end");
	m1 = mono_ns();
	i1 = timer_irqs();
	p1 = ipi_irqs();
	a1 = all_irqs();
	if (stats)
		stats_get(v1);
	drift_end(&d);
	s = (m1 - m0) / 1e9;
	printf("BENCH idle_irq_per_s %.2f\n", (i1 - i0) / s);
	printf("BENCH idle_all_irq_per_s %.2f\n", (a1 - a0) / s);
	printf("BENCH idle_ipi_per_s %.2f\n", (p1 - p0) / s);
	/* What ended the skips of the window (dyn-tick only) */
	for (i = ST_SKIPS; stats && i < ST_NR; i++)
		if (i != ST_TICKS && i != ST_LONGEST)
			printf("BENCH idle_%s_per_s %.2f\n", stat_names[i], (v1[i] - v0[i]) / s);
	if (d.ok)
		printf("BENCH drift_ms %.3f\n", d.ns / 1e6);
}

/*
 * Short idles: two tasks pass a byte back and forth through two pipes, on
 * CPUs 0 and 1; each pass leaves a CPU idle for microseconds.
 */
static void bench_pipe(void)
{
	int ab[2], ba[2], res[2];
	long long i0, i1, n = 0;
	int64_t m0, m1;
	pid_t a, b;
	char c = 0;

	if (ncpu < 2 || pipe(ab) || pipe(ba) || pipe(res))
		return;
	b = fork();
	if (b == 0) {
		close(ab[1]);
		close(ba[0]);
		close(res[0]);
		close(res[1]);
		pin_to(1);
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		_exit(0);
	}
	mark("pipe", "begin");
	i0 = timer_irqs();
	m0 = mono_ns();
	a = b < 0 ? -1 : fork();
	if (a == 0) {
		int64_t t0 = mono_ns();

		close(ab[0]);
		close(ba[1]);
		close(res[0]);
		pin_to(0);
		do {
			if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
				_exit(1);
			n++;
		} while ((n & 255) || mono_ns() - t0 < BENCH_WINDOW_NS);
		if (write(res[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(0);
	}
	/* The children hold the pipes' other ends: a child that exits ends the read */
	close(res[1]);
	close(ab[0]);
	close(ba[1]);
	if (a < 0 || read(res[0], &n, sizeof(n)) != sizeof(n))
		n = 0;
	m1 = mono_ns();
	i1 = timer_irqs();
	mark("pipe", "end");
	close(ab[1]);
	close(ba[0]);
	close(res[0]);
	if (a > 0)
		waitpid(a, NULL, 0);
	if (b > 0)
		waitpid(b, NULL, 0);
	if (n > 0) {
		printf("BENCH pipe_rt_per_s %.0f\n", n / ((m1 - m0) / 1e9));
		printf("BENCH pipe_irq_per_s %.2f\n", (i1 - i0) / ((m1 - m0) / 1e9));
	}
}

/* Periodic wake-ups: a task that wakes every @ms on an absolute deadline */
static void bench_periodic(int ms)
{
	int n = BENCH_WINDOW_NS / (ms * 1000000LL), i;
	int64_t late[400], next;
	long long i0, i1;
	struct timespec ts;
	char name[32], key[32];

	if (n > 400)
		n = 400;
	snprintf(name, sizeof(name), "periodic%d", ms);
	snprintf(key, sizeof(key), "periodic%d_late", ms);
	mark(name, "begin");
	i0 = timer_irqs();
	next = mono_ns();
	for (i = 0; i < n; i++) {
		next += ms * 1000000LL;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		late[i] = mono_ns() - next;
	}
	i1 = timer_irqs();
	mark(name, "end");
	print_lateness(key, late, n);
	printf("BENCH %s_irq_per_s %.2f\n", name, (i1 - i0) / (n * ms / 1e3));
}

/* Sleeps of odd lengths, 3 to 60 ms: the tail of the wake-up lateness */
static void bench_odd_sleeps(void)
{
	int64_t late[BENCH_ODD_SLEEPS], len, t0;
	int i;

	mark("sleeps", "begin");
	for (i = 0; i < BENCH_ODD_SLEEPS; i++) {
		len = 3000000 + (i * 7777777LL) % 57000000;
		t0 = mono_ns();
		sleep_ns(len);
		late[i] = mono_ns() - t0 - len;
	}
	mark("sleeps", "end");
	print_lateness("sleep_late", late, BENCH_ODD_SLEEPS);
}

/* One CPU busy, the others idle: timer interrupts of each */
static void bench_one_busy(void)
{
	long long b0, b1, o0 = 0, o1 = 0;
	int64_t m0, m1;
	pid_t spinner;
	int c;

	if (ncpu < 2)
		return;
	spinner = spin_on(0);
	sleep_ns(200000000LL);
	mark("onebusy", "begin");
	m0 = mono_ns();
	b0 = cpu_timer_irqs(0);
	for (c = 1; c < ncpu; c++)
		o0 += cpu_timer_irqs(c);
	sleep_ns(BENCH_WINDOW_NS);
	b1 = cpu_timer_irqs(0);
	for (c = 1; c < ncpu; c++)
		o1 += cpu_timer_irqs(c);
	m1 = mono_ns();
	mark("onebusy", "end");
	stop(spinner);
	printf("BENCH onebusy_busy_irq_per_s %.2f\n", (b1 - b0) / ((m1 - m0) / 1e9));
	printf("BENCH onebusy_idle_irq_per_s %.2f\n",
	       (o1 - o0) / ((m1 - m0) / 1e9) / (ncpu - 1));
}

/* A CPU-bound loop: what the tick costs a task that never sleeps */
static void bench_loop(void)
{
	volatile unsigned long n = 0;
	unsigned int i;
	int64_t t0;

	t0 = mono_ns();
	while (mono_ns() - t0 < BENCH_WINDOW_NS)
		for (i = 0; i < 100000; i++)
			n++;
	printf("BENCH loops_per_s %.0f\n", n / ((mono_ns() - t0) / 1e9));
}

static void bench(void)
{
	static const int periods[] = BENCH_PERIODS;
	unsigned int i;

	settle();
	wait_suitable();
	sleep_ns(1000000000LL);
	bench_idle();
	bench_pipe();
	for (i = 0; i < sizeof(periods) / sizeof(periods[0]); i++)
		bench_periodic(periods[i]);
	bench_one_busy();
	bench_odd_sleeps();
	bench_loop();
	printf("DYNTICK-GUEST-END\n");
}
