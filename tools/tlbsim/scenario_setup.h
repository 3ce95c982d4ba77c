/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What the scenarios share: scaling a parameter, laying threads and their
 * address spaces over the machine, first-touch placement, and the NUMA
 * model that numa-balancing and numa-hint-fault both drive.
 */
#ifndef TLBSIM_SCENARIO_SETUP_H
#define TLBSIM_SCENARIO_SETUP_H

#include <stdbool.h>
#include <stdint.h>
#include "scenario.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The test-only policies every NUMA scenario offers, to prove the oracle
 * catches a broken rule. */
#define NUMA_UNSAFE_POLICIES \
	{ "unsafe-never-flush", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_NEVER_FLUSH, true, \
	  "test only: migration never flushes its batch" }, \
	{ "unsafe-ignore-pending", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_IGNORE_PENDING, true, \
	  "test only: PROT_NONE counts as uncached while a flush is pending" }, \
	{ "unsafe-free-before-flush", TLBP_MIGRATE_BATCH_ALWAYS, UNSAFE_FREE_BEFORE_FLUSH, true, \
	  "test only: copy the page before the batch is flushed" }

/* @v times @scale, rounded, and never below @floor_. */
unsigned int scenario_scaled(double v, double scale, unsigned int floor_);
/* The machine, @nr_threads spread over its CPUs in @nr_procs address
 * spaces (one shared object when @shared), @pages rounded up to whole
 * folios and slices. 0 or -1. */
int scenario_setup_common(struct sim *s, unsigned int nr_threads,
			  unsigned int nr_procs, bool shared, uint64_t pages);
/* The NUMA model under @pol: machine, placement, accesses, scanners. */
int scenario_setup_numa(struct sim *s, const struct policy_def *pol);

#endif
