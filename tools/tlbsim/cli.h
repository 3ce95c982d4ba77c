/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Command-line state shared by the tlbsim subcommands. */
#ifndef TLBSIM_CLI_H
#define TLBSIM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include "report.h"
#include "scenario.h"

#define MAX_POLICIES MAX_COMPARE_POLICIES

struct options {
	const struct scenario *sc;
	struct params params;
	const char *policy;
	const char *policies[MAX_POLICIES];
	unsigned int nr_policies;
	uint64_t seed;
	unsigned int pairs;
	const char *json, *csv, *plot, *metric, *vary;
	bool no_timing;
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
/* Runs one (policy, seed) and appends its record; 0 or 1. */
int cli_run_one(const struct options *o, const char *policy, uint64_t seed,
		unsigned int pair, const struct params *params, struct records *rs);
int write_outputs(const struct options *o, const struct records *rs);

#endif
