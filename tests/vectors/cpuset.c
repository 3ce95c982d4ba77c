// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/cpuset.h>

#define MAXW TLBP_CPUSET_WORDS(TLBP_CPUSET_MAX_CPUS)

static unsigned long buf[MAXW];
static struct tlbp_cpuset set;

static void setup_set(unsigned int nr)
{
	ck_assert_int_eq(tlbp_cpuset_init(&set, buf, sizeof(buf), nr), 0);
}

TV_CASE(test_cpuset_size_bounds)
{
	ck_assert_uint_eq(tlbp_cpuset_size(0), 0);
	ck_assert_uint_eq(tlbp_cpuset_size(1), sizeof(unsigned long));
	ck_assert_uint_eq(tlbp_cpuset_size(64), 64 / 8);
	ck_assert_uint_eq(tlbp_cpuset_size(65), 2 * sizeof(unsigned long));
	ck_assert_uint_eq(tlbp_cpuset_size(8192), 8192 / 8);
	ck_assert_uint_eq(tlbp_cpuset_size(8193), 0);
}

TV_CASE(test_cpuset_init_bad_input)
{
	struct tlbp_cpuset s = { .bits = (unsigned long *)0x1, .nr_cpus = 7 };
	unsigned long small[1] = { 0xdead };

	ck_assert_int_eq(tlbp_cpuset_init(NULL, buf, sizeof(buf), 4), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_init(&s, NULL, sizeof(buf), 4), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_init(&s, buf, sizeof(buf), 0), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_init(&s, buf, sizeof(buf), 8193), -E2BIG);
	ck_assert_int_eq(tlbp_cpuset_init(&s, small, sizeof(small), 65), -ENOSPC);
	/* Rejected calls leave the set and the storage untouched. */
	ck_assert_ptr_eq(s.bits, (unsigned long *)0x1);
	ck_assert_uint_eq(s.nr_cpus, 7);
	ck_assert_uint_eq(small[0], 0xdead);
}

TV_CASE(test_cpuset_init_clears_storage)
{
	memset(buf, 0xff, sizeof(buf));
	setup_set(130);
	ck_assert(tlbp_cpuset_empty(&set));
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 0);
	ck_assert_uint_eq(tlbp_cpuset_nr_cpus(&set), 130);
}

TV_CASE(test_cpuset_wrap_keeps_bits)
{
	unsigned long words[2] = { 0x5, 0x1 };
	struct tlbp_cpuset s;

	ck_assert_int_eq(tlbp_cpuset_wrap(&s, words, sizeof(words), 65), 0);
	ck_assert_uint_eq(tlbp_cpuset_weight(&s), 3);
	ck_assert(tlbp_cpuset_test(&s, 64));
}

TV_CASE(test_cpuset_wrap_rejects_tail_bits)
{
	unsigned long words[2] = { 0, 0x2 };
	struct tlbp_cpuset s = { 0 };

	ck_assert_int_eq(tlbp_cpuset_wrap(&s, words, sizeof(words), 65), -EINVAL);
	ck_assert_ptr_null(s.bits);
	ck_assert_int_eq(tlbp_cpuset_wrap(&s, NULL, 8, 1), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_wrap(&s, words, 8, 65), -ENOSPC);
	/* A full last word has no tail to check. */
	words[1] = ~0UL;
	ck_assert_int_eq(tlbp_cpuset_wrap(&s, words, sizeof(words), 128), 0);
	ck_assert_uint_eq(tlbp_cpuset_weight(&s), 64);
}

TV_CASE(test_cpuset_set_clear_test)
{
	setup_set(200);
	ck_assert_int_eq(tlbp_cpuset_set(&set, 0), 0);
	ck_assert_int_eq(tlbp_cpuset_set(&set, 63), 0);
	ck_assert_int_eq(tlbp_cpuset_set(&set, 64), 0);
	ck_assert_int_eq(tlbp_cpuset_set(&set, 199), 0);
	ck_assert(tlbp_cpuset_test(&set, 63));
	ck_assert(tlbp_cpuset_test(&set, 64));
	ck_assert(!tlbp_cpuset_test(&set, 65));
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 4);
	ck_assert(!tlbp_cpuset_empty(&set));
	ck_assert_int_eq(tlbp_cpuset_clear(&set, 63), 0);
	ck_assert(!tlbp_cpuset_test(&set, 63));
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 3);
}

TV_CASE(test_cpuset_set_out_of_range)
{
	setup_set(200);
	ck_assert_int_eq(tlbp_cpuset_set(&set, 200), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_set(NULL, 1), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_clear(&set, 200), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_clear(NULL, 1), -EINVAL);
	ck_assert(!tlbp_cpuset_test(&set, 200));
	ck_assert(!tlbp_cpuset_test(NULL, 0));
	/* Storage past nr_cpus was not written. */
	ck_assert(tlbp_cpuset_empty(&set));
	ck_assert_uint_eq(buf[200 / TLBP_BITS_PER_LONG], 0);
}

TV_CASE(test_cpuset_null_queries)
{
	ck_assert(tlbp_cpuset_empty(NULL));
	ck_assert_uint_eq(tlbp_cpuset_weight(NULL), 0);
	ck_assert_uint_eq(tlbp_cpuset_nr_cpus(NULL), 0);
	ck_assert_uint_eq(tlbp_cpuset_next(NULL, 0), 0);
	ck_assert_uint_eq(tlbp_cpuset_any_but(NULL, 0), 0);
	tlbp_cpuset_zero(NULL);
}

TV_CASE(test_cpuset_or_merges_words)
{
	unsigned long sbuf[MAXW];
	struct tlbp_cpuset src;

	setup_set(8192);
	ck_assert_int_eq(tlbp_cpuset_init(&src, sbuf, sizeof(sbuf), 384), 0);
	tlbp_cpuset_set(&src, 383);
	tlbp_cpuset_set(&src, 5);
	tlbp_cpuset_set(&set, 8191);
	ck_assert_int_eq(tlbp_cpuset_or(&set, &src), 0);
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 3);
	ck_assert(tlbp_cpuset_test(&set, 383));
	ck_assert(tlbp_cpuset_test(&set, 8191));
}

TV_CASE(test_cpuset_or_equal_sizes_and_bounds)
{
	unsigned long sbuf[2] = { 0, ~0UL }; /* second word: a sentinel */
	struct tlbp_cpuset src;

	/* Equal sizes are fine; the source's words end where its CPUs do. */
	setup_set(64);
	ck_assert_int_eq(tlbp_cpuset_init(&src, sbuf, sizeof(sbuf[0]), 64), 0);
	sbuf[1] = ~0UL;
	tlbp_cpuset_set(&src, 3);
	ck_assert_int_eq(tlbp_cpuset_or(&set, &src), 0);
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 1);
	setup_set(128);
	ck_assert_int_eq(tlbp_cpuset_or(&set, &src), 0);
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 1);
	ck_assert(!tlbp_cpuset_test(&set, 64));
}

TV_CASE(test_cpuset_or_larger_source)
{
	unsigned long sbuf[MAXW];
	struct tlbp_cpuset src;

	setup_set(64);
	ck_assert_int_eq(tlbp_cpuset_init(&src, sbuf, sizeof(sbuf), 65), 0);
	tlbp_cpuset_set(&src, 1);
	ck_assert_int_eq(tlbp_cpuset_or(&set, &src), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_copy(&set, &src), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_or(NULL, &src), -EINVAL);
	ck_assert_int_eq(tlbp_cpuset_or(&set, NULL), -EINVAL);
	ck_assert(tlbp_cpuset_empty(&set));
}

TV_CASE(test_cpuset_copy_clears_rest)
{
	unsigned long sbuf[2];
	struct tlbp_cpuset src;

	setup_set(1024);
	tlbp_cpuset_set(&set, 1000);
	tlbp_cpuset_set(&set, 2);
	ck_assert_int_eq(tlbp_cpuset_init(&src, sbuf, sizeof(sbuf), 100), 0);
	tlbp_cpuset_set(&src, 99);
	ck_assert_int_eq(tlbp_cpuset_copy(&set, &src), 0);
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 1);
	ck_assert(tlbp_cpuset_test(&set, 99));
}

TV_CASE(test_cpuset_next_walks_8192)
{
	unsigned int cpu, n = 0, last = 0;

	setup_set(8192);
	for (cpu = 3; cpu < 8192; cpu += 97)
		tlbp_cpuset_set(&set, cpu);
	tlbp_cpuset_set(&set, 8191);
	for (cpu = tlbp_cpuset_next(&set, 0); cpu < 8192;
	     cpu = tlbp_cpuset_next(&set, cpu + 1)) {
		ck_assert(tlbp_cpuset_test(&set, cpu));
		ck_assert(n == 0 || cpu > last);
		last = cpu;
		n++;
	}
	ck_assert_uint_eq(n, tlbp_cpuset_weight(&set));
	ck_assert_uint_eq(last, 8191);
	ck_assert_uint_eq(tlbp_cpuset_next(&set, 8192), 8192);
	ck_assert_uint_eq(tlbp_cpuset_next(&set, 100000), 8192);
}

TV_CASE(test_cpuset_next_empty)
{
	setup_set(130);
	ck_assert_uint_eq(tlbp_cpuset_next(&set, 0), 130);
	ck_assert_uint_eq(tlbp_cpuset_next(&set, 129), 130);
}

TV_CASE(test_cpuset_any_but_cases)
{
	setup_set(384);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 0), 384);
	tlbp_cpuset_set(&set, 7);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 7), 384);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 3), 7);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 999), 7);
	tlbp_cpuset_set(&set, 300);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 7), 300);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 300), 7);
}

/* Storage past the set's last word must never be read or written. */
TV_CASE(test_cpuset_bounds_respect_storage)
{
	unsigned long words[3] = { 0, 0, ~0UL }; /* third word: a sentinel */
	unsigned long src_words[2] = { 0, 0 };
	struct tlbp_cpuset s, src;

	ck_assert_int_eq(tlbp_cpuset_init(&s, words, 2 * sizeof(unsigned long), 128), 0);
	ck_assert_uint_eq(words[2], ~0UL);
	ck_assert(!tlbp_cpuset_test(&s, 128));
	ck_assert_uint_eq(tlbp_cpuset_next(&s, 128), 128);
	ck_assert_int_eq(tlbp_cpuset_init(&src, src_words, sizeof(src_words), 64), 0);
	ck_assert_int_eq(tlbp_cpuset_copy(&s, &src), 0);
	ck_assert_uint_eq(words[2], ~0UL);
	tlbp_cpuset_zero(&s);
	ck_assert_uint_eq(words[2], ~0UL);
}

TV_CASE(test_cpuset_empty_sees_every_word)
{
	setup_set(200);
	tlbp_cpuset_set(&set, 130);
	ck_assert(!tlbp_cpuset_empty(&set));
	ck_assert_uint_eq(tlbp_cpuset_weight(&set), 1);
	setup_set(200);
	tlbp_cpuset_set(&set, 3);
	ck_assert(!tlbp_cpuset_empty(&set));
}

TV_CASE(test_cpuset_any_but_only_cpu0)
{
	setup_set(64);
	tlbp_cpuset_set(&set, 0);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 5), 0);
	ck_assert_uint_eq(tlbp_cpuset_any_but(&set, 0), 64);
}

const struct tv_case tv_cpuset_cases[] = {
	TV_ENTRY(test_cpuset_size_bounds, NULL),
	TV_ENTRY(test_cpuset_init_bad_input, NULL),
	TV_ENTRY(test_cpuset_init_clears_storage, NULL),
	TV_ENTRY(test_cpuset_wrap_keeps_bits, NULL),
	TV_ENTRY(test_cpuset_wrap_rejects_tail_bits, NULL),
	TV_ENTRY(test_cpuset_set_clear_test, NULL),
	TV_ENTRY(test_cpuset_set_out_of_range, NULL),
	TV_ENTRY(test_cpuset_null_queries, NULL),
	TV_ENTRY(test_cpuset_or_merges_words, NULL),
	TV_ENTRY(test_cpuset_or_equal_sizes_and_bounds, NULL),
	TV_ENTRY(test_cpuset_or_larger_source, NULL),
	TV_ENTRY(test_cpuset_copy_clears_rest, NULL),
	TV_ENTRY(test_cpuset_next_walks_8192, NULL),
	TV_ENTRY(test_cpuset_next_empty, NULL),
	TV_ENTRY(test_cpuset_any_but_cases, NULL),
	TV_ENTRY(test_cpuset_bounds_respect_storage, NULL),
	TV_ENTRY(test_cpuset_empty_sees_every_word, NULL),
	TV_ENTRY(test_cpuset_any_but_only_cpu0, NULL),
};
const unsigned int tv_cpuset_nr_cases =
	sizeof(tv_cpuset_cases) / sizeof(tv_cpuset_cases[0]);
