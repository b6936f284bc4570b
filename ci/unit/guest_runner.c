// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the guest's test runner, run on the host by ci/unit/run.sh:
 * ci/guest/init.c is compiled in with its main() renamed, which is never
 * called. Fake tests pass, fail, crash before reporting and report twice;
 * run_test() runs each in its own process. A crash must cost that test
 * alone ("not ok" with the signal) and the tests after it must still run;
 * a test that reports twice must not pass. Exits non-zero when the KTAP
 * lines or the counters are not the expected ones.
 */
#define main guest_main
#include "../guest/init.c"
#undef main
#include "capture.h"

static void fake_ok(void)
{
	result(1, "fake_ok", NULL);
}

static void fake_fail(void)
{
	result(0, "fake_fail", NULL);
}

static void fake_crash(void)
{
	raise(SIGSEGV);
}

static void fake_twice(void)
{
	result(1, "fake_twice", NULL);
	result(1, "fake_twice", NULL);
}

static const struct test fakes[] = {
	{ "fake_ok", fake_ok }, { "fake_crash", fake_crash }, { "fake_fail", fake_fail },
	{ "fake_ok", fake_ok }, { "fake_twice", fake_twice },
};

static void run_fakes(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(fakes) / sizeof(fakes[0]); i++)
		run_test(&fakes[i]);
}

int main(void)
{
	static const char want[] =
		"ok 1 fake_ok\n"
		"not ok 2 fake_crash # the test's process ended with 0 results, then signal 11\n"
		"not ok 3 fake_fail\n"
		"ok 4 fake_ok\n"
		"ok 5 fake_twice\n"
		"ok 6 fake_twice\n"
		"not ok 7 fake_twice # the test's process ended with 2 results, then exit status 0\n";
	const char *out = capture(run_fakes);
	int ok = !strcmp(out, want) && test_no == 7 && failed == 3;

	printf("%s %d results, %d failed:\n%s", ok ? "ok  " : "FAIL", test_no, failed, out);
	if (!ok)
		printf("expected 7 results, 3 failed:\n%s", want);
	return !ok;
}
