/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * One CPU's TLB: set-associative, like the hardware it models, holding
 * translations keyed by (mm, virtual page). Each entry remembers the frame
 * generation it was filled from, so a later hit can be checked against the
 * page tables.
 *
 * A full flush bumps an epoch instead of touching every entry: entries of
 * an older epoch read as empty. A full set replaces a pseudo-random way.
 */
#ifndef TLBSIM_TLB_H
#define TLBSIM_TLB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TLB_WAYS 8

struct tlb_tags;
struct tlb_qemu;

struct tlb_slot {
	uint64_t key;       /* tlb_key(); 0 is never a valid key */
	uint32_t frame_gen; /* generation of the frame it translates to */
	uint32_t epoch;
};

/* An entry of an unbounded TLB: live when its epoch is the TLB's. */
struct tlb_dense_entry {
	uint32_t epoch;
	uint32_t frame_gen;
};

struct tlb {
	struct tlb_slot *slot; /* nr_sets * ways entries, set by set */
	bool own_slot;         /* tlb_init()'s; tlb_init_at()'s are the caller's */
	/* Unbounded mode (tlb_make_unbounded()): one entry per page of each
	 * mm, mm by mm; NULL for a set-associative TLB. */
	struct tlb_dense_entry *dense;
	uint32_t dense_mms;
	uint64_t dense_pages;
	uint32_t ways;
	uint32_t set_shift;    /* 64 - log2(nr_sets), for Fibonacci hashing */
	uint32_t nr_sets;
	uint32_t count;        /* valid entries */
	uint32_t epoch;
	uint64_t victim;       /* replacement stream state */
	struct tlb_qemu *qemu; /* qemu's capacity over the dense entries, or NULL */
	struct tlb_tags *tags; /* machine-wide index this TLB keeps, or NULL */
	uint32_t tags_cpu;     /* this TLB's column in it */
	/* Blind (tlb_make_blind()): counts every use, NULL otherwise. */
	uint64_t *blind_uses;
};

/* mm ids start at 1, so a key is never 0. */
static inline uint64_t tlb_key(uint32_t mm_id, uint64_t vpn)
{
	return ((uint64_t)mm_id << 44) | vpn;
}

static inline uint32_t tlb_key_mm(uint64_t key)
{
	return (uint32_t)(key >> 44);
}

static inline uint64_t tlb_key_vpn(uint64_t key)
{
	return key & ((1ULL << 44) - 1);
}

/* The unbounded entry of @key, or NULL if @key is not in its range. */
static inline struct tlb_dense_entry *tlb_dense_of(const struct tlb *t, uint64_t key)
{
	uint64_t mm = tlb_key_mm(key), vpn = tlb_key_vpn(key);

	if (!t->dense || mm < 1 || mm > t->dense_mms || vpn >= t->dense_pages)
		return NULL;
	return &t->dense[(mm - 1) * t->dense_pages + vpn];
}

static inline uint32_t tlb_set_index(const struct tlb *t, uint64_t key)
{
	/* Fibonacci hashing: the top bits of the product spread consecutive
	 * pages over the sets. */
	return t->nr_sets > 1 ? (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> t->set_shift) : 0;
}

static inline struct tlb_slot *tlb_set_of(const struct tlb *t, uint64_t key)
{
	return &t->slot[(uint64_t)tlb_set_index(t, key) * t->ways];
}

/* 12 bits of @key for the tag index (tlb_tags.h), from a multiplier other
 * than the set's, so keys of one set still differ. */
static inline uint16_t tlb_tag_hash(uint64_t key)
{
	return (uint16_t)((key * 0xff51afd7ed558ccdULL) >> 52);
}

static inline uint16_t tlb_tag(uint16_t hash, uint32_t epoch)
{
	return (uint16_t)(hash | (epoch & 0xf) << 12);
}

/* Starts loading the set (two cache lines) a later lookup of @key reads. */
static inline void tlb_prefetch_set(const struct tlb_slot *set)
{
	__builtin_prefetch(set);
	__builtin_prefetch((const char *)set + 64);
}

static inline void tlb_prefetch(const struct tlb *t, uint64_t key)
{
	tlb_prefetch_set(tlb_set_of(t, key));
}

/* @capacity is rounded to a power-of-two number of sets of TLB_WAYS. */
int tlb_init(struct tlb *t, uint32_t capacity);
/* The slots a TLB of @capacity holds, for tlb_init_at(). */
uint32_t tlb_slots_for(uint32_t capacity);
/* Their bytes rounded up to whole 64-byte lines: a TLB's share of a block. */
size_t tlb_bytes_for(uint32_t capacity);
/*
 * As tlb_init(), in @slots: tlb_slots_for(@capacity) of them, 64-byte
 * aligned, owned by the caller (tlb_free() leaves them), so a machine's
 * TLBs can share one block. Fails if @slots is NULL.
 */
int tlb_init_at(struct tlb *t, uint32_t capacity, struct tlb_slot *slots);
void tlb_free(struct tlb *t);
/*
 * Makes @t hold every translation it is given, for mms 1..@nr_mms of up to
 * @nr_pages pages each: a TLB larger than any working set (qemu TCG's
 * software TLB grows to 2^22 entries). Keys outside stay set-associative.
 */
int tlb_make_unbounded(struct tlb *t, uint32_t nr_mms, uint64_t nr_pages);
/*
 * Makes @t blind: a run whose accesses skip their TLBs altogether (a
 * balancing-off twin, scenario.c) gives each TLB a counter that every
 * other use of it bumps, so the run can tell whether its TLBs' contents
 * could have mattered. The TLB itself works as before.
 */
void tlb_make_blind(struct tlb *t, uint64_t *uses);
/* Makes @t keep column @cpu of @tags from now on; @t must be empty and
 * shaped like the TLB @tags was made for. */
void tlb_attach_tags(struct tlb *t, struct tlb_tags *tags, uint32_t cpu);
/* Returns true and the frame generation if @key is cached. */
bool tlb_lookup(const struct tlb *t, uint64_t key, uint32_t *frame_gen);
/* Caches @key's translation; returns whether @t held it already (a hit
 * whose frame generation is refreshed) rather than newly filled. */
bool tlb_insert(struct tlb *t, uint64_t key, uint32_t frame_gen);
/* Returns true if an entry was removed. */
bool tlb_remove(struct tlb *t, uint64_t key);
/* Drops every entry; returns how many there were (for the refill cost). */
uint32_t tlb_flush_all(struct tlb *t);
/* Whether the entry of @key, filled from frame generation @frame_gen, no
 * longer matches the page tables. */
typedef bool tlb_stale_fn(void *ctx, uint64_t key, uint32_t frame_gen);
/* Drops every entry @stale says is stale; returns how many. */
uint32_t tlb_drop_stale(struct tlb *t, tlb_stale_fn *stale, void *ctx);
/* Drops the entries of one mm; returns how many. */
uint32_t tlb_flush_mm(struct tlb *t, uint32_t mm_id);
uint32_t tlb_capacity(const struct tlb *t);
/* Bytes of memory the model uses. */
uint64_t tlb_bytes(const struct tlb *t);

#endif
