// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The stale-translation oracle end to end, at reduced scale: every
 * shipped policy of every scenario on three seeds (nr_seeds()) with zero
 * violations, and the test-only unsafe policies caught.
 *
 * Built twice, as two programs that each take every second test
 * (ORACLE_SHARD 0 and 1 of ORACLE_SHARDS): one program's tests run one
 * after the other, and these are the longest of make check, so two
 * halves let make -j2 run them side by side (under valgrind, 3 minutes
 * each where the whole took 6).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <check.h>
#include "scenario_cases.h"
#include "suite_runner.h"

#ifndef ORACLE_SHARD
#error "build with -DORACLE_SHARD=0 or 1 (Makefile.am: check_sim_oracle_shard0, _shard1)"
#endif
#define ORACLE_SHARDS 2

/* Each (case, shipped policy) is its own test (a loop test), so each has
 * the whole timeout: under valgrind one testbed policy's seed takes two
 * minutes, and a case's policies together would not fit in one. */
static const struct { const char *sc; const char *const *kv; } shipped_cases[] = {
	{ "numa-balancing", small_numa }, { "numa-balancing", race_prone },
	{ "numa-balancing", race_prone_invlpgb },
	{ "numa-hint-fault", small_hint }, { "numa-hint-fault", race_prone },
	{ "thp-split", small_split }, { "thp-split", small_split_debugfs },
	{ "hugetlb-demote", small_demote },
	{ "testbed", small_testbed },
};
#define NR_SHIPPED_CASES (sizeof(shipped_cases) / sizeof(shipped_cases[0]))

/* The test-only policies, each on the cases whose races it must lose. */
static const char *const unsafe_policies[] = {
	"unsafe-never-flush", "unsafe-ignore-pending", "unsafe-free-before-flush",
};
static const struct { const char *sc; const char *const *kv; const char *what; } unsafe_cases[] = {
	{ "numa-balancing", race_prone, "numa-balancing" },
	{ "numa-balancing", race_prone_invlpgb, "x86-invlpgb" },
	/* The sweep over an unbounded TLB keeps the oracle's teeth. */
	{ "testbed", race_prone_testbed, "the testbed" },
};
#define NR_UNSAFE_CASES (sizeof(unsafe_cases) / sizeof(unsafe_cases[0]))

/*
 * Seeds a policy runs on: 3, or 1 to 3 from TLBP_ORACLE_SEEDS. CI sets 1
 * for every build but the README's run (.ci/run, quick_tests): what
 * valgrind, the sanitizers or another compiler find does not hang on the
 * seed, and the README's run takes all three.
 */
static uint64_t nr_seeds(void)
{
	const char *e = getenv("TLBP_ORACLE_SEEDS");
	long n = e ? strtol(e, NULL, 10) : 3;

	return n >= 1 && n <= 3 ? (uint64_t)n : 3;
}

/*
 * The @i-th (case, shipped policy) pair, counting every case's shipped
 * policies in order, in *@c and *@k; false past the last.
 */
static bool shipped_pair(unsigned int i, unsigned int *c, unsigned int *k)
{
	unsigned int n = 0, ci, ki;

	for (ci = 0; ci < NR_SHIPPED_CASES; ci++) {
		const struct scenario *sc = scenario_find(shipped_cases[ci].sc);

		for (ki = 0; ki < sc->nr_policies; ki++) {
			if (sc->policies[ki].unsafe)
				continue;
			if (n++ == i) {
				*c = ci;
				*k = ki;
				return true;
			}
		}
	}
	return false;
}

static unsigned int nr_shipped_pairs(void)
{
	unsigned int n = 0, c, k;

	while (shipped_pair(n, &c, &k))
		n++;
	return n;
}

START_TEST(test_scenarios_shipped_policies_no_violations)
{
	unsigned int c, k;
	const char *name, *policy;
	uint64_t seed, seeds = nr_seeds();

	ck_assert(shipped_pair((unsigned int)_i, &c, &k));
	name = shipped_cases[c].sc;
	policy = scenario_find(name)->policies[k].name;
	for (seed = 1; seed <= seeds; seed++) {
		struct metrics m = run_case(name, policy, shipped_cases[c].kv, seed);

		ck_assert_msg(m.v[M_STALE_TRANSLATION_VIOLATIONS] == 0,
			      "%s/%s seed %llu: %g violations", name, policy,
			      (unsigned long long)seed, m.v[M_STALE_TRANSLATION_VIOLATIONS]);
		ck_assert(m.v[M_SIM_EVENTS] > 0);
	}
}
END_TEST

/* Seeds an unsafe policy's race case runs on, until one catches it: a
 * race comes up in some runs, not all (the testbed's, scenario_cases.c). */
#define UNSAFE_SEEDS 3

START_TEST(test_scenarios_unsafe_policies_caught)
{
	const char *policy = unsafe_policies[_i / NR_UNSAFE_CASES];
	unsigned int c = (unsigned int)_i % NR_UNSAFE_CASES;
	double caught = 0;
	uint64_t seed;

	for (seed = 1; seed <= UNSAFE_SEEDS && !caught; seed++) {
		struct metrics m = run_case(unsafe_cases[c].sc, policy, unsafe_cases[c].kv, seed);

		caught = m.v[M_STALE_TRANSLATION_VIOLATIONS];
	}
	ck_assert_msg(caught > 0, "%s was not caught on %s (seeds 1 to %d)", policy,
		      unsafe_cases[c].what, UNSAFE_SEEDS);
}
END_TEST

/*
 * The unsafe policies' races are a case of their own, tagged "long": each
 * run takes seconds, and runs the shipped code but for one flag. CI leaves
 * the tag out (CK_EXCLUDE_TAGS=long) of every build but the README's run.
 */
static Suite *oracle_suite(void)
{
	Suite *s = suite_create("sim_oracle");
	TCase *tc = tcase_create("core");
	TCase *races = tcase_create("races");
	int i, n;

	tcase_set_timeout(tc, 120);
	for (i = ORACLE_SHARD, n = (int)nr_shipped_pairs(); i < n; i += ORACLE_SHARDS)
		tcase_add_loop_test(tc, test_scenarios_shipped_policies_no_violations, i, i + 1);
	suite_add_tcase(s, tc);
	tcase_set_timeout(races, 120);
	tcase_set_tags(races, "long");
	n = (int)(sizeof(unsafe_policies) / sizeof(unsafe_policies[0]) * NR_UNSAFE_CASES);
	for (i = ORACLE_SHARD; i < n; i += ORACLE_SHARDS)
		tcase_add_loop_test(races, test_scenarios_unsafe_policies_caught, i, i + 1);
	suite_add_tcase(s, races);
	return s;
}

int main(void)
{
	return run_suite(oracle_suite());
}
