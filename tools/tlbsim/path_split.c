// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * thpscale-like THP split: a thread faults a PTE-mapped 2 MiB folio, then
 * the folio is split, which first unmaps all its PTEs through
 * tlbp_split_unmap() (per-PTE or batched flushes, the scenario's policy).
 * The latency of one operation is the time its CPU spent in the kernel:
 * the whole THP fault thpscale times (allocation, zeroing, the fault
 * itself), then the split with its flushes.
 */
#include "engine.h"
#include "paths.h"
#include "sim.h"

struct split_ctx {
	struct sim *s;
	struct cpu *cpu; /* the splitting thread's */
	struct mm *mm;
	uint64_t head;
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
	*pte = PTE_MIGRATION | (*pte & PTE_DIRTY);
	c->cpu->acct.kernel_ns += (uint64_t)c->s->p.v[P_PTE_UPDATE_NS];
	return 0;
}

/* The split itself: the folio becomes 512 order-0 folios, PTEs come back. */
static int s_proceed(void *ctx)
{
	struct split_ctx *c = ctx;
	uint64_t n = folio_pages(c->mm, c->head), vpn;

	oracle_check_copy(c->s, c->mm, c->head, n);
	for (vpn = c->head; vpn < c->head + n; vpn++) {
		c->mm->obj->page[vpn].order = 0;
		c->mm->obj->page[vpn].frame_gen++;
		if (*pte_of(c->mm, vpn) & PTE_MIGRATION)
			*pte_of(c->mm, vpn) = PTE_PRESENT | (*pte_of(c->mm, vpn) & PTE_DIRTY);
	}
	c->s->st.splits++;
	return 0;
}

static const struct tlbp_split_ops split_ops = {
	.clear_pte = s_clear_pte, .proceed = s_proceed,
};

void sim_thp_op(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	struct cpu *c = &s->cpu[t->cpu];
	uint64_t before = cpu_path_ns(c), vpn, took;
	uint64_t head = t->slice_start + (t->ops_done++ << PMD_ORDER);
	struct split_ctx ctx = { s, c, t->mm, head };
	struct tlbp_split_folio folio = {
		.mm = &t->mm->flush, .mm_cpus = &t->mm->cpus,
		.addr = head << PAGE_SHIFT, .order = PMD_ORDER, .pmd_order = PMD_ORDER,
		.this_cpu = t->cpu,
	};
	struct tlbp_split_result res;
	struct tlbp_split split;
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
	if (tlbp_split_init(&split, s->policy.split, &split_ops, &ctx, &c->batch) ||
	    tlbp_split_unmap(&split, &folio, &res))
		oracle_violation(s, "split failed", t->mm->id, head);
	took = cpu_path_ns(c) - before;
	c->op_until = s->now + took;
	s->st.op_count++;
	s->st.op_latency_ns_total += took;
	sim_schedule(s, s->now + took + 1, EV_THP_OP, ti);
}
