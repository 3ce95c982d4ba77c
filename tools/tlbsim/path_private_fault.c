// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The hint fault on a page of a stack (scan_walk.h's struct walk_page):
 * a worker's own, or the page of main()'s frame that workers read. The
 * process maps it alone, so a migration of it is one order-0 folio with
 * mapcount 1: the folio skip-single and skip-single-mapcount unmap
 * without the batch, even in numa-shared, where every page of the region
 * is mapped twice. The scanner marks it when its walk reaches the VMA
 * (scan_walk.c); the task that faults on it takes the fault at its next
 * access, through tlbp_hint_fault_handle() as a region page's does.
 */
#include "paths.h"
#include "scan_walk.h"
#include "sim.h"

struct private_fault {
	struct hint_who who; /* first: the account op reads it */
	struct walk_page *pg;
};

static bool p_pte_unchanged(void *ctx)
{
	const struct private_fault *f = ctx;

	return f->pg->protnone;
}

static bool p_find_folio(void *ctx, struct tlbp_hint_folio *folio)
{
	const struct private_fault *f = ctx;

	folio->nid = f->pg->node;
	folio->nr_pages = 1;
	return true;
}

/*
 * The region's filter (path_fault.c), with the page's last task: a page
 * of main()'s frame is read by workers on both nodes, so a fault after
 * another task's is a shared one, which 6.12 migrates if the task has no
 * numa_group yet (its first shared fault) and after that as its group's
 * fault statistics say (sim_numa_should_migrate()). A local fault records
 * nothing, as for the region.
 */
static int p_target_node(void *ctx, const struct tlbp_hint_folio *folio, unsigned int *flags)
{
	struct private_fault *f = ctx;
	struct sim *s = f->who.s;
	struct thread *t = f->who.t;
	unsigned int here = s->cpu[t->cpu].node;

	(void)flags;
	if ((unsigned int)folio->nid == here)
		return TLBP_NUMA_NO_NODE;
	if ((int)s->p.v[P_MIGRATE_FILTER] == FILTER_LAST_NODE) {
		f->pg->last_node = (uint8_t)(here + 1);
		f->pg->last_task = (uint8_t)((t - s->thread) - t->mm->first_thread + 1);
		f->pg->last_cpu = (uint16_t)t->cpu;
		return sim_numa_should_migrate(s, t, &f->who.last, (unsigned int)folio->nid, here) ?
			       (int)here : TLBP_NUMA_NO_NODE;
	}
	return rng_unit(&s->rng) < s->p.v[P_MIGRATE_PROB] ? (int)here : TLBP_NUMA_NO_NODE;
}

static int p_prepare(void *ctx, const struct tlbp_hint_folio *folio, int target)
{
	(void)ctx;
	(void)folio;
	(void)target;
	return 0;
}

static int p_migrate(void *ctx, const struct tlbp_hint_folio *folio, int target)
{
	struct private_fault *f = ctx;

	(void)folio;
	return sim_migrate_private_page(f->who.s, f->who.t->cpu, f->who.t->mm, f->pg, (unsigned int)target);
}

static void p_map(void *ctx)
{
	struct private_fault *f = ctx;

	f->pg->protnone = false;
}

static const struct tlbp_hint_fault_ops private_fault_ops = {
	.lock = sim_hint_op_nop, .unlock = sim_hint_op_nop, .pte_unchanged = p_pte_unchanged,
	.find_folio = p_find_folio, .target_node = p_target_node,
	.prepare = p_prepare, .migrate = p_migrate, .map = p_map,
	.account = sim_hint_op_account,
};

/* One fault of @t on @pg, which the scanner marked. */
static void private_fault(struct sim *s, struct thread *t, struct walk_page *pg)
{
	/* last_cpupid's pid half: the fault is private if no task or the
	 * same one took the page's last remote fault, shared if another did
	 * (task_numa_fault()). */
	int last = pg->last_task ? (int)(t->mm->first_thread + pg->last_task - 1U) : -1;
	struct private_fault f = {
		.who = { s, t, { last, pg->last_node - 1U, pg->last_cpu } }, .pg = pg,
	};

	sim_hint_fault_run(s, t, &private_fault_ops, &f, pg->vpn,
			   pg->node == s->cpu[t->cpu].node, last < 0 || last == (int)(t - s->thread));
}

void sim_private_fault_queue(struct thread *t, struct walk_page *pg)
{
	/* Queued already, by this task or another: one fault maps it. */
	if (pg->queued)
		return;
	/* Full (it cannot be: a task faults on its stack and main()'s few
	 * frame pages): the next marking queues it again. */
	if (t->nr_private_faults == PRIVATE_FAULTS_MAX)
		return;
	pg->queued = true;
	t->private_fault[t->nr_private_faults++] = pg;
}

void sim_private_faults(struct sim *s, struct thread *t)
{
	unsigned int i, nr = t->nr_private_faults;

	t->nr_private_faults = 0;
	for (i = 0; i < nr; i++) {
		struct walk_page *pg = t->private_fault[i];

		pg->queued = false;
		if (pg->protnone)
			private_fault(s, t, pg);
	}
}
