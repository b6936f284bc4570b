// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the benchmark's interrupt counts, run on the host by
 * ci/unit/run.sh: ci/guest/init.c compiled in with open() and sysconf()
 * replaced by fakes that serve a canned /proc/interrupts of two CPUs (the
 * layout of an i386 guest's). all_irqs() is every per-CPU count
 * but ERR and MIS (totals, not interrupts taken) and not the CPU header;
 * ipi_irqs() is RES, CAL and TLB; timer_irqs() is LOC and IRQ 0.
 */
static long fake_sysconf(int name);
static int fake_open(const char *path, int flags, ...);
#define sysconf fake_sysconf
#define open fake_open
#define main guest_main
#include "../guest/init.c"
#undef main
#undef open
#undef sysconf
#include "capture.h"
long sysconf(int name);	/* its declaration above was renamed */

static const char interrupts[] =
	"           CPU0       CPU1       \n"
	"  0:         47          0   IO-APIC   2-edge      timer\n"
	"  4:        312          5   IO-APIC   4-edge      ttyS0\n"
	"  8:          1          0   IO-APIC   8-edge      rtc0\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:       5120       4870   Local timer interrupts\n"
	"SPU:          0          0   Spurious interrupts\n"
	"IWI:          3          1   IRQ work interrupts\n"
	"RES:        120        130   Rescheduling interrupts\n"
	"CAL:         40         55   Function call interrupts\n"
	"TLB:          2          3   TLB shootdowns\n"
	"ERR:          7\n"
	"MIS:          9\n";

static long fake_sysconf(int name)
{
	return name == _SC_NPROCESSORS_ONLN ? 2 : sysconf(name);
}

/* /proc/interrupts is a file with the canned text; nothing else opens */
static int fake_open(const char *path, int flags, ...)
{
	(void)flags;
	return strcmp(path, "/proc/interrupts") ? -1 : canned_file(interrupts);
}

static int check(const char *what, long long got, long long want)
{
	printf("%s %s: %lld (want %lld)\n", got == want ? "ok  " : "FAIL", what, got, want);
	return got == want;
}

int main(void)
{
	int ok = 1;

	ok &= check("all_irqs", all_irqs(),
		    47 + 312 + 5 + 1 + 5120 + 4870 + 3 + 1 + 120 + 130 + 40 + 55 + 2 + 3);
	ok &= check("ipi_irqs", ipi_irqs(), 120 + 130 + 40 + 55 + 2 + 3);
	ok &= check("timer_irqs", timer_irqs(), 47 + 5120 + 4870);
	return !ok;
}
