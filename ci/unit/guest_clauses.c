// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the guest's verdicts by clauses (CLAUSE() and result_of() in
 * ci/guest/helpers.c), run on the host by ci/unit/run.sh with
 * ci/guest/init.c compiled in, its main() never called: a result is ok only
 * when every clause holds, a failed one names each clause that did not
 * hold, as written, before its measurements, and the next result starts
 * with no clauses.
 */
#define main guest_main
#include "../guest/init.c"
#undef main
#include "capture.h"

static double rate_, limit_;
static int errs_;

static void judge(void)
{
	CLAUSE(!errs_);
	CLAUSE(rate_ <= limit_);
	CLAUSE(rate_ >= 0);
	result_of("judged", "%.1f/s (limit %.0f)", rate_, limit_);
}

static void judge_twice(void)
{
	judge();
	rate_ = 1;
	errs_ = 0;
	judge();
}

static int check(const char *what, void (*fn)(void), int want_failed, const char *want)
{
	const char *out;
	int ok;

	test_no = failed = 0;
	out = capture(fn);
	ok = failed == want_failed && !strcmp(out, want);
	printf("%s %s: %d failed\n%s", ok ? "ok  " : "FAIL", what, failed, out);
	if (!ok)
		printf("expected %d failed:\n%s", want_failed, want);
	return ok;
}

int main(void)
{
	int ok = 1;

	rate_ = 3.5, limit_ = 50, errs_ = 0;
	ok &= check("every clause holds", judge, 0, "ok 1 judged # 3.5/s (limit 50)\n");
	rate_ = 60;
	ok &= check("one clause fails", judge, 1,
		    "not ok 1 judged # failed: rate_ <= limit_; 60.0/s (limit 50)\n");
	rate_ = -1, errs_ = 2;
	ok &= check("two clauses fail", judge, 1,
		    "not ok 1 judged # failed: !errs_, rate_ >= 0; -1.0/s (limit 50)\n");
	rate_ = 60, errs_ = 0;
	ok &= check("the next result starts anew", judge_twice, 1,
		    "not ok 1 judged # failed: rate_ <= limit_; 60.0/s (limit 50)\n"
		    "ok 2 judged # 1.0/s (limit 50)\n");
	return !ok;
}
