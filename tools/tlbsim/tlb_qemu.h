/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * qemu TCG's software TLB (accel/tcg/cputlb.c, the user-mode MMU index):
 * what an unbounded TLB becomes when its capacity follows qemu's rules.
 *
 * - Direct-mapped: a page lives in slot (vpn & (size - 1)); a fill that
 *   finds another page there moves that page to an 8-entry victim table,
 *   round robin, and the page the victim table pushes out is lost.
 * - Resized only when the whole TLB is flushed (tlb_mmu_resize_locked()):
 *   the size doubles when the most slots in use seen in the current
 *   100 ms window exceeded 70% of it, and shrinks to the next power of
 *   two above that most (doubled if it would be more than 70% full) when
 *   it was under 30% and the window is over. 2^6 to 2^22 slots, 2^8 at
 *   boot.
 *
 * So a TLB flushed often while its CPU touches few pages shrinks, and one
 * that is seldom flushed cannot grow back: a thread sweeping more pages
 * than its TLB holds walks its page table on every page, and meets a
 * PROT_NONE mark as soon as the scanner writes it.
 *
 * The layer sits on the dense entries of tlb_make_unbounded(), which stay
 * the only place a lookup reads: a dense entry is live exactly when its
 * page is in a slot or in the victim table. Not modelled: a lookup that
 * hits in the victim table swapping the page back into its slot (lookups
 * do not change the TLB here), and qemu's count of slots in use growing
 * when a page already cached is filled again.
 */
#ifndef TLBSIM_TLB_QEMU_H
#define TLBSIM_TLB_QEMU_H

#include <stdbool.h>
#include <stdint.h>

struct tlb;

#define TLB_QEMU_VICTIMS 8
#define TLB_QEMU_MIN_BITS 6
#define TLB_QEMU_BOOT_BITS 8
#define TLB_QEMU_MAX_BITS 22
#define TLB_QEMU_WINDOW_NS 100000000ULL

struct tlb_qemu_slot {
	uint64_t key;   /* the page it holds, 0 after an INVLPG */
	uint32_t epoch; /* the TLB's epoch when filled: older is empty */
};

struct tlb_qemu {
	struct tlb_qemu_slot *slot; /* [max_size] */
	uint64_t victim[TLB_QEMU_VICTIMS];
	uint32_t vindex;       /* next victim entry to replace */
	uint32_t size, max_size;
	uint32_t n_used;       /* slots filled since the last full flush */
	uint32_t window_max;   /* most slots in use seen in the window */
	uint64_t window_begin_ns;
	const uint64_t *clock; /* the machine's time, ns */
	uint64_t resizes;      /* how often the size changed */
};

/*
 * Gives @t, already unbounded (tlb_make_unbounded()), qemu's capacity: a
 * boot-sized table (2^8 slots) that can grow to enough slots for every
 * page @t has dense entries for, at most 2^22. @clock is read at each
 * full flush. Returns 0, or -1 if @t is not unbounded or out of memory.
 */
int tlb_qemu_attach(struct tlb *t, const uint64_t *clock);
void tlb_qemu_free(struct tlb *t);
/* The page of @key was touched: fill it (or swap it back from the victim
 * table); from tlb_insert() on a dense key. */
void tlb_qemu_fill(struct tlb *t, uint64_t key, bool was_live);
/* The page of @key was invalidated alone (INVLPG): its slot empties. */
void tlb_qemu_drop(struct tlb *t, uint64_t key);
/* A full flush is about to empty @t: resize it as qemu does. */
void tlb_qemu_flush(struct tlb *t);
/* Slots in use recounted after some dense entries were dropped. */
void tlb_qemu_recount(struct tlb *t);
/* The TLB's epoch wrapped to 1: no slot may read as filled in it. */
void tlb_qemu_epoch_wrapped(struct tlb *t);

#endif
