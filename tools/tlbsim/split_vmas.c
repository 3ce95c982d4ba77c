// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The address space of the testbed's thp_split: each round mmap()s
 * nr_thp + 1 THPs' worth of anonymous memory (a PMD multiple) and
 * munmap()s it at the end. Linux 6.12 places such a mapping with
 * __thp_get_unmapped_area(): it asks the top-down allocator for the
 * length plus 2 MiB, takes the highest gap that fits, and when that
 * gap's top is 2 MiB aligned returns the top of it, so a new region lands
 * right below the one above it; otherwise it aligns up inside the padded
 * area. Above the rounds' regions are the threads' stacks; the guest's
 * maps have less than 2 MiB free between the lowest stack and the 2 MiB
 * boundary below it (0x194000 bytes with two threads), so a freed top
 * slot plus that space is short of the 12 MiB asked for, and cannot be
 * taken again while the slot below it is mapped. Any space under 2 MiB
 * places every region the same, so the model takes the boundary itself
 * as the top: address 0, regions below it, in pages.
 *
 * A new anonymous mapping has no anon_vma until its first fault, so it
 * merges with the VMA next to it (vma_merge_new_range(); a NULL anon_vma
 * is compatible with any), and with both neighbours if their anon_vmas
 * are compatible (the same, or one of them not yet set). munmap() of a
 * region inside a VMA splits it, both parts keeping the anon_vma. The
 * guest's /proc/PID/maps under thp_split shows the regions merged part of
 * the time (docs/data/testbed-ipi-where.md); its other mappings below
 * the stacks (malloc arenas) are not modelled, so regions here merge
 * more often than there. The mprotect() pair's split and re-merge of a
 * VMA around one page is not modelled: the pair write-locks the VMA
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
	int64_t len = region_pages(s), pad = 1 << PMD_ORDER, top = 0, ret, off_sub;
	int below;

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

/* Every region of VMA @from is of VMA @to, with anon_vma @anon, now. */
static void vma_rename(struct sim *s, uint32_t from, uint32_t to, uint32_t anon)
{
	unsigned int i;

	for (i = 0; i < s->nr_threads; i++)
		if (s->thread[i].va_mapped && s->thread[i].vma_id == from) {
			s->thread[i].vma_id = to;
			s->thread[i].anon_id = anon;
		}
}

/* is_mergeable_anon_vma() for two VMAs of one process, never forked. */
static bool anon_compatible(uint32_t a, uint32_t b)
{
	return !a || !b || a == b;
}

bool split_vmas_map(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];
	int64_t len = region_pages(s);
	int prev, next;
	uint32_t anon;

	if (t->va_mapped)
		return false;
	t->va = place(s);
	prev = region_ending_at(s, t->va);
	next = region_starting_at(s, t->va + len);
	t->va_mapped = true;
	t->anon_id = 0;
	if (prev >= 0 && next >= 0 &&
	    anon_compatible(s->thread[prev].anon_id, s->thread[next].anon_id)) {
		anon = s->thread[prev].anon_id ? s->thread[prev].anon_id :
						 s->thread[next].anon_id;
		vma_rename(s, s->thread[prev].vma_id, s->thread[prev].vma_id, anon);
		vma_rename(s, s->thread[next].vma_id, s->thread[prev].vma_id, anon);
	} else if (prev < 0 && next >= 0) {
		prev = next;
	}
	if (prev >= 0) {
		t->vma_id = s->thread[prev].vma_id;
		t->anon_id = s->thread[prev].anon_id;
		return true;
	}
	t->vma_id = ++s->last_vma_id;
	return false;
}

bool split_vmas_has_anon_vma(const struct sim *s, unsigned int ti)
{
	return s->thread[ti].va_mapped && s->thread[ti].anon_id;
}

void split_vmas_anon_vma_prepare(struct sim *s, unsigned int ti)
{
	struct thread *t = &s->thread[ti];

	if (t->va_mapped && !t->anon_id)
		vma_rename(s, t->vma_id, t->vma_id, ++s->last_vma_id);
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
