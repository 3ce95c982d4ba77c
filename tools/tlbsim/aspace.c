// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Address spaces and their backing objects. Memory per simulated 4 KiB
 * page: one 8-byte struct folio_page, with the first mapping's PTE; an
 * object mapped by more processes adds MAX_MAPPERS - 1 PTE bytes.
 */
#include <stdlib.h>
#include "hugemem.h"
#include "sim.h"

/* Every element is written here, so the pages are faulted in once, with
 * their contents. */
static struct folio_page *page_array_new(uint64_t nr_pages, unsigned int order)
{
	struct folio_page *fp = huge_alloc((size_t)nr_pages * sizeof(*fp));
	uint64_t i;

	if (!fp)
		return NULL;
	for (i = 0; i < nr_pages; i++)
		fp[i] = (struct folio_page){ .order = (uint8_t)order };
	return fp;
}

struct object *sim_object_new(struct sim *s, uint64_t nr_pages, unsigned int order)
{
	struct object *o = &s->obj[s->nr_objs++];

	o->nr_pages = nr_pages;
	o->page = page_array_new(nr_pages, order);
	return o->page ? o : NULL;
}

/* The PTE bytes of mapper slots 1.., made when a second process maps @obj. */
static int pte_more_new(struct object *obj)
{
	size_t bytes = (size_t)obj->nr_pages * (MAX_MAPPERS - 1);

	obj->pte_more = huge_zalloc(bytes);
	return obj->pte_more ? 0 : -1;
}

struct mm *sim_mm_new(struct sim *s, struct object *obj)
{
	size_t bytes = tlbp_cpuset_size(s->nr_cpus);
	struct mm *mm = &s->mm[s->nr_mms];
	uint64_t i;

	mm->id = ++s->nr_mms;
	mm->nr_pages = obj->nr_pages;
	mm->obj = obj;
	mm->cpu_bits = calloc(1, bytes);
	if (!mm->cpu_bits || obj->nr_mappers >= MAX_MAPPERS ||
	    tlbp_mm_init(&mm->flush, s->flush_ops, &s->this_cpu_ctx) ||
	    tlbp_cpuset_init(&mm->cpus, mm->cpu_bits, bytes, s->nr_cpus))
		return NULL;
	if (obj->nr_mappers == 1 && pte_more_new(obj))
		return NULL;
	mm->slot = obj->nr_mappers;
	obj->mapper[obj->nr_mappers++] = mm;
	for (i = 0; i < obj->nr_pages; i++)
		*obj_pte(obj, mm->slot, i) = PTE_PRESENT;
	return mm;
}

void sim_mm_add_cpu(struct sim *s, struct mm *mm, unsigned int cpu)
{
	(void)s;
	tlbp_cpuset_set(&mm->cpus, cpu);
}

uint64_t folio_pages(const struct mm *mm, uint64_t vpn)
{
	return (uint64_t)1 << mm->obj->page[vpn].order;
}

uint64_t folio_head(const struct mm *mm, uint64_t vpn)
{
	return vpn & ~(folio_pages(mm, vpn) - 1);
}

uint64_t aspace_bytes(const struct sim *s)
{
	uint64_t bytes = 0;
	unsigned int i;

	for (i = 0; i < s->nr_objs; i++)
		bytes += s->obj[i].nr_pages * (sizeof(struct folio_page) +
					       (s->obj[i].pte_more ? MAX_MAPPERS - 1 : 0));
	return bytes;
}
