// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * hint-fault-demo: one NUMA hint fault per path under eager and deferred
 * map, printing the op calls each makes. Watch where "map" falls relative
 * to "migrate": before it, the migration's unmap needs a TLB flush.
 */
#include <stdio.h>
#include <string.h>
#include <tlbpolicy/hint_fault.h>

struct fault_script {
	const char *name;
	bool has_folio;
	int target;
	int prepare_err, migrate_err;
	bool changed_after; /* PTE changed while migrating */
	unsigned int checks;
};

static void say(const char *op)
{
	printf(" %s", op);
}

static void op_lock(void *ctx) { (void)ctx; say("lock"); }
static void op_unlock(void *ctx) { (void)ctx; say("unlock"); }

static bool op_pte_unchanged(void *ctx)
{
	struct fault_script *s = ctx;

	say("check");
	return s->checks++ == 0 || !s->changed_after;
}

static bool op_find_folio(void *ctx, struct tlbp_hint_folio *folio)
{
	struct fault_script *s = ctx;

	say("find");
	folio->nid = 0;
	folio->nr_pages = 1;
	return s->has_folio;
}

static int op_target_node(void *ctx, const struct tlbp_hint_folio *folio,
			  unsigned int *flags)
{
	(void)folio;
	(void)flags;
	say("target");
	return ((struct fault_script *)ctx)->target;
}

static int op_prepare(void *ctx, const struct tlbp_hint_folio *f, int target)
{
	(void)f;
	(void)target;
	say("prepare");
	return ((struct fault_script *)ctx)->prepare_err;
}

static int op_migrate(void *ctx, const struct tlbp_hint_folio *f, int target)
{
	(void)f;
	(void)target;
	say("MIGRATE");
	return ((struct fault_script *)ctx)->migrate_err;
}

static void op_map(void *ctx) { (void)ctx; say("MAP"); }

static void op_account(void *ctx, int nid, unsigned int nr_pages,
		       unsigned int flags)
{
	(void)ctx;
	(void)nr_pages;
	printf(" account(node %d%s%s)", nid,
	       flags & TLBP_TNF_MIGRATED ? ",migrated" : "",
	       flags & TLBP_TNF_MIGRATE_FAIL ? ",fail" : "");
}

static const struct tlbp_hint_fault_ops ops = {
	.lock = op_lock, .unlock = op_unlock, .pte_unchanged = op_pte_unchanged,
	.find_folio = op_find_folio, .target_node = op_target_node,
	.prepare = op_prepare, .migrate = op_migrate, .map = op_map,
	.account = op_account,
};

int main(void)
{
	static const struct fault_script scripts[] = {
		{ "no folio", false, 1, 0, 0, false, 0 },
		{ "well placed", true, TLBP_NUMA_NO_NODE, 0, 0, false, 0 },
		{ "isolation fails", true, 1, -16, 0, false, 0 },
		{ "migrated", true, 1, 0, 0, false, 0 },
		{ "migration fails", true, 1, 0, -11, false, 0 },
		{ "fails, PTE changed", true, 1, 0, -11, true, 0 },
	};
	static const char *const policy_names[] = { "eager-map", "deferred-map" };
	unsigned int i, p;

	for (p = 0; p < TLBP_HINT_POLICY_NR; p++) {
		printf("== %s\n", policy_names[p]);
		for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
			struct fault_script s = scripts[i];
			struct tlbp_hint_fault hf;
			struct tlbp_hint_result res;

			if (tlbp_hint_fault_init(&hf, p, &ops, &s)) {
				fprintf(stderr, "hint-fault-demo: init failed\n");
				return 1;
			}
			printf("%-20s:", s.name);
			tlbp_hint_fault_handle(&hf, &res);
			printf("\n%-20s  -> %s%s\n", "", tlbp_hint_path_name(res.path),
			       res.mapped_before_migrate ?
			       " (PTE was accessible during the unmap: needs a flush)" : "");
		}
	}
	return 0;
}
