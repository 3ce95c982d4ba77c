// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/batch.h>
#include <tlbpolicy/arch.h>
#include <tlbpolicy/fastpath.h>
#include "fake_ops.h"

#define PAGE 4096ULL
#define MAXW TLBP_CPUSET_WORDS(TLBP_CPUSET_MAX_CPUS)

static struct fake_ops fake;
static struct tlbp_batch batch;
static unsigned long batch_words[MAXW];
static struct tlbp_mm mm, mm2;
static unsigned long mm_words[MAXW];
static struct tlbp_cpuset mm_cpus;

static void make_batch(unsigned int nr_cpus, unsigned int ceiling,
		       enum tlbp_defer_policy defer,
		       const struct tlbp_flush_ops *ops)
{
	struct tlbp_batch_config cfg;

	ck_assert_int_eq(tlbp_batch_config_default(&cfg, nr_cpus), 0);
	cfg.flush_ceiling = ceiling;
	cfg.defer = defer;
	ck_assert_int_eq(tlbp_batch_init(&batch, &cfg, ops, &fake, batch_words,
					 sizeof(batch_words)), 0);
	ck_assert_int_eq(tlbp_cpuset_init(&mm_cpus, mm_words, sizeof(mm_words),
					  nr_cpus), 0);
}

static void setup(void)
{
	fake_ops_reset(&fake);
	ck_assert_int_eq(tlbp_mm_init(&mm, &fake_flush_ops, &fake), 0);
	ck_assert_int_eq(tlbp_mm_init(&mm2, &fake_flush_ops, &fake), 0);
	/* A ranged batch flush up to 33 pages, to pin the ceiling rule. */
	make_batch(64, 33, TLBP_DEFER_IF_REMOTE, &fake_flush_ops);
}

/* Queue [first, first + n) pages of @m, present, asserting it was queued. */
static void queue(struct tlbp_mm *m, uint64_t first, uint64_t n,
		  unsigned int flags)
{
	enum tlbp_add_reason why = TLBP_ADD_SKIP_INACCESSIBLE;

	ck_assert_int_eq(tlbp_batch_add_pending(&batch, m, &mm_cpus, flags,
						first * PAGE, (first + n) * PAGE,
						&why), 0);
	ck_assert_int_eq(why, TLBP_ADD_QUEUED);
}

/* A copy of everything a rejected call must leave alone. */
struct snapshot {
	struct tlbp_batch b;
	unsigned long words[MAXW];
	int gen;
	unsigned int calls;
};

static void take(struct snapshot *s)
{
	s->b = batch;
	memcpy(s->words, batch_words, sizeof(batch_words));
	s->gen = tlbp_mm_batched_gen(&mm);
	s->calls = fake.nr_calls;
}

/* Field by field: struct padding holds indeterminate bytes. */
static void assert_same_batch(const struct tlbp_batch *a,
			      const struct tlbp_batch *b)
{
	ck_assert_ptr_eq(a->ops, b->ops);
	ck_assert_ptr_eq(a->ctx, b->ctx);
	ck_assert_ptr_eq(a->cpus.bits, b->cpus.bits);
	ck_assert_uint_eq(a->cpus.nr_cpus, b->cpus.nr_cpus);
	ck_assert_ptr_eq(a->mm, b->mm);
	ck_assert_uint_eq(a->start, b->start);
	ck_assert_uint_eq(a->end, b->end);
	ck_assert_uint_eq(a->flush_ceiling, b->flush_ceiling);
	ck_assert_uint_eq(a->range_ceiling, b->range_ceiling);
	ck_assert_uint_eq(a->page_shift, b->page_shift);
	ck_assert_int_eq(a->defer, b->defer);
	ck_assert_int_eq(a->flush_required, b->flush_required);
	ck_assert_int_eq(a->writable, b->writable);
	ck_assert_int_eq(a->multi_mm, b->multi_mm);
	ck_assert_int_eq(a->add_failed, b->add_failed);
}

static void assert_unchanged(const struct snapshot *s)
{
	assert_same_batch(&s->b, &batch);
	ck_assert(memcmp(s->words, batch_words, sizeof(batch_words)) == 0);
	ck_assert_int_eq(s->gen, tlbp_mm_batched_gen(&mm));
	ck_assert_uint_eq(s->calls, fake.nr_calls);
}

/* --- init ---------------------------------------------------------------- */

TV_CASE(test_batch_config_default_values)
{
	struct tlbp_batch_config cfg;

	ck_assert_int_eq(tlbp_batch_config_default(NULL, 4), -EINVAL);
	ck_assert_int_eq(tlbp_batch_config_default(&cfg, 384), 0);
	ck_assert_uint_eq(cfg.nr_cpus, 384);
	/* x86: arch_tlbbatch_flush() flushes all; flush_tlb_mm_range() is
	 * ranged up to tlb_single_page_flush_ceiling. */
	ck_assert_uint_eq(cfg.flush_ceiling, 0);
	ck_assert_uint_eq(cfg.range_ceiling, 33);
	ck_assert_uint_eq(cfg.page_shift, 12);
	ck_assert_int_eq(cfg.defer, TLBP_DEFER_IF_REMOTE);
	ck_assert_uint_eq(tlbp_batch_cpus_size(384), 48);
	ck_assert_uint_eq(tlbp_batch_cpus_size(0), 0);
}

TV_CASE(test_batch_init_bad_input)
{
	struct tlbp_flush_ops no_flush = { .flush_mm = fake_flush_ops.flush_mm };
	struct tlbp_flush_ops no_flush_mm = { .flush = fake_flush_ops.flush };
	struct tlbp_batch_config cfg, bad;
	struct tlbp_batch b, before;
	unsigned long words[2] = { 0x1234, 0x5678 };

	memset(&b, 0xa5, sizeof(b));
	memcpy(&before, &b, sizeof(b));
	tlbp_batch_config_default(&cfg, 128);
	ck_assert_int_eq(tlbp_batch_init(NULL, &cfg, &fake_flush_ops, NULL, words, sizeof(words)), -EINVAL);
	ck_assert_int_eq(tlbp_batch_init(&b, NULL, &fake_flush_ops, NULL, words, sizeof(words)), -EINVAL);
	ck_assert_int_eq(tlbp_batch_init(&b, &cfg, NULL, NULL, words, sizeof(words)), -EINVAL);
	ck_assert_int_eq(tlbp_batch_init(&b, &cfg, &no_flush, NULL, words, sizeof(words)), -EINVAL);
	ck_assert_int_eq(tlbp_batch_init(&b, &cfg, &no_flush_mm, NULL, words, sizeof(words)), -EINVAL);
	ck_assert_int_eq(tlbp_batch_init(&b, &cfg, &fake_flush_ops, NULL, NULL, sizeof(words)), -EINVAL);
	ck_assert_int_eq(tlbp_batch_init(&b, &cfg, &fake_flush_ops, NULL, words, 8), -ENOSPC);
	bad = cfg; bad.nr_cpus = 0;
	ck_assert_int_eq(tlbp_batch_init(&b, &bad, &fake_flush_ops, NULL, words, sizeof(words)), -EINVAL);
	bad = cfg; bad.nr_cpus = TLBP_CPUSET_MAX_CPUS + 1;
	ck_assert_int_eq(tlbp_batch_init(&b, &bad, &fake_flush_ops, NULL, words, sizeof(words)), -E2BIG);
	bad = cfg; bad.page_shift = 11;
	ck_assert_int_eq(tlbp_batch_init(&b, &bad, &fake_flush_ops, NULL, words, sizeof(words)), -EINVAL);
	bad = cfg; bad.page_shift = 22;
	ck_assert_int_eq(tlbp_batch_init(&b, &bad, &fake_flush_ops, NULL, words, sizeof(words)), -EINVAL);
	bad = cfg; bad.defer = (enum tlbp_defer_policy)7;
	ck_assert_int_eq(tlbp_batch_init(&b, &bad, &fake_flush_ops, NULL, words, sizeof(words)), -EINVAL);
	ck_assert(memcmp(&b, &before, sizeof(b)) == 0);
	ck_assert_uint_eq(words[0], 0x1234);
	ck_assert_uint_eq(words[1], 0x5678);
}

TV_CASE(test_batch_init_starts_empty)
{
	ck_assert(!tlbp_batch_flush_required(&batch));
	ck_assert(!tlbp_batch_writable(&batch));
	ck_assert(tlbp_cpuset_empty(tlbp_batch_cpus(&batch)));
	ck_assert(!tlbp_batch_flush_required(NULL));
	ck_assert(!tlbp_batch_writable(NULL));
	ck_assert_ptr_null(tlbp_batch_cpus(NULL));
}

/* --- should_defer -------------------------------------------------------- */

static struct tlbp_defer_decision decide(unsigned int this_cpu, bool requested)
{
	struct tlbp_defer_decision d = { .defer = true, .reason = 99 };

	ck_assert_int_eq(tlbp_batch_should_defer(&batch, &mm_cpus, this_cpu,
						 requested, &d), 0);
	return d;
}

TV_CASE(test_batch_should_defer_not_requested)
{
	struct tlbp_defer_decision d;

	tlbp_cpuset_set(&mm_cpus, 5);
	d = decide(0, false);
	ck_assert(!d.defer);
	ck_assert_int_eq(d.reason, TLBP_DEFER_NOT_REQUESTED);
}

TV_CASE(test_batch_should_defer_mm_local)
{
	struct tlbp_defer_decision d;

	d = decide(3, true); /* mm live nowhere */
	ck_assert(!d.defer);
	ck_assert_int_eq(d.reason, TLBP_DEFER_MM_LOCAL);
	tlbp_cpuset_set(&mm_cpus, 3);
	d = decide(3, true); /* only here */
	ck_assert(!d.defer);
	ck_assert_int_eq(d.reason, TLBP_DEFER_MM_LOCAL);
}

TV_CASE(test_batch_should_defer_mm_remote)
{
	struct tlbp_defer_decision d;

	tlbp_cpuset_set(&mm_cpus, 3);
	tlbp_cpuset_set(&mm_cpus, 63);
	d = decide(3, true);
	ck_assert(d.defer);
	ck_assert_int_eq(d.reason, TLBP_DEFER_MM_REMOTE);
}

TV_CASE(test_batch_should_defer_policy_always)
{
	struct tlbp_defer_decision d;

	make_batch(64, 33, TLBP_DEFER_ALWAYS, &fake_flush_ops);
	d = decide(0, true);
	ck_assert(d.defer);
	ck_assert_int_eq(d.reason, TLBP_DEFER_POLICY_ALWAYS);
	d = decide(0, false);
	ck_assert(!d.defer);
}

TV_CASE(test_batch_should_defer_bad_input)
{
	struct tlbp_defer_decision d = { .defer = true, .reason = 42 };
	unsigned long big_words[3];
	struct tlbp_cpuset big;

	ck_assert_int_eq(tlbp_batch_should_defer(NULL, &mm_cpus, 0, true, &d), -EINVAL);
	ck_assert_int_eq(tlbp_batch_should_defer(&batch, NULL, 0, true, &d), -EINVAL);
	ck_assert_int_eq(tlbp_batch_should_defer(&batch, &mm_cpus, 0, true, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_batch_should_defer(&batch, &mm_cpus, 64, true, &d), -EINVAL);
	tlbp_cpuset_init(&big, big_words, sizeof(big_words), 130);
	ck_assert_int_eq(tlbp_batch_should_defer(&batch, &big, 0, true, &d), -EINVAL);
	ck_assert(d.defer);
	ck_assert_int_eq(d.reason, 42);
}

/* --- accessibility ------------------------------------------------------- */

TV_CASE(test_pte_accessible_rules)
{
	ck_assert(tlbp_pte_accessible(&mm, TLBP_PTE_PRESENT));
	ck_assert(tlbp_pte_accessible(NULL, TLBP_PTE_PRESENT));
	ck_assert(!tlbp_pte_accessible(&mm, 0));
	ck_assert(!tlbp_pte_accessible(&mm, TLBP_PTE_DIRTY));
	ck_assert(!tlbp_pte_accessible(&mm, TLBP_PTE_PROTNONE));
	ck_assert(!tlbp_pte_accessible(NULL, TLBP_PTE_PROTNONE));
	tlbp_mm_inc_flush_pending(&mm);
	ck_assert(tlbp_pte_accessible(&mm, TLBP_PTE_PROTNONE));
	ck_assert(!tlbp_pte_accessible(&mm, 0));
	tlbp_mm_dec_flush_pending(&mm);
	ck_assert(!tlbp_pte_accessible(&mm, TLBP_PTE_PROTNONE));
}

/* --- add_pending --------------------------------------------------------- */

TV_CASE(test_batch_add_pending_inaccessible_skipped)
{
	enum tlbp_add_reason why = TLBP_ADD_QUEUED;

	tlbp_cpuset_set(&mm_cpus, 9);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus,
						TLBP_PTE_PROTNONE | TLBP_PTE_DIRTY,
						0, PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_ADD_SKIP_INACCESSIBLE);
	ck_assert(!tlbp_batch_flush_required(&batch));
	ck_assert(!tlbp_batch_writable(&batch));
	ck_assert(tlbp_cpuset_empty(tlbp_batch_cpus(&batch)));
	ck_assert(!tlbp_mm_batched_pending(&mm));
	ck_assert_uint_eq(fake.nr_calls, 0);
	/* The reason pointer is optional. */
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus, 0, 0,
						PAGE, NULL), 0);
	ck_assert(!tlbp_batch_flush_required(&batch));
}

TV_CASE(test_batch_add_pending_protnone_while_flush_pending)
{
	tlbp_cpuset_set(&mm_cpus, 9);
	tlbp_mm_inc_flush_pending(&mm);
	queue(&mm, 0, 1, TLBP_PTE_PROTNONE);
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert(tlbp_cpuset_test(tlbp_batch_cpus(&batch), 9));
	ck_assert(tlbp_mm_batched_pending(&mm));
}

TV_CASE(test_batch_add_pending_present_queues)
{
	tlbp_cpuset_set(&mm_cpus, 1);
	tlbp_cpuset_set(&mm_cpus, 40);
	queue(&mm, 10, 2, TLBP_PTE_PRESENT);
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert(!tlbp_batch_writable(&batch));
	ck_assert_uint_eq(tlbp_cpuset_weight(tlbp_batch_cpus(&batch)), 2);
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), 1);
	ck_assert_uint_eq(fake.nr[FAKE_ADD_PENDING], 1);
	ck_assert_ptr_eq(fake.log[0].mm, &mm);
	ck_assert_uint_eq(fake.log[0].start, 10 * PAGE);
	ck_assert_uint_eq(fake.log[0].end, 12 * PAGE);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH], 0);
}

TV_CASE(test_batch_add_pending_accumulates_cpus)
{
	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	tlbp_cpuset_set(&mm_cpus, 7);
	queue(&mm, 1, 1, TLBP_PTE_PRESENT);
	tlbp_cpuset_zero(&mm_cpus);
	tlbp_cpuset_set(&mm_cpus, 8);
	queue(&mm, 2, 1, TLBP_PTE_PRESENT);
	/* CPU 7 left the mm but may still hold the entry queued while it ran. */
	ck_assert(tlbp_cpuset_test(tlbp_batch_cpus(&batch), 7));
	ck_assert(tlbp_cpuset_test(tlbp_batch_cpus(&batch), 8));
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), 3);
}

TV_CASE(test_batch_add_pending_dirty_marks_writable)
{
	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	ck_assert(!tlbp_batch_writable(&batch));
	queue(&mm, 1, 1, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY);
	ck_assert(tlbp_batch_writable(&batch));
}

TV_CASE(test_batch_add_pending_bad_input)
{
	unsigned long big_words[3];
	struct tlbp_cpuset big;
	struct snapshot s;
	enum tlbp_add_reason why = 77;

	tlbp_cpuset_set(&mm_cpus, 2);
	queue(&mm, 5, 1, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY);
	take(&s);
	tlbp_cpuset_init(&big, big_words, sizeof(big_words), 130);
	ck_assert_int_eq(tlbp_batch_add_pending(NULL, &mm, &mm_cpus, TLBP_PTE_PRESENT, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, NULL, &mm_cpus, TLBP_PTE_PRESENT, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, NULL, TLBP_PTE_PRESENT, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &big, TLBP_PTE_PRESENT, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus, 1U << 9, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus, TLBP_PTE_PRESENT, PAGE, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus, TLBP_PTE_PRESENT, 2 * PAGE, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus, TLBP_PTE_PRESENT, 1, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus, TLBP_PTE_PRESENT, 0, PAGE + 8, &why), -EINVAL);
	assert_unchanged(&s);
	ck_assert_int_eq(why, 77);
	/* The flush owed before the rejected calls is still owed. */
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert(tlbp_batch_writable(&batch));
}

TV_CASE(test_batch_add_pending_op_fails_escalates)
{
	enum tlbp_flush_reason why;

	fake_ops_fail(&fake, FAKE_ADD_PENDING, -EBUSY, 1);
	ck_assert_int_eq(tlbp_batch_add_pending(&batch, &mm, &mm_cpus,
						TLBP_PTE_PRESENT, 0, PAGE, NULL),
			 -EBUSY);
	/* The entry is queued anyway: its PTE is already gone. */
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert(tlbp_mm_batched_pending(&mm));
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_ADD_FAILED);
	ck_assert(fake.log[fake.nr_calls - 1].full);
	ck_assert_uint_eq(fake.log[fake.nr_calls - 1].end, TLBP_FLUSH_ALL);
	/* The escalation ends with the flush that covered it. */
	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
}

TV_CASE(test_batch_add_pending_without_optional_op)
{
	enum tlbp_flush_reason why;

	make_batch(64, 33, TLBP_DEFER_IF_REMOTE, &fake_flush_ops_no_add);
	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	ck_assert_uint_eq(fake.nr_calls, 0);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH], 1);
}

/* --- flush --------------------------------------------------------------- */

TV_CASE(test_batch_flush_nothing_required)
{
	enum tlbp_flush_reason why = TLBP_FLUSH_RANGED;

	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_NOT_REQUIRED);
	ck_assert_int_eq(tlbp_batch_flush(&batch, NULL), 0);
	ck_assert_uint_eq(fake.nr_calls, 0);
	ck_assert_int_eq(tlbp_batch_flush(NULL, &why), -EINVAL);
}

static struct fake_record *last_flush(void)
{
	ck_assert_uint_gt(fake.nr[FAKE_FLUSH], 0);
	ck_assert_int_eq(fake.log[fake.nr_calls - 1].call, FAKE_FLUSH);
	return &fake.log[fake.nr_calls - 1];
}

TV_CASE(test_batch_flush_ceiling_33_ranged)
{
	enum tlbp_flush_reason why;
	struct fake_record *r;

	tlbp_cpuset_set(&mm_cpus, 4);
	/* Two entries whose range spans exactly 33 pages. */
	queue(&mm, 100, 1, TLBP_PTE_PRESENT);
	queue(&mm, 132, 1, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	r = last_flush();
	ck_assert(!r->full);
	ck_assert_ptr_eq(r->mm, &mm);
	ck_assert_uint_eq(r->start, 100 * PAGE);
	ck_assert_uint_eq(r->end, 133 * PAGE);
	ck_assert_uint_eq(r->nr_pages, 33);
	ck_assert(r->unmapped);
	ck_assert(r->writable);
	ck_assert_uint_eq(r->cpu_weight, 1);
	ck_assert_uint_eq(r->first_cpu, 4);
}

TV_CASE(test_batch_flush_ceiling_34_full)
{
	enum tlbp_flush_reason why;
	struct fake_record *r;

	queue(&mm, 0, 34, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_CEILING);
	r = last_flush();
	ck_assert(r->full);
	ck_assert_uint_eq(r->start, 0);
	ck_assert_uint_eq(r->end, TLBP_FLUSH_ALL);
	ck_assert_uint_eq(r->nr_pages, 0);
	ck_assert_ptr_eq(r->mm, &mm);
}

TV_CASE(test_batch_flush_ceiling_configurable)
{
	enum tlbp_flush_reason why;

	make_batch(64, 64, TLBP_DEFER_IF_REMOTE, &fake_flush_ops);
	queue(&mm, 0, 64, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	queue(&mm, 0, 65, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_CEILING);

	/* Ceiling 0 disables ranged flushes altogether. */
	make_batch(64, 0, TLBP_DEFER_IF_REMOTE, &fake_flush_ops);
	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_CEILING);
}

TV_CASE(test_batch_flush_multi_mm_full)
{
	enum tlbp_flush_reason why;
	struct fake_record *r;

	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	queue(&mm2, 0, 1, TLBP_PTE_PRESENT);
	ck_assert(tlbp_mm_batched_pending(&mm));
	ck_assert(tlbp_mm_batched_pending(&mm2));
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_MULTI_MM);
	r = last_flush();
	ck_assert(r->full);
	ck_assert(!r->had_mm);
}

TV_CASE(test_batch_flush_resets)
{
	tlbp_cpuset_set(&mm_cpus, 1);
	queue(&mm, 0, 1, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY);
	ck_assert_int_eq(tlbp_batch_flush(&batch, NULL), 0);
	ck_assert(!tlbp_batch_flush_required(&batch));
	ck_assert(!tlbp_batch_writable(&batch));
	ck_assert(tlbp_cpuset_empty(tlbp_batch_cpus(&batch)));
	/* The range restarts: a later far-away entry is ranged on its own. */
	queue(&mm, 1000, 1, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush(&batch, NULL), 0);
	ck_assert(!last_flush()->full);
	ck_assert_uint_eq(last_flush()->start, 1000 * PAGE);
	ck_assert(!last_flush()->writable);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH], 2);
}

TV_CASE(test_batch_flush_op_fails_keeps_flush)
{
	enum tlbp_flush_reason why = TLBP_FLUSH_NOT_REQUIRED;
	struct snapshot s;

	tlbp_cpuset_set(&mm_cpus, 1);
	queue(&mm, 0, 1, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY);
	take(&s);
	fake_ops_fail(&fake, FAKE_FLUSH, -EAGAIN, 2);
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), -EAGAIN);
	ck_assert_int_eq(tlbp_batch_flush_dirty(&batch, &why), -EAGAIN);
	ck_assert_int_eq(why, TLBP_FLUSH_NOT_REQUIRED);
	s.calls += 2;
	assert_unchanged(&s);
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert(!tlbp_batch_flush_required(&batch));
}

TV_CASE(test_batch_flush_dirty_only_when_writable)
{
	enum tlbp_flush_reason why;

	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush_dirty(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_NOT_DIRTY);
	ck_assert_int_eq(tlbp_batch_flush_dirty(&batch, NULL), 0);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH], 0);
	ck_assert(tlbp_batch_flush_required(&batch));
	queue(&mm, 1, 1, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY);
	ck_assert_int_eq(tlbp_batch_flush_dirty(&batch, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH], 1);
	ck_assert(!tlbp_batch_flush_required(&batch));
	ck_assert_int_eq(tlbp_batch_flush_dirty(NULL, &why), -EINVAL);
}

TV_CASE(test_batch_flush_8192_cpus)
{
	struct tlbp_defer_decision d;
	struct fake_record *r;
	unsigned int cpu;

	make_batch(8192, 33, TLBP_DEFER_IF_REMOTE, &fake_flush_ops);
	tlbp_cpuset_set(&mm_cpus, 0);
	tlbp_cpuset_set(&mm_cpus, 8191);
	ck_assert_int_eq(tlbp_batch_should_defer(&batch, &mm_cpus, 0, true, &d), 0);
	ck_assert(d.defer);
	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	for (cpu = 4096; cpu < 4200; cpu++)
		tlbp_cpuset_set(&mm_cpus, cpu);
	queue(&mm, 1, 1, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_batch_flush(&batch, NULL), 0);
	r = last_flush();
	ck_assert_uint_eq(r->cpu_weight, 106);
	ck_assert_uint_eq(r->first_cpu, 0);
	ck_assert(tlbp_cpuset_empty(tlbp_batch_cpus(&batch)));
}

TV_CASE(test_flush_reason_name_all)
{
	ck_assert_str_eq(tlbp_flush_reason_name(TLBP_FLUSH_NOT_REQUIRED), "not-required");
	ck_assert_str_eq(tlbp_flush_reason_name(TLBP_FLUSH_NOT_DIRTY), "not-dirty");
	ck_assert_str_eq(tlbp_flush_reason_name(TLBP_FLUSH_RANGED), "ranged");
	ck_assert_str_eq(tlbp_flush_reason_name(TLBP_FLUSH_FULL_CEILING), "full-ceiling");
	ck_assert_str_eq(tlbp_flush_reason_name(TLBP_FLUSH_FULL_MULTI_MM), "full-multi-mm");
	ck_assert_str_eq(tlbp_flush_reason_name(TLBP_FLUSH_FULL_ADD_FAILED), "full-add-failed");
	ck_assert_str_eq(tlbp_flush_reason_name(TLBP_FLUSH_FULL_NESTED), "full-nested");
	ck_assert_str_eq(tlbp_flush_reason_name((enum tlbp_flush_reason)99), "unknown");
}

TV_CASE(test_batch_drain_by_other_task)
{
	bool flushed;

	/* Task A defers; task B, changing PTEs of the same mm, drains first. */
	tlbp_cpuset_set(&mm_cpus, 2);
	queue(&mm, 0, 1, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), 0);
	ck_assert(flushed);
	ck_assert_uint_eq(fake.log[fake.nr_calls - 1].call, FAKE_FLUSH_MM);
	/* A's own batch still owes its flush: B's drain does not clear it. */
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert_int_eq(tlbp_batch_flush(&batch, NULL), 0);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH], 1);
}

TV_CASE(test_clear_flush_accessible_ranged)
{
	struct tlbp_batch_config cfg;
	enum tlbp_flush_reason why;
	struct fake_record *r;

	tlbp_batch_config_default(&cfg, 64);
	tlbp_cpuset_set(&mm_cpus, 5);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg,
					  TLBP_PTE_PRESENT | TLBP_PTE_DIRTY,
					  3 * PAGE, 4 * PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	r = last_flush();
	ck_assert_uint_eq(r->start, 3 * PAGE);
	ck_assert_uint_eq(r->nr_pages, 1);
	ck_assert(r->writable);
	ck_assert_uint_eq(r->first_cpu, 5);
	/* Nothing deferred: the mm's generation is untouched. */
	ck_assert(!tlbp_mm_batched_pending(&mm));
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  0, 34 * PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_CEILING);
	ck_assert(last_flush()->full);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  0, PAGE, NULL), 0);
}

TV_CASE(test_clear_flush_inaccessible_skips)
{
	struct tlbp_batch_config cfg;
	enum tlbp_flush_reason why = TLBP_FLUSH_RANGED;

	tlbp_batch_config_default(&cfg, 64);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PROTNONE,
					  0, PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_NOT_REQUIRED);
	ck_assert_uint_eq(fake.nr_calls, 0);
	tlbp_mm_inc_flush_pending(&mm);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PROTNONE,
					  0, PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
}

TV_CASE(test_clear_flush_bad_input_and_op_error)
{
	struct tlbp_batch_config cfg;
	enum tlbp_flush_reason why = TLBP_FLUSH_NOT_DIRTY;

	tlbp_batch_config_default(&cfg, 64);
	ck_assert_int_eq(tlbp_clear_flush(NULL, &mm_cpus, &cfg, 1, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_clear_flush(&mm, NULL, &cfg, 1, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, NULL, 1, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, 1U << 7, 0, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, 1, PAGE, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, 1, 8, PAGE, &why), -EINVAL);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, 1, 0, PAGE + 8, &why), -EINVAL);
	cfg.page_shift = 11;
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, 1, 0, PAGE, &why), -EINVAL);
	cfg.page_shift = 22;
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, 1, 0, PAGE, &why), -EINVAL);
	ck_assert_uint_eq(fake.nr_calls, 0);
	ck_assert_int_eq(why, TLBP_FLUSH_NOT_DIRTY);
	cfg.page_shift = 12;
	fake_ops_fail(&fake, FAKE_FLUSH, -EAGAIN, 1);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, 1, 0, PAGE, &why), -EAGAIN);
	ck_assert_int_eq(why, TLBP_FLUSH_NOT_DIRTY);
}

TV_CASE(test_batch_init_edges_accepted)
{
	struct tlbp_batch_config cfg;
	unsigned long one[1];
	struct tlbp_batch b;

	tlbp_batch_config_default(&cfg, 1);
	ck_assert_int_eq(tlbp_batch_init(&b, &cfg, &fake_flush_ops, NULL, one, sizeof(one)), 0);
	cfg.page_shift = 21; /* 2 MiB base pages: the largest accepted */
	ck_assert_int_eq(tlbp_batch_init(&b, &cfg, &fake_flush_ops, NULL, one, sizeof(one)), 0);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  0, 1ULL << 21, NULL), 0);
	ck_assert_uint_eq(last_flush()->nr_pages, 1);
}

TV_CASE(test_clear_flush_request_fields)
{
	struct tlbp_batch_config cfg;
	enum tlbp_flush_reason why;
	struct fake_record *r;

	tlbp_batch_config_default(&cfg, 64);
	/* Exactly the ceiling is still ranged. */
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  PAGE, 34 * PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	r = last_flush();
	ck_assert_uint_eq(r->nr_pages, 33);
	ck_assert(r->unmapped);
	ck_assert(!r->writable); /* a clean PTE */
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  PAGE, 35 * PAGE, &why), 0);
	r = last_flush();
	ck_assert(r->full);
	ck_assert_uint_eq(r->start, 0);
	ck_assert_uint_eq(r->nr_pages, 0);
}

/* --- per-architecture profiles ------------------------------------------- */

/*
 * Each profile against its architecture's 6.12 code: x86's
 * arch_tlbbatch_should_defer() tests cpumask_any_but(mm_cpumask, cpu),
 * arm64's and riscv's return true; x86's and riscv's arch_tlbbatch_flush()
 * flush all (TLB_FLUSH_ALL, FLUSH_TLB_MAX_SIZE), arm64's only waits for the
 * TLBIs issued at add time; immediate ranged flushes stop at
 * tlb_single_page_flush_ceiling (33), MAX_DVM_OPS (512, i.e. up to 511
 * pages) and tlb_flush_all_threshold (64).
 */
TV_CASE(test_batch_config_arch_profiles)
{
	static const struct {
		enum tlbp_arch arch;
		const char *name;
		enum tlbp_defer_policy defer;
		unsigned int flush_ceiling, range_ceiling;
	} rows[] = {
		{ TLBP_ARCH_X86, "x86", TLBP_DEFER_IF_REMOTE, 0, 33 },
		{ TLBP_ARCH_ARM64, "arm64", TLBP_DEFER_ALWAYS, TLBP_FLUSH_CEILING_NONE, 511 },
		{ TLBP_ARCH_RISCV, "riscv", TLBP_DEFER_ALWAYS, 0, 64 },
	};
	struct tlbp_batch_config cfg, before;
	enum tlbp_arch found;
	unsigned int i;

	ck_assert_uint_eq(sizeof(rows) / sizeof(rows[0]), TLBP_ARCH_NR);
	for (i = 0; i < TLBP_ARCH_NR; i++) {
		ck_assert_int_eq(tlbp_batch_config_arch(&cfg, rows[i].arch, 96), 0);
		ck_assert_uint_eq(cfg.nr_cpus, 96);
		ck_assert_int_eq(cfg.defer, rows[i].defer);
		ck_assert_uint_eq(cfg.flush_ceiling, rows[i].flush_ceiling);
		ck_assert_uint_eq(cfg.range_ceiling, rows[i].range_ceiling);
		ck_assert_uint_eq(cfg.page_shift, 12);
		ck_assert_str_eq(tlbp_arch_name(rows[i].arch), rows[i].name);
		ck_assert_int_eq(tlbp_arch_from_name(rows[i].name, &found), 0);
		ck_assert_int_eq(found, rows[i].arch);
	}
	memset(&cfg, 0x5a, sizeof(cfg));
	before = cfg;
	ck_assert_int_eq(tlbp_batch_config_arch(NULL, TLBP_ARCH_X86, 4), -EINVAL);
	ck_assert_int_eq(tlbp_batch_config_arch(&cfg, TLBP_ARCH_NR, 4), -EINVAL);
	ck_assert_int_eq(tlbp_batch_config_arch(&cfg, (enum tlbp_arch)-1, 4), -EINVAL);
	ck_assert(memcmp(&cfg, &before, sizeof(cfg)) == 0);
	ck_assert_ptr_null(tlbp_arch_name(TLBP_ARCH_NR));
	found = TLBP_ARCH_RISCV;
	ck_assert_int_eq(tlbp_arch_from_name("x86-64", &found), -ENOENT);
	ck_assert_int_eq(tlbp_arch_from_name("x8", &found), -ENOENT);
	ck_assert_int_eq(tlbp_arch_from_name("", &found), -ENOENT);
	ck_assert_int_eq(found, TLBP_ARCH_RISCV);
	ck_assert_int_eq(tlbp_arch_from_name(NULL, &found), -EINVAL);
	ck_assert_int_eq(tlbp_arch_from_name("x86", NULL), -EINVAL);
}

/* What each profile's batch flush looks like for one page and for 600. */
TV_CASE(test_batch_flush_shape_by_arch)
{
	static const struct { enum tlbp_arch arch; bool full_1, full_600; } rows[] = {
		{ TLBP_ARCH_X86, true, true },
		{ TLBP_ARCH_ARM64, false, false },
		{ TLBP_ARCH_RISCV, true, true },
	};
	struct tlbp_batch_config cfg;
	enum tlbp_flush_reason why;
	unsigned int i;

	for (i = 0; i < TLBP_ARCH_NR; i++) {
		tlbp_batch_config_arch(&cfg, rows[i].arch, 64);
		ck_assert_int_eq(tlbp_batch_init(&batch, &cfg, &fake_flush_ops, &fake,
						 batch_words, sizeof(batch_words)), 0);
		tlbp_cpuset_set(&mm_cpus, 2);
		queue(&mm, 10, 1, TLBP_PTE_PRESENT);
		ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
		ck_assert_int_eq(why != TLBP_FLUSH_RANGED, rows[i].full_1);
		queue(&mm, 0, 300, TLBP_PTE_PRESENT);
		queue(&mm, 1000000, 300, TLBP_PTE_PRESENT);
		ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
		ck_assert_int_eq(why != TLBP_FLUSH_RANGED, rows[i].full_600);
		/* Entries of two mms are flushed in full everywhere. */
		queue(&mm, 0, 1, TLBP_PTE_PRESENT);
		queue(&mm2, 0, 1, TLBP_PTE_PRESENT);
		ck_assert_int_eq(tlbp_batch_flush(&batch, &why), 0);
		ck_assert_int_eq(why, TLBP_FLUSH_FULL_MULTI_MM);
	}
}

/* tlbp_clear_flush() follows the immediate-flush ceiling, never the batch's. */
TV_CASE(test_clear_flush_uses_range_ceiling)
{
	struct tlbp_batch_config cfg;
	enum tlbp_flush_reason why;

	tlbp_batch_config_default(&cfg, 64);
	cfg.flush_ceiling = 1000;
	cfg.range_ceiling = 2;
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  0, 2 * PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  0, 3 * PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_CEILING);
	/* riscv: 64 pages ranged, 65 full (tlb_flush_all_threshold). */
	tlbp_batch_config_arch(&cfg, TLBP_ARCH_RISCV, 64);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  0, 64 * PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert_int_eq(tlbp_clear_flush(&mm, &mm_cpus, &cfg, TLBP_PTE_PRESENT,
					  0, 65 * PAGE, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_CEILING);
	ck_assert(!tlbp_mm_batched_pending(&mm));
}

/* --- hot-path forms ------------------------------------------------------- */

/* The inline should-defer agrees with the checked one on every CPU set. */
TV_CASE(test_batch_should_defer_fast_agrees)
{
	static const unsigned int sizes[] = { 1, 63, 64, 65, 384, 8192 };
	unsigned int z, pattern, cpu;

	for (z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		unsigned int n = sizes[z];
		unsigned int probe[] = { 0, 1 % n, n / 2, n - 1, 63 % n, 64 % n };

		make_batch(n, 33, TLBP_DEFER_IF_REMOTE, &fake_flush_ops);
		for (pattern = 0; pattern < 6; pattern++) {
			unsigned int i;
			struct tlbp_defer_decision d;

			tlbp_cpuset_zero(&mm_cpus);
			/* empty, one CPU at each probe, two CPUs, everything */
			if (pattern == 5)
				for (i = 0; i < n; i++)
					tlbp_cpuset_set(&mm_cpus, i);
			else if (pattern > 0)
				tlbp_cpuset_set(&mm_cpus, probe[pattern]);
			if (pattern == 4)
				tlbp_cpuset_set(&mm_cpus, probe[1]);
			for (i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
				cpu = probe[i];
				ck_assert_int_eq(tlbp_batch_should_defer(&batch, &mm_cpus, cpu,
									 true, &d), 0);
				ck_assert_int_eq(tlbp_batch_should_defer_fast(&batch, &mm_cpus,
									      cpu, true),
						 d.defer);
				ck_assert(!tlbp_batch_should_defer_fast(&batch, &mm_cpus,
									cpu, false));
			}
		}
	}
	make_batch(64, 33, TLBP_DEFER_ALWAYS, &fake_flush_ops);
	ck_assert(tlbp_batch_should_defer_fast(&batch, &mm_cpus, 0, true));
}

/* The inline add leaves exactly the state and calls the checked one does. */
TV_CASE(test_batch_add_pending_fast_agrees)
{
	static const unsigned int flags[] = {
		TLBP_PTE_PRESENT, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY,
		TLBP_PTE_PROTNONE, 0,
	};
	struct snapshot checked;
	unsigned int i, pending;
	int gen;

	for (pending = 0; pending <= 1; pending++) {
		setup();
		tlbp_cpuset_set(&mm_cpus, 9);
		if (pending)
			tlbp_mm_inc_flush_pending(&mm);
		for (i = 0; i < 8; i++)
			ck_assert_int_eq(tlbp_batch_add_pending(&batch, i % 3 ? &mm : &mm2,
								&mm_cpus, flags[i % 4],
								i * PAGE, (i + 2) * PAGE,
								NULL), 0);
		take(&checked);
		gen = tlbp_mm_batched_gen(&mm2);

		setup();
		tlbp_cpuset_set(&mm_cpus, 9);
		if (pending)
			tlbp_mm_inc_flush_pending(&mm);
		for (i = 0; i < 8; i++)
			ck_assert_int_eq(tlbp_batch_add_pending_fast(&batch, i % 3 ? &mm : &mm2,
								     &mm_cpus, flags[i % 4],
								     i * PAGE, (i + 2) * PAGE), 0);
		assert_unchanged(&checked);
		ck_assert_int_eq(tlbp_mm_batched_gen(&mm2), gen);
	}
	/* An add_pending op error escalates the next flush in both. */
	fake_ops_fail(&fake, FAKE_ADD_PENDING, -EBUSY, 1);
	ck_assert_int_eq(tlbp_batch_add_pending_fast(&batch, &mm, &mm_cpus,
						     TLBP_PTE_PRESENT, 0, PAGE), -EBUSY);
	ck_assert(batch.add_failed);
}

const struct tv_case tv_batch_cases[] = {
	TV_ENTRY(test_batch_config_arch_profiles, setup),
	TV_ENTRY(test_batch_flush_shape_by_arch, setup),
	TV_ENTRY(test_clear_flush_uses_range_ceiling, setup),
	TV_ENTRY(test_batch_should_defer_fast_agrees, setup),
	TV_ENTRY(test_batch_add_pending_fast_agrees, setup),
	TV_ENTRY(test_batch_config_default_values, setup),
	TV_ENTRY(test_batch_init_bad_input, setup),
	TV_ENTRY(test_batch_init_starts_empty, setup),
	TV_ENTRY(test_batch_should_defer_not_requested, setup),
	TV_ENTRY(test_batch_should_defer_mm_local, setup),
	TV_ENTRY(test_batch_should_defer_mm_remote, setup),
	TV_ENTRY(test_batch_should_defer_policy_always, setup),
	TV_ENTRY(test_batch_should_defer_bad_input, setup),
	TV_ENTRY(test_pte_accessible_rules, setup),
	TV_ENTRY(test_batch_add_pending_inaccessible_skipped, setup),
	TV_ENTRY(test_batch_add_pending_protnone_while_flush_pending, setup),
	TV_ENTRY(test_batch_add_pending_present_queues, setup),
	TV_ENTRY(test_batch_add_pending_accumulates_cpus, setup),
	TV_ENTRY(test_batch_add_pending_dirty_marks_writable, setup),
	TV_ENTRY(test_batch_add_pending_bad_input, setup),
	TV_ENTRY(test_batch_add_pending_op_fails_escalates, setup),
	TV_ENTRY(test_batch_add_pending_without_optional_op, setup),
	TV_ENTRY(test_batch_flush_nothing_required, setup),
	TV_ENTRY(test_batch_flush_ceiling_33_ranged, setup),
	TV_ENTRY(test_batch_flush_ceiling_34_full, setup),
	TV_ENTRY(test_batch_flush_ceiling_configurable, setup),
	TV_ENTRY(test_batch_flush_multi_mm_full, setup),
	TV_ENTRY(test_batch_flush_resets, setup),
	TV_ENTRY(test_batch_flush_op_fails_keeps_flush, setup),
	TV_ENTRY(test_batch_flush_dirty_only_when_writable, setup),
	TV_ENTRY(test_batch_flush_8192_cpus, setup),
	TV_ENTRY(test_flush_reason_name_all, setup),
	TV_ENTRY(test_batch_drain_by_other_task, setup),
	TV_ENTRY(test_clear_flush_accessible_ranged, setup),
	TV_ENTRY(test_clear_flush_inaccessible_skips, setup),
	TV_ENTRY(test_clear_flush_bad_input_and_op_error, setup),
	TV_ENTRY(test_batch_init_edges_accepted, setup),
	TV_ENTRY(test_clear_flush_request_fields, setup),
};
const unsigned int tv_batch_nr_cases =
	sizeof(tv_batch_cases) / sizeof(tv_batch_cases[0]);
