// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/fastpath.h>
#include <tlbpolicy/mm.h>
#include "fake_ops.h"

static struct fake_ops fake;
static struct tlbp_mm mm;

static void setup(void)
{
	fake_ops_reset(&fake);
	ck_assert_int_eq(tlbp_mm_init(&mm, &fake_flush_ops, &fake), 0);
}

static int make_word(int pending, int flushed)
{
	return pending | (flushed << TLBP_MM_GEN_FLUSHED_SHIFT);
}

TV_CASE(test_mm_init_bad_input)
{
	struct tlbp_flush_ops no_flush = { .flush_mm = fake_flush_ops.flush_mm };
	struct tlbp_flush_ops no_flush_mm = { .flush = fake_flush_ops.flush };
	struct tlbp_mm m;

	tlbp_atomic_set(&m.batched_gen, 77);
	m.ops = NULL;
	ck_assert_int_eq(tlbp_mm_init(NULL, &fake_flush_ops, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_mm_init(&m, NULL, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_mm_init(&m, &no_flush, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_mm_init(&m, &no_flush_mm, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_atomic_read(&m.batched_gen), 77);
	ck_assert_ptr_null(m.ops);
}

TV_CASE(test_mm_init_starts_clean)
{
	ck_assert(!tlbp_mm_batched_pending(&mm));
	ck_assert(!tlbp_mm_flush_pending(&mm));
	ck_assert(!tlbp_mm_flush_nested(&mm));
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), 0);
}

TV_CASE(test_mm_null_queries)
{
	bool flushed = true;

	ck_assert(!tlbp_mm_batched_pending(NULL));
	ck_assert(!tlbp_mm_flush_pending(NULL));
	ck_assert(!tlbp_mm_flush_nested(NULL));
	ck_assert_int_eq(tlbp_mm_batched_gen(NULL), 0);
	ck_assert_int_eq(tlbp_mm_mark_batched_pending(NULL), -EINVAL);
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(NULL, &flushed), -EINVAL);
	ck_assert(!flushed);
	ck_assert_int_eq(tlbp_mm_inc_flush_pending(NULL), -EINVAL);
	ck_assert_int_eq(tlbp_mm_dec_flush_pending(NULL), -EINVAL);
}

TV_CASE(test_mm_mark_batched_pending_outstanding)
{
	ck_assert_int_eq(tlbp_mm_mark_batched_pending(&mm), 0);
	ck_assert(tlbp_mm_batched_pending(&mm));
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), make_word(1, 0));
	ck_assert_int_eq(tlbp_mm_mark_batched_pending(&mm), 0);
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), make_word(2, 0));
}

TV_CASE(test_mm_flush_batched_pending_nothing_outstanding)
{
	bool flushed = true;

	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), 0);
	ck_assert(!flushed);
	ck_assert_uint_eq(fake.nr_calls, 0);
	/* The optional out parameter may be NULL. */
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, NULL), 0);
}

TV_CASE(test_mm_flush_batched_pending_flushes_once)
{
	bool flushed = false;

	tlbp_mm_mark_batched_pending(&mm);
	tlbp_mm_mark_batched_pending(&mm);
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), 0);
	ck_assert(flushed);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH_MM], 1);
	ck_assert_ptr_eq(fake.log[0].mm, &mm);
	ck_assert(!tlbp_mm_batched_pending(&mm));
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), make_word(2, 2));
	/* A second drain has nothing left to do. */
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, NULL), 0);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH_MM], 1);
}

TV_CASE(test_mm_flush_batched_pending_op_fails)
{
	bool flushed = true;

	tlbp_mm_mark_batched_pending(&mm);
	fake_ops_fail(&fake, FAKE_FLUSH_MM, -EAGAIN, 1);
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), -EAGAIN);
	ck_assert(!flushed);
	ck_assert(tlbp_mm_batched_pending(&mm));
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), make_word(1, 0));
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), 0);
	ck_assert(flushed);
	ck_assert(!tlbp_mm_batched_pending(&mm));
}

TV_CASE(test_mm_mark_batched_pending_overflow_resets)
{
	int large = TLBP_MM_GEN_PENDING_LARGE;

	/* At the limit it still increments. */
	tlbp_atomic_set(&mm.batched_gen, make_word(large, large));
	tlbp_mm_mark_batched_pending(&mm);
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), make_word(large + 1, large));

	/* Past it, even a fully flushed word resets to pending=1, flushed=0. */
	tlbp_atomic_set(&mm.batched_gen, make_word(large + 1, large + 1));
	ck_assert(!tlbp_mm_batched_pending(&mm));
	ck_assert_int_eq(tlbp_mm_mark_batched_pending(&mm), 0);
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), make_word(1, 0));
	ck_assert(tlbp_mm_batched_pending(&mm));
}

TV_CASE(test_mm_mark_batched_pending_never_aliases)
{
	const int guard = 1 << (TLBP_MM_GEN_FLUSHED_SHIFT - 1);
	unsigned int i, bad_at = 0;
	bool bad = false;

	/*
	 * Drive the counter through several overflow resets, draining every
	 * third step: right after a mark the flush is always outstanding, and
	 * the pending half never spills into the guard bit. Plain checks in
	 * the loop keep it fast under valgrind; the first failure is reported.
	 */
	for (i = 0; i < 5 * TLBP_MM_GEN_PENDING_MASK && !bad; i++) {
		tlbp_mm_mark_batched_pending(&mm);
		if (!tlbp_mm_batched_pending(&mm) ||
		    (tlbp_mm_batched_gen(&mm) & guard))
			bad = true;
		if (i % 3 == 0) {
			tlbp_mm_flush_batched_pending(&mm, NULL);
			if (tlbp_mm_batched_pending(&mm))
				bad = true;
		}
		bad_at = i;
	}
	ck_assert_msg(!bad, "generation aliased at step %u (word %#x)", bad_at,
		      (unsigned int)tlbp_mm_batched_gen(&mm));
	ck_assert_uint_gt(fake.nr[FAKE_FLUSH_MM], 50000);
}

/* --- the lost-flush interleaving --------------------------------------- */

static void producer_defers(void *arg)
{
	tlbp_mm_mark_batched_pending(arg);
}

TV_CASE(test_mm_flush_batched_pending_keeps_concurrent_deferral)
{
	bool flushed;

	/*
	 * CPU0 deferred a flush; CPU1 drains it; while CPU1's flush_mm runs,
	 * CPU0 defers another one for a PTE the running flush may have missed.
	 */
	tlbp_mm_mark_batched_pending(&mm);
	fake.during_flush_mm = producer_defers;
	fake.during_arg = &mm;
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), 0);
	ck_assert(flushed);
	ck_assert(tlbp_mm_batched_pending(&mm));
	ck_assert_int_eq(tlbp_mm_batched_gen(&mm), make_word(2, 0));

	/* The next drain flushes again and only then is the mm clean. */
	ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), 0);
	ck_assert(flushed);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH_MM], 2);
	ck_assert(!tlbp_mm_batched_pending(&mm));
}

/*
 * The pre-2021 scheme, a bool set by producers and cleared by the drainer
 * after its flush, run through the same interleaving.
 */
struct naive_mm {
	bool flag;
};

static void naive_producer(void *arg)
{
	((struct naive_mm *)arg)->flag = true;
}

static void naive_drain(struct naive_mm *n)
{
	if (!n->flag)
		return;
	fake.during_flush_mm(fake.during_arg);
	n->flag = false;
}

TV_CASE(test_mm_flush_batched_pending_naive_flag_loses)
{
	struct naive_mm naive = { .flag = false };

	naive_producer(&naive);
	fake.during_flush_mm = naive_producer;
	fake.during_arg = &naive;
	naive_drain(&naive);
	/* A deferral happened after the drain's flush began, yet nothing is
	 * outstanding: the flush is lost. The generation pair above keeps it. */
	ck_assert(!naive.flag);
}

/* --- tlb_flush_pending ------------------------------------------------- */

TV_CASE(test_mm_inc_flush_pending_nested)
{
	ck_assert_int_eq(tlbp_mm_inc_flush_pending(&mm), 0);
	ck_assert(tlbp_mm_flush_pending(&mm));
	ck_assert(!tlbp_mm_flush_nested(&mm));
	ck_assert_int_eq(tlbp_mm_inc_flush_pending(&mm), 0);
	ck_assert(tlbp_mm_flush_nested(&mm));
	ck_assert_int_eq(tlbp_mm_dec_flush_pending(&mm), 0);
	ck_assert(!tlbp_mm_flush_nested(&mm));
	ck_assert(tlbp_mm_flush_pending(&mm));
	ck_assert_int_eq(tlbp_mm_dec_flush_pending(&mm), 0);
	ck_assert(!tlbp_mm_flush_pending(&mm));
}

TV_CASE(test_mm_dec_flush_pending_underflow)
{
	ck_assert_int_eq(tlbp_mm_dec_flush_pending(&mm), -EINVAL);
	ck_assert_int_eq(tlbp_atomic_read(&mm.flush_pending), 0);
	ck_assert(!tlbp_mm_flush_pending(&mm));
}

/* The inline drain, mark and tlb_flush_pending forms agree with the
 * checked ones, the overflow reset included. */
TV_CASE(test_mm_fast_forms_agree)
{
	struct tlbp_mm a, b;
	bool fa, fb;
	int i;

	ck_assert_int_eq(tlbp_mm_init(&a, &fake_flush_ops, &fake), 0);
	ck_assert_int_eq(tlbp_mm_init(&b, &fake_flush_ops, &fake), 0);
	ck_assert_int_eq(tlbp_mm_flush_batched_pending_fast(&a, &fa), 0);
	ck_assert(!fa);
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH_MM], 0);
	for (i = 0; i < 3 * TLBP_MM_GEN_PENDING_LARGE; i++) {
		tlbp_mm_mark_batched_pending(&a);
		tlbp_mm_mark_batched_pending_fast(&b);
		ck_assert_int_eq(tlbp_mm_batched_gen(&a), tlbp_mm_batched_gen(&b));
		if (i % 5000 == 0) {
			ck_assert_int_eq(tlbp_mm_flush_batched_pending(&a, &fa), 0);
			ck_assert_int_eq(tlbp_mm_flush_batched_pending_fast(&b, &fb), 0);
			ck_assert(fa && fb);
			ck_assert_int_eq(tlbp_mm_batched_gen(&a), tlbp_mm_batched_gen(&b));
		}
	}
	tlbp_mm_inc_flush_pending_fast(&b);
	ck_assert(tlbp_mm_flush_pending_fast(&b) && !tlbp_mm_flush_nested(&b));
	tlbp_mm_inc_flush_pending_fast(&b);
	ck_assert(tlbp_mm_flush_pending_fast(&b) && tlbp_mm_flush_nested(&b));
	ck_assert(tlbp_pte_accessible_fast(&b, TLBP_PTE_PROTNONE));
	tlbp_mm_dec_flush_pending_fast(&b);
	tlbp_mm_dec_flush_pending_fast(&b);
	ck_assert(!tlbp_mm_flush_pending_fast(&b));
	ck_assert(!tlbp_pte_accessible_fast(&b, TLBP_PTE_PROTNONE));
	ck_assert(tlbp_pte_accessible_fast(&b, TLBP_PTE_PRESENT));
}

const struct tv_case tv_mm_cases[] = {
	TV_ENTRY(test_mm_fast_forms_agree, setup),
	TV_ENTRY(test_mm_init_bad_input, setup),
	TV_ENTRY(test_mm_init_starts_clean, setup),
	TV_ENTRY(test_mm_null_queries, setup),
	TV_ENTRY(test_mm_mark_batched_pending_outstanding, setup),
	TV_ENTRY(test_mm_flush_batched_pending_nothing_outstanding, setup),
	TV_ENTRY(test_mm_flush_batched_pending_flushes_once, setup),
	TV_ENTRY(test_mm_flush_batched_pending_op_fails, setup),
	TV_ENTRY(test_mm_mark_batched_pending_overflow_resets, setup),
	TV_ENTRY(test_mm_mark_batched_pending_never_aliases, setup),
	TV_ENTRY(test_mm_flush_batched_pending_keeps_concurrent_deferral, setup),
	TV_ENTRY(test_mm_flush_batched_pending_naive_flag_loses, setup),
	TV_ENTRY(test_mm_inc_flush_pending_nested, setup),
	TV_ENTRY(test_mm_dec_flush_pending_underflow, setup),
};
const unsigned int tv_mm_nr_cases =
	sizeof(tv_mm_cases) / sizeof(tv_mm_cases[0]);
