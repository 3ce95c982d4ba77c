/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* The figures a run reports: the dictionary of names, units and meanings. */
#ifndef TLBSIM_METRICS_H
#define TLBSIM_METRICS_H

struct sim;

enum metric_id {
	M_MIGRATED_PAGES, M_HINT_FAULTS, M_HINT_PTES_UPDATED, M_TLB_IPIS_SENT,
	M_TLB_IRQS_RECEIVED, M_INVLPGB_FLUSHES, M_TLB_IRQS_PER_MIGRATED_PAGE, M_FULL_FLUSHES,
	M_RANGED_FLUSHES, M_SCANNER_FLUSH_MM_CALLS, M_BATCHED_PENDING_DRAINS,
	M_SCAN_PASSES, M_SCAN_CALLS, M_SCAN_SEQUENCES, M_SCAN_PASS_MS_MEAN, M_SCAN_WALL_FRACTION, M_SCAN_PERIOD_MS,
	M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION, M_FAULTS_DURING_PASS_FRACTION,
	M_MIGRATIONS_DURING_PASS_FRACTION, M_DURING_PASS_THIS_CHUNK_FRACTION,
	M_DURING_PASS_RECENT_FRACTION,
	M_THROUGHPUT_LOSS_PCT, M_USEFUL_WORK_FRACTION, M_REMOTE_ACCESS_FRACTION,
	M_KERNEL_CYCLES_PER_HINT_PTE, M_CONVOY_LOST_FRACTION, M_PROMPT_FAULTS, M_SYNC_CALLS, M_TLB_FLUSH_ALL_CALLS,
	M_OP_LATENCY_US_MEAN, M_SYS_MS, M_REAL_MS, M_SPLITS,
	M_PROTNONE_BATCHED_UNMAPS, M_PROTNONE_UNBATCHED_UNMAPS, M_NODE_SWITCHES,
	M_MOVING_SWEEPS, M_STABLE_SWEEPS, M_TLB_IRQS_ABSORBED,
	M_STALE_TRANSLATION_VIOLATIONS, M_SIM_EVENTS, M_WALL_SECONDS,
	NR_METRICS
};

struct metrics {
	double v[NR_METRICS];
	double useful_ns; /* for the throughput comparison against "off" */
	char first_violation[160]; /* the oracle's first finding, or "" */
};

/* How a figure compares between policies: counts and values by their
 * relative change, fractions and percentages by the difference in points. */
enum metric_kind { METRIC_COUNT, METRIC_VALUE, METRIC_RATIO, METRIC_FRACTION, METRIC_PERCENT };

struct metric_def {
	const char *name; /* JSON and CSV key */
	const char *unit;
	enum metric_kind kind;
	const char *help; /* one line */
};

extern const struct metric_def metric_defs[NR_METRICS];

void metrics_from_sim(const struct sim *s, struct metrics *m);
int metric_lookup(const char *name);

#endif
