// SPDX-License-Identifier: GPL-2.0
/*
 * Part of the test guest's /init, included by init.c (one program, one
 * translation unit): small helpers: clocks, files, sysfs, interrupt counts, results.
 */

/* ---- small helpers ---------------------------------------------------- */

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, total = 0;

	if (fd < 0)
		return -1;
	while (total < (ssize_t)len - 1 &&
	       (n = read(fd, buf + total, len - 1 - total)) > 0)
		total += n;
	close(fd);
	buf[total] = 0;
	return (int)total;
}

/* Write a string; returns 0 or the errno of the failed write */
static int write_file(const char *path, const char *val, size_t len)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, len) < 0)
		err = errno;
	close(fd);
	return err;
}

static int write_str(const char *path, const char *val)
{
	return write_file(path, val, strlen(val));
}

static int state_field(const char *name)
{
	char buf[512], *p;

	if (read_file(SYSDIR "dyn_tick_state", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, name);
	if (!p)
		return -1;
	p = strchr(p, ':');
	return p ? atoi(p + 1) : -1;
}

/* The counters of dyn_tick_stats/, in the order of stat_names */
enum { ST_SKIPS, ST_TICKS, ST_LONGEST, ST_TIMER, ST_IRQ, ST_IPI, ST_MAX_SKIP, ST_CS_LIMIT, ST_NR };
static const char * const stat_names[ST_NR] = {
	"skips", "ticks_skipped", "longest_skip_us", "wake_timer",
	"wake_irq", "wake_ipi", "wake_max_skip", "wake_cs_limit",
};

static int have_stats(void)
{
	return access(STATDIR "skips", F_OK) == 0;
}

static long long stat_read(int i)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), STATDIR "%s", stat_names[i]);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atoll(buf);
}

static void stats_get(long long *v)
{
	int i;

	for (i = 0; i < ST_NR; i++)
		v[i] = stat_read(i);
}

/* Reset every counter; returns the number of writes that failed */
static int stats_reset(void)
{
	char path[128];
	int i, errs = 0;

	for (i = 0; i < ST_NR; i++) {
		snprintf(path, sizeof(path), STATDIR "%s", stat_names[i]);
		errs += !!write_str(path, "0");
	}
	return errs;
}

static long long wakes(const long long *v)
{
	return v[ST_TIMER] + v[ST_IRQ] + v[ST_IPI] + v[ST_MAX_SKIP] + v[ST_CS_LIMIT];
}

static int online_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * Interrupts so far on the /proc/interrupts line that starts with @tag, or,
 * when @tag is NULL, on every line but ERR and MIS (totals, not interrupts
 * taken): every interrupt, the vCPUs' wake-ups. Of CPU @cpu (its column),
 * or of all CPUs when @cpu is negative.
 */
static long long irq_count_cpu(const char *tag, int cpu)
{
	static char buf[65536];
	long long total = 0, v;
	int i, n = online_cpus();
	char *line, *save;

	if (read_file("/proc/interrupts", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line;

		while (*p == ' ')
			p++;
		if (tag ? strncmp(p, tag, strlen(tag)) :
		    !strncmp(p, "ERR:", 4) || !strncmp(p, "MIS:", 4))
			continue;
		/* The first line, which names the CPUs, has no colon */
		p = strchr(p, ':');
		if (!p)
			continue;
		p++;
		for (i = 0; i < n; i++) {
			v = strtoll(p, &p, 10);
			if (cpu < 0 || i == cpu)
				total += v;
		}
	}
	return total;
}

static long long irq_count(const char *tag)
{
	return irq_count_cpu(tag, -1);
}

static long long all_irqs(void)
{
	return irq_count(NULL);
}

/* Interrupts from other CPUs so far: reschedule, function call, TLB */
static long long ipi_irqs(void)
{
	return irq_count("RES:") + irq_count("CAL:") + irq_count("TLB:");
}

/* Timer interrupts so far: local APIC timer (LOC) plus IRQ 0 (PIT) */
static long long timer_irqs(void)
{
	return irq_count("LOC:") + irq_count("0:");
}


/* Idle and iowait time of all CPUs from /proc/stat, in USER_HZ ticks */
static long long stat_idle(void)
{
	char buf[4096];
	long long v[8] = { 0 };

	if (read_file("/proc/stat", buf, sizeof(buf)) < 0)
		return -1;
	sscanf(buf, "cpu %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3], &v[4]);
	return v[3] + v[4];
}

static void diag(const char *fmt, ...);

/*
 * Monotonic time minus jiffies (as times() reports them, in USER_HZ), taken
 * at an edge of times(): the edge is accepted only when times() stepped by
 * exactly one and the monotonic reads around the two calls that saw it are
 * at most 200 us apart, so that an interrupt or a preemption in between
 * cannot shift the reading by up to a whole USER_HZ period.
 * Returns 0 with the offset in *off, or -1 (and says why) when no edge was
 * usable: 100 edges, or 3 s, without one step of exactly one.
 */
static int jiffies_offset(int64_t *off)
{
	long user_hz = sysconf(_SC_CLK_TCK);
	int64_t step = 1000000000LL / user_hz, pa, a, b, best = 0, gap = INT64_MAX, t0;
	struct tms t;
	clock_t pc, c;
	int edges = 0;

	pa = t0 = mono_ns();
	pc = times(&t);
	while (edges < 100) {
		a = mono_ns();
		c = times(&t);
		b = mono_ns();
		if (c != pc) {
			edges++;
			if (c == pc + 1 && b - pa < gap) {
				gap = b - pa;
				best = (pa + b) / 2 - (int64_t)(unsigned long)c * step;
				if (gap < 200000)
					break;
			}
		}
		if (b - t0 > 3000000000LL)
			break;
		pa = a;
		pc = c;
	}
	if (gap == INT64_MAX) {
		diag("no usable jiffies edge: %d edges of times() in %.2f s, none a step of one",
		     edges, (mono_ns() - t0) / 1e9);
		return -1;
	}
	*off = best;
	return 0;
}

/*
 * Jiffies against CLOCK_MONOTONIC over a stretch of a test: drift_start()
 * and drift_end() around it. Without a usable edge at either end there is
 * no drift to judge: drift_within() is false and the text says so.
 */
struct drift {
	int ok;
	int64_t j0, ns;
	char text[96];
};

static void drift_start(struct drift *d)
{
	d->ok = !jiffies_offset(&d->j0);
	d->ns = 0;
	snprintf(d->text, sizeof(d->text), "jiffies drift not measured yet");
}

static void drift_end(struct drift *d)
{
	int64_t j1 = 0;
	int ok0 = d->ok, ok1 = !jiffies_offset(&j1);

	d->ok = ok0 && ok1;
	d->ns = d->ok ? j1 - d->j0 : 0;
	if (d->ok)
		snprintf(d->text, sizeof(d->text), "jiffies drift %.2f ms", d->ns / 1e6);
	else
		snprintf(d->text, sizeof(d->text),
			 "NO DATA: no usable jiffies edge at the %s, jiffies drift not measured",
			 !ok0 && !ok1 ? "start and the end" : !ok0 ? "start" : "end");
}

static int drift_within(const struct drift *d, int64_t limit_ns)
{
	return d->ok && llabs(d->ns) < limit_ns;
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void stats_diag(const char *what, const long long *v)
{
	diag("%s: skips %lld, ticks_skipped %lld, longest_skip_us %lld, wake_timer %lld, wake_irq %lld, wake_ipi %lld, wake_max_skip %lld, wake_cs_limit %lld",
	     what, v[ST_SKIPS], v[ST_TICKS], v[ST_LONGEST], v[ST_TIMER], v[ST_IRQ], v[ST_IPI],
	     v[ST_MAX_SKIP], v[ST_CS_LIMIT]);
}

/*
 * The clauses of a test's verdict, each stated with CLAUSE(condition) before
 * result_of(): the result is ok when all hold, and a failed one names the
 * clauses that did not hold, as written in the test ("failed: rate <=
 * skip_limit(); ..."), before its measurements. Each test runs in a
 * process of its own, so one set of clauses a process is enough;
 * result() and result_of() start the next set empty.
 */
static struct {
	int failed;
	char text[512];
} clauses;

#define CLAUSE(cond) clause(!!(cond), #cond)

static void clause(int holds, const char *text)
{
	size_t n = strlen(clauses.text);

	if (holds)
		return;
	clauses.failed++;
	snprintf(clauses.text + n, sizeof(clauses.text) - n, "%s%s", n ? ", " : "", text);
}

static void vresult(int ok, const char *name, const char *why, const char *fmt, va_list ap)
{
	test_no++;
	if (!ok)
		failed++;
	if (report_fd >= 0 && write(report_fd, ok ? "1" : "0", 1) != 1)
		diag("cannot report the result of %s to the test runner", name);
	printf("%sok %d %s", ok ? "" : "not ", test_no, name);
	if (fmt || why) {
		printf(" # ");
		if (why)
			printf("failed: %s; ", why);
		if (fmt)
			vprintf(fmt, ap);
	}
	printf("\n");
	fflush(stdout);
	clauses.failed = 0;
	clauses.text[0] = 0;
}

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vresult(ok, name, NULL, fmt, ap);
	va_end(ap);
}

/* The result of the clauses stated since the last result */
static void result_of(const char *name, const char *fmt, ...)
{
	int ok = !clauses.failed;
	va_list ap;

	va_start(ap, fmt);
	vresult(ok, name, ok ? NULL : clauses.text, fmt, ap);
	va_end(ap);
}

/* Interrupt rate while this process sleeps for @ns, per CPU and second */
static double idle_rate(int64_t ns)
{
	long long i0 = timer_irqs();
	int64_t t0 = mono_ns();

	sleep_ns(ns);
	return (timer_irqs() - i0) / ((mono_ns() - t0) / 1e9) / online_cpus();
}

/* Run the calling task on @cpu only (-1: on any CPU) */
static void pin_to(int cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < ncpu; i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static pid_t spin_on(int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		volatile unsigned long n = 0;

		pin_to(cpu);
		for (;;)
			n++;
	}
	return pid;
}

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Rates that tell skipping from a periodic tick apart. A row may set its own
 * idle limit per CPU (dt.rate=N) for a kernel with more timers of its own:
 * Debian's configuration idles at 10-13 timer interrupts/s per CPU at HZ=250.
 */
static const char *param(const char *name);

static double skip_limit(void)
{
	const char *r = param("dt.rate");

	return r ? atof(r) : hz / 20.0;
}
static double periodic_floor(void) { return hz * 0.6; }
