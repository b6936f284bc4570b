// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the guest's test-name check, run on the host by
 * ci/unit/run.sh: ci/guest/init.c is compiled in with its main() renamed,
 * which is never called (it would mount file systems and power off).
 * Prints what unknown_tests() reports for a few lists and exits non-zero
 * when the count or the KTAP lines are not the expected ones.
 */
#define main guest_main
#include "../guest/init.c"
#undef main
#include "capture.h"

static const char *cur_list, *cur_skip;
static unsigned int n0, n1;

static void count_unknown(void)
{
	test_no = failed = 0;
	n0 = unknown_tests(cur_list, cur_skip, 0);
	n1 = unknown_tests(cur_list, cur_skip, 1);
}

static int check(const char *list, const char *skip, unsigned int want_n, const char *want_out)
{
	const char *out;
	int ok;

	cur_list = list;
	cur_skip = skip;
	out = capture(count_unknown);
	ok = n0 == want_n && n1 == want_n && (int)want_n == failed && !strcmp(out, want_out);
	printf("%s dt.tests=%s dt.skip=%s: %u unknown, %d failed\n%s", ok ? "ok  " : "FAIL",
	       list, skip, n1, failed, out);
	if (!ok)
		printf("expected %u unknown:\n%s", want_n, want_out);
	return ok;
}

int main(void)
{
	int ok = 1;

	ok &= check("sleep_sane,idle_skips", "trace_events", 0, "");
	ok &= check("", "", 0, "");
	ok &= check("sleep_sane,,idle_skips,", ",", 0, "");
	ok &= check("sleep_sanee,idle_skips", "", 1, "not ok 1 sleep_sanee # unknown test\n");
	ok &= check("sleep_sane", "trace_event", 1, "not ok 1 trace_event # unknown test\n");
	ok &= check("idle_skip,sleep_sane,idle_skip", "idle_skip,stats", 2,
		    "not ok 1 idle_skip # unknown test\nnot ok 2 stats # unknown test\n");
	ok &= check("sleep", "", 1, "not ok 1 sleep # unknown test\n");
	ok &= check("sleep_sane_x", "", 1, "not ok 1 sleep_sane_x # unknown test\n");
	return !ok;
}
