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

/*
 * @policy's figures blind (@mode) and with TLBs: the same. Returns what
 * the blind side counted: the runs it made blind and those it did again.
 */
static struct baseline compare_modes(const char *scenario, const char *policy,
				     const char *const *kv, enum blind_mode mode, uint64_t seed)
{
	struct baseline blind_base = { .blind = mode }, seeing_base = { .blind = BLIND_NEVER };
	struct metrics blind, seeing;
	char what[96];

	blind = run_case_with(scenario, policy, kv, seed, &blind_base);
	seeing = run_case_with(scenario, policy, kv, seed, &seeing_base);
	ck_assert_uint_eq(seeing_base.blind_runs, 0);
	snprintf(what, sizeof(what), "%s/%s seed %llu", scenario, policy,
		 (unsigned long long)seed);
	assert_same_figures(&blind, &seeing, what);
	return blind_base;
}

/* Unbounded TLBs sized as qemu sizes them, and arm64's broadcast
 * invalidation: the other TLB back-ends a twin may run with. */
static const char *const small_qemu_tlbs[] = { "scale=0.01", "tlb_entries=0", "tlb_resize=1",
					       NULL };
static const char *const small_arm64[] = { "scale=0.01", "backend=arm64-tlbi", NULL };

/* Each scenario with twins, and a policy that has one. */
static const struct {
	const char *sc, *policy;
	const char *const *kv;
} twin_cases[] = {
	{ "numa-balancing", "always", small_numa },
	{ "numa-balancing", "always", race_prone },
	{ "numa-balancing", "always", race_prone_invlpgb },
	{ "numa-balancing", "skip-single", small_qemu_tlbs },
	{ "numa-balancing", "skip-numa", small_arm64 },
	{ "numa-hint-fault", "deferred-map", small_hint },
	{ "numa-hint-fault", "eager-map", race_prone },
};

/* The off runs of every scenario with twins go blind, and stay so: none
 * is done again, or the mode would cost twice what it saves. */
START_TEST(test_off_runs_blind_same_figures)
{
	uint64_t seed;

	for (seed = 1; seed <= 2; seed++) {
		struct baseline b = compare_modes(twin_cases[_i].sc, "off", twin_cases[_i].kv,
						  BLIND_TWINS, seed);

		ck_assert_uint_eq(b.blind_runs, 1);
		ck_assert_uint_eq(b.blind_redone, 0);
	}
}
END_TEST

/* A policy run's throughput loss comes from its twin: the same blind,
 * and the policy run itself keeps its TLBs. */
START_TEST(test_policy_run_with_blind_twin_same_figures)
{
	struct baseline b = compare_modes(twin_cases[_i].sc, twin_cases[_i].policy,
					  twin_cases[_i].kv, BLIND_TWINS, 1);

	ck_assert_uint_eq(b.blind_runs, 1);
	ck_assert_uint_eq(b.blind_redone, 0);
}
END_TEST

/* A balancing run needs its TLBs (flushes, hint faults, moved frames):
 * made blind, it finds out, and is done again with them. */
START_TEST(test_balancing_run_blind_is_done_again)
{
	struct baseline b;

	b = compare_modes("numa-balancing", "always", race_prone, BLIND_ALWAYS, 1);
	ck_assert_uint_eq(b.blind_runs, 2);   /* the policy run and its twin */
	ck_assert_uint_eq(b.blind_redone, 1); /* the policy run */
	b = compare_modes("numa-hint-fault", "deferred-map", small_hint, BLIND_ALWAYS, 1);
	ck_assert_uint_ge(b.blind_redone, 1);
	/* Even with nothing flushed: a frame moved, and the oracle would
	 * have been asked who still caches it. */
	b = compare_modes("numa-balancing", "unsafe-never-flush", race_prone, BLIND_ALWAYS, 1);
	ck_assert_uint_ge(b.blind_redone, 1);
}
END_TEST

/* Scenarios without twins keep their TLBs, off policy or not. */
START_TEST(test_no_blind_runs_without_twins)
{
	struct baseline b = { 0 };

	(void)run_case_with("thp-split", "batched", small_split, 1, &b);
	ck_assert_uint_eq(b.blind_runs, 0);
	b = compare_modes("thp-split", "batched", small_split, BLIND_ALWAYS, 1);
	ck_assert_uint_eq(b.blind_redone, 1);
	b = compare_modes("hugetlb-demote", "batched", small_demote, BLIND_ALWAYS, 1);
	ck_assert_uint_eq(b.blind_redone, 1);
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
