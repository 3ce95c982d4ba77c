// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/gather.h>
#include "fake_ops.h"

#define PAGE 4096ULL

static struct fake_ops fake;
static struct tlbp_mm mm;
static unsigned long cpu_bits[1];
static struct tlbp_cpuset cpus;

static void setup(void)
{
	fake_ops_reset(&fake);
	ck_assert_int_eq(tlbp_mm_init(&mm, &fake_flush_ops, &fake), 0);
	ck_assert_int_eq(tlbp_cpuset_init(&cpus, cpu_bits, sizeof(cpu_bits), 8), 0);
	tlbp_cpuset_set(&cpus, 3);
}

TV_CASE(test_gather_begin_raises_flush_pending)
{
	struct tlbp_gather g;

	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 12), 0);
	ck_assert(tlbp_mm_flush_pending(&mm));
	/* A PROT_NONE PTE now counts as accessible. */
	ck_assert(tlbp_pte_accessible(&mm, TLBP_PTE_PROTNONE));
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, NULL), 0);
	ck_assert(!tlbp_mm_flush_pending(&mm));
	ck_assert(!tlbp_pte_accessible(&mm, TLBP_PTE_PROTNONE));
}

TV_CASE(test_gather_finish_nothing_cleared)
{
	enum tlbp_flush_reason why = TLBP_FLUSH_RANGED;
	struct tlbp_gather g;

	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 12), 0);
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_NOT_REQUIRED);
	ck_assert_uint_eq(fake.nr_calls, 0);
}

TV_CASE(test_gather_finish_ranged_and_ceiling)
{
	enum tlbp_flush_reason why;
	struct tlbp_gather g;

	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 12), 0);
	ck_assert_int_eq(tlbp_gather_add(&g, 10 * PAGE, 11 * PAGE), 0);
	ck_assert_int_eq(tlbp_gather_add(&g, 42 * PAGE, 43 * PAGE), 0);
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert_uint_eq(fake.log[0].start, 10 * PAGE);
	ck_assert_uint_eq(fake.log[0].end, 43 * PAGE);
	ck_assert_uint_eq(fake.log[0].nr_pages, 33);
	ck_assert_ptr_eq(fake.log[0].mm, &mm);
	ck_assert_uint_eq(fake.log[0].first_cpu, 3);

	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 12), 0);
	ck_assert_int_eq(tlbp_gather_add(&g, 0, 34 * PAGE), 0);
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_CEILING);
	ck_assert(fake.log[1].full);
}

TV_CASE(test_gather_finish_nested_full)
{
	enum tlbp_flush_reason why;
	struct tlbp_gather a, b;

	ck_assert_int_eq(tlbp_gather_begin(&a, &mm, 33, 12), 0);
	ck_assert_int_eq(tlbp_gather_begin(&b, &mm, 33, 12), 0);
	ck_assert(tlbp_mm_flush_nested(&mm));
	/* b found the PTEs a cleared and skipped them: still flush all. */
	ck_assert_int_eq(tlbp_gather_finish(&b, &cpus, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_FULL_NESTED);
	ck_assert(fake.log[0].full);
	ck_assert_int_eq(tlbp_gather_add(&a, 0, PAGE), 0);
	ck_assert_int_eq(tlbp_gather_finish(&a, &cpus, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert(!tlbp_mm_flush_pending(&mm));
}

TV_CASE(test_gather_finish_flush_fails_stays_active)
{
	enum tlbp_flush_reason why;
	struct tlbp_gather g;

	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 12), 0);
	ck_assert_int_eq(tlbp_gather_add(&g, 0, PAGE), 0);
	fake_ops_fail(&fake, FAKE_FLUSH, -EAGAIN, 1);
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, &why), -EAGAIN);
	/* Still pending: a PROT_NONE PTE it made must still count as cached. */
	ck_assert(tlbp_mm_flush_pending(&mm));
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, &why), 0);
	ck_assert_int_eq(why, TLBP_FLUSH_RANGED);
	ck_assert(!tlbp_mm_flush_pending(&mm));
	ck_assert_uint_eq(fake.nr[FAKE_FLUSH], 2);
}

TV_CASE(test_gather_bad_input)
{
	struct tlbp_gather g = { 0 };

	ck_assert_int_eq(tlbp_gather_begin(NULL, &mm, 33, 12), -EINVAL);
	ck_assert_int_eq(tlbp_gather_begin(&g, NULL, 33, 12), -EINVAL);
	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 11), -EINVAL);
	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 22), -EINVAL);
	ck_assert(!tlbp_mm_flush_pending(&mm));
	ck_assert_int_eq(tlbp_gather_add(&g, 0, PAGE), -EINVAL); /* inactive */
	ck_assert_int_eq(tlbp_gather_add(NULL, 0, PAGE), -EINVAL);
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 12), 0);
	ck_assert_int_eq(tlbp_gather_add(&g, PAGE, PAGE), -EINVAL);
	ck_assert_int_eq(tlbp_gather_add(&g, 1, PAGE), -EINVAL);
	ck_assert_int_eq(tlbp_gather_add(&g, 0, PAGE + 1), -EINVAL);
	ck_assert_int_eq(tlbp_gather_finish(NULL, &cpus, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_gather_finish(&g, NULL, NULL), -EINVAL);
	/* The rejected calls left it active and empty. */
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, NULL), 0);
	ck_assert_uint_eq(fake.nr_calls, 0);
}

TV_CASE(test_gather_full_request_fields)
{
	struct tlbp_gather g;

	ck_assert_int_eq(tlbp_gather_begin(&g, &mm, 33, 21), 0); /* 2 MiB pages */
	ck_assert_int_eq(tlbp_gather_add(&g, 0, 40ULL << 21), 0);
	ck_assert_int_eq(tlbp_gather_finish(&g, &cpus, NULL), 0);
	ck_assert(fake.log[0].full);
	ck_assert_uint_eq(fake.log[0].start, 0);
	ck_assert_uint_eq(fake.log[0].nr_pages, 0);
	/* A protection change unmaps nothing and dirties nothing. */
	ck_assert(!fake.log[0].unmapped);
	ck_assert(!fake.log[0].writable);
	/* Finished: no longer takes ranges, even well-formed ones. */
	ck_assert_int_eq(tlbp_gather_add(&g, 0, 1ULL << 21), -EINVAL);
}

const struct tv_case tv_gather_cases[] = {
	TV_ENTRY(test_gather_begin_raises_flush_pending, setup),
	TV_ENTRY(test_gather_finish_nothing_cleared, setup),
	TV_ENTRY(test_gather_finish_ranged_and_ceiling, setup),
	TV_ENTRY(test_gather_finish_nested_full, setup),
	TV_ENTRY(test_gather_finish_flush_fails_stays_active, setup),
	TV_ENTRY(test_gather_bad_input, setup),
	TV_ENTRY(test_gather_full_request_fields, setup),
};
const unsigned int tv_gather_nr_cases =
	sizeof(tv_gather_cases) / sizeof(tv_gather_cases[0]);
