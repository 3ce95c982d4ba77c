// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/hint_fault.h>

/*
 * A scripted fault: each op answers from the script and appends its name to
 * a trace, so tests assert the exact sequence of calls. The PTE's state is
 * tracked too, to check when it was accessible relative to the migration.
 */
struct script {
	bool unchanged_first, unchanged_after; /* pte_unchanged answers */
	bool has_folio;
	int target;                            /* target_node answer */
	unsigned int target_flags;
	int prepare_err, migrate_err;
	/* observed */
	char trace[256];
	bool locked, pte_accessible, accessible_at_migrate;
	unsigned int unchanged_calls;
	int acc_nid;
	unsigned int acc_pages, acc_flags, nr_account;
};

static struct script sc;

static void trace(const char *op)
{
	if (sc.trace[0])
		strcat(sc.trace, ",");
	strcat(sc.trace, op);
}

static void op_lock(void *ctx)
{
	(void)ctx;
	ck_assert(!sc.locked);
	sc.locked = true;
	trace("lock");
}

static void op_unlock(void *ctx)
{
	(void)ctx;
	ck_assert(sc.locked);
	sc.locked = false;
	trace("unlock");
}

static bool op_pte_unchanged(void *ctx)
{
	(void)ctx;
	ck_assert(sc.locked);
	trace("check");
	return sc.unchanged_calls++ == 0 ? sc.unchanged_first : sc.unchanged_after;
}

static bool op_find_folio(void *ctx, struct tlbp_hint_folio *folio)
{
	(void)ctx;
	ck_assert(sc.locked);
	trace("find");
	folio->nid = 0;
	folio->nr_pages = 16;
	return sc.has_folio;
}

static int op_target_node(void *ctx, const struct tlbp_hint_folio *folio,
			  unsigned int *flags)
{
	(void)ctx;
	(void)folio;
	ck_assert(sc.locked);
	trace("target");
	*flags |= sc.target_flags;
	return sc.target;
}

static int op_prepare(void *ctx, const struct tlbp_hint_folio *folio, int target)
{
	(void)ctx;
	(void)folio;
	(void)target;
	ck_assert(sc.locked);
	trace("prepare");
	return sc.prepare_err;
}

static int op_migrate(void *ctx, const struct tlbp_hint_folio *folio, int target)
{
	(void)ctx;
	(void)folio;
	ck_assert_int_eq(target, sc.target);
	ck_assert(!sc.locked);
	trace("migrate");
	sc.accessible_at_migrate = sc.pte_accessible;
	return sc.migrate_err;
}

static void op_map(void *ctx)
{
	(void)ctx;
	ck_assert(sc.locked);
	trace("map");
	sc.pte_accessible = true;
}

static void op_account(void *ctx, int nid, unsigned int nr_pages,
		       unsigned int flags)
{
	(void)ctx;
	trace("account");
	sc.acc_nid = nid;
	sc.acc_pages = nr_pages;
	sc.acc_flags = flags;
	sc.nr_account++;
}

static const struct tlbp_hint_fault_ops ops = {
	.lock = op_lock, .unlock = op_unlock, .pte_unchanged = op_pte_unchanged,
	.find_folio = op_find_folio, .target_node = op_target_node,
	.prepare = op_prepare, .migrate = op_migrate, .map = op_map,
	.account = op_account,
};

/* The script of a fault that migrates successfully; tests edit it. */
static void setup(void)
{
	memset(&sc, 0, sizeof(sc));
	sc.unchanged_first = true;
	sc.unchanged_after = true;
	sc.has_folio = true;
	sc.target = 1;
	sc.acc_nid = -99;
}

static struct tlbp_hint_result run(enum tlbp_hint_policy policy)
{
	struct tlbp_hint_fault hf;
	struct tlbp_hint_result res;

	ck_assert_int_eq(tlbp_hint_fault_init(&hf, policy, &ops, NULL), 0);
	ck_assert_int_eq(tlbp_hint_fault_handle(&hf, &res), 0);
	ck_assert(!sc.locked);
	ck_assert_int_eq(res.mapped, sc.pte_accessible);
	ck_assert_uint_eq(res.accounted, sc.nr_account == 1);
	ck_assert_uint_le(sc.nr_account, 1);
	return res;
}

static void assert_accounted(const struct tlbp_hint_result *res, int nid,
			     unsigned int flags)
{
	ck_assert(res->accounted);
	ck_assert_int_eq(sc.acc_nid, nid);
	ck_assert_int_eq(res->nid, nid);
	ck_assert_uint_eq(sc.acc_pages, 16);
	ck_assert_uint_eq(sc.acc_flags, flags);
	ck_assert_uint_eq(res->flags, flags);
}

/* --- the PTE changed before we locked ----------------------------------- */

TV_CASE(test_hint_fault_handle_pte_changed)
{
	enum tlbp_hint_policy p = _i;
	struct tlbp_hint_result res;

	sc.unchanged_first = false;
	res = run(p);
	ck_assert_int_eq(res.path, TLBP_HINT_PTE_CHANGED);
	ck_assert_str_eq(sc.trace, "lock,check,unlock");
	ck_assert(!res.mapped);
	ck_assert(!res.accounted);
}

/* --- no folio -------------------------------------------------------------- */

TV_CASE(test_hint_fault_handle_no_folio_deferred)
{
	struct tlbp_hint_result res;

	sc.has_folio = false;
	res = run(TLBP_HINT_DEFERRED_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_NO_FOLIO);
	ck_assert_str_eq(sc.trace, "lock,check,find,map,unlock");
	ck_assert(!res.accounted);
	ck_assert_int_eq(res.nid, TLBP_NUMA_NO_NODE);
}

TV_CASE(test_hint_fault_handle_no_folio_eager)
{
	struct tlbp_hint_result res;

	sc.has_folio = false;
	res = run(TLBP_HINT_EAGER_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_NO_FOLIO);
	ck_assert_str_eq(sc.trace, "lock,check,map,find,unlock");
	ck_assert(!res.accounted);
	ck_assert(!res.mapped_before_migrate); /* nothing was migrated */
}

/* --- no target node ------------------------------------------------------- */

TV_CASE(test_hint_fault_handle_no_target_deferred)
{
	struct tlbp_hint_result res;

	sc.target = TLBP_NUMA_NO_NODE;
	sc.target_flags = TLBP_TNF_SHARED;
	res = run(TLBP_HINT_DEFERRED_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_NO_TARGET);
	ck_assert_str_eq(sc.trace, "lock,check,find,target,map,unlock,account");
	assert_accounted(&res, 0, TLBP_TNF_SHARED);
}

TV_CASE(test_hint_fault_handle_no_target_eager)
{
	struct tlbp_hint_result res;

	sc.target = TLBP_NUMA_NO_NODE;
	sc.target_flags = TLBP_TNF_NO_GROUP;
	res = run(TLBP_HINT_EAGER_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_NO_TARGET);
	ck_assert_str_eq(sc.trace, "lock,check,map,find,target,unlock,account");
	assert_accounted(&res, 0, TLBP_TNF_NO_GROUP);
}

/* --- prepare (isolation) fails -------------------------------------------- */

TV_CASE(test_hint_fault_handle_prepare_fails_deferred)
{
	struct tlbp_hint_result res;

	sc.prepare_err = -EBUSY;
	res = run(TLBP_HINT_DEFERRED_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_PREPARE_FAILED);
	ck_assert_str_eq(sc.trace, "lock,check,find,target,prepare,map,unlock,account");
	assert_accounted(&res, 0, TLBP_TNF_MIGRATE_FAIL);
}

TV_CASE(test_hint_fault_handle_prepare_fails_eager)
{
	struct tlbp_hint_result res;

	sc.prepare_err = -EBUSY;
	res = run(TLBP_HINT_EAGER_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_PREPARE_FAILED);
	ck_assert_str_eq(sc.trace, "lock,check,map,find,target,prepare,unlock,account");
	assert_accounted(&res, 0, TLBP_TNF_MIGRATE_FAIL);
}

/* --- migration succeeds ----------------------------------------------------- */

TV_CASE(test_hint_fault_handle_migrated_deferred)
{
	struct tlbp_hint_result res;

	sc.target_flags = TLBP_TNF_SHARED;
	res = run(TLBP_HINT_DEFERRED_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_MIGRATED);
	ck_assert_str_eq(sc.trace, "lock,check,find,target,prepare,unlock,migrate,account");
	/* Still PROT_NONE while migration unmapped it: no flush needed. */
	ck_assert(!sc.accessible_at_migrate);
	ck_assert(!res.mapped_before_migrate);
	ck_assert(!res.mapped);
	assert_accounted(&res, 1, TLBP_TNF_SHARED | TLBP_TNF_MIGRATED);
}

TV_CASE(test_hint_fault_handle_migrated_eager)
{
	struct tlbp_hint_result res;

	res = run(TLBP_HINT_EAGER_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_MIGRATED);
	ck_assert_str_eq(sc.trace, "lock,check,map,find,target,prepare,unlock,migrate,account");
	/* Accessible while migration unmapped it: that unmap needs a flush. */
	ck_assert(sc.accessible_at_migrate);
	ck_assert(res.mapped_before_migrate);
	assert_accounted(&res, 1, TLBP_TNF_MIGRATED);
}

/* --- migration fails, PTE unchanged ---------------------------------------- */

TV_CASE(test_hint_fault_handle_migrate_fails_deferred)
{
	struct tlbp_hint_result res;

	sc.migrate_err = -EAGAIN;
	res = run(TLBP_HINT_DEFERRED_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_MIGRATE_FAILED);
	ck_assert_str_eq(sc.trace,
			 "lock,check,find,target,prepare,unlock,migrate,lock,check,map,unlock,account");
	ck_assert(!sc.accessible_at_migrate);
	assert_accounted(&res, 0, TLBP_TNF_MIGRATE_FAIL);
}

TV_CASE(test_hint_fault_handle_migrate_fails_eager)
{
	struct tlbp_hint_result res;

	sc.migrate_err = -EAGAIN;
	res = run(TLBP_HINT_EAGER_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_MIGRATE_FAILED);
	/* Already mapped: no relock, no re-check. */
	ck_assert_str_eq(sc.trace, "lock,check,map,find,target,prepare,unlock,migrate,account");
	assert_accounted(&res, 0, TLBP_TNF_MIGRATE_FAIL);
}

/* --- migration fails, PTE changed meanwhile --------------------------------- */

TV_CASE(test_hint_fault_handle_migrate_fails_pte_changed_deferred)
{
	struct tlbp_hint_result res;

	sc.migrate_err = -EAGAIN;
	sc.unchanged_after = false;
	res = run(TLBP_HINT_DEFERRED_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_MIGRATE_FAILED_PTE_CHANGED);
	ck_assert_str_eq(sc.trace,
			 "lock,check,find,target,prepare,unlock,migrate,lock,check,unlock");
	/* Neither maps the stale value nor accounts the fault. */
	ck_assert(!res.mapped);
	ck_assert(!res.accounted);
	ck_assert_int_eq(res.nid, TLBP_NUMA_NO_NODE);
	ck_assert_uint_eq(res.flags, TLBP_TNF_MIGRATE_FAIL);
}

TV_CASE(test_hint_fault_handle_migrate_fails_pte_changed_eager)
{
	struct tlbp_hint_result res;

	/* Eager mapped before migrating; a later change is not ours to see. */
	sc.migrate_err = -EAGAIN;
	sc.unchanged_after = false;
	res = run(TLBP_HINT_EAGER_MAP);
	ck_assert_int_eq(res.path, TLBP_HINT_MIGRATE_FAILED);
	ck_assert_uint_eq(sc.unchanged_calls, 1);
}

/* --- init and bad input ------------------------------------------------------ */

TV_CASE(test_hint_fault_init_bad_input)
{
	struct tlbp_hint_fault_ops missing;
	struct tlbp_hint_fault hf;
	struct tlbp_hint_result res;
	void (**slot)(void);
	size_t i;

	memset(&hf, 0x5a, sizeof(hf));
	ck_assert_int_eq(tlbp_hint_fault_init(NULL, 0, &ops, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_hint_fault_init(&hf, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_hint_fault_init(&hf, TLBP_HINT_POLICY_NR, &ops, NULL), -EINVAL);
	/* Every op is required: drop each in turn. */
	for (i = 0; i < sizeof(ops) / sizeof(void (*)(void)); i++) {
		missing = ops;
		slot = (void (**)(void))&missing + i;
		*slot = NULL;
		ck_assert_int_eq(tlbp_hint_fault_init(&hf, 0, &missing, NULL), -EINVAL);
	}
	ck_assert_uint_eq(((unsigned char *)&hf)[0], 0x5a);
	ck_assert_int_eq(tlbp_hint_fault_handle(NULL, &res), -EINVAL);
	ck_assert_int_eq(tlbp_hint_fault_init(&hf, 0, &ops, NULL), 0);
	ck_assert_int_eq(tlbp_hint_fault_handle(&hf, NULL), -EINVAL);
	ck_assert_str_eq(sc.trace, "");
}

TV_CASE(test_hint_path_name_all)
{
	ck_assert_str_eq(tlbp_hint_path_name(TLBP_HINT_PTE_CHANGED), "pte-changed");
	ck_assert_str_eq(tlbp_hint_path_name(TLBP_HINT_NO_FOLIO), "no-folio");
	ck_assert_str_eq(tlbp_hint_path_name(TLBP_HINT_NO_TARGET), "no-target");
	ck_assert_str_eq(tlbp_hint_path_name(TLBP_HINT_PREPARE_FAILED), "prepare-failed");
	ck_assert_str_eq(tlbp_hint_path_name(TLBP_HINT_MIGRATED), "migrated");
	ck_assert_str_eq(tlbp_hint_path_name(TLBP_HINT_MIGRATE_FAILED), "migrate-failed");
	ck_assert_str_eq(tlbp_hint_path_name(TLBP_HINT_MIGRATE_FAILED_PTE_CHANGED),
			 "migrate-failed-pte-changed");
	ck_assert_ptr_null(tlbp_hint_path_name((enum tlbp_hint_path)7));
}

const struct tv_case tv_hint_fault_cases[] = {
	TV_LOOP(test_hint_fault_handle_pte_changed, setup, 0, TLBP_HINT_POLICY_NR),
	TV_ENTRY(test_hint_fault_handle_no_folio_deferred, setup),
	TV_ENTRY(test_hint_fault_handle_no_folio_eager, setup),
	TV_ENTRY(test_hint_fault_handle_no_target_deferred, setup),
	TV_ENTRY(test_hint_fault_handle_no_target_eager, setup),
	TV_ENTRY(test_hint_fault_handle_prepare_fails_deferred, setup),
	TV_ENTRY(test_hint_fault_handle_prepare_fails_eager, setup),
	TV_ENTRY(test_hint_fault_handle_migrated_deferred, setup),
	TV_ENTRY(test_hint_fault_handle_migrated_eager, setup),
	TV_ENTRY(test_hint_fault_handle_migrate_fails_deferred, setup),
	TV_ENTRY(test_hint_fault_handle_migrate_fails_eager, setup),
	TV_ENTRY(test_hint_fault_handle_migrate_fails_pte_changed_deferred, setup),
	TV_ENTRY(test_hint_fault_handle_migrate_fails_pte_changed_eager, setup),
	TV_ENTRY(test_hint_fault_init_bad_input, setup),
	TV_ENTRY(test_hint_path_name_all, setup),
};
const unsigned int tv_hint_fault_nr_cases =
	sizeof(tv_hint_fault_cases) / sizeof(tv_hint_fault_cases[0]);
