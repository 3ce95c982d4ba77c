// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The split of a PTE-mapped large folio (split_huge_page()): unmap_folio()
 * clears every PTE of the folio through tlbp_split_unmap() (per-PTE or
 * batched flushes, the split policy), then the folio becomes order-0
 * folios and remap_page() maps them back.
 *
 * Two callers: thpscale-like THP splits (the thp-split scenario), where
 * the latency of one operation is the time its CPU spent in the kernel
 * (the whole THP fault thpscale times, then the split with its flushes);
 * and the split migrate_pages_batch() does first when a NUMA migration
 * meets a partially mapped large folio (path_fault.c).
 */
#include "engine.h"
#include "paths.h"
#include "sim.h"

struct split_ctx {
	struct sim *s;
	struct cpu *cpu;  /* the splitting thread's */
	struct mm *mm;    /* the mapping being unmapped */
	uint64_t head;
	unsigned int nr_protnone; /* PROT_NONE entries cleared */
	bool last;        /* the folio's last mapping: the split goes ahead */
};

static int s_clear_pte(void *ctx, unsigned int idx, unsigned int *old_pte)
{
	struct split_ctx *c = ctx;
	uint8_t *pte = pte_of(c->mm, c->head + idx);

	if (!(*pte & (PTE_PRESENT | PTE_PROTNONE)))
		return -2; /* -ENOENT: not mapped here */
	*old_pte = (*pte & PTE_PRESENT ? TLBP_PTE_PRESENT : 0) |
		   (*pte & PTE_PROTNONE ? TLBP_PTE_PROTNONE : 0) |
		   (*pte & PTE_DIRTY ? TLBP_PTE_DIRTY : 0);
	if (*pte & PTE_PROTNONE)
		c->nr_protnone++;
	*pte = PTE_MIGRATION | (*pte & PTE_DIRTY);
	c->cpu->acct.kernel_ns += (uint64_t)c->s->p.v[P_PTE_UPDATE_NS];
	return 0;
}

/*
 * The split itself, once every mapping's flush is done: the folio becomes
 * order-0 folios, each keeping the folio's last fault node (the kernel
 * copies last_cpupid to every new folio), and remap_page() turns every
 * migration entry back into a PTE built from the VMA's protection, so a
 * PROT_NONE mark is lost and the pieces come back accessible.
 */
static int s_proceed(void *ctx)
{
	struct split_ctx *c = ctx;
	struct object *o = c->mm->obj;
	uint64_t n = folio_pages(c->mm, c->head), vpn;
	uint8_t last_node = (uint8_t)(o->page[c->head].flags &
				      ~((1U << FOLIO_LAST_NODE_SHIFT) - 1));
	unsigned int m;

	if (!c->last)
		return 0;
	oracle_check_copy(c->s, c->mm, c->head, n);
	for (vpn = c->head; vpn < c->head + n; vpn++) {
		struct folio_page *fp = &o->page[vpn];

		fp->order = 0;
		fp->frame_gen++;
		fp->flags = (uint8_t)((fp->flags & ((1U << FOLIO_LAST_NODE_SHIFT) - 1)) |
				      last_node);
		for (m = 0; m < o->nr_mappers; m++) {
			uint8_t *pte = obj_pte(o, o->mapper[m]->slot, vpn);

			if (*pte & PTE_MIGRATION)
				*pte = PTE_PRESENT | (*pte & PTE_DIRTY);
		}
	}
	c->s->st.splits++;
	return 0;
}

static const struct tlbp_split_ops split_ops = {
	.clear_pte = s_clear_pte, .proceed = s_proceed,
};

/*
 * The testbed kernel's counters of PROT_NONE entries: one queued in the
 * batch counts only while the mm's tlb_flush_pending makes it accessible
 * (set_tlb_ubc_flush_pending()), one cleared and flushed at once always
 * counts (try_to_migrate_one()'s ptep_clear_flush()).
 */
static void count_protnone(struct sim *s, const struct split_ctx *c,
			   const struct tlbp_split_result *res)
{
	if (res->why != TLBP_SPLIT_WHY_BATCHED)
		s->st.protnone_unbatched_unmaps += c->nr_protnone;
	else if (tlbp_mm_flush_pending(&c->mm->flush))
		s->st.protnone_batched_unmaps += c->nr_protnone;
}

int sim_split_folio(struct sim *s, unsigned int cpu, struct mm *mm, uint64_t head)
{
	struct object *o = mm->obj;
	struct cpu *c = &s->cpu[cpu];
	unsigned int order = o->page[head].order, m;
	int err;

	if (!order || (head & ((1ULL << order) - 1)))
		return -22; /* -EINVAL: not the head of a large folio */
	/*
	 * try_to_migrate() walks every mapping and flushes once; the helper
	 * takes one mm, so each mapping is flushed before the next is
	 * cleared, and the split goes ahead after the last.
	 */
	for (m = 0; m < o->nr_mappers; m++) {
		struct split_ctx ctx = { s, c, o->mapper[m], head, 0, m + 1 == o->nr_mappers };
		struct tlbp_split_folio folio = {
			.mm = &ctx.mm->flush, .mm_cpus = &ctx.mm->cpus,
			.addr = head << PAGE_SHIFT, .order = order, .pmd_order = PMD_ORDER,
			.this_cpu = cpu,
		};
		struct tlbp_split_result res;
		struct tlbp_split split;

		err = tlbp_split_init(&split, s->policy.split, &split_ops, &ctx, &c->batch);
		if (!err)
			err = tlbp_split_unmap(&split, &folio, &res);
		if (err)
			return err;
		count_protnone(s, &ctx, &res);
	}
	return 0;
}

void sim_thp_op(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	struct cpu *c = &s->cpu[t->cpu];
	uint64_t before = cpu_path_ns(c), vpn, took;
	uint64_t head = t->slice_start + (t->ops_done++ << PMD_ORDER);
	unsigned int i;

	if (head + (1ULL << PMD_ORDER) > t->slice_start + t->slice_pages)
		return; /* this thread's operations are done */
	s->op_cpu = t->cpu;
	s->op_issuers = 1;
	for (i = 0; i < s->nr_threads; i++)
		if (i != ti && s->cpu[s->thread[i].cpu].op_until > s->now)
			s->op_issuers++;
	/* Fault the THP in: the thread touches it, so its TLB caches it. */
	sim_cpu_sync(s, c);
	for (vpn = head; vpn < head + (1ULL << PMD_ORDER); vpn++) {
		*pte_of(t->mm, vpn) = PTE_PRESENT | PTE_DIRTY;
		tlb_insert(&c->tlb, tlb_key(t->mm->id, vpn), t->mm->obj->page[vpn].frame_gen);
	}
	c->acct.fault_ns += (uint64_t)(s->p.v[P_FAULT_NS] +
				       (s->p.v[P_THP_ALLOC_US] + s->p.v[P_THP_CLEAR_US]) * 1e3);
	if (sim_split_folio(s, t->cpu, t->mm, head))
		oracle_violation(s, "split failed", t->mm->id, head);
	took = cpu_path_ns(c) - before;
	c->op_until = s->now + took;
	s->st.op_count++;
	s->st.op_latency_ns_total += took;
	sim_schedule(s, s->now + took + 1, EV_THP_OP, ti);
}
