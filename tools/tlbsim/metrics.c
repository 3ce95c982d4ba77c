// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdio.h>
#include <string.h>
#include "metrics.h"
#include "sim.h"

const char *const metric_names[NR_METRICS] = {
	[M_MIGRATED_PAGES] = "migrated_pages",
	[M_HINT_FAULTS] = "hint_faults",
	[M_HINT_PTES_UPDATED] = "hint_ptes_updated",
	[M_TLB_IPIS_SENT] = "tlb_ipis_sent",
	[M_TLB_IRQS_RECEIVED] = "tlb_irqs_received",
	[M_TLB_IRQS_PER_MIGRATED_PAGE] = "tlb_irqs_per_migrated_page",
	[M_FULL_FLUSHES] = "full_flushes",
	[M_RANGED_FLUSHES] = "ranged_flushes",
	[M_SCANNER_FLUSH_MM_CALLS] = "scanner_flush_mm_calls",
	[M_BATCHED_PENDING_DRAINS] = "batched_pending_drains",
	[M_SCAN_PASSES] = "scan_passes",
	[M_SCAN_PASS_MS_MEAN] = "scan_pass_ms_mean",
	[M_SCAN_PERIOD_MS] = "scan_period_ms",
	[M_SCAN_WALL_FRACTION] = "scan_wall_fraction",
	[M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION] = "migrations_with_flush_pending_fraction",
	[M_FAULTS_DURING_PASS_FRACTION] = "faults_during_pass_fraction",
	[M_THROUGHPUT_LOSS_PCT] = "throughput_loss_pct",
	[M_USEFUL_WORK_FRACTION] = "useful_work_fraction",
	[M_REMOTE_ACCESS_FRACTION] = "remote_access_fraction",
	[M_KERNEL_CYCLES_PER_HINT_PTE] = "kernel_cycles_per_hint_pte",
	[M_CONVOY_LOST_FRACTION] = "convoy_lost_fraction",
	[M_PROMPT_FAULTS] = "prompt_faults",
	[M_SYNC_CALLS] = "sync_calls",
	[M_TLB_FLUSH_ALL_CALLS] = "tlb_flush_all_calls",
	[M_OP_LATENCY_US_MEAN] = "op_latency_us_mean",
	[M_SYS_MS] = "sys_ms",
	[M_REAL_MS] = "real_ms",
	[M_SPLITS] = "splits",
	[M_STALE_TRANSLATION_VIOLATIONS] = "stale_translation_violations",
	[M_SIM_EVENTS] = "sim_events",
	[M_WALL_SECONDS] = "wall_seconds",
};

int metric_lookup(const char *name)
{
	int i;

	for (i = 0; i < NR_METRICS; i++)
		if (!strcmp(metric_names[i], name))
			return i;
	return -1;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

void metrics_from_sim(const struct sim *s, struct metrics *m)
{
	const struct stats *st = &s->st;
	double kernel = 0, convoy = 0, useful = 0, local = 0, remote = 0, span;
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
	span = (double)s->end_ns * (s->nr_threads ? s->nr_threads : 1);
	m->useful_ns = useful;
	m->v[M_MIGRATED_PAGES] = (double)st->migrated_pages;
	m->v[M_HINT_FAULTS] = (double)st->hint_faults;
	m->v[M_HINT_PTES_UPDATED] = (double)st->hint_ptes_updated;
	m->v[M_TLB_IPIS_SENT] = (double)st->tlb_ipis_sent;
	m->v[M_TLB_IRQS_RECEIVED] = (double)st->tlb_irqs_received;
	m->v[M_TLB_IRQS_PER_MIGRATED_PAGE] = ratio((double)st->tlb_irqs_received,
						   (double)st->migrated_pages);
	m->v[M_FULL_FLUSHES] = (double)st->full_flushes;
	m->v[M_RANGED_FLUSHES] = (double)st->ranged_flushes;
	m->v[M_SCANNER_FLUSH_MM_CALLS] = (double)st->scanner_flush_mm_calls;
	m->v[M_BATCHED_PENDING_DRAINS] = (double)st->batched_pending_drains;
	m->v[M_SCAN_PASS_MS_MEAN] = ratio((double)st->scan_pass_ns_total / 1e6,
					  (double)st->scan_passes);
	m->v[M_SCAN_WALL_FRACTION] = ratio((double)st->scan_pass_ns_total,
					   (double)s->end_ns * (s->nr_mms ? s->nr_mms : 1));
	m->v[M_MIGRATIONS_WITH_FLUSH_PENDING_FRACTION] =
		ratio((double)st->migrations_with_flush_pending, (double)st->migrate_calls);
	m->v[M_FAULTS_DURING_PASS_FRACTION] =
		ratio((double)st->faults_during_pass, (double)st->hint_faults);
	m->v[M_USEFUL_WORK_FRACTION] = s->nr_threads ? ratio(useful, span) : 0;
	m->v[M_REMOTE_ACCESS_FRACTION] = ratio(remote, local + remote);
	m->v[M_KERNEL_CYCLES_PER_HINT_PTE] =
		ratio(kernel * s->p.v[P_CPU_GHZ], (double)st->hint_ptes_updated);
	m->v[M_CONVOY_LOST_FRACTION] = s->nr_threads ? ratio(convoy, span) : 0;
	m->v[M_PROMPT_FAULTS] = (double)st->prompt_faults;
	m->v[M_SCAN_PASSES] = (double)st->scan_passes;
	m->v[M_SCAN_PERIOD_MS] = s->nr_mms ? (double)s->mm[0].scan_period_ns / 1e6 : 0;
	m->v[M_SYNC_CALLS] = (double)st->sync_calls;
	m->v[M_TLB_FLUSH_ALL_CALLS] = (double)st->tlb_flush_all_calls;
	m->v[M_OP_LATENCY_US_MEAN] = ratio((double)st->op_latency_ns_total / 1e3,
					   (double)st->op_count);
	m->v[M_SYS_MS] = (double)st->sys_ns / 1e6;
	m->v[M_REAL_MS] = (double)st->real_ns / 1e6;
	m->v[M_SPLITS] = (double)st->splits;
	m->v[M_STALE_TRANSLATION_VIOLATIONS] = (double)st->violations;
	m->v[M_SIM_EVENTS] = (double)st->sim_events;
}
