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
#include "flush_turn.h"
#include "paths.h"
#include "sim.h"

struct split_ctx {
	struct sim *s;
	struct cpu *cpu;  /* the splitting thread's */
	struct mm *mm;
	uint64_t head;
	unsigned int nr_protnone; /* PROT_NONE entries cleared */
};

static int s_clear_pte(void *ctx, unsigned int idx, unsigned int *old_pte)
{
	struct split_ctx *c = ctx;
	uint8_t *pte = pte_of(c->mm, c->head + idx);

	if (!(*pte & (PTE_PRESENT | PTE_PROTNONE)))
		return -2; /* -ENOENT: not mapped here */
	*old_pte = pte_to_tlbp(*pte);
	if (*pte & PTE_PROTNONE)
		c->nr_protnone++;
	*pte = sim_migration_entry(*pte);
	flush_turn_note_change(c->s, c->mm->id, c->head + idx);
	c->cpu->acct.kernel_ns += (uint64_t)c->s->p.v[P_PTE_UPDATE_NS];
	return 0;
}

/*
 * The split itself, once the flush is done: the folio becomes order-0
 * folios, each keeping the folio's last fault node (the kernel copies
 * last_cpupid to every new folio), and remap_page() turns the migration
 * entries back into PTEs built from the VMA's protection, so a PROT_NONE
 * mark is lost and the pieces come back accessible. (6.12 maps a piece
 * that is all zeroes to the shared zero page instead; the workloads here
 * write every page they map.)
 */
static int s_proceed(void *ctx)
{
	struct split_ctx *c = ctx;
	struct folio_page *page = c->mm->obj->page;
	uint64_t n = folio_pages(c->mm, c->head), vpn;
	unsigned int last_node = folio_last_node(&page[c->head]);

	oracle_check_copy(c->s, c->mm, c->head, n);
	for (vpn = c->head; vpn < c->head + n; vpn++) {
		page[vpn].order = 0;
		page[vpn].flags &= (uint8_t)~FOLIO_PARTIALLY_MAPPED;
		page[vpn].frame_gen++;
		folio_set_last_node(&page[vpn], last_node);
	}
	sim_remove_migration_ptes(c->mm, c->head, n);
	c->s->st.splits++;
	return 0;
}

static const struct tlbp_split_ops split_ops = {
	.clear_pte = s_clear_pte, .proceed = s_proceed,
};

int sim_split_folio(struct sim *s, unsigned int cpu, struct mm *mm, uint64_t head)
{
	unsigned int order = mm->obj->page[head].order;
	struct split_ctx ctx = { .s = s, .cpu = &s->cpu[cpu], .mm = mm, .head = head };
	struct tlbp_split_folio folio = {
		.mm = &mm->flush, .mm_cpus = &mm->cpus, .addr = head << PAGE_SHIFT,
		.order = order, .pmd_order = PMD_ORDER, .this_cpu = cpu,
	};
	struct tlbp_split_result res = { .why = TLBP_SPLIT_WHY_BATCHED };
	struct tlbp_split split;
	int err;

	if (!order || (head & ((1ULL << order) - 1)) || mm->obj->nr_mappers > 1)
		return -22; /* -EINVAL */
	err = tlbp_split_init(&split, s->policy.split, &split_ops, &ctx, &s->cpu[cpu].batch);
	if (!err)
		err = tlbp_split_unmap(&split, &folio, &res);
	if (err && !res.proceeded) /* remap_page(): the folio stays whole */
		sim_remove_migration_ptes(mm, head, 1ULL << order);
	sim_count_protnone_unmaps(s, mm, res.why == TLBP_SPLIT_WHY_BATCHED, ctx.nr_protnone);
	return err;
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
