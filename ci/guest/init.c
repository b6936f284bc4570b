// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the dyn-tick test guest: a static i386 program.
 *
 * Kernel command line (unknown parameters reach init):
 *   dt.mode=tests|shell     run the tests (default) or a small shell;
 *                           demo, bench and wakes serve make run, bench
 *                           and wakes
 *   dt.tests=a,b,c          tests to run, in the order of the table below
 *   dt.skip=a,b             tests to report as skipped (later patches)
 *   dt.hz=1000              CONFIG_HZ of the kernel
 *   dt.idle=20              seconds of the long idle period
 *   dt.fail=1               also run a test that must fail (harness self-test)
 *   dt.out=ttyS1            print everything there, not on the console
 *
 * Results are printed in KTAP. The last line of a completed run is
 * "DYNTICK-GUEST-END", after which the guest powers off.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/rtc.h>
#include <math.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SYSDIR "/sys/devices/system/timer/timer0/"
#define STATDIR SYSDIR "dyn_tick_stats/"
#define TRACEDIR "/sys/kernel/tracing/"
#define CSDIR "/sys/devices/system/clocksource/clocksource0/"

/*
 * Bounds that several tests share, and where they come from.
 *
 * CLOCKS_LIMIT_NS: jiffies against CLOCK_MONOTONIC, and CLOCK_REALTIME
 * against CLOCK_MONOTONIC, over a test. One tick at HZ=100, the coarsest
 * HZ of the matrix: jiffies move in whole ticks, so a kernel that catches
 * time up correctly is off by less than one. Seen here at most 1.8 ms
 * over 120 s of idle (the matrix's long-idle rows).
 *
 * IDLE_PCT_LIMIT: /proc/stat's idle time against the elapsed time of all
 * CPUs, in percent (2 %: 0.4 s, 40 units of USER_HZ, of a 20 s idle on
 * one CPU). The series at the tip covers 100.00 % here; the periodic
 * kernel under TCG loses ticks (93.79 % and 96.89 % seen), so the tests
 * that use it run only from the idle hook on (ci/tests.conf). The exact
 * sum, unit for unit, is proc_stat_iowait's.
 */
#define CLOCKS_LIMIT_NS		10000000LL
#define IDLE_PCT_LIMIT		2.0

static int hz = 1000;
static int idle_secs = 20;
static int ncpu = 1;
static int test_no;
static int failed;
/* In a test's own process (run_test()): where result() reports to */
static int report_fd = -1;

/*
 * The guest, by concern; each part uses what the ones before it define.
 */
#include "helpers.c"
#include "tests.c"
#include "matrix.c"
#include "wakeups.c"
#include "accounting.c"
#include "modes.c"
#include "devices.c"

/* ---- harness self-test ------------------------------------------------ */

/* Dies of a signal before it reports: the harness self-test */
static void t_must_crash(void)
{
	raise(SIGSEGV);
}

static void t_must_fail(void)
{
	result(0, "must_fail", "this test fails on purpose (harness self-test)");
}

static const struct test {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "sleep_sane", t_sleep_sane },
	{ "sysfs_files", t_sysfs_files },
	{ "sysfs_bad_input", t_sysfs_bad_input },
	{ "nanosleep_lateness", t_nanosleep_lateness },
	{ "idle_skips", t_idle_skips },
	{ "jiffies_vs_monotonic", t_jiffies_vs_monotonic },
	{ "proc_stat_idle", t_proc_stat_idle },
	{ "busy_cpu_ticks", t_busy_cpu_ticks },
	{ "toggle_state", t_toggle_state },
	{ "state_off_race", t_state_off_race },
	{ "clocksource_switch", t_clocksource_switch },
	{ "unsuitable_boot", t_unsuitable_boot },
	{ "dbg_log", t_dbg_log },
	{ "no_skip", t_no_skip },
	{ "hotplug_skip", t_hotplug_skip },
	{ "clocksource_cycle", t_clocksource_cycle },
	{ "sysfs_hammer", t_sysfs_hammer },
	{ "sysfs_offsets", t_sysfs_offsets },
	{ "irq_storm", t_irq_storm },
	{ "long_idle", t_long_idle },
	{ "stats_counters", t_stats_counters },
	{ "stats_wake_irq", t_stats_wake_irq },
	{ "trace_events", t_trace_events },
	{ "rcu_grace", t_rcu_grace },
	{ "irq_work_lazy", t_irq_work_lazy },
	{ "loadavg", t_loadavg },
	{ "all_idle", t_all_idle },
	{ "proc_stat_iowait", t_proc_stat_iowait },
	{ "load_balance", t_load_balance },
	{ "tick_device", t_tick_device },
	{ "suspend_idle", t_suspend_idle },
	{ "must_crash", t_must_crash },
	{ "must_fail", t_must_fail },
};

/*
 * Each test runs in a process of its own, so that one that crashes or
 * exits loses itself, not the tests after it. It reports its one result
 * through a pipe as well as on the console; a process that ends without
 * having reported is a failed test of its own, with the reason.
 */
static void run_test(const struct test *t)
{
	int fd[2], status = 0, n = 0, bad = 0, r;
	char got[16];
	pid_t pid;

	fflush(stdout);
	if (pipe(fd) || (pid = fork()) < 0) {
		result(0, t->name, "cannot start the test's process: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		close(fd[0]);
		report_fd = fd[1];
		t->fn();
		fflush(stdout);
		_exit(0);
	}
	close(fd[1]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* What it reported; a process it left behind may hold the pipe open */
	fcntl(fd[0], F_SETFL, O_NONBLOCK);
	while ((r = read(fd[0], got, sizeof(got))) > 0) {
		for (int i = 0; i < r; i++)
			bad += got[i] != '1';
		n += r;
	}
	close(fd[0]);
	test_no += n;
	failed += bad;
	if (n != 1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		char why[96];

		snprintf(why, sizeof(why), "%d results, then %s %d", n,
			 WIFSIGNALED(status) ? "signal" : "exit status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		if (n == 1)
			diag("%s: the test's process ended badly after its result: %s", t->name, why);
		else
			result(0, t->name, "the test's process ended with %s", why);
	}
}

/* ---- command line, shell, main ---------------------------------------- */

static char cmdline[4096];

static const char *param(const char *name)
{
	static char val[1024];
	size_t n = strlen(name);
	char *p = cmdline;

	while ((p = strstr(p, name))) {
		if ((p == cmdline || p[-1] == ' ') && p[n] == '=') {
			size_t len = strcspn(p + n + 1, " \n");

			if (len >= sizeof(val))
				len = sizeof(val) - 1;
			memcpy(val, p + n + 1, len);
			val[len] = 0;
			return val;
		}
		p += n;
	}
	return NULL;
}

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

static int known_test(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(tests[i].name, name))
			return 1;
	return 0;
}

/*
 * The names of dt.tests and dt.skip that no test has, each once (a typo in
 * a test list must not drop a test silently): with @report, each is a
 * failing KTAP result "not ok N NAME # unknown test". Returns their number.
 */
static unsigned int unknown_tests(const char *list, const char *skip, int report)
{
	static char all[2 * 1024 + 2], *tok[1024];
	unsigned int n = 0, nt = 0, i, j;
	char *p, *save;

	snprintf(all, sizeof(all), "%s,%s", list, skip);
	for (p = strtok_r(all, ",", &save); p && nt < 1024; p = strtok_r(NULL, ",", &save))
		tok[nt++] = p;
	for (i = 0; i < nt; i++) {
		for (j = 0; j < i && strcmp(tok[j], tok[i]); j++)
			;
		if (j < i || known_test(tok[i]))
			continue;
		n++;
		if (report)
			result(0, tok[i], "unknown test");
	}
	return n;
}

static void shell(void)
{
	char line[512];

	settle();
	printf("dyn-tick guest shell. Commands: cat FILE, echo VALUE > FILE, ls DIR,\n"
	       "irqs, idle SECONDS, test NAME, poweroff\n");
	for (;;) {
		char *cmd, *arg;

		printf("# ");
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return;
		line[strcspn(line, "\n")] = 0;
		cmd = strtok(line, " ");
		arg = strtok(NULL, "");
		if (!cmd)
			continue;
		if (!strcmp(cmd, "poweroff") || !strcmp(cmd, "exit")) {
			return;
		} else if (!strcmp(cmd, "cat") && arg) {
			static char buf[65536];

			if (read_file(arg, buf, sizeof(buf)) < 0)
				perror(arg);
			else
				fputs(buf, stdout);
		} else if (!strcmp(cmd, "echo") && arg && strchr(arg, '>')) {
			char *val = arg, *file = strchr(arg, '>');
			int err;

			*file++ = 0;
			while (*file == ' ')
				file++;
			val[strcspn(val, " ")] = 0;
			err = write_str(file, val);
			if (err)
				printf("write error: %s\n", strerror(err));
		} else if (!strcmp(cmd, "ls") && arg) {
			DIR *d = opendir(arg);
			struct dirent *de;

			if (!d) {
				perror(arg);
				continue;
			}
			while ((de = readdir(d)))
				if (de->d_name[0] != '.')
					printf("%s\n", de->d_name);
			closedir(d);
		} else if (!strcmp(cmd, "irqs")) {
			printf("%lld timer interrupts\n", timer_irqs());
		} else if (!strcmp(cmd, "idle") && arg) {
			printf("%.1f timer interrupts/s per CPU\n",
			       idle_rate((int64_t)(atof(arg) * 1e9)));
		} else if (!strcmp(cmd, "test") && arg) {
			unsigned int i;

			for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
				if (!strcmp(tests[i].name, arg))
					tests[i].fn();
			if (!known_test(arg))
				printf("unknown test %s\n", arg);
		} else {
			printf("unknown command\n");
		}
	}
}

/*
 * The guest's output (KTAP, diagnostics, its requests to the host) to a
 * serial port of its own, dt.out=ttyS1 (ci/qemu_run.py gives the guest
 * that port and the argument), so that the kernel's messages on the
 * console cannot cut into a line of it. Standard input stays the console:
 * the host's serial storm and key press come there. Without the port the
 * output stays on the console, and says so.
 */
static void output_to(const char *tty)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/%s", tty);
	fd = open(path, O_WRONLY | O_NOCTTY);
	if (fd < 0) {
		diag("no %s (%s): the output stays on the console", path, strerror(errno));
		return;
	}
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
}

int main(void)
{
	const char *v, *list, *skip;
	unsigned int i, planned = 0;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	read_file("/proc/cmdline", cmdline, sizeof(cmdline));
	v = param("dt.out");
	if (v)
		output_to(v);
	v = param("dt.hz");
	if (v)
		hz = atoi(v);
	v = param("dt.idle");
	if (v)
		idle_secs = atoi(v);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	v = param("dt.mode");
	if (v && !strcmp(v, "shell")) {
		shell();
	} else if (v && !strcmp(v, "demo")) {
		demo();
	} else if (v && !strcmp(v, "bench")) {
		bench();
	} else if (v && !strcmp(v, "wakes")) {
		wake_tally();
	} else {
		list = param("dt.tests");
		list = list ? strdup(list) : "";
		skip = param("dt.skip");
		skip = skip ? strdup(skip) : "";
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			if (in_list(list, tests[i].name) || in_list(skip, tests[i].name))
				planned++;
		planned += unknown_tests(list, skip, 0);
		printf("KTAP version 1\n1..%u\n", planned);
		diag("dyn-tick guest: %d CPUs, HZ=%d", ncpu, hz);
		unknown_tests(list, skip, 1);
		settle();
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
			if (in_list(list, tests[i].name)) {
				run_test(&tests[i]);
			} else if (in_list(skip, tests[i].name)) {
				test_no++;
				printf("ok %d %s # SKIP needs a later patch of the series\n",
				       test_no, tests[i].name);
			}
		}
		diag("%d of %d tests failed", failed, test_no);
		printf("DYNTICK-GUEST-END\n");
	}
	fflush(stdout);
	/*
	 * Until the serial port has sent it all: the kernel's power-off
	 * messages go straight to the console and would cut into the last
	 * lines still queued in the tty ("ok 18reboot: Power down").
	 */
	tcdrain(STDOUT_FILENO);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
