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
	struct policy_choice lib; /* the library policies it selects */
	enum unsafe_mode unsafe; /* test-only: breaks a rule on purpose */
	bool balancing;          /* NUMA balancing on */
	const char *help;
};

/* Where a scenario's own default of a parameter comes from. */
struct profile;

struct param_source {
	enum param_id id;
	const char *source;
};

struct scenario {
	const char *name;
	const char *help;
	const struct policy_def *policies;
	const char *default_policy;
	unsigned int nr_policies;
	bool has_baseline; /* throughput loss needs the balancing-off twin */
	/* The parameters it reads, ending with NR_PARAMS; setting any other
	 * one is refused. */
	const enum param_id *params;
	/* The metrics it reports, in the order the tables show them, ending
	 * with NR_METRICS; the first is the headline (sweep's default). */
	const enum metric_id *metrics;
	/* A count that is zero when the model was too small to do anything
	 * (judged for policies with balancing on, or for every policy of a
	 * scenario without a baseline). */
	enum metric_id activity;
	/* Scenario-specific defaults, applied unless the user set the value,
	 * and their sources (ending with NR_PARAMS; may be NULL). */
	void (*defaults)(struct params *p);
	const struct param_source *sources;
	/* The real machine it models by default (its @defaults set the
	 * profile parameter to it), for the sources 'tlbsim list' shows;
	 * NULL for none. */
	const struct profile *profile;
	/* Requested -> effective: applies scale and clamps, in place, so that
	 * setup builds exactly what the parameters then say. */
	void (*resolve)(struct params *p);
	/* The effective machine in one line, for the tables' header. */
	void (*describe)(const struct params *eff, char *buf, size_t len);
	/* A warning about effective parameters that cannot do what they ask
	 * (written into @buf, true), or false. May be NULL. */
	bool (*check)(const struct params *eff, char *buf, size_t len);
	int (*setup)(struct sim *s, const struct policy_def *pol);
};

extern const struct scenario scenario_numa_balancing, scenario_numa_hint_fault,
	scenario_thp_split, scenario_hugetlb_demote, scenario_testbed;
extern const struct scenario *const scenarios[];
extern const unsigned int nr_scenarios;

const struct scenario *scenario_find(const char *name);
const struct policy_def *scenario_policy(const struct scenario *sc, const char *name);
/* The parameters a run uses: defaults, the scenario's, the user's, then
 * scaled and clamped into the effective machine. */
void scenario_params(const struct scenario *sc, const struct params *user,
		     struct params *out);
/* The scenario's defaults (before the user's values and scaling). */
void scenario_defaults(const struct scenario *sc, struct params *out);
bool scenario_reads(const struct scenario *sc, enum param_id id);
/* The source of @sc's default of @id: its own, else the parameter's. */
const char *scenario_param_source(const struct scenario *sc, enum param_id id);
/* 0 if @sc reads the parameter of "@kv" (or "name"), else -1 with a
 * one-line message listing the ones it reads. */
int scenario_check_reads(const struct scenario *sc, const char *kv, char *err,
			 size_t errlen);
bool scenario_reports(const struct scenario *sc, enum metric_id id);
/*
 * Which runs leave their TLBs blind (scenario.c, run_blind()): by default
 * the balancing-off runs of scenarios with twins. A blind run that finds
 * it needed its TLBs is done again with them, so no figure depends on the
 * mode; BLIND_NEVER is --no-blind, BLIND_ALWAYS is for tests.
 */
enum blind_mode { BLIND_TWINS, BLIND_NEVER, BLIND_ALWAYS };

/*
 * The balancing-off twin of a (parameters, seed), kept so that comparing
 * several policies on one seed runs it once; and the caller's settings
 * for the runs it is given to.
 */
struct baseline {
	bool valid;
	uint64_t seed;
	struct params p;
	struct metrics m;
	/* Set by the caller: it runs the twin as a run of its own and calls
	 * scenario_set_loss() with its figures, so none is run here. */
	bool twin_elsewhere;
	enum blind_mode blind;   /* set by the caller */
	/* Counted here: runs made blind, and those done again with TLBs. */
	unsigned long blind_runs, blind_redone;
};

/* @out's throughput_loss_pct against @off, its balancing-off twin's
 * figures (the same parameters and seed). */
void scenario_set_loss(struct metrics *out, const struct metrics *off);

/* Runs one simulation, and its balancing-off twin unless @cache holds it
 * (@cache may be NULL); 0 or -1 with a one-line message in @err. */
int scenario_run(const struct scenario *sc, const struct params *user,
		 const struct policy_def *pol, uint64_t seed, struct metrics *out,
		 struct baseline *cache, char *err, size_t errlen);
/* scenario_run() whose policy run (not its balancing-off twin) calls
 * @tick's hook as its virtual time passes (@tick may be NULL). */
int scenario_run_ticked(const struct scenario *sc, const struct params *user,
			const struct policy_def *pol, uint64_t seed, struct metrics *out,
			struct baseline *cache, const struct sim_tick *tick, char *err,
			size_t errlen);

#endif
