// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * x86-invlpgb: AMD's broadcast invalidation (Zen 3 and later) as Linux
 * 6.15 uses it (arch/x86/mm/tlb.c, "AMD broadcast TLB invalidation").
 *
 * - An mm gets a global ASID once it is active on more than three CPUs,
 *   checked after an IPI flush (consider_global_asid()). From then on
 *   flush_tlb_mm_range() and flush_tlb_mm() broadcast: one INVLPGB per
 *   invlpgb_count_max pages of the range, or one for the whole PCID, then
 *   TLBSYNC waits until every CPU has done them. No CPU is interrupted,
 *   so a target with interrupts disabled delays nothing. Until then the
 *   mm is flushed by IPIs, exactly as on x86-ipi.
 * - The unmap batch (arch_tlbbatch_flush()) broadcasts one INVLPGB of
 *   every non-global translation of every CPU, whatever its mm, when it
 *   unmapped anything: the batch's cpumask is not consulted. So does
 *   flush_tlb_all().
 *
 * Not modelled: consider_global_asid() samples one flush in 32 (the
 * transition comes a few flushes later), the finite pool of global ASIDs
 * (a machine with more busy multi-threaded processes than ASIDs keeps
 * some on IPIs), and contention between CPUs broadcasting at once.
 */
#include "backend.h"

/* consider_global_asid(): mm_active_cpus_exceeds(mm, 3). */
#define GLOBAL_ASID_MIN_CPUS 4

/* INVLPGB x @nr by @self, then TLBSYNC. */
static void broadcast_cost(struct sim *s, unsigned int self, uint64_t nr)
{
	struct acct *a = &s->cpu[self].acct;

	a->kernel_ns += (uint64_t)((double)nr * s->p.v[P_INVLPGB_NS]);
	a->wait_ns += (uint64_t)s->p.v[P_TLBSYNC_NS];
	s->st.invlpgb_flushes++;
}

/*
 * Every CPU loses every entry: counted once as a whole-machine flush
 * (struct machine_flushes) that each CPU, the issuer included, applies
 * when it next runs. No interrupt time: the hardware did the work.
 */
static void drop_everywhere(struct sim *s)
{
	s->all_flushes.count++;
}

/* invlpgb_flush_all_nonglobals() / invlpgb_flush_all(). */
static int broadcast_all(struct sim *s, unsigned int self)
{
	s->st.full_flushes++;
	broadcast_cost(s, self, 1);
	drop_everywhere(s);
	return 0;
}

/* broadcast_tlb_flush(): the range in chunks, or the whole PCID. */
static int broadcast_mm(struct sim *s, unsigned int self,
			const struct tlbp_flush_req *req)
{
	uint64_t chunk = (uint64_t)s->p.v[P_INVLPGB_COUNT_MAX];
	unsigned int cpu;

	backend_count_kind(s, req);
	if (req->full) {
		broadcast_cost(s, self, 1);
		drop_everywhere(s);
		return 0;
	}
	broadcast_cost(s, self, (req->nr_pages + chunk - 1) / chunk);
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		backend_invalidate(s, cpu, req);
	return 0;
}

/* flush_tlb_mm_range() of one mm. */
static int flush_one_mm(void *ctx, const struct tlbp_flush_req *req)
{
	struct sim *s = ((struct flush_ctx *)ctx)->s;
	struct mm *mm = backend_mm_of(req->mm);
	int err;

	if (mm->global_asid)
		return broadcast_mm(s, backend_issuer(ctx), req);
	err = backend_x86_flush(ctx, req);
	if (!err && tlbp_cpuset_weight(&mm->cpus) >= GLOBAL_ASID_MIN_CPUS)
		mm->global_asid = true;
	return err;
}

/*
 * A CPU's own batch (and flush_tlb_all(), which the demote issues from
 * one) names its CPU; an mm's flushes name SIM_THIS_CPU (sim.h).
 */
static int invlpgb_flush(void *ctx, const struct tlbp_flush_req *req)
{
	const struct flush_ctx *fc = ctx;

	if (fc->cpu != SIM_THIS_CPU &&
	    (req->unmapped || backend_whole_machine(fc->s, req)))
		return broadcast_all(fc->s, fc->cpu);
	if (!req->mm)
		return backend_x86_flush(ctx, req);
	return flush_one_mm(ctx, req);
}

/* flush_tlb_batched_pending() -> flush_tlb_mm(). */
static int invlpgb_flush_mm(void *ctx, struct tlbp_mm *f)
{
	return backend_x86_flush_tlb_mm(ctx, f, flush_one_mm);
}

const struct tlbp_flush_ops backend_invlpgb_ops = {
	.flush = invlpgb_flush, .flush_mm = invlpgb_flush_mm,
	/* arch_tlbbatch_add_pending() is x86's, plus unmapped_pages, which
	 * the library's request carries as @unmapped. */
	.add_pending = backend_x86_add_pending,
};
