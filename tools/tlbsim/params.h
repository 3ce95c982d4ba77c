/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Every number the emulator uses comes from this table: a name, a unit, a
 * default, a valid range and where the default comes from. Nothing in the
 * model code paths is a bare constant.
 */
#ifndef TLBSIM_PARAMS_H
#define TLBSIM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

enum param_id {
	/* scenario shape (names shared by every scenario) */
	P_CPUS, P_SOCKETS, P_THREADS, P_WORKING_SET_GIB, P_DURATION_S,
	P_FOLIO_ORDER, P_SHARED_MAPPERS, P_SPLIT_PARTIAL_THP, P_BACKEND,
	P_DEMOTE_PAGES, P_FAIL_AT_ITEM, P_SCALE, P_PROCESSES, P_PROFILE,
	P_MIGRATE_BATCHING, P_SPLIT_BENCH,
	/* workload */
	P_ACCESS_RATE_HZ, P_PRIVATE_FRACTION, P_WRITE_FRACTION, P_PATTERN,
	P_HOT_FRACTION, P_HOT_WEIGHT, P_PARETO_ALPHA, P_MISPLACED_FRACTION,
	P_MIGRATE_PROB, P_REMOTE_PENALTY, P_SCAN_DELAY_MS, P_SCAN_PERIOD_MIN_MS,
	P_SCAN_PERIOD_MAX_MS, P_SCAN_SIZE_MB, P_THP_OPS_PER_THREAD, P_HVO,
	P_HOLDOFF_FRACTION, P_HOLDOFF_MEAN_US, P_FAULT_PROMPT_FRACTION,
	P_FAULT_PROMPT_MS, P_MMAP_WRITER_HZ, P_MMAP_WRITE_HOLD_MS, P_CONVOY_SPIN_US,
	P_MIGRATE_FILTER, P_SCAN_OVERHEAD_RATIO,
	/* the testbed workload (tools/testbed/numa_regions.c) */
	P_MOVING_THREADS, P_STABLE_THREADS, P_SLICE_MIB, P_STABLE_MIB, P_SWITCH_MS,
	P_WARMUP_S, P_SWEEP_NS_PER_PAGE, P_SWEEP_HIT_NS_PER_PAGE, P_SWEEP_HIT_192_NS_PER_PAGE,
	P_SWEEP_SAMPLE_PAGES,
	/* cost model */
	P_IPI_FIRST_NS, P_IPI_EXTRA_NS, P_IPI_SOCKET_NS, P_IPI_HANDLER_NS,
	P_INVLPG_NS, P_FULL_FLUSH_NS, P_TLB_MISS_NS, P_TLB_ENTRIES, P_TLB_RESIZE,
	P_TLBI_ISSUE_NS, P_DVM_TLBI_NS, P_DSB_NS, P_INVLPGB_NS, P_TLBSYNC_NS,
	P_INVLPGB_COUNT_MAX, P_PTE_UPDATE_NS, P_FAULT_NS,
	P_MIGRATE_COPY_NS, P_SYNC_RCU_US, P_HVO_REMAP_NS, P_THP_ALLOC_US,
	P_THP_CLEAR_US, P_CPU_GHZ, P_JIFFIES_RATE,
	P_ROUND_FAULT_NS, P_ROUND_MPROTECT_NS, P_ROUND_REWRITE_NS, P_ROUND_SPLIT_NS,
	P_ROUND_MUNMAP_NS, P_HOST_CPUS, P_HOST_SLICE_NS, P_WAKE_NS,
	P_FLUSH_CEILING, P_BATCH_FLUSH_CEILING,
	NR_PARAMS
};

enum param_kind { PARAM_SCENARIO, PARAM_WORKLOAD, PARAM_COST };

struct param_def {
	const char *name;
	const char *unit;
	double def, min, max;
	bool integer;
	enum param_kind kind;
	const char *const *choices; /* NULL-terminated names, or NULL */
	const char *source;
};

extern const struct param_def param_defs[NR_PARAMS];

struct params {
	double v[NR_PARAMS];
	bool set[NR_PARAMS]; /* given with --set (scenario defaults do not override) */
};

enum backend_kind { BACKEND_X86_IPI, BACKEND_ARM64_TLBI, BACKEND_X86_INVLPGB };
enum pattern_kind { PATTERN_UNIFORM, PATTERN_HOTCOLD, PATTERN_PARETO, PATTERN_SWEEP };
/* How a hint fault on a misplaced folio decides to migrate it. */
enum migrate_filter { FILTER_PROBABILITY, FILTER_LAST_NODE };
/* Which benchmark thp-split runs. */
enum split_bench { SPLIT_BENCH_THPSCALE, SPLIT_BENCH_DEBUGFS };

void params_defaults(struct params *p);
/* Applies "key=value"; on error writes a one-line message to @err. */
int params_set(struct params *p, const char *kv, char *err, size_t errlen);
/* Sets @id unless the user set it explicitly (scenario defaults). */
void params_default(struct params *p, enum param_id id, double v);
int param_lookup(const char *name);
/* Formats a value for output: a choice name or a number. */
void param_format(enum param_id id, double v, char *buf, size_t len);
const char *param_kind_name(enum param_kind k);

#endif
