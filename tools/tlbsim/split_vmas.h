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
 * it as vma_merge_new_range() merges. Returns whether it joined a VMA;
 * false if it is a VMA of its own, or @ti's region is mapped already
 * (then nothing changes).
 */
bool split_vmas_map(struct sim *s, unsigned int ti);
/* Whether @ti's region is mapped in a VMA that has an anon_vma (its first
 * fault then needs no anon_vma_prepare()). */
bool split_vmas_has_anon_vma(const struct sim *s, unsigned int ti);
/* anon_vma_prepare() on @ti's VMA: it has one from now on (no-op if it
 * has, or the region is not mapped). */
void split_vmas_anon_vma_prepare(struct sim *s, unsigned int ti);
/* munmap() of @ti's region: the VMA it was in splits around the hole. */
void split_vmas_unmap(struct sim *s, unsigned int ti);
/* Whether @a and @b's regions are mapped and in one VMA. */
bool split_vmas_same(const struct sim *s, unsigned int a, unsigned int b);

#endif
