// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * migrate-demo: the four single-folio policies side by side on the cases
 * where they disagree, with the reason each gives.
 */
#include <stdio.h>
#include <tlbpolicy/migrate.h>

struct demo_case {
	const char *what;
	struct tlbp_migrate_folio folio;
};

static const char *why_name(enum tlbp_migrate_batch_why why)
{
	switch (why) {
	case TLBP_MB_ASYNC: return "batch";
	case TLBP_MB_SYNC_MODE: return "sync-mode";
	case TLBP_MB_SYNC_MULTI_FOLIO: return "caller-bug";
	case TLBP_MB_NUMA_MISPLACED: return "numa";
	case TLBP_MB_SINGLE_SMALL: return "single-small";
	case TLBP_MB_SINGLE_MAPPED_ONCE: return "mapped-once";
	}
	return "?";
}

int main(void)
{
	static const struct demo_case cases[] = {
		{ "NUMA hint: 1 small folio, mapped once",
		  { TLBP_MIGRATE_ASYNC, TLBP_MR_NUMA_MISPLACED, 1, 0, 1, false } },
		{ "NUMA hint: 1 THP (order 9), mapped once",
		  { TLBP_MIGRATE_ASYNC, TLBP_MR_NUMA_MISPLACED, 1, 9, 1, false } },
		{ "NUMA hint: 1 small folio, MAP_SHARED by 2",
		  { TLBP_MIGRATE_ASYNC, TLBP_MR_NUMA_MISPLACED, 1, 0, 2, true } },
		{ "NUMA hint: split THP, 512 small folios",
		  { TLBP_MIGRATE_ASYNC, TLBP_MR_NUMA_MISPLACED, 512, 0, 1, false } },
		{ "compaction: 1 small folio, mapped once",
		  { TLBP_MIGRATE_ASYNC, TLBP_MR_COMPACTION, 1, 0, 1, false } },
		{ "mbind (sync): 1 small folio",
		  { TLBP_MIGRATE_SYNC, TLBP_MR_MEMPOLICY_MBIND, 1, 0, 1, false } },
	};
	unsigned int c, p;

	printf("%-42s", "case");
	for (p = 0; p < TLBP_MIGRATE_BATCH_POLICY_NR; p++)
		printf(" %-21s", tlbp_migrate_batch_policy_name(p));
	printf("\n");
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		printf("%-42s", cases[c].what);
		for (p = 0; p < TLBP_MIGRATE_BATCH_POLICY_NR; p++) {
			struct tlbp_migrate_decision d;
			char cell[32];

			if (tlbp_migrate_should_batch(p, &cases[c].folio, &d) < 0 &&
			    d.why != TLBP_MB_SYNC_MULTI_FOLIO) {
				fprintf(stderr, "migrate-demo: bad input\n");
				return 1;
			}
			snprintf(cell, sizeof(cell), "%s (%s)",
				 d.batch ? "yes" : "no", why_name(d.why));
			printf(" %-21s", cell);
		}
		printf("\n");
	}
	return 0;
}
