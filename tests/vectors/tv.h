/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test vectors shared by both worlds: the same case functions run as Check
 * tests in userspace (tests/check_vectors.c) and as a KTAP self-test inside
 * a booted kernel (kernel/tlbpolicy_selftest.c), so the two cannot drift.
 *
 * A case is a function of one loop index. Its assertions use Check's names
 * (ck_assert_int_eq and friends) so a case reads like any Check test, but
 * here they record the first failure and carry on: the same code must run
 * where Check's fork-and-longjmp machinery does not exist.
 */
#ifndef TLBPOLICY_TESTS_TV_H
#define TLBPOLICY_TESTS_TV_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#endif
#include <tlbpolicy/tlbpolicy.h>

struct tv_case {
	const char *name;
	void (*fn)(int _i);
	void (*setup)(void);
	int lo, hi; /* the case runs once for each index in [lo, hi) */
};

struct tv_group {
	const char *name;
	const struct tv_case *cases;
	const unsigned int *nr_cases;
};

struct tv_failure {
	bool failed;
	const char *file;
	int line;
	const char *expr;
	char msg[160]; /* the assertion's message, if it had one */
};

extern struct tv_failure tv_failure;
extern const struct tv_group tv_groups[];
extern const unsigned int tv_nr_groups;

void tv_fail(const char *file, int line, const char *expr);
void tv_failf(const char *file, int line, const char *expr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Runs one index of one case from a clean failure record; true if it passed. */
bool tv_run(const struct tv_case *c, int i);

#define TV_CASE(name) static void name(int _i __attribute__((unused)))
#define TV_ENTRY(fn, setup) { #fn, fn, setup, 0, 1 }
#define TV_LOOP(fn, setup, lo, hi) { #fn, fn, setup, lo, hi }

#define TV_CHECK(cond) \
	do { \
		if (!(cond)) \
			tv_fail(__FILE__, __LINE__, #cond); \
	} while (0)

#define TV_CMP_S(a, op, b) TV_CHECK((long long)(a) op (long long)(b))
#define TV_CMP_U(a, op, b) TV_CHECK((unsigned long long)(a) op (unsigned long long)(b))

/* A runner that includes Check itself defines TV_RUNNER and keeps Check's. */
#ifndef TV_RUNNER
#define ck_assert(c) TV_CHECK(c)
#define ck_assert_msg(c, ...) \
	do { \
		if (!(c)) \
			tv_failf(__FILE__, __LINE__, #c, __VA_ARGS__); \
	} while (0)
#define ck_abort_msg(...) tv_fail(__FILE__, __LINE__, "abort")
#define ck_assert_int_eq(a, b) TV_CMP_S(a, ==, b)
#define ck_assert_int_ne(a, b) TV_CMP_S(a, !=, b)
#define ck_assert_int_lt(a, b) TV_CMP_S(a, <, b)
#define ck_assert_int_le(a, b) TV_CMP_S(a, <=, b)
#define ck_assert_int_gt(a, b) TV_CMP_S(a, >, b)
#define ck_assert_int_ge(a, b) TV_CMP_S(a, >=, b)
#define ck_assert_uint_eq(a, b) TV_CMP_U(a, ==, b)
#define ck_assert_uint_ne(a, b) TV_CMP_U(a, !=, b)
#define ck_assert_uint_lt(a, b) TV_CMP_U(a, <, b)
#define ck_assert_uint_le(a, b) TV_CMP_U(a, <=, b)
#define ck_assert_uint_gt(a, b) TV_CMP_U(a, >, b)
#define ck_assert_uint_ge(a, b) TV_CMP_U(a, >=, b)
#define ck_assert_ptr_eq(a, b) TV_CHECK((const void *)(a) == (const void *)(b))
#define ck_assert_ptr_ne(a, b) TV_CHECK((const void *)(a) != (const void *)(b))
#define ck_assert_ptr_null(p) TV_CHECK((const void *)(p) == NULL)
#define ck_assert_ptr_nonnull(p) TV_CHECK((const void *)(p) != NULL)
#define ck_assert_str_eq(a, b) TV_CHECK(strcmp((a), (b)) == 0)
#define ck_assert_str_ne(a, b) TV_CHECK(strcmp((a), (b)) != 0)
#endif

#define TV_DECLARE_GROUP(g) \
	extern const struct tv_case tv_##g##_cases[]; \
	extern const unsigned int tv_##g##_nr_cases

TV_DECLARE_GROUP(cpuset);
TV_DECLARE_GROUP(mm);
TV_DECLARE_GROUP(batch);
TV_DECLARE_GROUP(gather);
TV_DECLARE_GROUP(migrate);
TV_DECLARE_GROUP(hint_fault);
TV_DECLARE_GROUP(split);
TV_DECLARE_GROUP(gp_batch);

#endif
