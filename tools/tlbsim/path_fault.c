// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The NUMA hint fault: tlbp_hint_fault_handle() over the model, with the
 * policy (eager or deferred map) chosen by the scenario.
 */
#include "paths.h"
#include "scan_walk.h"
#include "sim.h"

struct fault_ctx {
	struct hint_who who; /* first: the account op reads it */
	struct mm *mm;
	uint64_t vpn;
	uint8_t orig_pte;
};

void sim_hint_op_nop(void *ctx)
{
	(void)ctx;
}

void sim_hint_op_account(void *ctx, int nid, unsigned int nr_pages, unsigned int flags)
{
	struct hint_who *who = ctx;

	(void)flags;
	sim_numa_task_fault(who->s, who->t, &who->last, (unsigned int)nid, nr_pages);
}

static bool f_pte_unchanged(void *ctx)
{
	struct fault_ctx *f = ctx;

	return *pte_of(f->mm, f->vpn) == f->orig_pte;
}

static bool f_find_folio(void *ctx, struct tlbp_hint_folio *folio)
{
	struct fault_ctx *f = ctx;
	const struct folio_page *fp = &f->mm->obj->page[f->vpn];

	folio->nid = fp->node;
	folio->nr_pages = 1U << fp->order;
	return true;
}

/*
 * should_numa_migrate_memory() (kernel/sched/fair.c, 6.12) for a remote
 * fault on a region folio: records this fault in its last_cpupid and
 * says whether a migration may go ahead (sim_numa_should_migrate()).
 * Each thread writes only its own part of the region, so a region
 * folio's last fault, when it has one, was this task's.
 */
static bool last_node_allows(struct fault_ctx *f, unsigned int src, unsigned int here)
{
	struct folio_page *fp = &f->mm->obj->page[folio_head(f->mm, f->vpn)];

	folio_set_last_node(fp, here + 1);
	return sim_numa_should_migrate(f->who.s, f->who.t, &f->who.last, src, here);
}

static int f_target_node(void *ctx, const struct tlbp_hint_folio *folio,
			 unsigned int *flags)
{
	struct fault_ctx *f = ctx;
	struct sim *s = f->who.s;
	unsigned int here = s->cpu[f->who.t->cpu].node;

	if (f->mm->obj->nr_mappers > 1)
		*flags |= TLBP_TNF_SHARED;
	if ((int)s->p.v[P_MIGRATE_FILTER] == FILTER_LAST_NODE) {
		/*
		 * A local fault records nothing: with the default mempolicy
		 * (each node's MPOL_PREFERRED preferred_node_policy),
		 * mpol_misplaced() returns before the filter for a folio
		 * already on this node.
		 */
		if ((unsigned int)folio->nid == here)
			return TLBP_NUMA_NO_NODE;
		return last_node_allows(f, (unsigned int)folio->nid, here) ? (int)here : TLBP_NUMA_NO_NODE;
	}
	if ((unsigned int)folio->nid == here)
		return TLBP_NUMA_NO_NODE;
	/* The two-stage filter and mempolicy, reduced to one probability. */
	if (rng_unit(&s->rng) >= s->p.v[P_MIGRATE_PROB])
		return TLBP_NUMA_NO_NODE;
	return (int)here;
}

static int f_prepare(void *ctx, const struct tlbp_hint_folio *folio, int target)
{
	struct fault_ctx *f = ctx;
	struct folio_page *fp = &f->mm->obj->page[folio_head(f->mm, f->vpn)];

	(void)folio;
	(void)target;
	if (fp->flags & FOLIO_ISOLATED)
		return -16; /* -EBUSY: someone else is migrating it */
	fp->flags |= FOLIO_ISOLATED;
	return 0;
}

/*
 * migrate_pages_batch() splits a large folio marked partially mapped
 * before it migrates anything (try_split_folio(), for an anonymous folio
 * on the deferred split list: a shared one is never marked, rmap.c). Two
 * kinds are marked: one only partly mapped (split_partial_thp's halves),
 * and, in 6.12, one that has migrated before (path_migrate.c). The
 * split's unmap_folio() clears the mapped PTEs under
 * the split policy whatever the migrate policy, and the pieces come back
 * accessible. migrate_pages() then migrates the pieces as one batch; the
 * pieces nothing maps are freed there and count as migrated
 * (migrate_folio_unmap()'s "freed from under us"), as in
 * pgmigrate_success. Fills @vpns with the mapped pieces and returns how
 * many, or 0 when the folio stays whole: not split, or a split that
 * failed, which maps it back, and then it migrates whole.
 */
static unsigned int split_partial(struct fault_ctx *f, uint64_t *vpns, unsigned int max)
{
	struct mm *mm = f->mm;
	uint64_t head = folio_head(mm, f->vpn), nr = folio_pages(mm, f->vpn), v;
	bool marked = mm->obj->page[head].flags & FOLIO_PARTIALLY_MAPPED;
	unsigned int mapped = 0;

	if (!marked) {
		/* Only partly mapped, with split_partial_thp's halves. */
		if (nr == 1 || !f->who.s->p.v[P_SPLIT_PARTIAL_THP])
			return 0;
		for (v = head; v < head + nr; v++)
			if (*pte_of(mm, v) & (PTE_PRESENT | PTE_PROTNONE))
				mapped++;
		if (mapped == nr)
			return 0;
	}
	if (nr <= 2 || mm->obj->nr_mappers > 1 || sim_split_folio(f->who.s, f->who.t->cpu, mm, head))
		return 0;
	mapped = 0;
	for (v = head; v < head + nr && mapped < max; v++)
		if (*pte_of(mm, v) & PTE_PRESENT)
			vpns[mapped++] = v;
	f->who.s->st.migrated_pages += nr - mapped;
	return mapped;
}

static int f_migrate(void *ctx, const struct tlbp_hint_folio *folio, int target)
{
	struct fault_ctx *f = ctx;
	uint64_t head = folio_head(f->mm, f->vpn);
	struct folio_page *fp = &f->mm->obj->page[head];
	uint64_t vpns[1U << PMD_ORDER];
	unsigned int n;
	int err;

	(void)folio;
	fp->flags &= (uint8_t)~FOLIO_ISOLATED;
	n = split_partial(f, vpns, 1U << PMD_ORDER);
	if (!n) {
		vpns[0] = f->vpn;
		n = 1;
	}
	err = sim_migrate_folios(f->who.s, f->who.t->cpu, f->mm, vpns, n,
				 (unsigned int)target, TLBP_MR_NUMA_MISPLACED);
	if (err) {
		f->who.s->st.migrate_failed++;
		return err;
	}
	if (f->mm->nr_calls)
		f->who.s->st.migrations_during_pass[sim_scan_origin(f->mm, f->vpn)]++;
	return 0;
}

/*
 * PROT_NONE -> accessible only widens rights: no flush needed. A large
 * folio comes back whole: 6.12's numa_rebuild_large_mapping() maps every
 * PTE of the folio that is still PROT_NONE (in this page table and VMA,
 * which a folio of at most 2 MiB never leaves here), so one hint fault
 * answers for all the folio's marked pages.
 */
static void f_map(void *ctx)
{
	struct fault_ctx *f = ctx;
	uint64_t head = folio_head(f->mm, f->vpn), nr = folio_pages(f->mm, f->vpn), v;
	uint8_t *pte;

	for (v = head; v < head + nr; v++) {
		pte = pte_of(f->mm, v);
		if (v == f->vpn || (*pte & PTE_PROTNONE))
			*pte = PTE_PRESENT | (*pte & PTE_DIRTY);
	}
}

static const struct tlbp_hint_fault_ops fault_ops = {
	.lock = sim_hint_op_nop, .unlock = sim_hint_op_nop, .pte_unchanged = f_pte_unchanged,
	.find_folio = f_find_folio, .target_node = f_target_node,
	.prepare = f_prepare, .migrate = f_migrate, .map = f_map,
	.account = sim_hint_op_account,
};

void sim_hint_fault_run(struct sim *s, struct thread *t, const struct tlbp_hint_fault_ops *ops,
			void *ctx, uint64_t vpn, bool local, bool private)
{
	struct tlbp_hint_fault hf;
	struct tlbp_hint_result res;
	struct scan_rate *rate;

	s->st.hint_faults++;
	s->cpu[t->cpu].acct.fault_ns += (uint64_t)s->p.v[P_FAULT_NS];
	if (tlbp_hint_fault_init(&hf, s->policy.hint, ops, ctx) ||
	    tlbp_hint_fault_handle(&hf, &res))
		oracle_violation(s, "hint-fault handler rejected its input", t->mm->id, vpn);
	/* task_numa_fault()'s locality counts, for the scan period. */
	sim_scan_task_fault(s, t);
	rate = sim_scan_rate(s, t);
	if (local)
		rate->faults_local++;
	else
		rate->faults_remote++;
	if (private)
		rate->faults_private++;
	else
		rate->faults_shared++;
}

/*
 * do_wp_page() on a folio only this process maps, anonymous and
 * exclusive, reuses it: wp_page_reuse() makes the PTE writable and
 * resets the folio's last_cpupid ("the existing information potentially
 * belongs to a now completely unrelated process"). So a folio that
 * migrated from a PROT_NONE PTE has no last fault once its owner writes
 * it, and its next remote hint fault is a first one: the early window
 * and the two-stage filter let it through, and with no numa group so do
 * the shared-fault rules (numa_group.c). The fault's own cost is left
 * out: one per PTE a migration left read-only, next to the hint fault
 * and the migration before it.
 */
void sim_write_protect_fault(struct mm *mm, uint64_t vpn)
{
	*pte_of(mm, vpn) &= (uint8_t)~PTE_READONLY;
	folio_set_last_node(&mm->obj->page[folio_head(mm, vpn)], 0);
}

void sim_hint_fault(struct sim *s, struct thread *t, uint64_t vpn)
{
	unsigned int last = folio_last_node(&t->mm->obj->page[folio_head(t->mm, vpn)]);
	struct fault_ctx f = {
		.who = { s, t, { last ? (int)(t - s->thread) : -1, last - 1, t->cpu } },
		.mm = t->mm, .vpn = vpn, .orig_pte = *pte_of(t->mm, vpn),
	};
	/* TNF_FAULT_LOCAL: where the page was when the fault came. */
	bool local = t->mm->obj->page[vpn].node == s->cpu[t->cpu].node;

	if (t->mm->nr_calls)
		s->st.faults_during_pass++;
	if (t->mm->walk)
		scan_walk_hint_fault(t->mm->walk, (unsigned int)(t - s->thread) - t->mm->first_thread,
				     vpn);
	sim_hint_fault_run(s, t, &fault_ops, &f, vpn, local,
			   vpn >= t->slice_start && vpn < t->slice_start + t->slice_pages);
}
