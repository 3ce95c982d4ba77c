// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Per-mm flush state: the batched pending/flushed generation pair and the
 * tlb_flush_pending counter.
 */
#include <tlbpolicy/mm.h>

static int gen_pending(int word)
{
	return word & TLBP_MM_GEN_PENDING_MASK;
}

static int gen_flushed(int word)
{
	return (word >> TLBP_MM_GEN_FLUSHED_SHIFT) & TLBP_MM_GEN_PENDING_MASK;
}

int tlbp_mm_init(struct tlbp_mm *mm, const struct tlbp_flush_ops *ops,
		 void *ctx)
{
	if (!mm || !ops || !ops->flush || !ops->flush_mm)
		return -TLBP_EINVAL;
	tlbp_atomic_set(&mm->batched_gen, 0);
	tlbp_atomic_set(&mm->flush_pending, 0);
	mm->ops = ops;
	mm->ctx = ctx;
	return 0;
}

int tlbp_mm_mark_batched_pending(struct tlbp_mm *mm)
{
	int word, seen;

	if (!mm)
		return -TLBP_EINVAL;
	word = tlbp_atomic_read(&mm->batched_gen);
	for (;;) {
		if (gen_pending(word) <= TLBP_MM_GEN_PENDING_LARGE) {
			tlbp_atomic_inc(&mm->batched_gen);
			return 0;
		}
		/*
		 * Left to grow, pending would carry into the guard bit and
		 * could come to equal flushed, hiding an outstanding flush.
		 * pending=1, flushed=0 is outstanding by construction.
		 */
		seen = tlbp_atomic_cmpxchg(&mm->batched_gen, word, 1);
		if (seen == word)
			return 0;
		word = seen;
	}
}

bool tlbp_mm_batched_pending(const struct tlbp_mm *mm)
{
	int word;

	if (!mm)
		return false;
	word = tlbp_atomic_read(&mm->batched_gen);
	return gen_pending(word) != gen_flushed(word);
}

int tlbp_mm_flush_batched_pending(struct tlbp_mm *mm, bool *flushed)
{
	int word, pending, err;

	if (flushed)
		*flushed = false;
	if (!mm)
		return -TLBP_EINVAL;
	word = tlbp_atomic_read(&mm->batched_gen);
	pending = gen_pending(word);
	if (pending == gen_flushed(word))
		return 0;

	err = mm->ops->flush_mm(mm->ctx, mm);
	if (err)
		return err;
	if (flushed)
		*flushed = true;
	/*
	 * Mark flushed only what was observed before the flush. If a producer
	 * bumped pending meanwhile, the exchange fails and its flush stays
	 * outstanding for the next drain; losing the race is the safe outcome.
	 */
	tlbp_atomic_cmpxchg(&mm->batched_gen, word,
			    pending | (pending << TLBP_MM_GEN_FLUSHED_SHIFT));
	return 0;
}

int tlbp_mm_batched_gen(const struct tlbp_mm *mm)
{
	return mm ? tlbp_atomic_read(&mm->batched_gen) : 0;
}

int tlbp_mm_inc_flush_pending(struct tlbp_mm *mm)
{
	if (!mm)
		return -TLBP_EINVAL;
	tlbp_atomic_inc(&mm->flush_pending);
	return 0;
}

int tlbp_mm_dec_flush_pending(struct tlbp_mm *mm)
{
	int count, seen;

	if (!mm)
		return -TLBP_EINVAL;
	count = tlbp_atomic_read(&mm->flush_pending);
	for (;;) {
		/* Unbalanced: going negative would read as "pending" forever. */
		if (count <= 0)
			return -TLBP_EINVAL;
		seen = tlbp_atomic_cmpxchg(&mm->flush_pending, count, count - 1);
		if (seen == count)
			return 0;
		count = seen;
	}
}

bool tlbp_mm_flush_pending(const struct tlbp_mm *mm)
{
	return mm && tlbp_atomic_read(&mm->flush_pending) > 0;
}

bool tlbp_mm_flush_nested(const struct tlbp_mm *mm)
{
	return mm && tlbp_atomic_read(&mm->flush_pending) > 1;
}
