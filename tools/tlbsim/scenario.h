/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* The scenarios, their policies, and running one (scenario, policy, seed). */
#ifndef TLBSIM_SCENARIO_H
#define TLBSIM_SCENARIO_H

#include <stddef.h>
#include <stdint.h>
#include "metrics.h"
#include "params.h"
#include "sim.h"

struct policy_def {
	const char *name;
	int value;               /* the library policy it selects */
	enum unsafe_mode unsafe; /* test-only: breaks a rule on purpose */
	bool balancing;          /* NUMA balancing on */
	const char *help;
};

struct scenario {
	const char *name;
	const char *help;
	const struct policy_def *policies;
	const char *default_policy;
	unsigned int nr_policies;
	bool has_baseline; /* throughput loss needs the balancing-off twin */
	/* Scenario-specific defaults, applied unless the user set the value. */
	void (*defaults)(struct params *p);
	int (*setup)(struct sim *s, const struct policy_def *pol);
};

extern const struct scenario scenario_numa_balancing, scenario_numa_hint_fault,
	scenario_thp_split, scenario_hugetlb_demote;
extern const struct scenario *const scenarios[];
extern const unsigned int nr_scenarios;

const struct scenario *scenario_find(const char *name);
const struct policy_def *scenario_policy(const struct scenario *sc, const char *name);
/* The parameters a run uses: defaults, the scenario's, then the user's. */
void scenario_params(const struct scenario *sc, const struct params *user,
		     struct params *out);
/*
 * The balancing-off twin of a (parameters, seed), kept so that comparing
 * several policies on one seed runs it once.
 */
struct baseline {
	bool valid;
	uint64_t seed;
	struct params p;
	struct metrics m;
};

/* Runs one simulation, and its balancing-off twin unless @cache holds it
 * (@cache may be NULL); 0 or -1 with a one-line message in @err. */
int scenario_run(const struct scenario *sc, const struct params *user,
		 const struct policy_def *pol, uint64_t seed, struct metrics *out,
		 struct baseline *cache, char *err, size_t errlen);
/* Memory of the model beyond the TLBs, per simulated 4 KiB page (last run). */
extern double scenario_last_bytes_per_page;

#endif
