// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * KUnit form of the shared test vectors: one parameterised case whose
 * parameters are every (vector, index). Compiles once the library is
 * vendored into a kernel tree (scripts/vendor-into-kernel.sh), where
 * tools/testing/kunit/kunit.py runs it under UML.
 */
#include <kunit/test.h>
#include "vectors/tv.h"

struct tv_ref {
	unsigned int group, index;
	int i;
};

static struct tv_ref tv_cursor;

static bool tv_valid(const struct tv_ref *r)
{
	return r->group < tv_nr_groups && r->index < *tv_groups[r->group].nr_cases;
}

/* The first index of the next case that runs at all, from @r on. */
static bool tv_settle(struct tv_ref *r)
{
	while (r->group < tv_nr_groups) {
		const struct tv_group *g = &tv_groups[r->group];

		if (r->index >= *g->nr_cases) {
			r->group++;
			r->index = 0;
			r->i = r->group < tv_nr_groups && *tv_groups[r->group].nr_cases ?
			       tv_groups[r->group].cases[0].lo : 0;
			continue;
		}
		if (r->i < g->cases[r->index].hi)
			return true;
		r->index++;
		if (r->index < *g->nr_cases)
			r->i = g->cases[r->index].lo;
	}
	return false;
}

static const void *tv_gen_params(const void *prev, char *desc)
{
	const struct tv_case *c;

	if (!prev)
		tv_cursor = (struct tv_ref){ 0, 0, tv_groups[0].cases[0].lo };
	else
		tv_cursor.i++;
	if (!tv_settle(&tv_cursor) || !tv_valid(&tv_cursor))
		return NULL;
	c = &tv_groups[tv_cursor.group].cases[tv_cursor.index];
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s.%s[%d]",
		 tv_groups[tv_cursor.group].name, c->name, tv_cursor.i);
	return &tv_cursor;
}

static void tlbp_vector_test(struct kunit *test)
{
	const struct tv_ref *r = test->param_value;
	const struct tv_case *c = &tv_groups[r->group].cases[r->index];

	KUNIT_EXPECT_TRUE_MSG(test, tv_run(c, r->i), "%s:%d: %s %s",
			      tv_failure.file, tv_failure.line, tv_failure.expr,
			      tv_failure.msg);
}

static struct kunit_case tlbp_cases[] = {
	KUNIT_CASE_PARAM(tlbp_vector_test, tv_gen_params),
	{}
};

static struct kunit_suite tlbp_suite = {
	.name = "tlbpolicy",
	.test_cases = tlbp_cases,
};
kunit_test_suite(tlbp_suite);

MODULE_DESCRIPTION("KUnit tests for tlbpolicy (the shared test vectors)");
MODULE_LICENSE("Dual MIT/GPL");
