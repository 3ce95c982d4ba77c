// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The stale-translation oracle, always on. Two rules of the kernel:
 * - no CPU may still cache a translation of a folio when its contents are
 *   copied to a new frame or the frame is freed (the flush must come
 *   first: semantics section 10, invariant 1);
 * - no access may go through a cached translation of a frame the page no
 *   longer lives in.
 */
#include <stdio.h>
#include "sim.h"

void oracle_violation(struct sim *s, const char *what, uint32_t mm_id, uint64_t vpn)
{
	if (!s->st.violations++)
		snprintf(s->first_violation, sizeof(s->first_violation),
			 "%s (mm %u, page %#llx, t=%llu ns)", what, mm_id,
			 (unsigned long long)vpn, (unsigned long long)s->now);
}

void oracle_check_hit(struct sim *s, unsigned int cpu, struct mm *mm,
		      uint64_t vpn, uint32_t cached_gen)
{
	(void)cpu;
	if (cached_gen != mm->obj->page[vpn].frame_gen)
		oracle_violation(s, "access through a translation of a moved frame",
				 mm->id, vpn);
}

/*
 * Whether any CPU caches a translation of pages [@head, @head + @nr) of
 * @o: the TLB tag index names the few CPUs that may, their TLBs answer.
 */
static bool any_cached(struct sim *s, const struct object *o, uint64_t head, uint64_t nr)
{
	const struct tlb_tags *x = &s->tlb_tags;
	unsigned int m, cpu;
	uint64_t vpn;

	/* No index, or unbounded TLBs, whose entries it does not track: ask
	 * every TLB. */
	if (!x->tag || s->cpu[0].tlb.dense)
		return true;
	for (m = 0; m < o->nr_mappers; m++)
		for (vpn = head; vpn < head + nr; vpn++) {
			uint64_t key = tlb_key(o->mapper[m]->id, vpn);

			for (cpu = tlb_tags_next(x, key, 0); cpu < s->nr_cpus;
			     cpu = tlb_tags_next(x, key, cpu + 1)) {
				sim_cpu_sync(s, &s->cpu[cpu]);
				if (tlb_lookup(&s->cpu[cpu].tlb, key, NULL))
					return true;
			}
		}
	return false;
}

void oracle_check_copy(struct sim *s, struct mm *mm, uint64_t head, uint64_t nr)
{
	struct object *o = mm->obj;
	unsigned int m, cpu;
	uint64_t vpn;

	/* A frame moves: a blind run cannot say who still caches it. */
	sim_blind_note(s);

	/* The common case, nothing cached, is answered by the index; a
	 * violation is reported by the walk over every TLB, so its count
	 * and first report are those of the walk alone. */
	if (!any_cached(s, o, head, nr))
		return;
	sim_cpus_sync(s);
	for (m = 0; m < o->nr_mappers; m++) {
		uint32_t id = o->mapper[m]->id;

		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			for (vpn = head; vpn < head + nr; vpn++)
				if (tlb_lookup(&s->cpu[cpu].tlb, tlb_key(id, vpn), NULL))
					oracle_violation(s,
						"frame copied while a CPU still caches it",
						id, vpn);
	}
}
