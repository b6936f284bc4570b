// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of tick_device's reading of /proc/timer_list, run on the host
 * by ci/unit/run.sh: ci/guest/init.c compiled in with open() replaced by a
 * fake that serves a canned file (the layout of 6.1's timer_list.c: the
 * broadcast block first, then a "Per CPU device" block a CPU).
 * timer_list_devices() counts the CPUs whose block names the device
 * expected and reports the broadcast device; a CPU with another device or
 * none, or a file without the blocks, counts less.
 */
static int fake_open(const char *path, int flags, ...);
#define open fake_open
#define main guest_main
#include "../guest/init.c"
#undef main
#undef open
#include "capture.h"

static const char *canned;

#define HEAD "Timer List Version: v0.9\nHRTIMER_MAX_CLOCK_BASES: 8\nnow at 5123456789 nsecs\n\n" \
	"cpu: 0\n clock 0:\n  .base:       c1a2b3c4\n  .index:      0\nactive timers:\n" \
	" #0: <c1a2b3c4>, tick_sched_timer, S:01\n # expires at 5124000000-5124000000 nsecs\n\n"
#define BCAST(dev) "Tick Device: mode:     0\nBroadcast device\nClock Event Device: " dev "\n" \
	" max_delta_ns:   21474836460\n mode:           1\n\ntick_broadcast_mask: 0\n\n"
#define PERCPU(cpu, dev) "Tick Device: mode:     0\nPer CPU device: " cpu "\nClock Event Device: " dev "\n" \
	" max_delta_ns:   2147483647\n event_handler:  tick_handle_periodic\n\n"

/* /proc/timer_list is a file with the canned text; nothing else opens */
static int fake_open(const char *path, int flags, ...)
{
	(void)flags;
	return strcmp(path, "/proc/timer_list") || !canned ? -1 : canned_file(canned);
}

static int check(const char *what, const char *text, const char *want, int want_n,
		 const char *want_bcast)
{
	char bcast[64];
	int n, ok;

	canned = text;
	n = timer_list_devices(want, bcast, sizeof(bcast));
	ok = n == want_n && !strcmp(bcast, want_bcast);
	printf("%s %s: %d CPUs with %s, broadcast %s (want %d, %s)\n", ok ? "ok  " : "FAIL",
	       what, n, want, bcast, want_n, want_bcast);
	return ok;
}

int main(void)
{
	int ok = 1;

	ok &= check("2 CPUs on the local APIC, the HPET broadcast",
		    HEAD BCAST("hpet") PERCPU("0", "lapic") PERCPU("1", "lapic"), "lapic", 2, "hpet");
	ok &= check("the broadcast device is not a CPU's",
		    HEAD BCAST("hpet") PERCPU("0", "lapic") PERCPU("1", "lapic"), "hpet", 0, "hpet");
	ok &= check("1 CPU on the HPET, no broadcast device",
		    HEAD BCAST("<NULL>") PERCPU("0", "hpet"), "hpet", 1, "<NULL>");
	ok &= check("cpu1 without a device",
		    HEAD BCAST("<NULL>") PERCPU("0", "pit") PERCPU("1", "<NULL>"), "pit", 1, "<NULL>");
	ok &= check("lapic-deadline is not lapic",
		    HEAD BCAST("hpet") PERCPU("0", "lapic-deadline"), "lapic", 0, "hpet");
	ok &= check("no tick device blocks", HEAD, "lapic", 0, "-");
	ok &= check("no /proc/timer_list", NULL, "lapic", -1, "-");
	return !ok;
}
