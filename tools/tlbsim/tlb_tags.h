/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Which CPUs may cache a translation, without asking each CPU's TLB.
 *
 * The oracle's copy check asks it for every page that moves, of every
 * CPU: hundreds of TLB sets read at random per page, a quarter of a full
 * run's instructions. This index keeps, for each TLB set, a 16-bit tag of
 * every CPU's ways side by side (all TLBs of a machine have one geometry),
 * so the question reads one row of nr_cpus x TLB_WAYS tags.
 *
 * A tag is 12 bits of a hash of the key and the low 4 bits of the CPU's
 * TLB epoch when the way was filled. A full flush bumps the epoch and so
 * stales every tag of that CPU without touching them. The index only ever
 * says "maybe": the TLB that owns a matching tag answers for certain with
 * tlb_lookup(). Invariant (kept by tlb.c): every live entry's tag matches,
 * so a CPU the index rules out caches no translation of the key.
 */
#ifndef TLBSIM_TLB_TAGS_H
#define TLBSIM_TLB_TAGS_H

#include <stdint.h>

struct tlb;

struct tlb_tags {
	uint16_t *tag;  /* [set][cpu][TLB_WAYS] */
	uint8_t *epoch; /* [cpu]: the CPU's TLB epoch, low 4 bits */
	uint32_t nr_cpus, nr_sets, set_shift; /* the TLBs' geometry */
};

/* An index for @nr_cpus TLBs shaped like @geometry; 0 or -1 (no memory). */
int tlb_tags_init(struct tlb_tags *x, uint32_t nr_cpus, const struct tlb *geometry);
void tlb_tags_free(struct tlb_tags *x);
/* The first CPU >= @from that may cache @key, or nr_cpus. */
uint32_t tlb_tags_next(const struct tlb_tags *x, uint64_t key, uint32_t from);
/* Bytes of memory the index uses. */
uint64_t tlb_tags_bytes(const struct tlb_tags *x);

#endif
