// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The event queue and the random streams: order, ties, growth, seeds. */
#include <math.h>
#include <stdlib.h>
#include <check.h>
#include "heap.h"
#include "rng.h"
#include "suite_runner.h"

START_TEST(test_heap_pop_orders_by_time)
{
	struct event_heap h;
	struct event e;
	uint64_t last = 0;
	struct rng r;
	int i;

	ck_assert_int_eq(heap_init(&h, 2), 0);
	rng_seed(&r, 7);
	for (i = 0; i < 5000; i++)
		ck_assert_int_eq(heap_push(&h, rng_below(&r, 100000), 0, (uint32_t)i, 0), 0);
	for (i = 0; heap_pop(&h, &e); i++) {
		ck_assert_uint_ge(e.time, last);
		last = e.time;
	}
	ck_assert_int_eq(i, 5000);
	heap_free(&h);
}
END_TEST

START_TEST(test_heap_pop_ties_in_push_order)
{
	struct event_heap h;
	struct event e;
	uint32_t i;

	ck_assert_int_eq(heap_init(&h, 4), 0);
	for (i = 0; i < 100; i++)
		heap_push(&h, 42, 1, i, 0);
	heap_push(&h, 41, 2, 999, 0);
	ck_assert(heap_pop(&h, &e));
	ck_assert_uint_eq(e.arg, 999);
	for (i = 0; i < 100; i++) {
		ck_assert(heap_pop(&h, &e));
		ck_assert_uint_eq(e.arg, i);
	}
	ck_assert(!heap_pop(&h, &e));
	heap_free(&h);
}
END_TEST

START_TEST(test_rng_same_seed_same_stream)
{
	struct rng a, b, c;
	int i, same_c = 0;

	rng_seed(&a, 123);
	rng_seed(&b, 123);
	rng_seed(&c, 124);
	for (i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);

		ck_assert_uint_eq(x, rng_next(&b));
		same_c += x == rng_next(&c);
	}
	ck_assert_int_lt(same_c, 2);
}
END_TEST

START_TEST(test_rng_below_and_exp_ranges)
{
	struct rng r;
	double sum = 0;
	unsigned int hist[10] = { 0 };
	int i;

	rng_seed(&r, 5);
	for (i = 0; i < 100000; i++) {
		uint64_t v = rng_below(&r, 10);

		ck_assert_uint_lt(v, 10);
		hist[v]++;
		sum += rng_exp(&r, 3.0);
	}
	for (i = 0; i < 10; i++)
		ck_assert_uint_gt(hist[i], 9000);
	ck_assert_double_eq_tol(sum / 100000, 3.0, 0.1);
}
END_TEST

START_TEST(test_rng_fast_log_accuracy)
{
	double x;

	for (x = 1e-300; x <= 1.0; x *= 1.37)
		ck_assert_double_eq_tol(rng_fast_log(x), log(x), fabs(log(x)) * 1e-7 + 1e-12);
	ck_assert_double_eq_tol(rng_fast_log(1.0), 0.0, 1e-15);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("sim_engine");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_heap_pop_orders_by_time);
	tcase_add_test(tc, test_heap_pop_ties_in_push_order);
	tcase_add_test(tc, test_rng_same_seed_same_stream);
	tcase_add_test(tc, test_rng_below_and_exp_ranges);
	tcase_add_test(tc, test_rng_fast_log_accuracy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(engine_suite());
}
