// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Random operation sequences on a batch and two mms' flush state, checked
 * after every step against a deliberately simple reference model: a list
 * of the entries queued and not yet covered by a successful flush.
 *
 * Invariants:
 * - the batch owes a flush exactly when the model has uncovered entries,
 *   and is writable exactly when one of them was dirty;
 * - every flush request covers every uncovered entry (CPUs and range, or
 *   full), and is full after a failed add_pending or across two mms;
 * - an mm reports a deferred flush outstanding from the first queued entry
 *   until a drain's flush_mm has succeeded;
 * - a rejected call changes nothing and calls no op; a failing op loses no
 *   flush.
 */
#include <errno.h>
#include <string.h>
#include <tlbpolicy/tlbpolicy.h>
#include "fuzz_input.h"

#define NR_CPUS 130
#define WORDS TLBP_CPUSET_WORDS(NR_CPUS)
#define NR_MMS 2
#define MAX_REF 512
#define PAGE 4096ULL

struct ref_entry {
	unsigned int mm;
	uint64_t start, end;
	unsigned long cpus[WORDS];
	bool dirty;
};

static struct {
	struct ref_entry e[MAX_REF];
	unsigned int n;
	bool add_failed;
	bool mm_outstanding[NR_MMS];
	int flush_pending[NR_MMS];
} ref;

static struct tlbp_batch batch;
static unsigned long batch_bits[WORDS];
static struct tlbp_mm mms[NR_MMS];
static struct tlbp_cpuset mm_cpus[NR_MMS];
static unsigned long mm_bits[NR_MMS][WORDS];
static int fail_next_flush, fail_next_flush_mm, fail_next_add;
static unsigned int op_calls;

static int mm_index(const struct tlbp_mm *m)
{
	return m == &mms[0] ? 0 : m == &mms[1] ? 1 : -1;
}

static int op_flush(void *ctx, const struct tlbp_flush_req *req)
{
	unsigned int i, w, mm_seen = 0;

	(void)ctx;
	op_calls++;
	if (fail_next_flush) {
		int err = fail_next_flush;

		fail_next_flush = 0;
		return err;
	}
	FUZZ_REQUIRE(ref.n > 0);
	for (i = 0; i < ref.n; i++) {
		const struct ref_entry *e = &ref.e[i];

		for (w = 0; w < WORDS; w++)
			FUZZ_REQUIRE((e->cpus[w] & ~req->cpus->bits[w]) == 0);
		mm_seen |= 1U << e->mm;
		if (!req->full) {
			FUZZ_REQUIRE(mm_index(req->mm) == (int)e->mm);
			FUZZ_REQUIRE(req->start <= e->start && e->end <= req->end);
		}
		if (e->dirty)
			FUZZ_REQUIRE(req->writable);
	}
	if (ref.add_failed || mm_seen == 3)
		FUZZ_REQUIRE(req->full);
	FUZZ_REQUIRE(req->unmapped);
	ref.n = 0;
	ref.add_failed = false;
	return 0;
}

static int op_flush_mm(void *ctx, struct tlbp_mm *m)
{
	int idx = mm_index(m);

	(void)ctx;
	op_calls++;
	FUZZ_REQUIRE(idx >= 0);
	if (fail_next_flush_mm) {
		int err = fail_next_flush_mm;

		fail_next_flush_mm = 0;
		return err;
	}
	/* A deferral recorded before this drain read the word is covered. */
	ref.mm_outstanding[idx] = false;
	return 0;
}

static int op_add_pending(void *ctx, struct tlbp_mm *m, uint64_t s, uint64_t e)
{
	(void)ctx;
	(void)m;
	(void)s;
	(void)e;
	op_calls++;
	if (fail_next_add) {
		int err = fail_next_add;

		fail_next_add = 0;
		return err;
	}
	return 0;
}

static const struct tlbp_flush_ops ops = {
	.flush = op_flush, .flush_mm = op_flush_mm, .add_pending = op_add_pending,
};

static void check_state(void)
{
	unsigned int i;
	bool dirty = false;

	for (i = 0; i < ref.n; i++)
		dirty |= ref.e[i].dirty;
	FUZZ_REQUIRE(tlbp_batch_flush_required(&batch) == (ref.n > 0));
	FUZZ_REQUIRE(tlbp_batch_writable(&batch) == dirty);
	for (i = 0; i < NR_MMS; i++) {
		/* Outstanding in the model implies outstanding in the word. */
		if (ref.mm_outstanding[i])
			FUZZ_REQUIRE(tlbp_mm_batched_pending(&mms[i]));
		FUZZ_REQUIRE(tlbp_mm_flush_pending(&mms[i]) == (ref.flush_pending[i] > 0));
	}
}

/* Field by field: a rejected call must leave every one alone. */
static bool same_batch(const struct tlbp_batch *a, const struct tlbp_batch *b)
{
	return a->mm == b->mm && a->start == b->start && a->end == b->end &&
	       a->flush_required == b->flush_required && a->writable == b->writable &&
	       a->multi_mm == b->multi_mm && a->add_failed == b->add_failed &&
	       !memcmp(a->cpus.bits, b->cpus.bits, sizeof(batch_bits));
}

static void do_add(struct fuzz_input *in)
{
	unsigned int m = fuzz_u8(in) % NR_MMS, flags = fuzz_u8(in) & 0x0f;
	uint64_t first = fuzz_u8(in), len = fuzz_u8(in) % 40;
	uint64_t start = first * PAGE, end = (first + len) * PAGE;
	bool valid, accessible;
	struct tlbp_batch before = batch;
	unsigned long before_bits[WORDS];
	int before_gen = tlbp_mm_batched_gen(&mms[m]), err;
	unsigned int calls = op_calls;

	memcpy(before_bits, batch_bits, sizeof(batch_bits));
	before.cpus.bits = before_bits;
	if (fuzz_u8(in) == 0xff)
		start += 8; /* unaligned */
	if (fuzz_u8(in) == 1)
		fail_next_add = -EBUSY;
	valid = !(flags & ~7U) && start < end && !(start % PAGE);
	accessible = (flags & TLBP_PTE_PRESENT) ||
		     ((flags & TLBP_PTE_PROTNONE) && ref.flush_pending[m] > 0);
	err = tlbp_batch_add_pending(&batch, &mms[m], &mm_cpus[m], flags, start, end, NULL);
	if (!valid) {
		FUZZ_REQUIRE(err == -EINVAL);
		FUZZ_REQUIRE(same_batch(&before, &batch));
		FUZZ_REQUIRE(tlbp_mm_batched_gen(&mms[m]) == before_gen);
		FUZZ_REQUIRE(op_calls == calls);
		fail_next_add = 0;
		return;
	}
	if (!accessible) {
		FUZZ_REQUIRE(err == 0 && op_calls == calls);
		FUZZ_REQUIRE(same_batch(&before, &batch));
		fail_next_add = 0;
		return;
	}
	/* Queued whatever add_pending returned: the PTE is already gone. */
	if (ref.n < MAX_REF) {
		struct ref_entry *e = &ref.e[ref.n++];

		e->mm = m;
		e->start = start;
		e->end = end;
		e->dirty = flags & TLBP_PTE_DIRTY;
		memcpy(e->cpus, mm_bits[m], sizeof(e->cpus));
	}
	if (err)
		ref.add_failed = true;
	ref.mm_outstanding[m] = true;
	FUZZ_REQUIRE(err == 0 || err == -EBUSY);
}

static void do_flush(struct fuzz_input *in, bool dirty_only)
{
	unsigned int calls = op_calls, n = ref.n;
	bool dirty = false;
	int err;

	for (unsigned int i = 0; i < ref.n; i++)
		dirty |= ref.e[i].dirty;
	if (fuzz_u8(in) == 1)
		fail_next_flush = -EAGAIN;
	err = dirty_only ? tlbp_batch_flush_dirty(&batch, NULL) : tlbp_batch_flush(&batch, NULL);
	if (!n || (dirty_only && !dirty)) {
		FUZZ_REQUIRE(err == 0 && op_calls == calls);
		fail_next_flush = 0;
		return;
	}
	FUZZ_REQUIRE(op_calls == calls + 1);
	FUZZ_REQUIRE(err == 0 || (err == -EAGAIN && ref.n == n));
}

static void do_drain(struct fuzz_input *in)
{
	unsigned int m = fuzz_u8(in) % NR_MMS;
	bool was = tlbp_mm_batched_pending(&mms[m]), flushed;
	int err;

	if (fuzz_u8(in) == 1)
		fail_next_flush_mm = -EIO;
	err = tlbp_mm_flush_batched_pending(&mms[m], &flushed);
	FUZZ_REQUIRE(flushed == (was && !err));
	if (err) {
		FUZZ_REQUIRE(err == -EIO && tlbp_mm_batched_pending(&mms[m]));
	} else {
		FUZZ_REQUIRE(!tlbp_mm_batched_pending(&mms[m]));
	}
	fail_next_flush_mm = 0;
}

static void do_pending(struct fuzz_input *in, bool inc)
{
	unsigned int m = fuzz_u8(in) % NR_MMS;
	int err;

	if (inc) {
		if (ref.flush_pending[m] < 8) {
			FUZZ_REQUIRE(tlbp_mm_inc_flush_pending(&mms[m]) == 0);
			ref.flush_pending[m]++;
		}
		return;
	}
	err = tlbp_mm_dec_flush_pending(&mms[m]);
	if (ref.flush_pending[m] == 0) {
		FUZZ_REQUIRE(err == -EINVAL);
	} else {
		FUZZ_REQUIRE(err == 0);
		ref.flush_pending[m]--;
	}
}

static void do_defer(struct fuzz_input *in)
{
	unsigned int m = fuzz_u8(in) % NR_MMS, cpu = fuzz_u16(in) % (NR_CPUS + 4);
	struct tlbp_defer_decision d = { .defer = true, .reason = 77 };
	bool requested = fuzz_bool(in), remote = false;
	int err = tlbp_batch_should_defer(&batch, &mm_cpus[m], cpu, requested, &d);
	unsigned int c;

	if (cpu >= NR_CPUS) {
		FUZZ_REQUIRE(err == -EINVAL && d.reason == 77);
		return;
	}
	for (c = 0; c < NR_CPUS; c++)
		remote |= c != cpu && tlbp_cpuset_test(&mm_cpus[m], c);
	FUZZ_REQUIRE(err == 0 && d.defer == (requested && remote));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fuzz_input in = { data, len, 0 };
	struct tlbp_batch_config cfg;
	unsigned int i;

	memset(&ref, 0, sizeof(ref));
	fail_next_flush = fail_next_flush_mm = fail_next_add = 0;
	tlbp_batch_config_default(&cfg, NR_CPUS);
	cfg.flush_ceiling = fuzz_u8(&in) % 64;
	if (tlbp_batch_init(&batch, &cfg, &ops, NULL, batch_bits, sizeof(batch_bits)))
		abort();
	for (i = 0; i < NR_MMS; i++) {
		if (tlbp_mm_init(&mms[i], &ops, NULL) ||
		    tlbp_cpuset_init(&mm_cpus[i], mm_bits[i], sizeof(mm_bits[i]), NR_CPUS))
			abort();
	}
	while (fuzz_more(&in)) {
		unsigned int m, c;

		switch (fuzz_u8(&in) % 10) {
		case 0:
		case 1:
			m = fuzz_u8(&in) % NR_MMS;
			c = fuzz_u16(&in) % NR_CPUS;
			if (fuzz_bool(&in))
				tlbp_cpuset_set(&mm_cpus[m], c);
			else
				tlbp_cpuset_clear(&mm_cpus[m], c);
			break;
		case 2:
		case 3:
			do_add(&in);
			break;
		case 4:
			do_flush(&in, false);
			break;
		case 5:
			do_flush(&in, true);
			break;
		case 6:
			do_drain(&in);
			break;
		case 7:
			do_pending(&in, true);
			break;
		case 8:
			do_pending(&in, false);
			break;
		default:
			do_defer(&in);
			break;
		}
		check_state();
	}
	return 0;
}
