// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/migrate.h>

/*
 * The policies' definitions, transcribed from the table in the spec: the
 * expected answer for every cell of the exhaustive sweep.
 */
static bool table_batches(enum tlbp_migrate_batch_policy p,
			  const struct tlbp_migrate_folio *f)
{
	bool async = f->mode == TLBP_MIGRATE_ASYNC;

	switch (p) {
	case TLBP_MIGRATE_BATCH_ALWAYS:
		return async;
	case TLBP_MIGRATE_BATCH_SKIP_NUMA:
		return async && f->reason != TLBP_MR_NUMA_MISPLACED;
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE:
		return async && !(f->nr_folios == 1 && f->order == 0 &&
				  !f->maybe_mapped_shared);
	case TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT:
		return async && (f->nr_folios > 1 || f->mapcount > 1);
	default:
		ck_abort_msg("unknown policy");
		return false;
	}
}

TV_CASE(test_migrate_should_batch_exhaustive_table)
{
	static const unsigned int nr_folios[] = { 0, 1, 2, 512 };
	static const unsigned int orders[] = { 0, 4, 9 };
	struct tlbp_migrate_folio f;
	struct tlbp_migrate_decision d;
	unsigned int p, m, n, o, r, cells = 0, wrong = 0;
	int mc, sh, err;
	char first[160] = "";

	for (p = 0; p < TLBP_MIGRATE_BATCH_POLICY_NR; p++)
	for (m = TLBP_MIGRATE_ASYNC; m <= TLBP_MIGRATE_SYNC; m++)
	for (n = 0; n < 4; n++)
	for (o = 0; o < 3; o++)
	for (mc = 0; mc <= 3; mc++)
	for (sh = 0; sh <= 1; sh++)
	for (r = 0; r < TLBP_MR_NR; r++) {
		bool want_err, want_batch;

		f = (struct tlbp_migrate_folio){
			.mode = m, .reason = r, .nr_folios = nr_folios[n],
			.order = orders[o], .mapcount = mc,
			.maybe_mapped_shared = sh,
		};
		d.batch = !table_batches(p, &f);
		err = tlbp_migrate_should_batch(p, &f, &d);
		want_err = m != TLBP_MIGRATE_ASYNC && f.nr_folios > 1;
		want_batch = table_batches(p, &f);
		cells++;
		if ((want_err ? err != -EINVAL : err != 0) ||
		    d.batch != want_batch ||
		    (want_err && d.why != TLBP_MB_SYNC_MULTI_FOLIO) ||
		    (d.batch != (d.why == TLBP_MB_ASYNC))) {
			if (!wrong++)
				snprintf(first, sizeof(first),
					 "policy %u mode %u nr %u order %u mapcount %d shared %d reason %u: err %d batch %d why %d",
					 p, m, f.nr_folios, f.order, mc, sh, r, err, d.batch, d.why);
		}
	}
	ck_assert_uint_eq(cells, 4 * 3 * 4 * 3 * 4 * 2 * TLBP_MR_NR);
	ck_assert_msg(wrong == 0, "%u cells wrong, first: %s", wrong, first);
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
	/* Two processes map it but the shared hint is not (yet) set. */
	ck_assert_int_eq(decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE, 1, 0, 2, false,
				TLBP_MR_NUMA_MISPLACED).why,
			 TLBP_MB_SINGLE_SMALL);
	ck_assert(decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE_MAPCOUNT, 1, 0, 2, false,
			 TLBP_MR_NUMA_MISPLACED).batch);
	/* With the hint, skip-single batches too. */
	ck_assert(decide(TLBP_MIGRATE_BATCH_SKIP_SINGLE, 1, 0, 2, true,
			 TLBP_MR_NUMA_MISPLACED).batch);
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
		.nr_folios = 1, .mapcount = 3,
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
