/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A run over virtual time: what the engine's tick hook sees at the end of
 * each interval (TLB interrupts, migrations, scan passes, the mm's
 * tlb_flush_pending), kept for run --timeline's picture.
 */
#ifndef TLBSIM_TIMELINE_H
#define TLBSIM_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;

struct timeline_sample {
	uint64_t at_ns;            /* end of the interval */
	uint64_t tlb_irqs;         /* received during the interval */
	uint64_t migrations;       /* pages migrated during the interval */
	uint64_t pending_migrations; /* migrations that saw tlb_flush_pending */
	/* Length of the scan passes that ended in the interval: passes are
	 * a period apart, so this is one pass, which began this long before
	 * it ended (a pass often fits inside one interval). */
	uint64_t pass_ns;
	bool in_pass;              /* a scan pass was running at the end */
	/* tlb_flush_pending was raised at the end, or a migration in the
	 * interval found it raised */
	bool flush_pending;
};

struct timeline {
	uint64_t every_ns;
	struct timeline_sample *v;
	size_t len, cap;
	bool oom;                  /* a sample was lost: the picture is incomplete */
	/* the counters at the previous sample */
	uint64_t irqs, migrations, pending_migrations, pass_ns;
};

/* The interval for a run of @duration_ns: 10 ms, longer for runs so long
 * that the picture would hold more than 20000 samples. */
uint64_t timeline_interval(uint64_t duration_ns);
/* The engine's tick hook (struct sim_tick.fn); @ctx is a struct timeline. */
void timeline_sample(void *ctx, const struct sim *s, uint64_t at);
void timeline_free(struct timeline *tl);

#endif
