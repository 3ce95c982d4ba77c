// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * gp-batch-demo: demote one 1 GiB HugeTLB page into 512 x 2 MiB pages with
 * HVO on: restore the 1 GiB page's vmemmap (one item, stop on error), then
 * optimize the 512 new folios (continue on error). Per-item against
 * batched grace periods, and a failure injected at item k.
 *
 * Usage: gp-batch-demo [FAIL_AT_ITEM]
 */
#include <stdio.h>
#include <stdlib.h>
#include <tlbpolicy/gp_batch.h>

struct vmemmap {
	long fail_at;                /* optimize item that fails once, or -1 */
	unsigned long pending_pages; /* freed vmemmap pages awaiting a flush */
	unsigned long freed_pages;
};

static bool op_needs_work(void *ctx, unsigned int idx)
{
	(void)ctx;
	(void)idx;
	return true; /* every folio is HVO-optimised */
}

static int op_restore(void *ctx, unsigned int idx)
{
	(void)ctx;
	(void)idx;
	return 0;
}

static int op_optimize(void *ctx, unsigned int idx)
{
	struct vmemmap *v = ctx;

	if ((long)idx == v->fail_at) {
		v->fail_at = -1; /* fails once */
		return -12;      /* -ENOMEM: retried if freeing pages may help */
	}
	v->pending_pages += 7; /* a 2 MiB folio frees 7 of its 8 vmemmap pages */
	return 0;
}

static int op_sync(void *ctx) { (void)ctx; return 0; }
static int op_flush(void *ctx) { (void)ctx; return 0; }

static unsigned long op_nr_pending(void *ctx)
{
	return ((struct vmemmap *)ctx)->pending_pages;
}

static void op_free_pending(void *ctx)
{
	struct vmemmap *v = ctx;

	v->freed_pages += v->pending_pages;
	v->pending_pages = 0;
}

static const struct tlbp_gp_ops restore_ops = {
	.needs_work = op_needs_work, .process = op_restore,
	.sync = op_sync, .flush = op_flush,
};
static const struct tlbp_gp_ops optimize_ops = {
	.needs_work = op_needs_work, .process = op_optimize,
	.sync = op_sync, .flush = op_flush,
	.nr_pending_free = op_nr_pending, .free_pending = op_free_pending,
};

int main(int argc, char **argv)
{
	static const char *const names[] = { "per-item", "batched" };
	long fail_at = argc > 1 ? strtol(argv[1], NULL, 10) : -1;
	unsigned int p;

	if (fail_at < -1 || fail_at >= 512) {
		fprintf(stderr, "gp-batch-demo: FAIL_AT_ITEM must be 0..511\n");
		return 2;
	}
	printf("%-9s %6s %8s %6s %7s %8s %12s\n", "policy", "syncs", "flushes",
	       "done", "failed", "retries", "pages freed");
	for (p = 0; p < TLBP_GP_POLICY_NR; p++) {
		struct vmemmap v = { .fail_at = fail_at };
		struct tlbp_gp_result restore, optimize;
		struct tlbp_gp_batch g;

		if (tlbp_gp_batch_init(&g, p, TLBP_GP_STOP, &restore_ops, &v) ||
		    tlbp_gp_batch_run(&g, 1, &restore) ||
		    tlbp_gp_batch_init(&g, p, TLBP_GP_CONTINUE, &optimize_ops, &v)) {
			fprintf(stderr, "gp-batch-demo: set-up failed\n");
			return 1;
		}
		/* A failed item is reported in the result; the run goes on. */
		tlbp_gp_batch_run(&g, 512, &optimize);
		printf("%-9s %6u %8u %6u %7u %8u %12lu\n", names[p],
		       restore.syncs + optimize.syncs,
		       restore.flushes + optimize.flushes,
		       optimize.done, optimize.failed, optimize.retries,
		       v.freed_pages);
	}
	return 0;
}
