// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "metrics.h"
#include "sim.h"

const struct metric_def metric_defs[NR_METRICS] = {
	[M_MIGRATED_PAGES] = { "migrated_pages", "pages", METRIC_COUNT,
		"4 KiB pages NUMA balancing moved to another node" },
	[M_HINT_FAULTS] = { "hint_faults", "faults", METRIC_COUNT,
		"NUMA hint faults taken" },
	[M_HINT_PTES_UPDATED] = { "hint_ptes_updated", "PTEs", METRIC_COUNT,
		"PTEs the scanner made PROT_NONE" },
	[M_TLB_IPIS_SENT] = { "tlb_ipis_sent", "IPIs", METRIC_COUNT,
		"TLB-shootdown interrupts sent" },
	[M_TLB_IRQS_RECEIVED] = { "tlb_irqs_received", "IRQs", METRIC_COUNT,
		"TLB-shootdown interrupts handled (the kernel's TLB line of /proc/interrupts)" },
	[M_INVLPGB_FLUSHES] = { "invlpgb_flushes", "flushes", METRIC_COUNT,
		"broadcast flushes waited for with TLBSYNC (x86-invlpgb; 0 elsewhere)" },
	[M_TLB_IRQS_PER_MIGRATED_PAGE] = { "tlb_irqs_per_migrated_page", "IRQs/page", METRIC_RATIO,
		"TLB-shootdown interrupts per migrated page" },
	[M_FULL_FLUSHES] = { "full_flushes", "flushes", METRIC_COUNT,
		"flush requests that flushed the whole TLB" },
	[M_RANGED_FLUSHES] = { "ranged_flushes", "flushes", METRIC_COUNT,
		"flush requests that flushed a range of pages" },
	[M_SCANNER_FLUSH_MM_CALLS] = { "scanner_flush_mm_calls", "calls", METRIC_COUNT,
		"flushes ending a scanner gather's PROT_NONE changes (a pass's, or with a VMA walk each VMA's)" },
	[M_BATCHED_PENDING_DRAINS] = { "batched_pending_drains", "drains", METRIC_COUNT,
		"deferred flushes another task had to drain (flush_tlb_batched_pending)" },
	[M_SCAN_PASSES] = { "scan_passes", "passes", METRIC_COUNT,
		"NUMA scanner passes over the region" },
	[M_SCAN_CALLS] = { "scan_calls", "calls", METRIC_COUNT,
		"task_numa_work() calls that scanned (with a VMA walk, some mark no region page)" },
	[M_SCAN_SEQUENCES] = { "scan_sequences", "sequences", METRIC_COUNT,
		"scan sequences completed over the address space (numa_scan_seq's steps)" },
	[M_SCAN_PASS_MS_MEAN] = { "scan_pass_ms_mean", "ms", METRIC_RATIO,
		"mean length of a scanner pass" },
	[M_SCAN_PERIOD_MS] = { "scan_period_ms", "ms", METRIC_VALUE,
		"the first process's scan period at the end of the run" },
	[M_SCAN_WALL_FRACTION] = { "scan_wall_fraction", "fraction", METRIC_FRACTION,
		"share of the run a scanner pass was in progress" },
	[M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION] = { "migrations_with_flush_pending_fraction", "fraction", METRIC_FRACTION,
		"share of migrations that found tlb_flush_pending set" },
	[M_FAULTS_DURING_PASS_FRACTION] = { "faults_during_pass_fraction", "fraction", METRIC_FRACTION,
		"share of hint faults taken during a scanner pass" },
	[M_MIGRATIONS_DURING_PASS_FRACTION] = { "migrations_during_pass_fraction", "fraction", METRIC_FRACTION,
		"share of hint-fault migrations taken while a scanner pass ran" },
	[M_DURING_PASS_THIS_CHUNK_FRACTION] = { "during_pass_this_chunk_fraction", "fraction", METRIC_FRACTION,
		"of those, the share whose page is in the chunk that pass covers" },
	[M_DURING_PASS_RECENT_FRACTION] = { "during_pass_recent_fraction", "fraction", METRIC_FRACTION,
		"of those, the share whose page one of the two passes before marked" },
	[M_THROUGHPUT_LOSS_PCT] = { "throughput_loss_pct", "%", METRIC_PERCENT,
		"useful work lost against the same seed with balancing off" },
	[M_USEFUL_WORK_FRACTION] = { "useful_work_fraction", "fraction", METRIC_FRACTION,
		"share of thread time spent on the workload" },
	[M_REMOTE_ACCESS_FRACTION] = { "remote_access_fraction", "fraction", METRIC_FRACTION,
		"share of sampled accesses to another node's memory" },
	[M_KERNEL_CYCLES_PER_HINT_PTE] = { "kernel_cycles_per_hint_pte", "cycles/PTE", METRIC_RATIO,
		"kernel cycles (interrupts, faults, waits, scanning) per PROT_NONE PTE" },
	[M_CONVOY_LOST_FRACTION] = { "convoy_lost_fraction", "fraction", METRIC_FRACTION,
		"share of thread time spinning or asleep on mmap_lock behind a queued writer" },
	[M_PROMPT_FAULTS] = { "prompt_faults", "faults", METRIC_COUNT,
		"hint faults on pages touched again within milliseconds of marking" },
	[M_SYNC_CALLS] = { "sync_calls", "calls", METRIC_COUNT,
		"synchronize_rcu() grace periods waited for" },
	[M_TLB_FLUSH_ALL_CALLS] = { "tlb_flush_all_calls", "calls", METRIC_COUNT,
		"flush_tlb_all() calls" },
	[M_OP_LATENCY_US_MEAN] = { "op_latency_us_mean", "us", METRIC_RATIO,
		"mean latency of one operation (a split, or the whole demote)" },
	[M_SYS_MS] = { "sys_ms", "ms", METRIC_VALUE,
		"kernel CPU time of the demote" },
	[M_REAL_MS] = { "real_ms", "ms", METRIC_VALUE,
		"elapsed time of the demote, grace periods included" },
	[M_SPLITS] = { "splits", "folios", METRIC_COUNT,
		"large folios split" },
	[M_PROTNONE_BATCHED_UNMAPS] = { "protnone_batched_unmaps", "PTEs", METRIC_COUNT,
		"PROT_NONE PTEs a migration queued in its batch (accessible: tlb_flush_pending was up)" },
	[M_PROTNONE_UNBATCHED_UNMAPS] = { "protnone_unbatched_unmaps", "PTEs", METRIC_COUNT,
		"PROT_NONE PTEs a migration cleared and flushed without the batch" },
	[M_NODE_SWITCHES] = { "node_switches", "switches", METRIC_COUNT,
		"times a moving thread changed node" },
	[M_MOVING_SWEEPS] = { "moving_sweeps", "sweeps", METRIC_COUNT,
		"whole parts the moving threads wrote (the testbed's window_moving_passes)" },
	[M_STABLE_SWEEPS] = { "stable_sweeps", "sweeps", METRIC_COUNT,
		"whole parts the stable threads wrote (the testbed's window_stable_passes)" },
	[M_TLB_IRQS_ABSORBED] = { "tlb_irqs_absorbed", "IRQs", METRIC_COUNT,
		"TLB-shootdown interrupts that found their CPU caught up by an earlier one queued with them (vCPUs on an overcommitted host; nr_tlb_received_stale + _current of kernel/patches/measure/0003)" },
	[M_STALE_TRANSLATION_VIOLATIONS] = { "stale_translation_violations", "violations", METRIC_COUNT,
		"accesses through a stale translation (the oracle; must be 0)" },
	[M_SIM_EVENTS] = { "sim_events", "events", METRIC_COUNT,
		"events the emulator processed" },
	[M_WALL_SECONDS] = { "wall_seconds", "s", METRIC_VALUE,
		"host time the run took (0 with --no-timing)" },
};

int metric_lookup(const char *name)
{
	int i;

	for (i = 0; i < NR_METRICS; i++)
		if (!strcmp(metric_defs[i].name, name))
			return i;
	return -1;
}

/* A ratio with nothing to divide by is undefined, not zero: NaN, which
 * the tables show as "-" and JSON as null. */
static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

void metrics_from_sim(const struct sim *s, struct metrics *m)
{
	const struct stats *st = &s->st;
	double kernel = 0, convoy = 0, useful = 0, local = 0, remote = 0, span, window, during;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	snprintf(m->first_violation, sizeof(m->first_violation), "%s",
		 st->violations ? s->first_violation : "");
	for (i = 0; i < s->nr_cpus; i++) {
		const struct acct *a = &s->cpu[i].acct;

		/* Cycles the kernel burns: not the refill (user time after
		 * the ack) and not sleeping in a convoy. */
		kernel += (double)(a->irq_ns + a->fault_ns + a->wait_ns +
				   a->kernel_ns + a->spin_ns);
		convoy += (double)(a->spin_ns + a->sleep_ns);
	}
	for (i = 0; i < s->nr_threads; i++) {
		useful += (double)s->thread[i].useful_ns;
		local += (double)s->thread[i].local;
		remote += (double)s->thread[i].remote;
	}
	/* The measured window: the whole run unless it opened later. */
	window = (double)(s->end_ns - s->window_ns);
	span = window * (s->nr_threads ? s->nr_threads : 1);
	m->useful_ns = useful;
	m->v[M_MIGRATED_PAGES] = (double)st->migrated_pages;
	m->v[M_HINT_FAULTS] = (double)st->hint_faults;
	m->v[M_HINT_PTES_UPDATED] = (double)st->hint_ptes_updated;
	m->v[M_TLB_IPIS_SENT] = (double)st->tlb_ipis_sent;
	m->v[M_INVLPGB_FLUSHES] = (double)st->invlpgb_flushes;
	m->v[M_TLB_IRQS_RECEIVED] = (double)st->tlb_irqs_received;
	m->v[M_TLB_IRQS_ABSORBED] = (double)st->tlb_irqs_absorbed;
	m->v[M_TLB_IRQS_PER_MIGRATED_PAGE] = ratio((double)st->tlb_irqs_received,
						   (double)st->migrated_pages);
	m->v[M_FULL_FLUSHES] = (double)st->full_flushes;
	m->v[M_RANGED_FLUSHES] = (double)st->ranged_flushes;
	m->v[M_SCANNER_FLUSH_MM_CALLS] = (double)st->scanner_flush_mm_calls;
	m->v[M_BATCHED_PENDING_DRAINS] = (double)st->batched_pending_drains;
	m->v[M_SCAN_PASS_MS_MEAN] = ratio((double)st->scan_pass_ns_total / 1e6,
					  (double)st->scan_passes);
	m->v[M_SCAN_WALL_FRACTION] = ratio((double)st->scan_pass_ns_total,
					   window * (s->nr_mms ? s->nr_mms : 1));
	m->v[M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION] =
		ratio((double)st->migrations_with_flush_pending, (double)st->migrate_calls);
	m->v[M_FAULTS_DURING_PASS_FRACTION] =
		ratio((double)st->faults_during_pass, (double)st->hint_faults);
	for (i = 0, during = 0; i < NR_SCAN_ORIGINS; i++)
		during += (double)st->migrations_during_pass[i];
	m->v[M_MIGRATIONS_DURING_PASS_FRACTION] = ratio(during, (double)st->migrate_calls);
	m->v[M_DURING_PASS_THIS_CHUNK_FRACTION] =
		ratio((double)st->migrations_during_pass[SCAN_ORIGIN_THIS_PASS], during);
	m->v[M_DURING_PASS_RECENT_FRACTION] =
		ratio((double)st->migrations_during_pass[SCAN_ORIGIN_RECENT], during);
	m->v[M_USEFUL_WORK_FRACTION] = s->nr_threads ? ratio(useful, span) : 0;
	m->v[M_REMOTE_ACCESS_FRACTION] = ratio(remote, local + remote);
	m->v[M_KERNEL_CYCLES_PER_HINT_PTE] =
		ratio(kernel * s->p.v[P_CPU_GHZ], (double)st->hint_ptes_updated);
	m->v[M_CONVOY_LOST_FRACTION] = s->nr_threads ? ratio(convoy, span) : 0;
	m->v[M_PROMPT_FAULTS] = (double)st->prompt_faults;
	m->v[M_SCAN_PASSES] = (double)st->scan_passes;
	m->v[M_SCAN_CALLS] = (double)st->scan_calls;
	m->v[M_SCAN_SEQUENCES] = (double)st->scan_sequences;
	m->v[M_SCAN_PERIOD_MS] = s->nr_mms ? (double)s->mm[0].rate.period_ns / 1e6 : 0;
	m->v[M_SYNC_CALLS] = (double)st->sync_calls;
	m->v[M_TLB_FLUSH_ALL_CALLS] = (double)st->tlb_flush_all_calls;
	m->v[M_OP_LATENCY_US_MEAN] = ratio((double)st->op_latency_ns_total / 1e3,
					   (double)st->op_count);
	m->v[M_SYS_MS] = (double)st->sys_ns / 1e6;
	m->v[M_REAL_MS] = (double)st->real_ns / 1e6;
	m->v[M_SPLITS] = (double)st->splits;
	m->v[M_PROTNONE_BATCHED_UNMAPS] = (double)st->protnone_batched_unmaps;
	m->v[M_PROTNONE_UNBATCHED_UNMAPS] = (double)st->protnone_unbatched_unmaps;
	m->v[M_NODE_SWITCHES] = (double)st->node_switches;
	m->v[M_MOVING_SWEEPS] = (double)st->moving_sweeps;
	m->v[M_STABLE_SWEEPS] = (double)st->stable_sweeps;
	m->v[M_STALE_TRANSLATION_VIOLATIONS] = (double)st->violations;
	m->v[M_SIM_EVENTS] = (double)st->sim_events;
}
