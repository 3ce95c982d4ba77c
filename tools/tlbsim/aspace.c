// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Address spaces and their backing objects. Memory per simulated 4 KiB
 * page: one 16-byte struct folio_page, PTEs of every mapping included.
 */
#include <stdlib.h>
#include "sim.h"

struct object *sim_object_new(struct sim *s, uint64_t nr_pages, unsigned int order)
{
	struct object *o = &s->obj[s->nr_objs++];
	uint64_t i;

	o->nr_pages = nr_pages;
	o->page = calloc(nr_pages, sizeof(*o->page));
	if (!o->page)
		return NULL;
	for (i = 0; i < nr_pages; i++)
		o->page[i].order = (uint8_t)order;
	return o;
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
	mm->slot = obj->nr_mappers;
	obj->mapper[obj->nr_mappers++] = mm;
	for (i = 0; i < obj->nr_pages; i++) {
		obj->page[i].pte[mm->slot] = PTE_PRESENT;
		obj->page[i].mapcount++;
	}
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
		bytes += s->obj[i].nr_pages * sizeof(struct folio_page);
	return bytes;
}
