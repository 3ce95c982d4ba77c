// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "vectors/tv.h"
#include "fake_ops.h"

void fake_ops_reset(struct fake_ops *f)
{
	memset(f, 0, sizeof(*f));
}

void fake_ops_fail(struct fake_ops *f, enum fake_call call, int err,
		   unsigned int count)
{
	f->fail_err[call] = err;
	f->fail_count[call] = count;
}

static struct fake_record *fake_record(struct fake_ops *f, enum fake_call call)
{
	static struct fake_record overflow;
	struct fake_record *r = &overflow;

	if (f->nr_calls < FAKE_LOG_MAX)
		r = &f->log[f->nr_calls];
	memset(r, 0, sizeof(*r));
	r->call = call;
	f->nr_calls++;
	f->nr[call]++;
	return r;
}

static int fake_result(struct fake_ops *f, enum fake_call call)
{
	if (!f->fail_count[call])
		return 0;
	f->fail_count[call]--;
	return f->fail_err[call];
}

static int fake_flush(void *ctx, const struct tlbp_flush_req *req)
{
	struct fake_ops *f = ctx;
	struct fake_record *r = fake_record(f, FAKE_FLUSH);

	r->mm = req->mm;
	r->had_mm = req->mm != NULL;
	r->start = req->start;
	r->end = req->end;
	r->nr_pages = req->nr_pages;
	r->full = req->full;
	r->unmapped = req->unmapped;
	r->writable = req->writable;
	r->cpu_weight = tlbp_cpuset_weight(req->cpus);
	r->first_cpu = tlbp_cpuset_next(req->cpus, 0);
	return fake_result(f, FAKE_FLUSH);
}

static int fake_flush_mm(void *ctx, struct tlbp_mm *mm)
{
	struct fake_ops *f = ctx;
	struct fake_record *r = fake_record(f, FAKE_FLUSH_MM);
	void (*during)(void *) = f->during_flush_mm;

	r->mm = mm;
	if (during) {
		f->during_flush_mm = NULL;
		during(f->during_arg);
	}
	return fake_result(f, FAKE_FLUSH_MM);
}

static int fake_add_pending(void *ctx, struct tlbp_mm *mm, uint64_t start,
			    uint64_t end)
{
	struct fake_ops *f = ctx;
	struct fake_record *r = fake_record(f, FAKE_ADD_PENDING);

	r->mm = mm;
	r->start = start;
	r->end = end;
	return fake_result(f, FAKE_ADD_PENDING);
}

const struct tlbp_flush_ops fake_flush_ops = {
	.flush = fake_flush,
	.flush_mm = fake_flush_mm,
	.add_pending = fake_add_pending,
};

const struct tlbp_flush_ops fake_flush_ops_no_add = {
	.flush = fake_flush,
	.flush_mm = fake_flush_mm,
};
