/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Where the testbed's thp_split puts each round's mapping, and which
 * mappings share a VMA (split_vmas.c). Addresses are in pages, relative to
 * the highest 2 MiB boundary below the mappings above the rounds' (the
 * threads' stacks): regions sit below 0.
 */
#ifndef TLBSIM_SPLIT_VMAS_H
#define TLBSIM_SPLIT_VMAS_H

#include <stdbool.h>
#include <stdint.h>

struct sim;

/* The round's mapping of @ti is not mapped. */
void split_vmas_init(struct sim *s, unsigned int ti);
/*
 * mmap() of @ti's round: its region goes where 6.12's top-down allocator
 * puts a PMD-multiple anonymous mapping, and merges into the VMAs next to
 * it as vma_merge_new_range() merges. Returns whether it joined a VMA
 * (which then already has an anon_vma: its first fault needs no
 * mmap_lock); false if @ti's region is mapped already.
 */
bool split_vmas_map(struct sim *s, unsigned int ti);
/* munmap() of @ti's region: the VMA it was in splits around the hole. */
void split_vmas_unmap(struct sim *s, unsigned int ti);
/* Whether @a and @b's regions are mapped and in one VMA. */
bool split_vmas_same(const struct sim *s, unsigned int a, unsigned int b);

#endif
