/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Command-line state shared by the tlbsim subcommands. */
#ifndef TLBSIM_CLI_H
#define TLBSIM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include "options.h"
#include "report.h"
#include "scenario.h"

#define MAX_POLICIES MAX_COMPARE_POLICIES
#define MAX_PLOTS 8
#define MAX_METRICS 8
#define MAX_INPUTS 4096

struct options {
	enum command cmd;
	const char *self;       /* this program, as a jobs file runs it */
	const struct scenario *sc;
	struct params params;
	const char *policy;
	const char *policies[MAX_POLICIES];
	unsigned int nr_policies;
	uint64_t seed;
	unsigned int pairs;
	unsigned int jobs;      /* worker processes; 0 = one per online CPU */
	const char *json, *csv, *vary, *emit_jobs, *timeline;
	const char *plots[MAX_PLOTS];
	unsigned int nr_plots;
	const char *metric_names[MAX_METRICS];
	int metrics[MAX_METRICS]; /* --metric ids, or the headline alone */
	unsigned int nr_metrics;
	const char **inputs;    /* merge: the result files */
	unsigned int nr_inputs;
	bool no_timing;
	const struct sim_tick *tick; /* run: the timeline and progress hook */
	struct baseline *base; /* balancing-off twin shared by the runs of a seed */
	unsigned int *warned;  /* WARN_* already printed by this command */
};

/* Warnings a command prints once however many runs it makes. */
enum { WARN_CHECK = 1, WARN_IDLE = 2, WARN_SCALE = 4 };

/* One-line warning on stderr, unless @bit was already warned about. */
void warn_once(const struct options *o, unsigned int bit, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One-line error on stderr; returns the usage exit status, 2. */
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tlbsim list [SCENARIO | metrics]. */
int cmd_list(int argc, char **argv);
int write_outputs(const struct options *o, const struct records *rs);
/* Resolves --metric against o->sc (the headline when none was given);
 * 0, or 2 after a one-line error. */
int options_resolve_metrics(struct options *o);

#endif
