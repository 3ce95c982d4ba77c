/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Forked worker processes sharing a list of independent tasks. Processes,
 * not threads: a run owns its whole model and shares nothing, and a crash
 * in one is reported instead of taking the others with it.
 */
#ifndef TLBSIM_WORKERS_H
#define TLBSIM_WORKERS_H

#include <stdbool.h>
#include <stddef.h>
#include "metrics.h"

struct progress;

/* What one task hands back to the parent: plain data, no pointers. */
struct run_result {
	bool done;
	bool failed;
	char err[160];
	struct metrics metrics;
};

/*
 * Runs tasks 0..@n-1 in @jobs forked processes: each takes the next task
 * not yet taken and calls @compute(@arg, k, result) into memory shared
 * with the parent; the parent calls @done(@arg, k, progress) as each
 * finishes. Returns the @n results (release with workers_free()), or NULL
 * after a one-line error (no memory, fork failed, a worker died).
 */
struct run_result *workers_run(unsigned int jobs, size_t n,
			       void (*compute)(void *arg, size_t k, struct run_result *res),
			       void (*done)(void *arg, size_t k, struct progress *pg),
			       void *arg);
void workers_free(struct run_result *res, size_t n);

#endif
