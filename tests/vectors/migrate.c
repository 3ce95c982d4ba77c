// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/migrate.h>
#include <tlbpolicy/fastpath.h>

/*
 * A folio as 6.12 keeps it, reduced to what the decision reads: its order,
 * folio_mapcount(), folio_entire_mapcount() and its first page's
 * _mapcount + 1.
 */
struct kfolio {
	unsigned int order;
	int mapcount, entire_mapcount, first_page_mapcount;
};

/* include/linux/mm.h, folio_likely_mapped_shared() in 6.12. */
static bool k_likely_mapped_shared(const struct kfolio *k)
{
	if (k->order == 0)
		return k->mapcount > 1;
	if (k->mapcount <= 1)
		return false;
	if (k->entire_mapcount || k->mapcount > (1 << k->order))
		return true;
	return k->first_page_mapcount > 1;
}

/*
 * The TTU_BATCH_FLUSH condition of migrate_folio_unmap() under each policy:
 * 6.12's (mode == MIGRATE_ASYNC), the patch's v1 (also reason !=
 * MR_NUMA_MISPLACED), v2 (not a single small folio that is not likely
 * shared) and the reviewer's (more than one folio, or folio_mapcount() > 1).
 */
static bool k_batches(enum tlbp_migrate_batch_policy p, unsigned int mode,
		      unsigned int reason, bool single, const struct kfolio *k)
{
	bool async = mode == TLBP_MIGRATE_ASYNC;

	switch (p) {
	case TLBP_MIGRATE_BATCH_ALWAYS:
		return async;
	case TLBP_MIGRATE_BATCH_SKIP_NUMA:
		return async && reason != TLBP_MR_NUMA_MISPLACED;
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE:
		return async && !(single && k->order == 0 &&
				  !k_likely_mapped_shared(k));
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT:
		return async && (!single || k->mapcount > 1);
	default:
		ck_abort_msg("unknown policy");
		return false;
	}
}

#define MAX_STATES 128
/* Kept off the stack: a kernel stack frame has 2 KiB at most. */
static struct kfolio states[MAX_STATES];

/* Folio states the kernel can hold: small, a 64 KiB mTHP, a 2 MiB THP. */
static unsigned int kfolio_states(struct kfolio *out, unsigned int max)
{
	static const unsigned int orders[] = { 0, 4, 9 };
	static const int mapcounts[] = { 0, 1, 2, 3, 16, 17, 512, 1024 };
	unsigned int o, m, n = 0;
	int e, first;

	for (o = 0; o < 3; o++)
	for (m = 0; m < sizeof(mapcounts) / sizeof(mapcounts[0]); m++) {
		int mc = mapcounts[m];

		if (orders[o] == 0) {
			if (mc <= 3 && n < max)
				out[n++] = (struct kfolio){ 0, mc, 0, mc };
			continue;
		}
		/* PMD mapped (entire) or not, first page mapped 0..2 times. */
		for (e = 0; e <= (orders[o] == 9); e++)
		for (first = 0; first <= 2; first++) {
			if (first > mc || e > mc || first > mc - e)
				continue;
			if (n < max)
				out[n++] = (struct kfolio){ orders[o], mc, e, first };
		}
	}
	return n;
}

TV_CASE(test_migrate_should_batch_exhaustive_table)
{
	static const unsigned int nr_folios[] = { 1, 2, 512 };
	struct tlbp_migrate_folio f;
	struct tlbp_migrate_decision d;
	unsigned int nr_states, p, m, n, k, r, cells = 0, wrong = 0;
	int err;
	char first[200] = "";

	nr_states = kfolio_states(states, MAX_STATES);
	ck_assert_uint_lt(nr_states, MAX_STATES);
	for (p = 0; p < TLBP_MIGRATE_BATCH_POLICY_NR; p++)
	for (m = TLBP_MIGRATE_ASYNC; m <= TLBP_MIGRATE_SYNC; m++)
	for (n = 0; n < 3; n++)
	for (k = 0; k < nr_states; k++)
	for (r = 0; r < TLBP_MR_NR; r++) {
		const struct kfolio *kf = &states[k];
		bool want_err, want_batch;

		f = (struct tlbp_migrate_folio){
			.mode = m, .reason = r, .nr_folios = nr_folios[n],
			.order = kf->order, .mapcount = kf->mapcount,
			.maybe_mapped_shared = k_likely_mapped_shared(kf),
		};
		want_batch = k_batches(p, m, r, nr_folios[n] == 1, kf);
		d.batch = !want_batch;
		err = tlbp_migrate_should_batch(p, &f, &d);
		/* migrate_pages_sync() retries one folio at a time. */
		want_err = m != TLBP_MIGRATE_ASYNC && f.nr_folios > 1;
		cells++;
		if ((want_err ? err != -EINVAL : err != 0) ||
		    d.batch != want_batch ||
		    (!want_err &&
		     tlbp_migrate_should_batch_fast(p, m, r, f.nr_folios, f.order,
						    f.mapcount) != want_batch) ||
		    (want_err && d.why != TLBP_MB_SYNC_MULTI_FOLIO) ||
		    (d.batch != (d.why == TLBP_MB_ASYNC))) {
			if (!wrong++)
				snprintf(first, sizeof(first),
					 "policy %u mode %u nr %u order %u mapcount %d entire %d first %d reason %u: err %d batch %d why %d",
					 p, m, f.nr_folios, f.order, kf->mapcount,
					 kf->entire_mapcount, kf->first_page_mapcount,
					 r, err, d.batch, d.why);
		}
	}
	ck_assert_uint_eq(cells, 4 * 3 * 3 * nr_states * TLBP_MR_NR);
	ck_assert_msg(wrong == 0, "%u cells wrong, first: %s", wrong, first);
}

/* Whether some kernel folio has this order, mapcount and shared hint. */
static bool kernel_can_hold(unsigned int order, int mapcount, bool shared)
{
	unsigned int i, n = kfolio_states(states, MAX_STATES);

	for (i = 0; i < n; i++)
		if (states[i].order == order && states[i].mapcount == mapcount &&
		    k_likely_mapped_shared(&states[i]) == shared)
			return true;
	return false;
}

TV_CASE(test_migrate_should_batch_refuses_impossible_folios)
{
	static const unsigned int orders[] = { 0, 4, 9 };
	static const int mapcounts[] = { 0, 1, 2, 3, 16, 17, 512, 1024 };
	unsigned int o, m, p, refused = 0;
	int sh;

	for (o = 0; o < 3; o++)
	for (m = 0; m < sizeof(mapcounts) / sizeof(mapcounts[0]); m++)
	for (sh = 0; sh <= 1; sh++) {
		struct tlbp_migrate_folio f = {
			.mode = TLBP_MIGRATE_ASYNC, .reason = TLBP_MR_COMPACTION,
			.nr_folios = 1, .order = orders[o],
			.mapcount = mapcounts[m], .maybe_mapped_shared = sh,
		};
		bool possible = kernel_can_hold(orders[o], mapcounts[m], sh);

		if (orders[o] == 0 && mapcounts[m] > 3)
			continue; /* kfolio_states() lists small ones up to 3 */
		for (p = 0; p < TLBP_MIGRATE_BATCH_POLICY_NR; p++) {
			struct tlbp_migrate_decision d = { .batch = true, .why = 77 };
			int err = tlbp_migrate_should_batch(p, &f, &d);

			ck_assert_msg(possible ? err == 0 : err == -EINVAL,
				      "order %u mapcount %d shared %d: err %d",
				      orders[o], mapcounts[m], sh, err);
			if (!possible) {
				ck_assert(d.batch);
				ck_assert_int_eq(d.why, 77);
			}
		}
		refused += !possible;
	}
	/*
	 * small: mapcount 0, 1 marked shared and 2, 3 not; large: mapcount
	 * 0, 1 marked shared, and not shared above 2^order pages (17, 512,
	 * 1024 for order 4; 1024 for order 9).
	 */
	ck_assert_uint_eq(refused, 4 + (2 + 3) + (2 + 1));
}

TV_CASE(test_migrate_should_batch_empty_batch)
{
	unsigned int p, m;

	/* The kernel never unmaps from an empty batch, in any mode. */
	for (p = 0; p < TLBP_MIGRATE_BATCH_POLICY_NR; p++)
	for (m = TLBP_MIGRATE_ASYNC; m <= TLBP_MIGRATE_SYNC; m++) {
		struct tlbp_migrate_folio f = {
			.mode = m, .reason = TLBP_MR_NUMA_MISPLACED,
			.nr_folios = 0, .mapcount = 1,
		};
		struct tlbp_migrate_decision d = { .batch = true, .why = 77 };

		ck_assert_int_eq(tlbp_migrate_should_batch(p, &f, &d), -EINVAL);
		ck_assert(d.batch);
		ck_assert_int_eq(d.why, 77);
	}
}

static struct tlbp_migrate_decision decide(enum tlbp_migrate_batch_policy p,
					   unsigned int nr, unsigned int order,
					   int mapcount, bool shared,
					   enum tlbp_migrate_reason reason)
{
	struct tlbp_migrate_folio f = {
		.mode = TLBP_MIGRATE_ASYNC, .reason = reason, .nr_folios = nr,
		.order = order, .mapcount = mapcount,
		.maybe_mapped_shared = shared,
	};
	struct tlbp_migrate_decision d;

	ck_assert_int_eq(tlbp_migrate_should_batch(p, &f, &d), 0);
	return d;
}

TV_CASE(test_migrate_should_batch_large_folio_mapped_once)
{
	/* skip-single keeps batching a large folio: its PTEs share a flush. */
	ck_assert(decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE, 1, 9, 1, false,
			 TLBP_MR_NUMA_MISPLACED).batch);
	/* skip-single-mapcount only sees one folio mapped once. */
	ck_assert_int_eq(decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT, 1, 9, 1,
				false, TLBP_MR_NUMA_MISPLACED).why,
			 TLBP_MB_SINGLE_MAPPED_ONCE);
	ck_assert(!decide(TLBP_MIGRATE_BATCH_SKIP_NUMA, 1, 9, 1, false,
			  TLBP_MR_NUMA_MISPLACED).batch);
	ck_assert(decide(TLBP_MIGRATE_BATCH_ALWAYS, 1, 9, 1, false,
			 TLBP_MR_NUMA_MISPLACED).batch);
}

TV_CASE(test_migrate_should_batch_small_folio_mapped_twice)
{
	/* For a small folio the kernel's shared hint is mapcount > 1, so
	 * skip-single and skip-single-mapcount are one rule: both batch. */
	ck_assert(decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE, 1, 0, 2, true,
			 TLBP_MR_NUMA_MISPLACED).batch);
	ck_assert(decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT, 1, 0, 2, true,
			 TLBP_MR_NUMA_MISPLACED).batch);
	/* skip-numa still skips it: the reason decides, not the mappings. */
	ck_assert_int_eq(decide(TLBP_MIGRATE_BATCH_SKIP_NUMA, 1, 0, 2, true,
				TLBP_MR_NUMA_MISPLACED).why,
			 TLBP_MB_NUMA_MISPLACED);
}

TV_CASE(test_migrate_should_batch_split_subfolios)
{
	unsigned int p;

	/* A split THP arrives as 512 small folios, each mapped once. */
	for (p = TLBP_MIGRATE_BATCH_ALWAYS; p <= TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT; p++) {
		struct tlbp_migrate_decision d =
			decide(p, 512, 0, 1, false, TLBP_MR_COMPACTION);

		ck_assert(d.batch);
		ck_assert_int_eq(d.why, TLBP_MB_ASYNC);
	}
	/* skip-numa alone refuses them when NUMA balancing split the THP. */
	ck_assert_int_eq(decide(TLBP_MIGRATE_BATCH_SKIP_NUMA, 512, 0, 1, false,
				TLBP_MR_NUMA_MISPLACED).why,
			 TLBP_MB_NUMA_MISPLACED);
}

TV_CASE(test_migrate_should_batch_single_small_numa)
{
	/* The case the patch is about: every new policy skips it. */
	ck_assert(decide(TLBP_MIGRATE_BATCH_ALWAYS, 1, 0, 1, false, TLBP_MR_NUMA_MISPLACED).batch);
	ck_assert(!decide(TLBP_MIGRATE_BATCH_SKIP_NUMA, 1, 0, 1, false, TLBP_MR_NUMA_MISPLACED).batch);
	ck_assert(!decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE, 1, 0, 1, false, TLBP_MR_NUMA_MISPLACED).batch);
	ck_assert(!decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT, 1, 0, 1, false, TLBP_MR_NUMA_MISPLACED).batch);
	/* ...but skip-numa still batches it for compaction. */
	ck_assert(decide(TLBP_MIGRATE_BATCH_SKIP_NUMA, 1, 0, 1, false, TLBP_MR_COMPACTION).batch);
}

TV_CASE(test_migrate_should_batch_sync_modes)
{
	struct tlbp_migrate_folio f = {
		.mode = TLBP_MIGRATE_SYNC_LIGHT, .reason = TLBP_MR_SYSCALL,
		.nr_folios = 1, .mapcount = 3, .maybe_mapped_shared = true,
	};
	struct tlbp_migrate_decision d = { .batch = true };

	ck_assert_int_eq(tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_ALWAYS, &f, &d), 0);
	ck_assert(!d.batch);
	ck_assert_int_eq(d.why, TLBP_MB_SYNC_MODE);
	f.mode = TLBP_MIGRATE_SYNC;
	f.nr_folios = 2;
	d.batch = true;
	ck_assert_int_eq(tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_ALWAYS, &f, &d), -EINVAL);
	ck_assert(!d.batch);
	ck_assert_int_eq(d.why, TLBP_MB_SYNC_MULTI_FOLIO);
}

TV_CASE(test_migrate_should_batch_bad_input)
{
	struct tlbp_migrate_folio f = { .mode = TLBP_MIGRATE_ASYNC, .nr_folios = 1 };
	struct tlbp_migrate_decision d = { .batch = true, .why = 77 };

	ck_assert_int_eq(tlbp_migrate_should_batch(0, NULL, &d), -EINVAL);
	ck_assert_int_eq(tlbp_migrate_should_batch(0, &f, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_POLICY_NR, &f, &d), -EINVAL);
	ck_assert_int_eq(tlbp_migrate_should_batch((enum tlbp_migrate_batch_policy)-1, &f, &d), -EINVAL);
	f.mode = (enum tlbp_migrate_mode)3;
	ck_assert_int_eq(tlbp_migrate_should_batch(0, &f, &d), -EINVAL);
	f.mode = TLBP_MIGRATE_ASYNC;
	f.reason = TLBP_MR_NR;
	ck_assert_int_eq(tlbp_migrate_should_batch(0, &f, &d), -EINVAL);
	f.reason = TLBP_MR_COMPACTION;
	f.mapcount = -1;
	ck_assert_int_eq(tlbp_migrate_should_batch(0, &f, &d), -EINVAL);
	ck_assert(d.batch);
	ck_assert_int_eq(d.why, 77);
}

TV_CASE(test_migrate_batch_policy_name_all)
{
	ck_assert_str_eq(tlbp_migrate_batch_policy_name(TLBP_MIGRATE_BATCH_ALWAYS), "always");
	ck_assert_str_eq(tlbp_migrate_batch_policy_name(TLBP_MIGRATE_BATCH_SKIP_NUMA), "skip-numa");
	ck_assert_str_eq(tlbp_migrate_batch_policy_name(TLBP_MIGRATE_BATCH_SKIP_SINGLE), "skip-single");
	ck_assert_str_eq(tlbp_migrate_batch_policy_name(TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT),
			 "skip-single-mapcount");
	ck_assert_ptr_null(tlbp_migrate_batch_policy_name(TLBP_MIGRATE_BATCH_POLICY_NR));
}

const struct tv_case tv_migrate_cases[] = {
	TV_ENTRY(test_migrate_should_batch_exhaustive_table, NULL),
	TV_ENTRY(test_migrate_should_batch_refuses_impossible_folios, NULL),
	TV_ENTRY(test_migrate_should_batch_empty_batch, NULL),
	TV_ENTRY(test_migrate_should_batch_large_folio_mapped_once, NULL),
	TV_ENTRY(test_migrate_should_batch_small_folio_mapped_twice, NULL),
	TV_ENTRY(test_migrate_should_batch_split_subfolios, NULL),
	TV_ENTRY(test_migrate_should_batch_single_small_numa, NULL),
	TV_ENTRY(test_migrate_should_batch_sync_modes, NULL),
	TV_ENTRY(test_migrate_should_batch_bad_input, NULL),
	TV_ENTRY(test_migrate_batch_policy_name_all, NULL),
};
const unsigned int tv_migrate_nr_cases =
	sizeof(tv_migrate_cases) / sizeof(tv_migrate_cases[0]);
