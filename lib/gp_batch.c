// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Batched grace-period work: one sync per batch instead of one per item,
 * one flush at the end, pages freed only after the flush that covers them.
 */
#include <tlbpolicy/gp_batch.h>

struct gp_run {
	const struct tlbp_gp_batch *g;
	struct tlbp_gp_result *res;
	bool synced;     /* a grace period has passed since the run started */
	bool owes_flush; /* some item's work has not been flushed yet */
};

int tlbp_gp_batch_init(struct tlbp_gp_batch *g, enum tlbp_gp_policy policy,
		       enum tlbp_gp_on_error on_error,
		       const struct tlbp_gp_ops *ops, void *ctx)
{
	if (!g || !ops || !ops->needs_work || !ops->process || !ops->sync ||
	    !ops->flush || (ops->nr_pending_free && !ops->free_pending) ||
	    (unsigned int)policy >= TLBP_GP_POLICY_NR ||
	    (unsigned int)on_error >= TLBP_GP_ON_ERROR_NR)
		return -TLBP_EINVAL;
	g->ops = ops;
	g->ctx = ctx;
	g->policy = policy;
	g->on_error = on_error;
	return 0;
}

static bool pages_pending(const struct gp_run *r)
{
	const struct tlbp_gp_ops *ops = r->g->ops;

	return ops->nr_pending_free && ops->nr_pending_free(r->g->ctx) > 0;
}

/* Flush, then (and only then) free what the flush covered. */
static int flush_and_free(struct gp_run *r)
{
	int err = r->g->ops->flush(r->g->ctx);

	if (err)
		return err;
	r->res->flushes++;
	r->owes_flush = false;
	if (pages_pending(r))
		r->g->ops->free_pending(r->g->ctx);
	return 0;
}

static int sync_once(struct gp_run *r)
{
	int err;

	if (r->synced && r->g->policy == TLBP_GP_BATCHED)
		return 0;
	err = r->g->ops->sync(r->g->ctx);
	if (err)
		return err;
	r->res->syncs++;
	r->synced = true;
	return 0;
}

/*
 * One item's work. Under CONTINUE, an out-of-memory failure while freed
 * pages wait for a flush is worth one retry: the flush lets them be freed.
 */
static int process_item(struct gp_run *r, unsigned int idx, int *flush_err)
{
	const struct tlbp_gp_batch *g = r->g;
	int err;

	err = g->ops->process(g->ctx, idx);
	if (err == -TLBP_ENOMEM && g->on_error == TLBP_GP_CONTINUE &&
	    pages_pending(r)) {
		*flush_err = flush_and_free(r);
		if (*flush_err)
			return err;
		r->res->retries++;
		err = g->ops->process(g->ctx, idx);
	}
	/*
	 * A failed item leaves no mapping for the flush to cover (restore
	 * remapped nothing; optimize's own failure path flushed), so only a
	 * completed item, or pages waiting to be freed, owe one: 6.12 flushes
	 * a restore batch only if some folio was restored.
	 */
	if (!err || pages_pending(r))
		r->owes_flush = true;
	return err;
}

static void record_error(struct tlbp_gp_result *res, int err, unsigned int idx)
{
	if (res->first_error)
		return;
	res->first_error = err;
	res->first_error_item = idx;
}

int tlbp_gp_batch_run(const struct tlbp_gp_batch *g, unsigned int nr_items,
		      struct tlbp_gp_result *res)
{
	struct gp_run r = { .g = g, .res = res };
	unsigned int idx;
	int err, ret = 0, flush_err = 0;

	if (!g || !res)
		return -TLBP_EINVAL;
	*res = (struct tlbp_gp_result){ 0 };

	for (idx = 0; idx < nr_items; idx++) {
		if (!g->ops->needs_work(g->ctx, idx)) {
			res->not_needed++;
			continue;
		}
		ret = sync_once(&r);
		if (ret) {
			/* Unprotected work must not start: hand the rest back. */
			res->handed_back = nr_items - idx;
			break;
		}
		err = process_item(&r, idx, &flush_err);
		if (!flush_err && g->policy == TLBP_GP_PER_ITEM && r.owes_flush)
			flush_err = flush_and_free(&r);
		if (flush_err) {
			res->handed_back = nr_items - idx - 1;
			return flush_err;
		}
		if (!err) {
			res->done++;
			continue;
		}
		record_error(res, err, idx);
		if (g->on_error == TLBP_GP_STOP) {
			res->handed_back = nr_items - idx;
			break;
		}
		res->failed++;
	}

	if (r.owes_flush) {
		flush_err = flush_and_free(&r);
		if (flush_err)
			return flush_err;
	}
	return ret ? ret : res->first_error;
}
