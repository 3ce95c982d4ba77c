// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdlib.h>
#include "grow.h"
#include "sim.h"
#include "timeline.h"

#define TIMELINE_STEP_NS 10000000ull /* 10 ms: a scan pass spans many */
#define TIMELINE_MAX_SAMPLES 20000

uint64_t timeline_interval(uint64_t duration_ns)
{
	uint64_t every = duration_ns / TIMELINE_MAX_SAMPLES;

	return every > TIMELINE_STEP_NS ? every : TIMELINE_STEP_NS;
}

void timeline_sample(void *ctx, const struct sim *s, uint64_t at)
{
	struct timeline *tl = ctx;
	struct timeline_sample *x;
	void *arr = tl->v;
	unsigned int i;

	if (grow_for_one(&arr, &tl->cap, tl->len, sizeof(*tl->v), 1024)) {
		tl->oom = true;
		return;
	}
	tl->v = arr;
	x = &tl->v[tl->len++];
	*x = (struct timeline_sample){
		.at_ns = at,
		.tlb_irqs = s->st.tlb_irqs_received - tl->irqs,
		.migrations = s->st.migrated_pages - tl->migrations,
		.pending_migrations = s->st.migrations_with_flush_pending - tl->pending_migrations,
		.pass_ns = s->st.scan_pass_ns_total - tl->pass_ns,
	};
	x->flush_pending = x->pending_migrations > 0;
	tl->irqs = s->st.tlb_irqs_received;
	tl->migrations = s->st.migrated_pages;
	tl->pending_migrations = s->st.migrations_with_flush_pending;
	tl->pass_ns = s->st.scan_pass_ns_total;
	for (i = 0; i < s->nr_mms; i++) {
		x->in_pass |= s->mm[i].nr_calls > 0;
		x->flush_pending |= tlbp_mm_flush_pending(&s->mm[i].flush);
	}
}

void timeline_free(struct timeline *tl)
{
	free(tl->v);
	tl->v = NULL;
	tl->len = tl->cap = 0;
}
