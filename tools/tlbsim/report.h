/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Human tables on stdout; JSON (libjansson) and CSV records in files. */
#ifndef TLBSIM_REPORT_H
#define TLBSIM_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "metrics.h"
#include "params.h"

struct scenario;

struct run_record {
	const struct scenario *sc;
	const char *policy;
	uint64_t seed;
	unsigned int pair;
	struct params asked;   /* as requested: only the values set are recorded */
	struct params params;  /* effective: scenario defaults, scaled, clamped */
	struct metrics metrics;
};

struct records {
	struct run_record *r;
	size_t len, cap;
};

int records_add(struct records *rs, const struct run_record *r);
void records_free(struct records *rs);

/* "machine: ...", the effective machine of @params in one line. */
void report_machine(FILE *out, const struct scenario *sc, const struct params *eff);
/* One run's metrics, with their units. */
void report_run(FILE *out, const struct run_record *r);
#define MAX_COMPARE_POLICIES 16
/* The scenario's metrics for each policy: mean, [min..max] over pairs, and
 * the change against the first policy; a table at most @width columns wide
 * when one fits. */
void report_compare(FILE *out, const struct records *rs, const char *const *policies,
		    unsigned int nr_policies, int width);
int report_json(const char *path, const struct records *rs, char *err, size_t errlen);

struct json_t;
/*
 * The way back: sets @p's parameter @key from the value a JSON record gave
 * it (a number or a choice's name), checked as --set checks it. Returns 0,
 * or -1 with @err set.
 */
int params_set_json(struct params *p, const char *key, struct json_t *v, char *err,
		    size_t errlen);
int report_csv(const char *path, const struct records *rs, char *err, size_t errlen);

#endif
