// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The shared test vectors as Check suites: one suite per object, one test
 * per (case, index). The same vectors run in the kernel as KTAP.
 */
#include <stdlib.h>
#include <check.h>
#define TV_RUNNER
#include "vectors/tv.h"
#include "suite_runner.h"

struct flat {
	const struct tv_group *group;
	const struct tv_case *c;
	int i;
};

static struct flat *flat;
static unsigned int nr_flat;

static void flatten(void)
{
	unsigned int g, k, n = 0;
	int i;

	for (g = 0; g < tv_nr_groups; g++)
		for (k = 0; k < *tv_groups[g].nr_cases; k++)
			n += (unsigned int)(tv_groups[g].cases[k].hi - tv_groups[g].cases[k].lo);
	flat = calloc(n, sizeof(*flat));
	if (!flat)
		abort();
	for (g = 0; g < tv_nr_groups; g++)
		for (k = 0; k < *tv_groups[g].nr_cases; k++)
			for (i = tv_groups[g].cases[k].lo; i < tv_groups[g].cases[k].hi; i++)
				flat[nr_flat++] = (struct flat){ &tv_groups[g], &tv_groups[g].cases[k], i };
}

START_TEST(test_vector)
{
	const struct flat *f = &flat[_i];

	ck_assert_msg(tv_run(f->c, f->i), "%s.%s[%d]: %s:%d: %s %s", f->group->name,
		      f->c->name, f->i, tv_failure.file, tv_failure.line, tv_failure.expr,
		      tv_failure.msg);
}
END_TEST

int main(void)
{
	SRunner *sr = NULL;
	unsigned int g, first = 0, k;
	int failed;

	flatten();
	for (g = 0; g < tv_nr_groups; g++) {
		Suite *s = suite_create(tv_groups[g].name);
		TCase *tc = tcase_create("vectors");

		for (k = first; k < nr_flat && flat[k].group == &tv_groups[g]; k++)
			;
		tcase_set_timeout(tc, 60);
		tcase_add_loop_test(tc, test_vector, (int)first, (int)k);
		suite_add_tcase(s, tc);
		if (!sr)
			sr = srunner_create(s);
		else
			srunner_add_suite(sr, s);
		first = k;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(flat);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
