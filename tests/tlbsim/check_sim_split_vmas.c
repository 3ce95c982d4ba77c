// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Where thp_split's rounds map their memory (tools/tlbsim/split_vmas.c),
 * against what 6.12's allocator does with a 10 MiB anonymous mapping
 * (__thp_get_unmapped_area(): the highest gap of 12 MiB, the region at
 * its top when that top is 2 MiB aligned) and what the guest's
 * /proc/PID/maps showed with two threads: the first region against the
 * 2 MiB boundary below the stacks, the second right below it and merged
 * with it into one 20 MiB VMA; a freed top slot too small to take again
 * while the slot below is mapped. And the anon_vma: none until a first
 * fault prepares one for the whole VMA, merges between neighbours only
 * when their anon_vmas are compatible (vma_merge_new_range()).
 */
#include <stdlib.h>
#include <check.h>
#include "sim.h"
#include "split_vmas.h"
#include "suite_runner.h"

#define REGION 2560 /* 4 THPs + 1, in pages */

static struct sim *round_space(unsigned int threads)
{
	struct sim *s = calloc(1, sizeof(*s));
	unsigned int i;

	ck_assert_ptr_nonnull(s);
	params_defaults(&s->p);
	s->p.v[P_THP_OPS_PER_THREAD] = 4;
	s->thread = calloc(threads, sizeof(*s->thread));
	ck_assert_ptr_nonnull(s->thread);
	s->nr_threads = threads;
	for (i = 0; i < threads; i++)
		split_vmas_init(s, i);
	return s;
}

static void done(struct sim *s)
{
	free(s->thread);
	free(s);
}

START_TEST(test_split_vmas_second_region_merges_below_the_first)
{
	struct sim *s = round_space(2);

	ck_assert(!split_vmas_map(s, 0)); /* a VMA of its own */
	ck_assert_int_eq(s->thread[0].va, -REGION); /* right below the boundary */
	ck_assert(!split_vmas_has_anon_vma(s, 0));
	ck_assert(split_vmas_map(s, 1));
	ck_assert_int_eq(s->thread[1].va, -2 * REGION);
	ck_assert(split_vmas_same(s, 0, 1));
	ck_assert(!split_vmas_has_anon_vma(s, 1)); /* nobody faulted yet */
	split_vmas_anon_vma_prepare(s, 1);
	ck_assert(split_vmas_has_anon_vma(s, 0) && split_vmas_has_anon_vma(s, 1));
	ck_assert(!split_vmas_map(s, 1)); /* mapped already: nothing moves */
	ck_assert_int_eq(s->thread[1].va, -2 * REGION);
	done(s);
}
END_TEST

START_TEST(test_split_vmas_freed_top_slot_is_too_small)
{
	struct sim *s = round_space(2);

	split_vmas_map(s, 0);
	split_vmas_map(s, 1);
	split_vmas_anon_vma_prepare(s, 0);
	/* The top slot: 2,560 pages (and under 512 above the boundary),
	 * short of 3,072. */
	split_vmas_unmap(s, 0);
	ck_assert(!split_vmas_same(s, 0, 1));
	ck_assert(!split_vmas_has_anon_vma(s, 0));
	ck_assert(split_vmas_map(s, 0));
	ck_assert_int_eq(s->thread[0].va, -3 * REGION);
	ck_assert(split_vmas_same(s, 0, 1));
	ck_assert(split_vmas_has_anon_vma(s, 0)); /* the VMA it joined had one */
	/* Now the upper thread's slot frees the top two: its next region
	 * goes back to the top, a slot apart from the other's. */
	split_vmas_unmap(s, 1);
	ck_assert(!split_vmas_map(s, 1));
	ck_assert_int_eq(s->thread[1].va, -REGION);
	ck_assert(!split_vmas_same(s, 0, 1));
	ck_assert(!split_vmas_has_anon_vma(s, 1));
	done(s);
}
END_TEST

START_TEST(test_split_vmas_unmap_splits_the_vma)
{
	struct sim *s = round_space(3);

	split_vmas_map(s, 0);
	split_vmas_map(s, 1);
	split_vmas_map(s, 2);
	split_vmas_anon_vma_prepare(s, 2);
	ck_assert(split_vmas_same(s, 0, 2));
	split_vmas_unmap(s, 1);
	ck_assert(!split_vmas_same(s, 0, 2)); /* a hole between */
	ck_assert(!split_vmas_same(s, 0, 1) && !split_vmas_same(s, 1, 2));
	/* Both parts keep the anon_vma. */
	ck_assert(split_vmas_has_anon_vma(s, 0) && split_vmas_has_anon_vma(s, 2));
	/* The hole (2,560 pages) is too small: the next region goes below
	 * the lowest and joins its VMA, not the top one's. */
	ck_assert(split_vmas_map(s, 1));
	ck_assert_int_eq(s->thread[1].va, -4 * REGION);
	ck_assert(split_vmas_same(s, 1, 2));
	ck_assert(!split_vmas_same(s, 0, 1));
	/* Unmapping twice changes nothing; an unmapped region has no VMA. */
	split_vmas_unmap(s, 0);
	split_vmas_unmap(s, 0);
	ck_assert(!split_vmas_has_anon_vma(s, 0));
	split_vmas_anon_vma_prepare(s, 0);
	ck_assert(!split_vmas_has_anon_vma(s, 0));
	ck_assert(split_vmas_same(s, 1, 2));
	done(s);
}
END_TEST

START_TEST(test_split_vmas_prepare_is_per_vma)
{
	struct sim *s = round_space(3);

	split_vmas_map(s, 0);
	split_vmas_map(s, 1);
	split_vmas_unmap(s, 0); /* 1 alone, no anon_vma */
	split_vmas_map(s, 2);   /* below 1, joins it */
	ck_assert(split_vmas_same(s, 1, 2));
	split_vmas_anon_vma_prepare(s, 2);
	ck_assert(split_vmas_has_anon_vma(s, 1)); /* one anon_vma a VMA */
	/* The top slot is still too small: 0 goes below 2 and joins the VMA,
	 * anon_vma and all, so its first fault prepares nothing. */
	ck_assert(split_vmas_map(s, 0));
	ck_assert_int_eq(s->thread[0].va, -4 * REGION);
	ck_assert(split_vmas_same(s, 0, 1) && split_vmas_has_anon_vma(s, 0));
	done(s);
}
END_TEST

static Suite *split_vmas_suite(void)
{
	Suite *su = suite_create("sim_split_vmas");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_split_vmas_second_region_merges_below_the_first);
	tcase_add_test(tc, test_split_vmas_freed_top_slot_is_too_small);
	tcase_add_test(tc, test_split_vmas_unmap_splits_the_vma);
	tcase_add_test(tc, test_split_vmas_prepare_is_per_vma);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return run_suite(split_vmas_suite());
}
