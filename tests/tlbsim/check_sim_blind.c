// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Blind TLBs (scenario.c): a balancing-off run that skips its TLBs
 * reports what the same run with them does, figure for figure, and a run
 * that needed its TLBs is done again with them.
 */
#include <math.h>
#include <stdio.h>
#include <check.h>
#include "scenario_cases.h"
#include "suite_runner.h"

/* Equal, or both undefined (a ratio of nothing). */
static bool same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Everything a run reports but its host time. */
static void assert_same_figures(const struct metrics *a, const struct metrics *b,
				const char *what)
{
	unsigned int i;

	for (i = 0; i < NR_METRICS; i++)
		if (i != M_WALL_SECONDS)
			ck_assert_msg(same(a->v[i], b->v[i]), "%s: %s %.17g blind, %.17g not",
				      what, metric_defs[i].name, a->v[i], b->v[i]);
	ck_assert_msg(a->useful_ns == b->useful_ns, "%s: useful_ns %.17g blind, %.17g not",
		      what, a->useful_ns, b->useful_ns);
}

/* @policy's figures blind (@mode) and with TLBs; returns the blind runs
 * done again. */
static unsigned long compare_modes(const char *scenario, const char *policy,
				   const char *const *kv, enum blind_mode mode, uint64_t seed)
{
	unsigned long redone = scenario_blind_redone();
	struct metrics blind, seeing;
	char what[96];

	scenario_set_blind(mode);
	blind = run_case(scenario, policy, kv, seed);
	redone = scenario_blind_redone() - redone;
	scenario_set_blind(BLIND_NEVER);
	seeing = run_case(scenario, policy, kv, seed);
	scenario_set_blind(BLIND_TWINS);
	snprintf(what, sizeof(what), "%s/%s seed %llu", scenario, policy,
		 (unsigned long long)seed);
	assert_same_figures(&blind, &seeing, what);
	return redone;
}

/* Each scenario with twins, and a policy that has one. */
static const struct {
	const char *sc, *policy;
	const char *const *kv;
} twin_cases[] = {
	{ "numa-balancing", "always", small_numa },
	{ "numa-balancing", "always", race_prone },
	{ "numa-balancing", "always", race_prone_invlpgb },
	{ "numa-hint-fault", "deferred-map", small_hint },
	{ "numa-hint-fault", "eager-map", race_prone },
};

/* The off runs of every scenario with twins go blind, and stay so: none
 * is done again, or the mode would cost twice what it saves. */
START_TEST(test_off_runs_blind_same_figures)
{
	uint64_t seed;

	for (seed = 1; seed <= 2; seed++)
		ck_assert_uint_eq(compare_modes(twin_cases[_i].sc, "off", twin_cases[_i].kv,
						BLIND_TWINS, seed), 0);
}
END_TEST

/* A policy run's throughput loss comes from its twin: the same blind. */
START_TEST(test_policy_run_with_blind_twin_same_figures)
{
	ck_assert_uint_eq(compare_modes(twin_cases[_i].sc, twin_cases[_i].policy, twin_cases[_i].kv,
					BLIND_TWINS, 1), 0);
}
END_TEST

/* A balancing run needs its TLBs (flushes, hint faults, moved frames):
 * made blind, it finds out, and is done again with them. */
START_TEST(test_balancing_run_blind_is_done_again)
{
	ck_assert_uint_eq(compare_modes("numa-balancing", "always", race_prone,
					BLIND_ALWAYS, 1), 1);
	ck_assert_uint_eq(compare_modes("numa-hint-fault", "deferred-map", small_hint,
					BLIND_ALWAYS, 1), 1);
}
END_TEST

/* Scenarios without twins keep their TLBs, off policy or not. */
START_TEST(test_no_blind_runs_without_twins)
{
	unsigned long redone = scenario_blind_redone();

	(void)run_case("thp-split", "batched", small_split, 1);
	ck_assert_uint_eq(scenario_blind_redone(), redone);
	ck_assert_uint_eq(compare_modes("thp-split", "batched", small_split, BLIND_ALWAYS, 1), 1);
}
END_TEST

static Suite *blind_suite(void)
{
	Suite *s = suite_create("sim_blind");
	TCase *tc = tcase_create("core");
	int n = (int)(sizeof(twin_cases) / sizeof(twin_cases[0]));

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_off_runs_blind_same_figures, 0, n);
	tcase_add_loop_test(tc, test_policy_run_with_blind_twin_same_figures, 0, n);
	tcase_add_test(tc, test_balancing_run_blind_is_done_again);
	tcase_add_test(tc, test_no_blind_runs_without_twins);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(blind_suite());
}
