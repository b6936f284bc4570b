// SPDX-License-Identifier: GPL-2.0
/*
 * Part of the test guest's /init, included by init.c (one program, one
 * translation unit): tick devices and suspend to idle.
 */

/*
 * Suspend to idle while ticks are skipped, woken by a key: the host sends a
 * newline on the serial console 3 s after HOSTKEY (QEMU does not deliver
 * the RTC's wake alarm as a wake-up from suspend to idle, also with the
 * feature off). The write to /sys/power/state returns once the guest is
 * awake again, 2.5-6 s later; skips went on while it was suspended;
 * CLOCK_MONOTONIC and CLOCK_REALTIME agree across it, and so do the guest's
 * realtime and the host's clock (matrix.sh, from the HOSTCLOCK suspend-*
 * marks); jiffies follow CLOCK_MONOTONIC; and skipping goes on afterwards.
 */
static void t_suspend_idle(void)
{
	long long s0, s1, s2;
	int64_t m0, m1, r0, r1, dm, dr;
	char buf[256];
	struct drift d;
	double rate;
	int err;

	if (read_file("/sys/power/state", buf, sizeof(buf)) < 0 || !strstr(buf, "freeze")) {
		result(0, "suspend_idle", "no freeze in /sys/power/state");
		return;
	}
	wait_suitable();
	err = write_str("/sys/class/tty/ttyS0/power/wakeup", "enabled");
	drift_start(&d);
	sleep_ns(500000000LL);
	s0 = stat_read(ST_SKIPS);
	/* The marks must reach the host whole, before the kernel's messages */
	printf("HOSTKEY 3000\nHOSTCLOCK suspend-start\n");
	fflush(stdout);
	tcdrain(1);
	r0 = real_ns();
	m0 = mono_ns();
	if (!err)
		err = write_str("/sys/power/state", "freeze");
	m1 = mono_ns();
	r1 = real_ns();
	printf("HOSTCLOCK suspend-end\nSUSPEND realtime_ns %lld\n", (long long)(r1 - r0));
	fflush(stdout);
	tcdrain(1);
	tcflush(0, TCIFLUSH);
	s1 = stat_read(ST_SKIPS);
	rate = idle_rate(3000000000LL);
	s2 = stat_read(ST_SKIPS);
	drift_end(&d);
	dm = m1 - m0;
	dr = r1 - r0;
	CLAUSE(!err);
	CLAUSE(dm >= 2500000000LL);
	CLAUSE(dm <= 6000000000LL);
	CLAUSE(llabs(dr - dm) < CLOCKS_LIMIT_NS);
	CLAUSE(s1 > s0);
	CLAUSE(s2 > s1);
	CLAUSE(rate <= skip_limit());
	CLAUSE(drift_within(&d, CLOCKS_LIMIT_NS));
	result_of("suspend_idle",
	          "freeze %s, awake after %.3f s monotonic (key at 3 s, 2.5-6 s), realtime %+.3f ms off it (limit 10); skips: %lld while suspended, %lld in 3 s after (%.1f timer interrupts/s per CPU, limit %.0f); %s",
	          err ? strerror(err) : "ok", dm / 1e9, (dr - dm) / 1e6, s1 - s0, s2 - s1, rate,
	          skip_limit(), d.text);
}

static const char *param(const char *name);

/*
 * The max_skip the kernel registered for tick device @dev, from its log line
 * "dyn-tick: DEV can skip up to N ticks" (kernel/time/dyn-tick.c): the
 * period-stretching devices (lapic, pit). 0 when there is no such line: a
 * device that skips through clockevents, whose limit is its max_delta_ns
 * (the HPET's 32-bit comparator: 42 s at 100 MHz; the TSC deadline: many
 * seconds), always more than the second a skip may last with dyn_tick_int 0.
 */
static long kmsg_max_skip(const char *dev)
{
	char buf[1024], pat[128];
	long n = 0, v;
	ssize_t len;
	char *p;
	int fd;

	snprintf(pat, sizeof(pat), "dyn-tick: %s can skip up to ", dev);
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	while ((len = read(fd, buf, sizeof(buf) - 1)) > 0 || (len < 0 && errno == EPIPE)) {
		if (len <= 0)
			continue;
		buf[len] = 0;
		p = strstr(buf, pat);
		if (p && sscanf(p + strlen(pat), "%ld", &v) == 1)
			n = v;
	}
	close(fd);
	return n;
}

/*
 * The tick devices /proc/timer_list names (kernel/time/timer_list.c): the
 * number of CPUs whose "Per CPU device" block says "Clock Event Device:
 * @want", and in @bcast the broadcast device's name ("<NULL>" when there
 * is none, "-" when the file has no broadcast block). -1 when unreadable.
 */
static int timer_list_devices(const char *want, char *bcast, size_t len)
{
	static char buf[131072];
	const char *key = "Clock Event Device: ";
	int n = 0, percpu = -1;
	char *line, *save, name[64];

	snprintf(bcast, len, "-");
	if (read_file("/proc/timer_list", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "Broadcast device"))
			percpu = -1;
		else if (sscanf(line, "Per CPU device: %d", &percpu) == 1)
			continue;
		else if (!strncmp(line, key, strlen(key)) && sscanf(line + strlen(key), "%63s", name) == 1) {
			if (percpu < 0)
				snprintf(bcast, len, "%s", name);
			else if (!strcmp(name, want))
				n++;
			percpu = -1;
		}
	}
	return n;
}

/*
 * The tick device the row expects (dt.dev) is every online CPU's, as the
 * clockevents sysfs files and /proc/timer_list both say, dyn-tick finds it
 * suitable, "using APIC" says whether it is a local APIC, and ticks
 * are skipped on it: skips happen and the idle rate stays under the limit.
 * Then the device's own limit: with dyn_tick_int 0 no timer ends a skip, so
 * skips last what the device allows, max_skip ticks (from the kernel log,
 * see kmsg_max_skip()), at most a second (IGNORE_MAX_SKIP_US). The longest
 * skip of 3 s must reach 9/10 of that: a local APIC capped at the PIT's 54
 * ticks, or a PIT that claims more than its 16-bit count, fails here.
 * The skips must not pass the limit either, by more than 1/64 of it and
 * the lateness nanosleep_lateness allows: judged on their mean length
 * (ticks skipped per skip), not on the longest. A late interrupt only
 * makes a skip longer, and the longest of some 55 skips on the PIT took
 * one host hiccup: 56888 us against 56843 in a CI run, 58569 us in 1 of
 * 40 boots of this test alone on an idle host (median 54348 us).
 */
static void t_tick_device(void)
{
	const char *dev = param("dt.dev");
	char path[96], buf[64], got[96] = "", want[64], bcast[64];
	int cpu, sysfs_devices_ok = 1, apic, suitable, want_apic, errs = 0, listed;
	long long s0, s1, v[ST_NR], expect_us, lo_us, hi_us, mean_us = 0;
	long max_skip;
	double rate;

	if (!dev) {
		result(0, "tick_device", "no dt.dev=DEVICE on the kernel command line");
		return;
	}
	/* param() returns its own buffer, which skip_limit() reuses */
	snprintf(want, sizeof(want), "%s", dev);
	want_apic = !strncmp(want, "lapic", 5);
	for (cpu = 0; cpu < ncpu; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/clockevents/clockevent%d/current_device", cpu);
		if (read_file(path, buf, sizeof(buf)) < 0) {
			snprintf(got, sizeof(got), "cpu%d unreadable", cpu);
			sysfs_devices_ok = 0;
			break;
		}
		buf[strcspn(buf, "\n")] = 0;
		if (strcmp(buf, want)) {
			snprintf(got, sizeof(got), "cpu%d %s", cpu, buf);
			sysfs_devices_ok = 0;
			break;
		}
	}
	listed = timer_list_devices(want, bcast, sizeof(bcast));
	suitable = state_field("suitable:");
	apic = state_field("using APIC:");
	s0 = stat_read(ST_SKIPS);
	rate = idle_rate(3000000000LL);
	s1 = stat_read(ST_SKIPS);

	/* The device's limit, with no timer ending a skip */
	max_skip = kmsg_max_skip(want);
	expect_us = IGNORE_MAX_SKIP_US;
	if (max_skip > 0 && max_skip * (1000000LL / hz) < expect_us)
		expect_us = max_skip * (1000000LL / hz);
	lo_us = expect_us * 9 / 10;
	hi_us = expect_us + expect_us / 64 + late_limit() / 1000;
	errs += stats_reset();
	errs += !!write_str(SYSDIR "dyn_tick_int", "0");
	sleep_ns(3000000000LL);
	errs += !!write_str(SYSDIR "dyn_tick_int", "1");
	stats_get(v);
	stats_diag("tick_device: dyn_tick_int 0, 3 s idle", v);
	if (v[ST_SKIPS] > 0)
		mean_us = v[ST_TICKS] * (1000000LL / hz) / v[ST_SKIPS];

	CLAUSE(sysfs_devices_ok);
	CLAUSE(listed == ncpu);
	CLAUSE(!errs);
	CLAUSE(max_skip >= 0);
	CLAUSE(suitable == 1);
	CLAUSE(apic == want_apic);
	CLAUSE(s1 > s0);
	CLAUSE(rate <= skip_limit());
	CLAUSE(v[ST_SKIPS] > 0);
	CLAUSE(v[ST_LONGEST] >= lo_us);
	CLAUSE(mean_us <= hi_us);
	result_of("tick_device",
	          "every CPU's tick device %s%s%s (/proc/timer_list: %d of %d CPUs, broadcast %s); suitable %d, using APIC %d (want %d); 3 s idle: %lld skips, %.1f timer interrupts/s per CPU (limit %.0f); max_skip %ld%s: with dyn_tick_int 0, %lld skips, the longest %lld us (at least %lld), %lld us on average (at most %lld)%s",
	          want, got[0] ? ", but " : "", got, listed, ncpu, bcast, suitable, apic, want_apic,
	          s1 - s0, rate, skip_limit(), max_skip,
	          max_skip > 0 ? " (kernel log)" : max_skip == 0 ? " (clockevents: above a second)" : " (no /dev/kmsg)",
	          v[ST_SKIPS], v[ST_LONGEST], lo_us, mean_us, hi_us,
	          errs ? "; sysfs writes failed" : "");
}
