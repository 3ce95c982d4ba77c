// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The stale-translation oracle end to end, at reduced scale: every
 * shipped policy of every scenario on three seeds (nr_seeds()) with zero
 * violations, and the test-only unsafe policies caught.
 */
#include <stdlib.h>
#include <check.h>
#include "scenario_cases.h"
#include "suite_runner.h"

/* Each its own test (a loop test), so each has the whole timeout: under
 * the sanitizers one scenario's policies and seeds take a minute. */
static const struct { const char *sc; const char *const *kv; } shipped_cases[] = {
	{ "numa-balancing", small_numa }, { "numa-balancing", race_prone },
	{ "numa-balancing", race_prone_invlpgb },
	{ "numa-hint-fault", small_hint }, { "numa-hint-fault", race_prone },
	{ "thp-split", small_split }, { "thp-split", small_split_debugfs },
	{ "hugetlb-demote", small_demote },
	{ "testbed", small_testbed },
};

/*
 * Seeds a policy runs on: 3, or 1 to 3 from TLBP_ORACLE_SEEDS. CI's
 * valgrind run sets 1: what memcheck finds (an uninitialised read, a bad
 * free) does not hang on the seed, and the plain and sanitizer runs take
 * all three, where under valgrind they would take six minutes.
 */
static uint64_t nr_seeds(void)
{
	const char *e = getenv("TLBP_ORACLE_SEEDS");
	long n = e ? strtol(e, NULL, 10) : 3;

	return n >= 1 && n <= 3 ? (uint64_t)n : 3;
}

START_TEST(test_scenarios_shipped_policies_no_violations)
{
	const char *name = shipped_cases[_i].sc;
	const struct scenario *sc = scenario_find(name);
	uint64_t seed, seeds = nr_seeds();
	unsigned int k;

	for (k = 0; k < sc->nr_policies; k++) {
		if (sc->policies[k].unsafe)
			continue;
		for (seed = 1; seed <= seeds; seed++) {
			struct metrics m = run_case(name, sc->policies[k].name,
						    shipped_cases[_i].kv, seed);

			ck_assert_msg(m.v[M_STALE_TRANSLATION_VIOLATIONS] == 0,
				      "%s/%s seed %llu: %g violations", name,
				      sc->policies[k].name, (unsigned long long)seed,
				      m.v[M_STALE_TRANSLATION_VIOLATIONS]);
			ck_assert(m.v[M_SIM_EVENTS] > 0);
		}
	}
}
END_TEST

START_TEST(test_scenarios_unsafe_policies_caught)
{
	static const char *const unsafe[] = {
		"unsafe-never-flush", "unsafe-ignore-pending", "unsafe-free-before-flush",
	};
	unsigned int k;

	for (k = 0; k < 3; k++) {
		struct metrics m = run_case("numa-balancing", unsafe[k], race_prone, 1);

		ck_assert_msg(m.v[M_STALE_TRANSLATION_VIOLATIONS] > 0,
			      "%s was not caught", unsafe[k]);
		m = run_case("numa-balancing", unsafe[k], race_prone_invlpgb, 1);
		ck_assert_msg(m.v[M_STALE_TRANSLATION_VIOLATIONS] > 0,
			      "%s was not caught on x86-invlpgb", unsafe[k]);
		/* The sweep over an unbounded TLB keeps the oracle's teeth. */
		m = run_case("testbed", unsafe[k], race_prone_testbed, 1);
		ck_assert_msg(m.v[M_STALE_TRANSLATION_VIOLATIONS] > 0,
			      "%s was not caught on the testbed", unsafe[k]);
	}
}
END_TEST

static Suite *oracle_suite(void)
{
	Suite *s = suite_create("sim_oracle");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_scenarios_shipped_policies_no_violations, 0,
			    (int)(sizeof(shipped_cases) / sizeof(shipped_cases[0])));
	tcase_add_test(tc, test_scenarios_unsafe_policies_caught);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(oracle_suite());
}
