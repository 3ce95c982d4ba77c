// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The machine-wide TLB tag index; see tlb_tags.h. */
#include <stdlib.h>
#include <string.h>
#include "hugemem.h"
#include "tlb.h"
#include "tlb_tags.h"

#define LANES 0x0001000100010001ULL
#define HIGH_BITS 0x8000800080008000ULL

int tlb_tags_init(struct tlb_tags *x, uint32_t nr_cpus, const struct tlb *geometry)
{
	x->nr_cpus = nr_cpus;
	x->nr_sets = geometry->nr_sets;
	x->set_shift = geometry->set_shift;
	x->tag = huge_zalloc((size_t)x->nr_sets * nr_cpus * TLB_WAYS * sizeof(*x->tag));
	x->epoch = calloc(nr_cpus ? nr_cpus : 1, sizeof(*x->epoch));
	if (!x->tag || !x->epoch) {
		tlb_tags_free(x);
		return -1;
	}
	return 0;
}

void tlb_tags_free(struct tlb_tags *x)
{
	free(x->tag);
	free(x->epoch);
	x->tag = NULL;
	x->epoch = NULL;
}

/* Whether one of the four 16-bit lanes of @v is zero. */
static uint64_t has_zero_lane(uint64_t v)
{
	return (v - LANES) & ~v & HIGH_BITS;
}

uint32_t tlb_tags_next(const struct tlb_tags *x, uint64_t key, uint32_t from)
{
	const struct tlb shape = { .nr_sets = x->nr_sets, .set_shift = x->set_shift };
	uint16_t fp = tlb_tag_hash(key);
	const uint16_t *row = x->tag + (size_t)tlb_set_index(&shape, key) * x->nr_cpus * TLB_WAYS;
	uint32_t cpu;

	for (cpu = from; cpu < x->nr_cpus; cpu++) {
		uint64_t want = (uint64_t)tlb_tag(fp, x->epoch[cpu]) * LANES, w[TLB_WAYS / 4];
		unsigned int i;

		memcpy(w, row + (size_t)cpu * TLB_WAYS, sizeof(w));
		for (i = 0; i < TLB_WAYS / 4; i++)
			if (has_zero_lane(w[i] ^ want))
				return cpu;
	}
	return x->nr_cpus;
}

uint64_t tlb_tags_bytes(const struct tlb_tags *x)
{
	return (uint64_t)x->nr_sets * x->nr_cpus * TLB_WAYS * sizeof(*x->tag) + x->nr_cpus;
}
