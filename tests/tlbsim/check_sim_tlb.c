// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The TLB model against a plain reference set, through random operations. */
#include <stdlib.h>
#include <string.h>
#include <check.h>
#include "rng.h"
#include "tlb.h"
#include "tlb_tags.h"
#include "suite_runner.h"

#define KEYS 4096

START_TEST(test_tlb_insert_lookup_remove)
{
	struct tlb t;
	uint32_t gen;

	ck_assert_int_eq(tlb_init(&t, 8), 0);
	tlb_insert(&t, tlb_key(1, 10), 5);
	ck_assert(tlb_lookup(&t, tlb_key(1, 10), &gen));
	ck_assert_uint_eq(gen, 5);
	ck_assert(!tlb_lookup(&t, tlb_key(2, 10), NULL));
	tlb_insert(&t, tlb_key(1, 10), 6); /* refresh, not a second entry */
	ck_assert_uint_eq(t.count, 1);
	ck_assert(tlb_lookup(&t, tlb_key(1, 10), &gen));
	ck_assert_uint_eq(gen, 6);
	ck_assert(tlb_remove(&t, tlb_key(1, 10)));
	ck_assert(!tlb_remove(&t, tlb_key(1, 10)));
	ck_assert_uint_eq(t.count, 0);
	tlb_free(&t);
}
END_TEST

/*
 * Two TLBs side by side in one caller-owned block (as a machine keeps
 * its CPUs'): each keeps its own entries, fills only its own slots, and
 * tlb_free() leaves the block to its owner (freeing it would make the
 * block's free() below a double free). No block, no TLB.
 */
START_TEST(test_tlb_init_at_shares_a_block)
{
	uint32_t n = tlb_slots_for(64), i;
	struct tlb_slot *block = aligned_alloc(64, 2 * n * sizeof(*block));
	struct tlb a, b;
	uint64_t v;

	ck_assert_ptr_nonnull(block);
	ck_assert_uint_eq(n, 64);
	ck_assert_uint_eq(tlb_slots_for(5), 5); /* one set of fewer ways */
	/* A TLB's share of a block is its slots on whole cache lines. */
	ck_assert_uint_eq(tlb_bytes_for(64), (64 * sizeof(*block) + 63) / 64 * 64);
	ck_assert_uint_eq(tlb_bytes_for(5) % 64, 0);
	ck_assert_uint_ge(tlb_bytes_for(5), 5 * sizeof(*block));
	ck_assert_uint_lt(tlb_bytes_for(5), 5 * sizeof(*block) + 64);
	ck_assert_int_eq(tlb_init_at(&a, 64, block), 0);
	ck_assert_int_eq(tlb_init_at(&b, 64, block + n), 0);
	for (v = 0; v < 1000; v++)
		tlb_insert(&a, tlb_key(1, v), 1);
	ck_assert_uint_eq(a.count, 64);
	ck_assert_uint_eq(b.count, 0);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(block[n + i].key, 0);
	tlb_insert(&b, tlb_key(2, 7), 3);
	ck_assert(tlb_lookup(&b, tlb_key(2, 7), NULL));
	ck_assert(!tlb_lookup(&a, tlb_key(2, 7), NULL));
	tlb_free(&a);
	tlb_free(&b);
	free(block);
	ck_assert_int_eq(tlb_init_at(&a, 64, NULL), -1);
	tlb_free(&a);
}
END_TEST

START_TEST(test_tlb_capacity_evicts)
{
	struct tlb t;
	uint64_t v;
	unsigned int present = 0;

	ck_assert_int_eq(tlb_init(&t, 64), 0);
	for (v = 0; v < 1000; v++) {
		tlb_insert(&t, tlb_key(1, v), 0);
		ck_assert_uint_le(t.count, 64);
	}
	for (v = 0; v < 1000; v++)
		present += tlb_lookup(&t, tlb_key(1, v), NULL);
	ck_assert_uint_eq(present, 64);
	ck_assert_uint_eq(tlb_capacity(&t), 64);
	ck_assert(tlb_lookup(&t, tlb_key(1, 999), NULL)); /* the newest stays */
	tlb_free(&t);
}
END_TEST

START_TEST(test_tlb_flush_all_and_mm)
{
	struct tlb t;
	uint64_t v;

	ck_assert_int_eq(tlb_init(&t, 512), 0);
	for (v = 0; v < 100; v++) {
		tlb_insert(&t, tlb_key(1, v), 0);
		tlb_insert(&t, tlb_key(2, v), 0);
	}
	ck_assert_uint_eq(tlb_flush_mm(&t, 1), 100);
	for (v = 0; v < 100; v++) {
		ck_assert(!tlb_lookup(&t, tlb_key(1, v), NULL));
		ck_assert(tlb_lookup(&t, tlb_key(2, v), NULL));
	}
	ck_assert_uint_eq(tlb_flush_all(&t), 100);
	ck_assert(!tlb_lookup(&t, tlb_key(2, 5), NULL));
	ck_assert_uint_eq(t.count, 0);
	/* Refills after the epoch bump work as before. */
	tlb_insert(&t, tlb_key(2, 5), 9);
	ck_assert(tlb_lookup(&t, tlb_key(2, 5), NULL));
	tlb_free(&t);
}
END_TEST

START_TEST(test_tlb_matches_reference_model)
{
	static bool ref[KEYS];
	struct rng r;
	struct tlb t;
	unsigned int i, count = 0, bad_at = 0;
	bool bad = false;

	memset(ref, 0, sizeof(ref));
	rng_seed(&r, 99);
	/* Far more sets than keys: no set overflows, nothing is evicted, so
	 * it must match the reference exactly. Plain checks in the loop keep
	 * it quick under valgrind. */
	ck_assert_int_eq(tlb_init(&t, KEYS * TLB_WAYS * 4), 0);
	for (i = 0; i < 100000 && !bad; i++) {
		uint64_t k = rng_below(&r, KEYS);
		unsigned int op = (unsigned int)rng_below(&r, 1000);

		if (op < 500) {
			/* It reports a hit exactly when the key was cached. */
			bad |= tlb_insert(&t, tlb_key(1, k), 0) != ref[k];
			count += !ref[k];
			ref[k] = true;
		} else if (op < 950) {
			bad |= tlb_remove(&t, tlb_key(1, k)) != ref[k];
			count -= ref[k];
			ref[k] = false;
		} else if (op < 999) {
			bad |= tlb_lookup(&t, tlb_key(1, k), NULL) != ref[k];
		} else {
			tlb_flush_all(&t);
			memset(ref, 0, sizeof(ref));
			count = 0;
		}
		bad |= t.count != count;
		bad_at = i;
	}
	ck_assert_msg(!bad, "TLB and reference differ at step %u", bad_at);
	for (i = 0; i < KEYS; i++)
		ck_assert_int_eq(tlb_lookup(&t, tlb_key(1, i), NULL), ref[i]);
	tlb_free(&t);
}
END_TEST

/* Unbounded: nothing in range is ever evicted; flushes and removals act
 * on it as on the set-associative part; keys out of range fall back. */
START_TEST(test_tlb_unbounded_keeps_everything)
{
	struct tlb t;
	uint32_t gen;
	uint64_t v;

	ck_assert_int_eq(tlb_init(&t, 8), 0);
	ck_assert_int_eq(tlb_make_unbounded(&t, 2, 20000), 0);
	for (v = 0; v < 20000; v++)
		ck_assert(!tlb_insert(&t, tlb_key(1, v), (uint32_t)v));
	/* A refresh, not a second entry: reported as a hit. */
	ck_assert(tlb_insert(&t, tlb_key(1, 5), 77));
	ck_assert_uint_eq(t.count, 20000);
	for (v = 0; v < 20000; v++)
		ck_assert(tlb_lookup(&t, tlb_key(1, v), NULL));
	ck_assert(tlb_lookup(&t, tlb_key(1, 5), &gen));
	ck_assert_uint_eq(gen, 77);
	ck_assert(!tlb_lookup(&t, tlb_key(2, 5), NULL));
	ck_assert(tlb_remove(&t, tlb_key(1, 9)));
	ck_assert(!tlb_remove(&t, tlb_key(1, 9)));
	ck_assert(!tlb_lookup(&t, tlb_key(1, 9), NULL));
	/* Out of range (mm 3, page 20000): the 8-entry set-associative part. */
	for (v = 0; v < 100; v++)
		tlb_insert(&t, tlb_key(3, v), 0);
	tlb_insert(&t, tlb_key(1, 20000), 0);
	ck_assert_uint_le(t.count, 19999 + 8);
	tlb_insert(&t, tlb_key(2, 1), 0);
	/* 19999 unbounded entries and page 20000 in the set-associative part. */
	ck_assert_uint_eq(tlb_flush_mm(&t, 1), 20000);
	ck_assert(tlb_lookup(&t, tlb_key(2, 1), NULL));
	ck_assert_uint_ge(tlb_flush_all(&t), 1);
	ck_assert(!tlb_lookup(&t, tlb_key(2, 1), NULL));
	ck_assert_uint_eq(t.count, 0);
	ck_assert(!tlb_insert(&t, tlb_key(2, 1), 3)); /* the flush dropped it */
	ck_assert(tlb_lookup(&t, tlb_key(2, 1), NULL));
	ck_assert_uint_eq(tlb_bytes(&t), 8 * sizeof(struct tlb_slot) +
			  2 * 20000 * sizeof(struct tlb_dense_entry));
	tlb_free(&t);
}
END_TEST

/* Whether the index names @cpu among the CPUs that may cache @key. */
static bool tags_name(const struct tlb_tags *x, uint64_t key, uint32_t cpu)
{
	uint32_t c;

	for (c = tlb_tags_next(x, key, 0); c < x->nr_cpus; c = tlb_tags_next(x, key, c + 1))
		if (c == cpu)
			return true;
	return false;
}

START_TEST(test_tlb_tags_never_miss_a_live_entry)
{
	enum { CPUS = 3, CAP = 64, NR_KEYS = 512 };
	struct tlb t[CPUS];
	struct tlb_tags x;
	struct rng r;
	unsigned int i, c, named = 0, cached = 0;
	bool bad = false;

	rng_seed(&r, 7);
	for (c = 0; c < CPUS; c++)
		ck_assert_int_eq(tlb_init(&t[c], CAP), 0);
	ck_assert_int_eq(tlb_tags_init(&x, CPUS, &t[0]), 0);
	for (c = 0; c < CPUS; c++)
		tlb_attach_tags(&t[c], &x, c);
	/* Inserts (evicting), removals and full flushes, more than 16 of
	 * them so the epoch's 4 bits wrap; after each step the index must
	 * name every CPU that caches the key touched. */
	for (i = 0; i < 200000 && !bad; i++) {
		uint64_t key = tlb_key(1 + (uint32_t)rng_below(&r, 2), rng_below(&r, NR_KEYS));
		unsigned int op = (unsigned int)rng_below(&r, 1000);

		c = (unsigned int)rng_below(&r, CPUS);
		if (op < 600)
			tlb_insert(&t[c], key, 0);
		else if (op < 990)
			tlb_remove(&t[c], key);
		else if (op < 999)
			tlb_flush_all(&t[c]);
		else
			tlb_flush_mm(&t[c], 1);
		for (c = 0; c < CPUS; c++) {
			bool live = tlb_lookup(&t[c], key, NULL), maybe = tags_name(&x, key, c);

			bad |= live && !maybe;
			cached += live;
			named += maybe;
		}
	}
	ck_assert_msg(!bad, "the index ruled out a cached key at step %u", i);
	/* It rules CPUs out too, or it would be of no use. */
	ck_assert_uint_lt(named, cached + (unsigned int)(i * CPUS) / 2);
	tlb_tags_free(&x);
	for (c = 0; c < CPUS; c++)
		tlb_free(&t[c]);
}
END_TEST

/* A blind TLB counts each of its uses, every kind, and works as before. */
START_TEST(test_tlb_blind_counts_every_use)
{
	uint64_t uses = 0;
	struct tlb t;

	ck_assert_int_eq(tlb_init(&t, 8), 0);
	tlb_insert(&t, tlb_key(1, 1), 3);
	ck_assert_uint_eq(uses, 0); /* not yet blind */
	tlb_make_blind(&t, &uses);
	ck_assert(tlb_lookup(&t, tlb_key(1, 1), NULL));
	ck_assert_uint_eq(uses, 1);
	tlb_insert(&t, tlb_key(1, 2), 3);
	ck_assert_uint_eq(uses, 2);
	ck_assert(tlb_remove(&t, tlb_key(1, 2)));
	ck_assert_uint_eq(uses, 3);
	ck_assert_uint_eq(tlb_flush_mm(&t, 1), 1);
	ck_assert_uint_eq(uses, 4);
	tlb_insert(&t, tlb_key(1, 3), 3);
	ck_assert_uint_eq(tlb_flush_all(&t), 1);
	ck_assert_uint_eq(uses, 6);
	tlb_free(&t);
}
END_TEST

static Suite *tlb_suite(void)
{
	Suite *s = suite_create("sim_tlb");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tlb_insert_lookup_remove);
	tcase_add_test(tc, test_tlb_capacity_evicts);
	tcase_add_test(tc, test_tlb_init_at_shares_a_block);
	tcase_add_test(tc, test_tlb_flush_all_and_mm);
	tcase_add_test(tc, test_tlb_matches_reference_model);
	tcase_add_test(tc, test_tlb_unbounded_keeps_everything);
	tcase_add_test(tc, test_tlb_tags_never_miss_a_live_entry);
	tcase_add_test(tc, test_tlb_blind_counts_every_use);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(tlb_suite());
}
