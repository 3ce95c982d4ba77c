// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * In-kernel self-test: runs every shared test vector (tests/vectors) at
 * module load and prints the results as KTAP on the kernel log. Built only
 * by Kbuild; needs tlbpolicy.ko loaded first.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include "vectors/tv.h"

static unsigned int count_runs(void)
{
	unsigned int g, k, n = 0;

	for (g = 0; g < tv_nr_groups; g++)
		for (k = 0; k < *tv_groups[g].nr_cases; k++)
			n += tv_groups[g].cases[k].hi - tv_groups[g].cases[k].lo;
	return n;
}

static int __init tlbp_selftest_init(void)
{
	unsigned int g, k, n = 0, failed = 0;
	int i;

	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", count_runs());
	for (g = 0; g < tv_nr_groups; g++) {
		const struct tv_group *grp = &tv_groups[g];

		for (k = 0; k < *grp->nr_cases; k++) {
			const struct tv_case *c = &grp->cases[k];

			for (i = c->lo; i < c->hi; i++) {
				bool ok = tv_run(c, i);

				n++;
				if (!ok) {
					failed++;
					pr_info("# %s:%d: %s %s\n", tv_failure.file,
						tv_failure.line, tv_failure.expr,
						tv_failure.msg);
				}
				if (c->hi - c->lo > 1)
					pr_info("%s %u - %s.%s[%d]\n", ok ? "ok" : "not ok",
						n, grp->name, c->name, i);
				else
					pr_info("%s %u - %s.%s\n", ok ? "ok" : "not ok",
						n, grp->name, c->name);
			}
		}
	}
	pr_info("# tlbpolicy self-test: %u passed, %u failed\n", n - failed, failed);
	return 0;
}

static void __exit tlbp_selftest_exit(void)
{
}

module_init(tlbp_selftest_init);
module_exit(tlbp_selftest_exit);
MODULE_DESCRIPTION("tlbpolicy: shared test vectors as a KTAP self-test");
MODULE_LICENSE("Dual MIT/GPL");
