/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What the end-to-end suites share (check_sim_scenarios.c,
 * check_sim_oracle.c, check_sim_blind.c): reduced-scale parameter sets,
 * each a NULL-ended list of key=value, and a run of one scenario's policy
 * on one seed.
 */
#ifndef TESTS_TLBSIM_SCENARIO_CASES_H
#define TESTS_TLBSIM_SCENARIO_CASES_H

#include <stdint.h>
#include "scenario.h"

/* Small and busy: faults land in scanner passes while other CPUs still
 * cache the pages (numa-balancing, numa-hint-fault). */
extern const char *const race_prone[];
/* race_prone on AMD broadcast invalidation. */
extern const char *const race_prone_invlpgb[];
extern const char *const small_numa[];
extern const char *const small_hint[];
extern const char *const small_split[];
extern const char *const small_split_debugfs[];
extern const char *const small_demote[];
/* The testbed workload shrunk. */
extern const char *const small_testbed[];
/* The shrunk testbed with passes long enough to race a moved thread. */
extern const char *const race_prone_testbed[];

/* Applies @kv to @p; a bad setting fails the calling test. */
void set_case_params(struct params *p, const char *const *kv);
/* Runs @policy of @scenario with the defaults and @kv on @seed; a failed
 * setting or run fails the calling test. */
struct metrics run_case(const char *scenario, const char *policy,
			const char *const *kv, uint64_t seed);
/* run_case() with @base's settings, and its counts (@base may be NULL). */
struct metrics run_case_with(const char *scenario, const char *policy,
			     const char *const *kv, uint64_t seed, struct baseline *base);

#endif
