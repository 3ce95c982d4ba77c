// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * HugeTLB demote with HVO: restore the vmemmap of every 1 GiB page to
 * demote (one batch, stop at the first failure), then optimize the vmemmap
 * of the 512 new 2 MiB folios of each (one batch per page, continue on
 * failure), through tlbp_gp_batch_run(). A grace period is slept through
 * (real time only); remaps and flushes cost CPU time (sys).
 */
#include "paths.h"
#include "sim.h"

#define DEMOTE_FANOUT 512 /* 1 GiB / 2 MiB */

struct demote_ctx {
	struct sim *s;
	long fail_at;               /* restore item that fails, or -1 */
	unsigned long pending_free; /* vmemmap pages awaiting a flush */
	bool unflushed_remap;       /* a remap not yet covered by a flush */
};

static bool d_needs_work(void *ctx, unsigned int idx)
{
	(void)idx;
	return ((struct demote_ctx *)ctx)->s->p.v[P_HVO] != 0;
}

static int d_restore(void *ctx, unsigned int idx)
{
	struct demote_ctx *d = ctx;

	if ((long)idx == d->fail_at)
		return -12; /* -ENOMEM: cannot allocate the vmemmap back */
	d->s->st.sys_ns += (uint64_t)d->s->p.v[P_HVO_REMAP_NS];
	d->unflushed_remap = true;
	return 0;
}

static int d_optimize(void *ctx, unsigned int idx)
{
	struct demote_ctx *d = ctx;

	(void)idx;
	d->s->st.sys_ns += (uint64_t)d->s->p.v[P_HVO_REMAP_NS];
	d->pending_free += 7; /* a 2 MiB folio gives back 7 of 8 vmemmap pages */
	d->unflushed_remap = true;
	return 0;
}

static int d_sync(void *ctx)
{
	struct demote_ctx *d = ctx;

	d->s->st.sync_calls++;
	d->s->st.real_ns += (uint64_t)(d->s->p.v[P_SYNC_RCU_US] * 1000.0);
	return 0;
}

static int d_flush(void *ctx)
{
	struct demote_ctx *d = ctx;
	struct sim *s = d->s;
	struct tlbp_flush_req req = {
		.cpus = &s->all_cpus, .end = TLBP_FLUSH_ALL, .full = true,
	};
	struct cpu *c = &s->cpu[sim_this_cpu(s)];
	uint64_t before = cpu_path_ns(c);

	s->st.tlb_flush_all_calls++;
	d->unflushed_remap = false;
	s->flush_ops->flush(&c->flush_ctx, &req);
	s->st.sys_ns += cpu_path_ns(c) - before;
	return 0;
}

static unsigned long d_nr_pending(void *ctx)
{
	return ((struct demote_ctx *)ctx)->pending_free;
}

static void d_free_pending(void *ctx)
{
	struct demote_ctx *d = ctx;

	if (d->unflushed_remap)
		oracle_violation(d->s, "vmemmap pages freed before their flush", 0, 0);
	d->pending_free = 0;
}

static const struct tlbp_gp_ops restore_ops = {
	.needs_work = d_needs_work, .process = d_restore, .sync = d_sync,
	.flush = d_flush,
};

static const struct tlbp_gp_ops optimize_ops = {
	.needs_work = d_needs_work, .process = d_optimize, .sync = d_sync,
	.flush = d_flush, .nr_pending_free = d_nr_pending,
	.free_pending = d_free_pending,
};

void sim_demote(struct sim *s)
{
	struct demote_ctx d = { .s = s, .fail_at = (long)s->p.v[P_FAIL_AT_ITEM] };
	unsigned int pages = (unsigned int)s->p.v[P_DEMOTE_PAGES], i;
	struct tlbp_gp_result restore, optimize;
	struct tlbp_gp_batch g;

	if (tlbp_gp_batch_init(&g, s->policy.gp, TLBP_GP_STOP, &restore_ops, &d))
		return;
	tlbp_gp_batch_run(&g, pages, &restore);
	if (tlbp_gp_batch_init(&g, s->policy.gp, TLBP_GP_CONTINUE, &optimize_ops, &d))
		return;
	/* Pages whose restore failed go back to the 1 GiB pool undemoted. */
	for (i = 0; i < restore.done + restore.not_needed; i++)
		tlbp_gp_batch_run(&g, DEMOTE_FANOUT, &optimize);
	s->st.demoted_pages = restore.done + restore.not_needed;
	/* One operation: the whole demote, as the sysfs write would time it. */
	s->st.real_ns += s->st.sys_ns;
	s->st.op_count = 1;
	s->st.op_latency_ns_total = s->st.real_ns;
}
