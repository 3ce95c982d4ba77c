// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdlib.h>
#include <string.h>
#include "tlb.h"
#include "tlb_qemu.h"

/* A dense entry's liveness: the page is in its slot or the victim table. */
static bool live(const struct tlb *t, uint64_t key)
{
	const struct tlb_dense_entry *e = key ? tlb_dense_of(t, key) : NULL;

	return e && e->epoch == t->epoch;
}

/* A slot holds its page until a flush (epoch) or an INVLPG (key 0): no
 * need to read the page's dense entry, far away in memory. */
static bool slot_live(const struct tlb *t, const struct tlb_qemu_slot *sl)
{
	return sl->key && sl->epoch == t->epoch;
}

static uint32_t slot_of(const struct tlb_qemu *q, uint64_t key)
{
	return (uint32_t)(tlb_key_vpn(key) & (q->size - 1));
}

static uint32_t pow2_at_least(uint64_t n)
{
	uint32_t p = 1;

	while (p < n && p < (1U << 31))
		p <<= 1;
	return p;
}

int tlb_qemu_attach(struct tlb *t, const uint64_t *clock)
{
	struct tlb_qemu *q;
	uint64_t pages = (uint64_t)t->dense_mms * t->dense_pages;

	if (!t->dense || !clock)
		return -1;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -1;
	/* Growth stops once the pages in use fill under 70% of the table,
	 * so twice the pages is as large as it gets. */
	q->max_size = pow2_at_least(2 * pages);
	if (q->max_size > 1U << TLB_QEMU_MAX_BITS)
		q->max_size = 1U << TLB_QEMU_MAX_BITS;
	if (q->max_size < 1U << TLB_QEMU_BOOT_BITS)
		q->max_size = 1U << TLB_QEMU_BOOT_BITS;
	q->slot = calloc(q->max_size, sizeof(*q->slot));
	if (!q->slot) {
		free(q);
		return -1;
	}
	q->size = 1U << TLB_QEMU_BOOT_BITS;
	q->clock = clock;
	q->window_begin_ns = *clock;
	tlb_qemu_free(t);
	t->qemu = q;
	return 0;
}

void tlb_qemu_free(struct tlb *t)
{
	if (!t->qemu)
		return;
	free(t->qemu->slot);
	free(t->qemu);
	t->qemu = NULL;
}

/* @key leaves the TLB: its dense entry goes, unless its slot still holds
 * it (a stale victim copy of a page filled again). */
static void lose(struct tlb *t, uint64_t key)
{
	struct tlb_qemu *q = t->qemu;
	const struct tlb_qemu_slot *sl = &q->slot[slot_of(q, key)];

	if ((sl->key == key && slot_live(t, sl)) || !live(t, key))
		return;
	tlb_dense_of(t, key)->epoch = 0;
	t->count--;
}

static void to_victim(struct tlb *t, uint64_t key)
{
	struct tlb_qemu *q = t->qemu;
	uint32_t v = q->vindex++ % TLB_QEMU_VICTIMS;
	uint64_t old = q->victim[v];

	q->victim[v] = key;
	if (old && old != key)
		lose(t, old);
}

void tlb_qemu_fill(struct tlb *t, uint64_t key, bool was_live)
{
	struct tlb_qemu *q = t->qemu;
	struct tlb_qemu_slot *sl = &q->slot[slot_of(q, key)];
	uint32_t v;

	if (sl->key == key) {
		/* Its own slot, live or left there by a flush. */
		if (sl->epoch != t->epoch) {
			sl->epoch = t->epoch;
			q->n_used++;
		}
		return;
	}
	if (was_live) {
		/* Cached in the victim table: qemu swaps it with the page in
		 * its slot (victim_tlb_hit()). */
		for (v = 0; v < TLB_QEMU_VICTIMS; v++)
			if (q->victim[v] == key) {
				q->victim[v] = slot_live(t, sl) ? sl->key : 0;
				sl->key = key;
				sl->epoch = t->epoch;
				return;
			}
	}
	if (slot_live(t, sl)) {
		uint64_t occupant = sl->key;

		sl->key = key; /* before to_victim(), so that lose() sees it gone */
		to_victim(t, occupant);
	} else {
		sl->key = key;
		q->n_used++;
	}
	sl->epoch = t->epoch;
}

void tlb_qemu_drop(struct tlb *t, uint64_t key)
{
	struct tlb_qemu *q = t->qemu;
	struct tlb_qemu_slot *sl = &q->slot[slot_of(q, key)];
	uint32_t v;

	if (sl->key == key && slot_live(t, sl)) {
		sl->key = 0;
		q->n_used--;
	}
	for (v = 0; v < TLB_QEMU_VICTIMS; v++)
		if (q->victim[v] == key)
			q->victim[v] = 0;
}

/* tlb_mmu_resize_locked(): the size for the next window of use. */
static uint32_t next_size(const struct tlb_qemu *q, bool expired)
{
	uint64_t rate = (uint64_t)q->window_max * 100 / q->size;
	uint32_t ceil;

	if (rate > 70)
		return q->size << 1 > q->max_size ? q->max_size : q->size << 1;
	if (rate >= 30 || !expired)
		return q->size;
	ceil = pow2_at_least(q->window_max);
	/* Just under a power of two would be nearly full: one more. */
	if ((uint64_t)q->window_max * 100 / ceil > 70)
		ceil <<= 1;
	return ceil < 1U << TLB_QEMU_MIN_BITS ? 1U << TLB_QEMU_MIN_BITS : ceil;
}

void tlb_qemu_flush(struct tlb *t)
{
	struct tlb_qemu *q = t->qemu;
	uint64_t now = *q->clock;
	bool expired = now > q->window_begin_ns + TLB_QEMU_WINDOW_NS;
	uint32_t size;

	if (q->n_used > q->window_max)
		q->window_max = q->n_used;
	size = next_size(q, expired);
	if (size != q->size) {
		q->size = size;
		q->resizes++;
		q->window_begin_ns = now;
		q->window_max = 0;
		/* Slots of the old size would alias pages of the new. */
		memset(q->slot, 0, (size_t)size * sizeof(*q->slot));
	} else if (expired) {
		q->window_begin_ns = now;
		q->window_max = q->n_used;
	}
	q->n_used = 0;
	q->vindex = 0;
	memset(q->victim, 0, sizeof(q->victim));
}

void tlb_qemu_recount(struct tlb *t)
{
	struct tlb_qemu *q = t->qemu;
	uint32_t i;

	q->n_used = 0;
	for (i = 0; i < q->size; i++) {
		struct tlb_qemu_slot *sl = &q->slot[i];

		if (slot_live(t, sl) && !live(t, sl->key))
			sl->key = 0; /* its dense entry went with its mm */
		q->n_used += slot_live(t, sl);
	}
}

void tlb_qemu_epoch_wrapped(struct tlb *t)
{
	memset(t->qemu->slot, 0, (size_t)t->qemu->max_size * sizeof(*t->qemu->slot));
}
