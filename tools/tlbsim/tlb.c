// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdlib.h>
#include <string.h>
#include "tlb.h"
#include "tlb_qemu.h"
#include "tlb_tags.h"

static bool live(const struct tlb *t, const struct tlb_slot *s)
{
	return s->key && s->epoch == t->epoch;
}

int tlb_make_unbounded(struct tlb *t, uint32_t nr_mms, uint64_t nr_pages)
{
	free(t->dense);
	t->dense = calloc((size_t)nr_mms * nr_pages, sizeof(*t->dense));
	t->dense_mms = nr_mms;
	t->dense_pages = nr_pages;
	return t->dense ? 0 : -1;
}

/* Sets of TLB_WAYS (fewer ways below that), a power of two of them. */
static void geometry(uint32_t capacity, uint32_t *ways, uint32_t *sets, uint32_t *bits)
{
	*ways = capacity < TLB_WAYS ? (capacity ? capacity : 1) : TLB_WAYS;
	*sets = 1;
	*bits = 0;
	while ((uint64_t)*sets * 2 * *ways <= capacity) {
		*sets *= 2;
		(*bits)++;
	}
}

uint32_t tlb_slots_for(uint32_t capacity)
{
	uint32_t ways, sets, bits;

	geometry(capacity, &ways, &sets, &bits);
	return sets * ways;
}

size_t tlb_bytes_for(uint32_t capacity)
{
	return ((size_t)tlb_slots_for(capacity) * sizeof(struct tlb_slot) + 63) & ~(size_t)63;
}

int tlb_init_at(struct tlb *t, uint32_t capacity, struct tlb_slot *slots)
{
	uint32_t bits;

	geometry(capacity, &t->ways, &t->nr_sets, &bits);
	t->set_shift = 64 - bits;
	t->slot = slots;
	t->own_slot = false;
	if (t->slot)
		memset(t->slot, 0, (size_t)t->nr_sets * t->ways * sizeof(*t->slot));
	t->count = 0;
	t->epoch = 1;
	t->dense = NULL;
	t->dense_mms = 0;
	t->dense_pages = 0;
	t->victim = 0x243f6a8885a308d3ULL;
	t->qemu = NULL;
	t->tags = NULL;
	t->tags_cpu = 0;
	t->blind_uses = NULL;
	return t->slot ? 0 : -1;
}

int tlb_init(struct tlb *t, uint32_t capacity)
{
	/* Cache-line aligned: a set of TLB_WAYS is two whole lines. */
	struct tlb_slot *slots = aligned_alloc(64, tlb_bytes_for(capacity));
	int ret = tlb_init_at(t, capacity, slots);

	t->own_slot = slots != NULL;
	return ret;
}

void tlb_attach_tags(struct tlb *t, struct tlb_tags *tags, uint32_t cpu)
{
	t->tags = tags;
	t->tags_cpu = cpu;
	tags->epoch[cpu] = (uint8_t)(t->epoch & 0xf);
}

void tlb_make_blind(struct tlb *t, uint64_t *uses)
{
	t->blind_uses = uses;
}

/* A blind TLB's use: counted, then done as usual. */
static void note_use(const struct tlb *t)
{
	if (t->blind_uses)
		++*t->blind_uses;
}

/* The index's tag of way @way of @key's set. */
static uint16_t *tag_of(const struct tlb *t, uint64_t key, uint32_t way)
{
	const struct tlb_tags *x = t->tags;

	return &x->tag[((size_t)tlb_set_index(t, key) * x->nr_cpus + t->tags_cpu) *
		       TLB_WAYS + way];
}

void tlb_free(struct tlb *t)
{
	if (t->own_slot)
		free(t->slot);
	free(t->dense);
	tlb_qemu_free(t);
	t->slot = NULL;
	t->dense = NULL;
}

uint32_t tlb_capacity(const struct tlb *t)
{
	return t->nr_sets * t->ways;
}

bool tlb_lookup(const struct tlb *t, uint64_t key, uint32_t *frame_gen)
{
	const struct tlb_slot *set;
	uint32_t w;

	note_use(t);

	if (t->dense) {
		const struct tlb_dense_entry *e = tlb_dense_of(t, key);

		if (e) {
			if (e->epoch != t->epoch)
				return false;
			if (frame_gen)
				*frame_gen = e->frame_gen;
			return true;
		}
	}
	set = tlb_set_of(t, key);
	for (w = 0; w < t->ways; w++) {
		if (set[w].key == key && set[w].epoch == t->epoch) {
			if (frame_gen)
				*frame_gen = set[w].frame_gen;
			return true;
		}
	}
	return false;
}

bool tlb_insert(struct tlb *t, uint64_t key, uint32_t frame_gen)
{
	struct tlb_slot *set, *free_way = NULL;
	uint32_t w;

	note_use(t);

	if (t->dense) {
		struct tlb_dense_entry *e = tlb_dense_of(t, key);

		if (e) {
			bool was_live = e->epoch == t->epoch;

			t->count += !was_live;
			e->epoch = t->epoch;
			e->frame_gen = frame_gen;
			if (t->qemu)
				tlb_qemu_fill(t, key, was_live);
			return was_live;
		}
	}
	set = tlb_set_of(t, key);
	for (w = 0; w < t->ways; w++) {
		if (!live(t, &set[w])) {
			if (!free_way)
				free_way = &set[w];
		} else if (set[w].key == key) {
			set[w].frame_gen = frame_gen;
			return true;
		}
	}
	if (!free_way && t->ways) {
		/* Pseudo-random replacement within the set. */
		t->victim = t->victim * 6364136223846793005ULL + 1442695040888963407ULL;
		free_way = &set[(t->victim >> 33) % t->ways];
		t->count--;
	}
	if (!free_way)
		return false;
	free_way->key = key;
	free_way->frame_gen = frame_gen;
	free_way->epoch = t->epoch;
	t->count++;
	if (t->tags)
		*tag_of(t, key, (uint32_t)(free_way - set)) =
			tlb_tag(tlb_tag_hash(key), t->epoch);
	return false;
}

bool tlb_remove(struct tlb *t, uint64_t key)
{
	struct tlb_slot *set;
	uint32_t w;

	note_use(t);

	if (t->dense) {
		struct tlb_dense_entry *e = tlb_dense_of(t, key);

		if (e) {
			if (e->epoch != t->epoch)
				return false;
			if (t->qemu)
				tlb_qemu_drop(t, key);
			e->epoch = 0;
			t->count--;
			return true;
		}
	}
	set = tlb_set_of(t, key);
	for (w = 0; w < t->ways; w++) {
		if (set[w].key == key && set[w].epoch == t->epoch) {
			set[w].key = 0;
			t->count--;
			/* A stale tag would only cost a lookup; clearing it
			 * saves that one. */
			if (t->tags)
				*tag_of(t, key, w) = 0;
			return true;
		}
	}
	return false;
}

uint32_t tlb_flush_all(struct tlb *t)
{
	uint32_t had = t->count;

	note_use(t);

	if (t->qemu)
		tlb_qemu_flush(t);
	if (++t->epoch == 0) {
		/* Wrapped: an old entry could alias the new epoch. */
		memset(t->slot, 0, (size_t)t->nr_sets * t->ways * sizeof(*t->slot));
		if (t->dense)
			memset(t->dense, 0, (size_t)t->dense_mms * t->dense_pages * sizeof(*t->dense));
		if (t->qemu)
			tlb_qemu_epoch_wrapped(t);
		t->epoch = 1;
	}
	if (t->tags)
		t->tags->epoch[t->tags_cpu] = (uint8_t)(t->epoch & 0xf);
	t->count = 0;
	return had;
}

uint32_t tlb_flush_mm(struct tlb *t, uint32_t mm_id)
{
	uint32_t i, removed = 0, n = t->nr_sets * t->ways;
	uint64_t v;

	note_use(t);

	for (v = 0; t->dense && mm_id >= 1 && mm_id <= t->dense_mms && v < t->dense_pages; v++) {
		struct tlb_dense_entry *e = &t->dense[(mm_id - 1) * t->dense_pages + v];

		if (e->epoch == t->epoch) {
			e->epoch = 0;
			removed++;
		}
	}
	for (i = 0; i < n; i++) {
		if (live(t, &t->slot[i]) && tlb_key_mm(t->slot[i].key) == mm_id) {
			t->slot[i].key = 0;
			removed++;
		}
	}
	t->count -= removed;
	if (t->qemu)
		tlb_qemu_recount(t);
	return removed;
}

uint32_t tlb_drop_stale(struct tlb *t, tlb_stale_fn *stale, void *ctx)
{
	uint32_t i, removed = 0, n = t->nr_sets * t->ways;
	uint64_t mm, v;

	for (mm = 1; t->dense && mm <= t->dense_mms; mm++)
		for (v = 0; v < t->dense_pages; v++) {
			const struct tlb_dense_entry *e = &t->dense[(mm - 1) * t->dense_pages + v];
			uint64_t key = tlb_key((uint32_t)mm, v);

			if (e->epoch == t->epoch && stale(ctx, key, e->frame_gen))
				removed += tlb_remove(t, key);
		}
	for (i = 0; i < n; i++) {
		const struct tlb_slot *e = &t->slot[i];

		if (live(t, e) && stale(ctx, e->key, e->frame_gen))
			removed += tlb_remove(t, e->key);
	}
	return removed;
}

uint64_t tlb_bytes(const struct tlb *t)
{
	return (uint64_t)t->nr_sets * t->ways * sizeof(*t->slot) +
	       (uint64_t)t->dense_mms * t->dense_pages * sizeof(*t->dense) +
	       (t->qemu ? sizeof(*t->qemu) + (uint64_t)t->qemu->max_size * sizeof(*t->qemu->slot) : 0);
}
