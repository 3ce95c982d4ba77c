/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * tlbsim's command line: which options each command takes, and parsing
 * argv into struct options. Nothing here runs a model.
 */
#ifndef TLBSIM_OPTIONS_H
#define TLBSIM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "report.h"
#include "scenario.h"

enum command { CMD_LIST, CMD_RUN, CMD_COMPARE, CMD_SWEEP, CMD_MERGE, CMD_FIT, NR_COMMANDS };

extern const char *const command_names[NR_COMMANDS];

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
	bool no_blind;          /* balancing-off runs keep their TLBs */
	bool quiet;             /* no per-run progress: the command reports its own */
	/* fit (fit.h), and compare --fit */
	const char *fit_free, *fit_targets, *fit_out, *fit;
	unsigned int fit_seeds, fit_max_evals, fit_profile_points, fit_samples;
	double fit_tolerance;
	const struct sim_tick *tick; /* run: the timeline and progress hook */
	struct baseline *base; /* balancing-off twin shared by the runs of a seed */
	unsigned int *warned;  /* WARN_* already printed by this command */
};


/* The command called @name, or -1. */
int command_lookup(const char *name);
/* Every command's usage, or only @cmd's (NR_COMMANDS for all). */
void usage(FILE *f, enum command cmd);
void version(void);
/*
 * Fills @o from argv[2..] of @cmd: 0, -1 after --help or --version (exit
 * 0), or 2 after a one-line error. Options that @cmd does not take, empty
 * or repeated list items and bad values are errors here, before any run.
 */
int options_parse(int argc, char **argv, enum command cmd, struct options *o);
/* Resolves --metric against o->sc (the headline when none was given);
 * 0, or 2 after a one-line error. */
int options_resolve_metrics(struct options *o);


#endif
