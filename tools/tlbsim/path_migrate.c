// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Migration of one folio (migrate_pages_batch with a batch of one, as the
 * hint fault does): unmap every mapping, flush, copy, remap.
 *
 * The batching decision is tlbp_migrate_should_batch(); whether to defer
 * is tlbp_batch_should_defer(); what to queue is tlbp_batch_add_pending();
 * the unbatched path is tlbp_clear_flush(). The model only carries them out.
 * A kernel before v6.4 (migrate_batching=0) had no batch: every unmap goes
 * the unbatched way and no policy is asked.
 */
#include "flush_turn.h"
#include "paths.h"
#include "scan_walk.h"
#include "sim.h"

void sim_count_protnone_unmaps(struct sim *s, const struct mm *mm, bool deferred,
			       uint64_t n)
{
	if (!deferred)
		s->st.protnone_unbatched_unmaps += n;
	else if (tlbp_mm_flush_pending(&mm->flush))
		s->st.protnone_batched_unmaps += n;
}

/* Clears the PTEs of the folio in one mapping; returns 0 or -errno. */
static int unmap_one_mm(struct sim *s, unsigned int cpu, struct mm *m,
			uint64_t head, uint64_t nr, bool batch, bool *saw_pending)
{
	struct tlbp_batch *b = &s->cpu[cpu].batch;
	struct tlbp_defer_decision dd;
	uint64_t vpn;
	int err;

	err = tlbp_batch_should_defer(b, &m->cpus, cpu, batch, &dd);
	if (err)
		return err;
	if (tlbp_mm_flush_pending(&m->flush))
		*saw_pending = true;
	for (vpn = head; vpn < head + nr; vpn++) {
		uint8_t old = *pte_of(m, vpn);
		unsigned int flags = pte_to_tlbp(old);
		uint64_t start = vpn << PAGE_SHIFT, end = start + (1ULL << PAGE_SHIFT);

		if (!(old & (PTE_PRESENT | PTE_PROTNONE)))
			continue;
		*pte_of(m, vpn) = sim_migration_entry(old);
		flush_turn_note_change(s, m->id, vpn);
		if (s->unsafe == UNSAFE_IGNORE_PENDING && !(old & PTE_PRESENT))
			continue; /* the bug: PROT_NONE taken as never cached */
		if (old & PTE_PROTNONE)
			sim_count_protnone_unmaps(s, m, dd.defer, 1);
		if (dd.defer)
			err = tlbp_batch_add_pending(b, &m->flush, &m->cpus, flags,
						     start, end, NULL);
		else
			err = tlbp_clear_flush(&m->flush, &m->cpus, &s->batch_cfg,
					       flags, start, end, NULL);
		if (err)
			return err;
	}
	return 0;
}

static void copy_folio(struct sim *s, unsigned int cpu, struct mm *mm,
		       uint64_t head, uint64_t nr, unsigned int target)
{
	struct folio_page *fp = mm->obj->page;
	uint64_t vpn;

	oracle_check_copy(s, mm, head, nr);
	for (vpn = head; vpn < head + nr; vpn++) {
		fp[vpn].frame_gen++;
		fp[vpn].node = (uint8_t)target;
	}
	s->cpu[cpu].acct.fault_ns += (uint64_t)(nr * s->p.v[P_MIGRATE_COPY_NS]);
}

uint8_t sim_migration_entry(uint8_t pte)
{
	bool readable = pte & (PTE_PROTNONE | PTE_READONLY);

	return (uint8_t)(PTE_MIGRATION | (pte & PTE_DIRTY) | (readable ? PTE_READONLY : 0));
}

/*
 * remove_migration_pte(): the PTE comes back from the VMA's protection,
 * writable only if the entry was. A private mapping's protection is
 * read-only (writes go through the write-protect fault); the model's
 * objects with several mappers are MAP_SHARED, whose protection is
 * writable.
 */
void sim_remove_migration_ptes(struct mm *m, uint64_t head, uint64_t nr)
{
	uint8_t keep = m->obj->nr_mappers > 1 ? PTE_DIRTY : PTE_DIRTY | PTE_READONLY;
	uint64_t vpn;

	for (vpn = head; vpn < head + nr; vpn++)
		if (*pte_of(m, vpn) & PTE_MIGRATION)
			*pte_of(m, vpn) = (uint8_t)(PTE_PRESENT | (*pte_of(m, vpn) & keep));
}

/*
 * What migrate_folio_unmap() reads of the folio before it asks: 6.12's
 * folio_mapcount() counts every PTE that maps any of its pages (a 64 KiB
 * folio mapped whole by one process has mapcount 16, not 1), and
 * folio_likely_mapped_shared() calls a large folio shared when its first
 * page is mapped more than once, or when it has more mappings than pages.
 * Pages under migration entries are not mapped.
 */
static void folio_mapcounts(const struct object *o, uint64_t head, uint64_t nr,
			    struct tlbp_migrate_folio *f)
{
	unsigned int m, head_maps = 0;
	uint64_t v;
	int maps = 0;

	for (m = 0; m < o->nr_mappers; m++) {
		for (v = head; v < head + nr; v++)
			if (*obj_pte(o, m, v) & (PTE_PRESENT | PTE_PROTNONE))
				maps++;
		if (*obj_pte(o, m, head) & (PTE_PRESENT | PTE_PROTNONE))
			head_maps++;
	}
	f->mapcount = maps;
	if (nr == 1)
		f->maybe_mapped_shared = maps > 1;
	else
		f->maybe_mapped_shared = maps > 1 && (head_maps > 1 || (uint64_t)maps > nr);
}

/*
 * 6.12 queues an anonymous large folio for deferred split, marked
 * partially mapped, as soon as one of its pages loses its last mapping
 * while another keeps one (__folio_remove_rmap()). try_to_migrate()
 * removes a PTE-mapped folio's PTEs one at a time, so a folio with two or
 * more pages mapped is marked by its own migration's unmap, and
 * migrate_folio_move() requeues the destination with the source's mark:
 * the moved folio stays marked, and migrate_pages_batch() splits it when
 * it next migrates (path_fault.c). Order-1 folios have no deferred list;
 * the model's shared objects are not anonymous.
 */
static void mark_partially_mapped(struct object *o, uint64_t head, uint64_t nr,
				  int mapcount)
{
	if (nr > 2 && o->nr_mappers == 1 && mapcount >= 2)
		o->page[head].flags |= FOLIO_PARTIALLY_MAPPED;
}

/*
 * migrate_pages_batch() over @n folios of @mm (given by any page of each):
 * unmap them all, one flush, then copy and remap each.
 */
int sim_migrate_folios(struct sim *s, unsigned int cpu, struct mm *mm,
		       const uint64_t *vpns, unsigned int n, unsigned int target,
		       int reason)
{
	struct object *o = mm->obj;
	bool saw_pending = false;
	unsigned int i, m;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		uint64_t head = folio_head(mm, vpns[i]), nr = folio_pages(mm, vpns[i]);
		const struct folio_page *fp = &o->page[head];
		struct tlbp_migrate_folio f = {
			.mode = TLBP_MIGRATE_ASYNC, .reason = reason, .nr_folios = n,
			.order = fp->order,
		};
		struct tlbp_migrate_decision d;

		folio_mapcounts(o, head, nr, &f);
		mark_partially_mapped(o, head, nr, f.mapcount);
		/* Before v6.4 there was no batch, so nothing to decide. */
		if (s->p.v[P_MIGRATE_BATCHING])
			err = tlbp_migrate_should_batch(s->policy.migrate, &f, &d);
		else
			d.batch = false;
		for (m = 0; m < o->nr_mappers && !err; m++)
			err = unmap_one_mm(s, cpu, o->mapper[m], head, nr, d.batch,
					   &saw_pending);
	}
	if (err)
		return err;
	if (saw_pending)
		s->st.migrations_with_flush_pending++;

	/* try_to_unmap_flush() before any content moves, unless broken on purpose. */
	if (s->unsafe != UNSAFE_NEVER_FLUSH && s->unsafe != UNSAFE_FREE_BEFORE_FLUSH)
		err = tlbp_batch_flush(&s->cpu[cpu].batch, NULL);
	for (i = 0; i < n; i++) {
		uint64_t head = folio_head(mm, vpns[i]), nr = folio_pages(mm, vpns[i]);

		copy_folio(s, cpu, mm, head, nr, target);
		for (m = 0; m < o->nr_mappers; m++)
			sim_remove_migration_ptes(o->mapper[m], head, nr);
		s->st.migrated_pages += nr;
	}
	if (s->unsafe == UNSAFE_FREE_BEFORE_FLUSH)
		err = tlbp_batch_flush(&s->cpu[cpu].batch, NULL);
	s->st.migrate_calls++;
	return err;
}

int sim_migrate_folio(struct sim *s, unsigned int cpu, struct mm *mm,
		      uint64_t vpn, unsigned int target, int reason)
{
	return sim_migrate_folios(s, cpu, mm, &vpn, 1, target, reason);
}

/*
 * A stack page is one order-0 folio the process maps alone: the same
 * decisions as a region folio's (tlbp_migrate_should_batch(),
 * tlbp_batch_should_defer()), with mapcount 1 whatever the region's. The
 * model keeps no translation of it in any TLB, so the flush only costs.
 * Its PTE is PROT_NONE unless the hint-fault policy mapped it first.
 */
int sim_migrate_private_page(struct sim *s, unsigned int cpu, struct mm *mm,
			     struct walk_page *pg, unsigned int target)
{
	struct tlbp_migrate_folio f = {
		.mode = TLBP_MIGRATE_ASYNC, .reason = TLBP_MR_NUMA_MISPLACED,
		.nr_folios = 1, .order = 0, .mapcount = 1,
	};
	struct tlbp_batch *b = &s->cpu[cpu].batch;
	unsigned int flags = pg->protnone ? TLBP_PTE_PROTNONE : TLBP_PTE_PRESENT;
	uint64_t start = pg->vpn << PAGE_SHIFT, end = start + (1ULL << PAGE_SHIFT);
	struct tlbp_migrate_decision d = { .batch = false };
	struct tlbp_defer_decision dd;
	int err = 0;

	if (s->p.v[P_MIGRATE_BATCHING])
		err = tlbp_migrate_should_batch(s->policy.migrate, &f, &d);
	if (!err)
		err = tlbp_batch_should_defer(b, &mm->cpus, cpu, d.batch, &dd);
	if (err)
		return err;
	if (tlbp_mm_flush_pending(&mm->flush))
		s->st.migrations_with_flush_pending++;
	if (pg->protnone)
		sim_count_protnone_unmaps(s, mm, dd.defer, 1);
	if (dd.defer)
		err = tlbp_batch_add_pending(b, &mm->flush, &mm->cpus, flags, start, end, NULL);
	else
		err = tlbp_clear_flush(&mm->flush, &mm->cpus, &s->batch_cfg, flags, start, end,
				       NULL);
	if (!err)
		err = tlbp_batch_flush(b, NULL);
	if (err)
		return err;
	pg->node = (uint8_t)target;
	s->cpu[cpu].acct.fault_ns += (uint64_t)s->p.v[P_MIGRATE_COPY_NS];
	s->st.migrated_pages++;
	s->st.migrate_calls++;
	return 0;
}
