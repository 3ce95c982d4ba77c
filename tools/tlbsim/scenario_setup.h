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
/* The test-only policies break a rule on top of the shipped defaults of
 * both NUMA scenarios: migration always batches, the hint fault defers. */
#define UNSAFE_LIB_POLICY { .migrate = TLBP_MIGRATE_BATCH_ALWAYS, .hint = TLBP_HINT_DEFERRED_MAP }
#define NUMA_UNSAFE_POLICIES \
	{ "unsafe-never-flush", UNSAFE_LIB_POLICY, UNSAFE_NEVER_FLUSH, true, \
	  "test only: migration never flushes its batch" }, \
	{ "unsafe-ignore-pending", UNSAFE_LIB_POLICY, UNSAFE_IGNORE_PENDING, true, \
	  "test only: PROT_NONE counts as uncached while a flush is pending" }, \
	{ "unsafe-free-before-flush", UNSAFE_LIB_POLICY, UNSAFE_FREE_BEFORE_FLUSH, true, \
	  "test only: copy the page before the batch is flushed" }

/* What every back-end's flush costs read, in any scenario. */
#define SCENARIO_FLUSH_COST_PARAMS \
	P_PROFILE, P_BACKEND, P_IPI_FIRST_NS, P_IPI_EXTRA_NS, P_IPI_SOCKET_NS, P_IPI_HANDLER_NS, \
	P_INVLPG_NS, P_FULL_FLUSH_NS, P_TLB_MISS_NS, P_TLB_ENTRIES, P_TLB_RESIZE, \
	P_TLBI_ISSUE_NS, P_DVM_TLBI_NS, P_DSB_NS, P_INVLPGB_NS, P_TLBSYNC_NS, P_INVLPGB_COUNT_MAX, \
	P_HOLDOFF_FRACTION, P_HOLDOFF_MEAN_US, P_HOST_CPUS, P_HOST_SLICE_NS
/* What the per-CPU unmap batch reads (not the demote, which flushes all). */
#define SCENARIO_BATCH_PARAMS P_FLUSH_CEILING, P_BATCH_FLUSH_CEILING
/* What every scenario reports last. */
#define SCENARIO_RUN_METRICS \
	M_STALE_TRANSLATION_VIOLATIONS, M_SIM_EVENTS, M_WALL_SECONDS, NR_METRICS

/* The NUMA model's parameters and metrics, shared by both NUMA scenarios. */
extern const enum param_id scenario_numa_params[];
extern const enum metric_id scenario_numa_metrics[];
void scenario_numa_resolve(struct params *p);
void scenario_numa_describe(const struct params *eff, char *buf, size_t len);
bool scenario_numa_check(const struct params *eff, char *buf, size_t len);

/* "N CPUs on M nodes (backend)", the start of every machine line. */
int scenario_describe_cpus(const struct params *eff, char *buf, size_t len);
/* Clamps sockets to the CPUs, which setup would otherwise do unseen. */
void scenario_clamp_sockets(struct params *p);

/* @v times @scale, rounded, and never below @floor_. */
unsigned int scenario_scaled(double v, double scale, unsigned int floor_);
/* The machine, @nr_threads spread over its CPUs in @nr_procs address
 * spaces (one shared object when @shared), @pages rounded up to whole
 * folios and slices. 0 or -1. */
int scenario_setup_common(struct sim *s, unsigned int nr_threads,
			  unsigned int nr_procs, bool shared, uint64_t pages);
/* Whether @p asks for half-mapped large folios (split_partial_thp with a
 * folio_order above 0). */
bool scenario_half_mapped(const struct params *p);
/* The split policy of the kernel @p models (a NUMA migration's split of a
 * half-mapped folio). */
enum tlbp_split_policy scenario_kernel_split_policy(const struct params *p);
/* With scenario_half_mapped(): the second half of every large folio
 * unmapped. */
void scenario_unmap_partial(struct sim *s);
/* The NUMA model under @pol: machine, placement, accesses, scanners. */
int scenario_setup_numa(struct sim *s, const struct policy_def *pol);

#endif
