// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The address space of the testbed's thp_split: each round mmap()s
 * nr_thp + 1 THPs' worth of anonymous memory (a PMD multiple) and
 * munmap()s it at the end. Linux 6.12 places such a mapping with
 * __thp_get_unmapped_area(): it asks the top-down allocator for the
 * length plus 2 MiB, takes the highest gap that fits, and when that
 * gap's top is 2 MiB aligned returns the top of it, so a new region lands
 * right below the one above it; otherwise it aligns up inside the padded
 * area. Above the rounds' regions are the threads' stacks, whose lowest
 * start is not 2 MiB aligned: the free space above the highest boundary
 * (split_va_sliver) decides whether the topmost slot can be taken again
 * while the slot below it is mapped.
 *
 * A new anonymous mapping next to another merges with it
 * (vma_merge_new_range(): it has no anon_vma yet, so either neighbour
 * will do); between two neighbours it merges with both only if they share
 * an anon_vma, else with the one below. munmap() of a region inside a
 * VMA splits it. The guest's /proc/PID/maps under thp_split shows the
 * result part of the time (docs/data/testbed-ipi-where.md); its other
 * mappings below the stacks (malloc arenas) are not modelled, so regions
 * here merge more often than there. The mprotect() pair's split and re-merge
 * of a VMA around one page is not modelled: the pair write-locks the VMA
 * either way.
 */
#include "split_vmas.h"
#include "sim.h"

static int64_t region_pages(const struct sim *s)
{
	return ((int64_t)s->p.v[P_THP_OPS_PER_THREAD] + 1) << PMD_ORDER;
}

void split_vmas_init(struct sim *s, unsigned int ti)
{
	s->thread[ti].va_mapped = false;
}

/* The mapped region ending at @end, or -1. */
static int region_ending_at(const struct sim *s, int64_t end)
{
	int64_t len = region_pages(s);
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++)
		if (s->thread[i].va_mapped && s->thread[i].va + len == end)
			return (int)i;
	return -1;
}

static int region_starting_at(const struct sim *s, int64_t start)
{
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++)
		if (s->thread[i].va_mapped && s->thread[i].va == start)
			return (int)i;
	return -1;
}

/* The highest mapped region starting below @top, or -1. */
static int region_below(const struct sim *s, int64_t top)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++) {
		const struct thread *t = &s->thread[i];

		if (t->va_mapped && t->va < top && (best < 0 || t->va > s->thread[best].va))
			best = (int)i;
	}
	return best;
}

/* vm_unmapped_area() top-down, then __thp_get_unmapped_area()'s
 * alignment: the start of a new region. */
static int64_t place(const struct sim *s)
{
	int64_t len = region_pages(s), pad = 1 << PMD_ORDER, top, ret, off_sub;
	int below;

	top = (int64_t)s->p.v[P_SPLIT_VA_SLIVER];
	for (;;) {
		below = region_below(s, top);
		if (below < 0 ||
		    top - (s->thread[below].va + len) >= len + pad)
			break;
		top = s->thread[below].va;
	}
	ret = top - (len + pad);
	off_sub = ((-ret) % pad + pad) % pad;
	return off_sub ? ret + off_sub : ret + pad;
}

/* Every region of VMA @from is of VMA @to now. */
static void vma_rename(struct sim *s, uint32_t from, uint32_t to)
{
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++)
		if (s->thread[i].va_mapped && s->thread[i].vma_id == from)
			s->thread[i].vma_id = to;
}

bool split_vmas_map(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	int64_t len = region_pages(s);
	int prev, next;

	if (t->va_mapped)
		return false;
	t->va = place(s);
	prev = region_ending_at(s, t->va);
	next = region_starting_at(s, t->va + len);
	t->va_mapped = true;
	if (prev >= 0 && next >= 0 &&
	    s->thread[prev].anon_id == s->thread[next].anon_id)
		vma_rename(s, s->thread[next].vma_id, s->thread[prev].vma_id);
	else if (prev < 0 && next >= 0)
		prev = next;
	if (prev >= 0) {
		t->vma_id = s->thread[prev].vma_id;
		t->anon_id = s->thread[prev].anon_id;
		return true;
	}
	t->vma_id = t->anon_id = ++s->last_vma_id;
	return false;
}

void split_vmas_unmap(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	uint32_t upper = 0;
	unsigned int i;

	if (!t->va_mapped)
		return;
	t->va_mapped = false;
	/* The part above the hole becomes a VMA of its own (same anon_vma). */
	for (i = 0; i < s->nr_threads; i++) {
		struct thread *o = &s->thread[i];

		if (o->va_mapped && o->vma_id == t->vma_id && o->va > t->va) {
			if (!upper)
				upper = ++s->last_vma_id;
			o->vma_id = upper;
		}
	}
}

bool split_vmas_same(const struct sim *s, unsigned int a, unsigned int b)
{
	return s->thread[a].va_mapped && s->thread[b].va_mapped &&
	       s->thread[a].vma_id == s->thread[b].vma_id;
}
