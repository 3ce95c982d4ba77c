/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The runs a command makes: a plan (the list of (policy, seed, parameters)
 * in the order the records take), executed in this process or by forked
 * workers, with the same records either way.
 */
#ifndef TLBSIM_RUNNER_H
#define TLBSIM_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include "report.h"

struct options;

struct run_task {
	const char *policy;
	uint64_t seed;
	unsigned int pair;
	struct params params; /* requested: the scenario resolves them */
	char label[96];       /* for progress: "cpus=16, always, seed 2" */
};

struct plan {
	struct run_task *t;
	size_t len, cap;
};

/* Appends a task; 0 or -1 (out of memory). */
int plan_add(struct plan *pl, const struct run_task *t);
void plan_free(struct plan *pl);

/*
 * Runs every task of @pl (o->jobs workers; 0 = one per online CPU) and
 * appends their records to @rs in plan order. Warnings and violation
 * reports go to stderr in plan order, as a one-process run prints them.
 * 0, or 1 after the first failed run's message.
 */
int runner_execute(const struct options *o, const struct plan *pl, struct records *rs);

/* Worker processes for @nr_tasks tasks: o->jobs, else the online CPUs. */
unsigned int runner_jobs(const struct options *o, size_t nr_tasks);

#endif
