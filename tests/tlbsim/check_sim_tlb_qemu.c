// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * qemu TCG's software TLB (tools/tlbsim/tlb_qemu.h) against the rules of
 * qemu's accel/tcg/cputlb.c: tlb_index() (direct-mapped on the page
 * number), tlb_set_page_full() (an evicted entry goes to the 8-entry
 * victim table, round robin), tlb_mmu_resize_locked() (the 70%/30% rule
 * over a 100 ms window, 2^6 slots at least) and tlb_mmu_init() (2^8 at
 * boot).
 */
#include <check.h>
#include "rng.h"
#include "tlb.h"
#include "tlb_qemu.h"
#include "suite_runner.h"

#define PAGES 100000
#define MS 1000000ULL

struct qtlb {
	struct tlb t;
	uint64_t now;
};

static void qtlb_init(struct qtlb *q)
{
	q->now = 5 * MS;
	ck_assert_int_eq(tlb_init(&q->t, 0), 0);
	ck_assert_int_eq(tlb_make_unbounded(&q->t, 1, PAGES), 0);
	ck_assert_int_eq(tlb_qemu_attach(&q->t, &q->now), 0);
}

static void fill(struct qtlb *q, uint64_t first, uint64_t n)
{
	uint64_t v;

	for (v = first; v < first + n; v++)
		tlb_insert(&q->t, tlb_key(1, v), 1);
}

/* A fresh TLB, full at two flushes: 256 -> 512 -> 1024 slots. */
static void grown_to_1024(struct qtlb *q)
{
	qtlb_init(q);
	fill(q, 0, 256);
	tlb_flush_all(&q->t);
	fill(q, 0, 512);
	tlb_flush_all(&q->t);
	ck_assert_uint_eq(q->t.qemu->size, 1024);
}

static bool cached(const struct qtlb *q, uint64_t vpn)
{
	return tlb_lookup(&q->t, tlb_key(1, vpn), NULL);
}

START_TEST(test_boot_size_and_direct_mapping)
{
	struct qtlb q;
	int i;

	qtlb_init(&q);
	ck_assert_uint_eq(q.t.qemu->size, 256);
	/* 256 consecutive pages take the 256 slots: nothing is evicted. */
	fill(&q, 1000, 256);
	ck_assert_uint_eq(q.t.qemu->n_used, 256);
	ck_assert_uint_eq(q.t.count, 256);
	for (i = 0; i < 256; i++)
		ck_assert(cached(&q, 1000 + (uint64_t)i));
	/* Page 1000 + 256 takes page 1000's slot; 1000 moves to the victim
	 * table and still hits there. */
	fill(&q, 1256, 1);
	ck_assert(cached(&q, 1000));
	ck_assert(cached(&q, 1256));
	ck_assert_uint_eq(q.t.qemu->n_used, 256);
	/* Eight more evictions from other slots push page 1000 out. */
	for (i = 1; i <= 8; i++)
		fill(&q, 1256 + (uint64_t)i, 1);
	ck_assert(!cached(&q, 1000));
	ck_assert(cached(&q, 1001)); /* the last eight evicted still hit */
	ck_assert(cached(&q, 1008));
	ck_assert_uint_eq(q.t.count, 256 + 8);
	tlb_free(&q.t);
}
END_TEST

START_TEST(test_victim_hit_swaps_back)
{
	struct qtlb q;

	qtlb_init(&q);
	fill(&q, 0, 1);
	fill(&q, 256, 1);      /* page 0 to the victim table */
	fill(&q, 0, 1);        /* touched again: swapped with page 256 */
	ck_assert_uint_eq(q.t.qemu->slot[0].key, tlb_key(1, 0));
	ck_assert(cached(&q, 256));
	ck_assert_uint_eq(q.t.qemu->n_used, 1);
	tlb_free(&q.t);
}
END_TEST

START_TEST(test_invlpg_frees_a_slot)
{
	struct qtlb q;

	qtlb_init(&q);
	fill(&q, 0, 10);
	ck_assert(tlb_remove(&q.t, tlb_key(1, 3)));
	ck_assert(!cached(&q, 3));
	ck_assert_uint_eq(q.t.qemu->n_used, 9);
	ck_assert_uint_eq(q.t.qemu->size, 256); /* no resize without a full flush */
	tlb_free(&q.t);
}
END_TEST

/* More than 70% in use at a full flush: the size doubles, whenever it
 * comes; between 30% and 70% it stays. */
START_TEST(test_grows_at_a_full_flush)
{
	struct qtlb q;

	qtlb_init(&q);
	fill(&q, 0, 181); /* 70.7% of 256: 70 in qemu's whole percent */
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 256);
	fill(&q, 0, 182); /* 71% */
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 512);
	ck_assert_uint_eq(q.t.qemu->n_used, 0);
	ck_assert(!cached(&q, 5));
	fill(&q, 0, 180); /* 35% of 512 */
	q.now += 500 * MS;
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 512);
	fill(&q, 0, 364); /* 71% */
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 1024);
	ck_assert_uint_eq(q.t.qemu->resizes, 2);
	tlb_free(&q.t);
}
END_TEST

/* Under 30%: it shrinks only once the window is over, to the next power
 * of two above the most in use, doubled if that would be over 70% full,
 * never under 64. */
START_TEST(test_shrinks_after_the_window)
{
	struct qtlb q;

	grown_to_1024(&q);
	fill(&q, 0, 100);         /* 9.8% */
	q.now += 50 * MS;         /* the window (from the resize) is not over */
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 1024);
	q.now += 60 * MS;         /* now it is: 100 seen, 128 would be 78% full */
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 256);
	fill(&q, 0, 10);
	q.now += 101 * MS;
	tlb_flush_all(&q.t);      /* 10 seen: 16, but never under 64 */
	ck_assert_uint_eq(q.t.qemu->size, 64);
	tlb_free(&q.t);
}
END_TEST

/* The window remembers its busiest flush: a quiet flush after a busy one
 * in the same window does not shrink the TLB; when a window ends without
 * a resize, the next one starts from the use at that flush. */
START_TEST(test_window_keeps_its_most)
{
	struct qtlb q;

	grown_to_1024(&q);          /* its window starts here */
	fill(&q, 0, 500);         /* 49% */
	q.now += 20 * MS;
	tlb_flush_all(&q.t);
	fill(&q, 0, 10);
	q.now += 150 * MS;        /* over: most seen 500, kept; next from 10 */
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 1024);
	ck_assert_uint_eq(q.t.qemu->window_max, 10);
	fill(&q, 0, 10);
	q.now += 150 * MS;
	tlb_flush_all(&q.t);
	ck_assert_uint_eq(q.t.qemu->size, 64);
	tlb_free(&q.t);
}
END_TEST

/* Growth stops at twice the pages the TLB can be given. */
START_TEST(test_size_is_capped)
{
	struct qtlb q;
	struct tlb small;
	int i;

	q.now = 0;
	ck_assert_int_eq(tlb_init(&small, 0), 0);
	ck_assert_int_eq(tlb_make_unbounded(&small, 1, 300), 0);
	ck_assert_int_eq(tlb_qemu_attach(&small, &q.now), 0);
	ck_assert_uint_eq(small.qemu->max_size, 1024);
	for (i = 0; i < 6; i++) {
		uint64_t v;

		for (v = 0; v < 300; v++)
			tlb_insert(&small, tlb_key(1, v), 0);
		tlb_flush_all(&small);
	}
	ck_assert_uint_eq(small.qemu->size, 512); /* 300 of 512: 58% */
	tlb_free(&small);
	/* Not unbounded: refused. */
	ck_assert_int_eq(tlb_init(&small, 8), 0);
	ck_assert_int_eq(tlb_qemu_attach(&small, &q.now), -1);
	tlb_free(&small);
}
END_TEST

/* Random fills, removals and flushes: every live entry is in its slot or
 * the victim table, and the slots in use are counted right. */
START_TEST(test_random_operations_stay_consistent)
{
	struct qtlb q;
	struct rng rng;
	int i;

	rng_seed(&rng, 12345);
	qtlb_init(&q);
	for (i = 0; i < 200000; i++) {
		uint64_t op = rng_below(&rng, 1000), v = rng_below(&rng, 4096);

		if (op < 900)
			tlb_insert(&q.t, tlb_key(1, v), 0);
		else if (op < 995)
			tlb_remove(&q.t, tlb_key(1, v));
		else {
			q.now += rng_below(&rng, 200) * MS;
			tlb_flush_all(&q.t);
		}
		if (i % 997 == 0) {
			uint32_t used = 0, live = 0, s;
			uint64_t p;

			for (s = 0; s < q.t.qemu->size; s++) {
				const struct tlb_qemu_slot *sl = &q.t.qemu->slot[s];

				if (!sl->key || sl->epoch != q.t.epoch)
					continue;
				/* A filled slot's page is cached, at its index. */
				ck_assert(tlb_lookup(&q.t, sl->key, NULL));
				ck_assert_uint_eq(tlb_key_vpn(sl->key) & (q.t.qemu->size - 1), s);
				used++;
			}
			ck_assert_uint_eq(used, q.t.qemu->n_used);
			for (p = 0; p < 4096; p++)
				live += cached(&q, p);
			ck_assert_uint_eq(live, q.t.count);
			ck_assert_uint_le(live, used + TLB_QEMU_VICTIMS);
		}
	}
	ck_assert_uint_gt(q.t.qemu->resizes, 2);
	tlb_free(&q.t);
}
END_TEST

/* Dropping an mm's entries empties its slots too. */
START_TEST(test_flush_mm_empties_its_slots)
{
	struct qtlb q;

	qtlb_init(&q);
	fill(&q, 0, 100);
	ck_assert_uint_eq(tlb_flush_mm(&q.t, 1), 100);
	ck_assert_uint_eq(q.t.qemu->n_used, 0);
	fill(&q, 0, 10);
	ck_assert_uint_eq(q.t.qemu->n_used, 10);
	ck_assert_uint_eq(q.t.count, 10);
	tlb_free(&q.t);
}
END_TEST

static Suite *tlb_qemu_suite(void)
{
	Suite *s = suite_create("sim_tlb_qemu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_boot_size_and_direct_mapping);
	tcase_add_test(tc, test_victim_hit_swaps_back);
	tcase_add_test(tc, test_invlpg_frees_a_slot);
	tcase_add_test(tc, test_grows_at_a_full_flush);
	tcase_add_test(tc, test_shrinks_after_the_window);
	tcase_add_test(tc, test_window_keeps_its_most);
	tcase_add_test(tc, test_size_is_capped);
	tcase_add_test(tc, test_random_operations_stay_consistent);
	tcase_add_test(tc, test_flush_mm_empties_its_slots);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(tlb_qemu_suite());
}
