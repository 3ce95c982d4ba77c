// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The four policy primitives with random inputs and random op failures,
 * each checked against a reference written separately here:
 * - migrate: the decision against the spec's table;
 * - hint fault: the path, mapping and accounting against a re-derivation,
 *   the PTL balanced, the PTE accessible during the unmap only under eager
 *   map, never restored over a changed PTE;
 * - split: the split proceeds only when no cleared accessible entry is left
 *   unflushed, and never after a failure;
 * - grace-period work: no item processed before a grace period of its run,
 *   no page freed before the flush that covers it, sync counts per policy.
 */
#include <errno.h>
#include <string.h>
#include <tlbpolicy/tlbpolicy.h>
#include "fuzz_input.h"

/* --- migrate --------------------------------------------------------------- */

static void fuzz_migrate(struct fuzz_input *in)
{
	unsigned int policy = fuzz_u8(in) % 6;
	struct tlbp_migrate_folio f = {
		.mode = fuzz_u8(in) % 4, .reason = fuzz_u8(in) % 12,
		.nr_folios = fuzz_u16(in) % 600, .order = fuzz_u8(in) % 12,
		.mapcount = (int)(fuzz_u8(in) % 6) - 1,
		.maybe_mapped_shared = fuzz_bool(in),
	};
	struct tlbp_migrate_decision d = { .batch = true, .why = 99 };
	/* folio_likely_mapped_shared() as 6.12 derives it from the mapcount. */
	bool hint_ok = f.mapcount <= 1 ? !f.maybe_mapped_shared :
		       !f.order ? f.maybe_mapped_shared :
		       f.mapcount > (1 << f.order) ? f.maybe_mapped_shared : true;
	bool valid = policy < TLBP_MIGRATE_BATCH_POLICY_NR && f.mode <= TLBP_MIGRATE_SYNC &&
		     f.reason < TLBP_MR_NR && f.mapcount >= 0 && f.nr_folios > 0 &&
		     hint_ok;
	bool async = f.mode == TLBP_MIGRATE_ASYNC, want;
	int err = tlbp_migrate_should_batch(policy, &f, &d);

	if (!valid) {
		FUZZ_REQUIRE(err == -EINVAL && d.batch && d.why == 99);
		return;
	}
	switch (policy) {
	case 0: want = async; break;
	case 1: want = async && f.reason != TLBP_MR_NUMA_MISPLACED; break;
	case 2: want = async && !(f.nr_folios == 1 && !f.order && !f.maybe_mapped_shared); break;
	default: want = async && (f.nr_folios > 1 || f.mapcount > 1); break;
	}
	FUZZ_REQUIRE(d.batch == want);
	FUZZ_REQUIRE(err == (!async && f.nr_folios > 1 ? -EINVAL : 0));
}

/* --- hint fault ------------------------------------------------------------ */

static struct {
	bool first_unchanged, later_unchanged, has_folio, prepare_fails, migrate_fails;
	int target;
	int locks, checks;
	bool pte_accessible, accessible_at_migrate, migrated, accounted;
	int acc_nid;
} hs;

static void h_lock(void *c) { (void)c; FUZZ_REQUIRE(hs.locks == 0); hs.locks++; }
static void h_unlock(void *c) { (void)c; FUZZ_REQUIRE(hs.locks == 1); hs.locks--; }
static bool h_unchanged(void *c)
{
	(void)c;
	FUZZ_REQUIRE(hs.locks == 1);
	return hs.checks++ ? hs.later_unchanged : hs.first_unchanged;
}
static bool h_find(void *c, struct tlbp_hint_folio *f)
{
	(void)c;
	FUZZ_REQUIRE(hs.locks == 1);
	f->nid = 0;
	f->nr_pages = 1;
	return hs.has_folio;
}
static int h_target(void *c, const struct tlbp_hint_folio *f, unsigned int *flags)
{
	(void)c; (void)f; (void)flags;
	FUZZ_REQUIRE(hs.locks == 1);
	return hs.target;
}
static int h_prepare(void *c, const struct tlbp_hint_folio *f, int t)
{
	(void)c; (void)f; (void)t;
	FUZZ_REQUIRE(hs.locks == 1);
	return hs.prepare_fails ? -EBUSY : 0;
}
static int h_migrate(void *c, const struct tlbp_hint_folio *f, int t)
{
	(void)c; (void)f; (void)t;
	FUZZ_REQUIRE(hs.locks == 0);
	hs.accessible_at_migrate = hs.pte_accessible;
	hs.migrated = !hs.migrate_fails;
	return hs.migrate_fails ? -EAGAIN : 0;
}
static void h_map(void *c)
{
	(void)c;
	FUZZ_REQUIRE(hs.locks == 1);
	FUZZ_REQUIRE(!hs.migrated);
	hs.pte_accessible = true;
}
static void h_account(void *c, int nid, unsigned int nr, unsigned int flags)
{
	(void)c; (void)nr; (void)flags;
	FUZZ_REQUIRE(!hs.accounted);
	hs.accounted = true;
	hs.acc_nid = nid;
}

static const struct tlbp_hint_fault_ops hint_ops = {
	.lock = h_lock, .unlock = h_unlock, .pte_unchanged = h_unchanged,
	.find_folio = h_find, .target_node = h_target, .prepare = h_prepare,
	.migrate = h_migrate, .map = h_map, .account = h_account,
};

static void fuzz_hint(struct fuzz_input *in)
{
	unsigned int policy = fuzz_u8(in) % TLBP_HINT_POLICY_NR;
	bool eager = policy == TLBP_HINT_EAGER_MAP, want_mapped, want_acc;
	struct tlbp_hint_fault hf;
	struct tlbp_hint_result res;

	memset(&hs, 0, sizeof(hs));
	hs.first_unchanged = fuzz_u8(in) % 8 != 0;
	hs.later_unchanged = fuzz_bool(in);
	hs.has_folio = fuzz_u8(in) % 8 != 0;
	hs.target = fuzz_bool(in) ? 1 : TLBP_NUMA_NO_NODE;
	hs.prepare_fails = fuzz_u8(in) % 4 == 0;
	hs.migrate_fails = fuzz_bool(in);
	FUZZ_REQUIRE(tlbp_hint_fault_init(&hf, policy, &hint_ops, NULL) == 0);
	FUZZ_REQUIRE(tlbp_hint_fault_handle(&hf, &res) == 0);
	FUZZ_REQUIRE(hs.locks == 0);

	/* The reference: what do_numa_page must do. */
	if (!hs.first_unchanged) {
		want_mapped = false;
		want_acc = false;
	} else if (!hs.has_folio) {
		want_mapped = true;
		want_acc = false;
	} else if (hs.target == TLBP_NUMA_NO_NODE || hs.prepare_fails) {
		want_mapped = true;
		want_acc = true;
	} else if (!hs.migrate_fails) {
		want_mapped = eager;
		want_acc = true;
		FUZZ_REQUIRE(hs.accessible_at_migrate == eager);
		FUZZ_REQUIRE(hs.acc_nid == 1);
	} else {
		FUZZ_REQUIRE(hs.accessible_at_migrate == eager);
		want_mapped = eager || hs.later_unchanged;
		want_acc = eager || hs.later_unchanged;
	}
	FUZZ_REQUIRE(hs.pte_accessible == want_mapped && res.mapped == want_mapped);
	FUZZ_REQUIRE(hs.accounted == want_acc && res.accounted == want_acc);
}

/* --- split ----------------------------------------------------------------- */

#define SPLIT_MAX 512
static struct {
	unsigned int pte[SPLIT_MAX];
	bool unflushed[SPLIT_MAX];
	int clear_err_at, flush_fail, add_fail;
	bool proceeded;
	struct tlbp_mm *mm;
} ss;

static int s_clear(void *c, unsigned int idx, unsigned int *old)
{
	(void)c;
	FUZZ_REQUIRE(idx < SPLIT_MAX);
	if ((int)idx == ss.clear_err_at)
		return -EIO;
	if (!ss.pte[idx])
		return -ENOENT;
	*old = ss.pte[idx];
	ss.unflushed[idx] = (*old & TLBP_PTE_PRESENT) ||
			    ((*old & TLBP_PTE_PROTNONE) && tlbp_mm_flush_pending(ss.mm));
	ss.pte[idx] = 0;
	return 0;
}

static int s_proceed(void *c)
{
	unsigned int i;

	(void)c;
	for (i = 0; i < SPLIT_MAX; i++)
		FUZZ_REQUIRE(!ss.unflushed[i]);
	ss.proceeded = true;
	return 0;
}

static int s_flush(void *c, const struct tlbp_flush_req *req)
{
	(void)c;
	(void)req;
	if (ss.flush_fail) {
		ss.flush_fail = 0;
		return -EAGAIN;
	}
	memset(ss.unflushed, 0, sizeof(ss.unflushed));
	return 0;
}

static int s_flush_mm(void *c, struct tlbp_mm *m) { (void)c; (void)m; return 0; }
static int s_add(void *c, struct tlbp_mm *m, uint64_t a, uint64_t b)
{
	(void)c; (void)m; (void)a; (void)b;
	if (ss.add_fail) {
		ss.add_fail = 0;
		return -EBUSY;
	}
	return 0;
}

static const struct tlbp_flush_ops split_flush_ops = {
	.flush = s_flush, .flush_mm = s_flush_mm, .add_pending = s_add,
};
static const struct tlbp_split_ops split_ops = { .clear_pte = s_clear, .proceed = s_proceed };

static void fuzz_split(struct fuzz_input *in)
{
	static unsigned long bits[1], mm_bits[1];
	struct tlbp_batch_config cfg;
	struct tlbp_cpuset cpus;
	struct tlbp_batch b;
	struct tlbp_mm mm;
	struct tlbp_split s;
	struct tlbp_split_result res;
	struct tlbp_split_folio f;
	unsigned int order = 1 + fuzz_u8(in) % 9, i, n;
	bool failure, flush_fail;
	int err, gen;

	memset(&ss, 0, sizeof(ss));
	ss.mm = &mm;
	tlbp_batch_config_arch(&cfg, fuzz_u8(in) % TLBP_ARCH_NR, 8);
	if (tlbp_batch_init(&b, &cfg, &split_flush_ops, NULL, bits, sizeof(bits)) ||
	    tlbp_mm_init(&mm, &split_flush_ops, NULL) ||
	    tlbp_cpuset_init(&cpus, mm_bits, sizeof(mm_bits), 8))
		abort();
	tlbp_cpuset_set(&cpus, fuzz_u8(in) % 8);
	if (fuzz_bool(in))
		tlbp_mm_inc_flush_pending(&mm);
	n = 1U << order;
	for (i = 0; i < n; i++) {
		static const unsigned int states[] = {
			0, TLBP_PTE_PRESENT, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY, TLBP_PTE_PROTNONE,
		};
		ss.pte[i] = states[fuzz_u8(in) % 4];
	}
	ss.clear_err_at = fuzz_u8(in) % 4 == 0 ? (int)(fuzz_u16(in) % n) : -1;
	ss.flush_fail = fuzz_u8(in) % 4 == 0;
	flush_fail = ss.flush_fail;
	ss.add_fail = fuzz_u8(in) % 8 == 0;
	failure = ss.clear_err_at >= 0 || ss.flush_fail || ss.add_fail;
	f = (struct tlbp_split_folio){ .mm = &mm, .mm_cpus = &cpus,
				       .addr = (uint64_t)n << 12 << 4, .order = order,
				       .pmd_order = 9, .hugetlb = fuzz_u8(in) % 8 == 0,
				       .this_cpu = fuzz_u8(in) % 8 };
	FUZZ_REQUIRE(tlbp_split_init(&s, fuzz_u8(in) % TLBP_SPLIT_POLICY_NR,
				     &split_ops, NULL, &b) == 0);
	gen = tlbp_mm_batched_gen(&mm);
	err = tlbp_split_unmap(&s, &f, &res);
	/* Only entries that went into the batch touch tlb_flush_batched. */
	FUZZ_REQUIRE((tlbp_mm_batched_gen(&mm) != gen) == (res.nr_deferred > 0));
	/* Per-PTE and hugetlb defer nothing unless a flush failed. */
	if ((f.hugetlb || s.policy == TLBP_SPLIT_FLUSH_PER_PTE) && !flush_fail)
		FUZZ_REQUIRE(res.nr_deferred == 0);
	if (!err) {
		FUZZ_REQUIRE(ss.proceeded && res.proceeded);
	} else {
		FUZZ_REQUIRE(failure && !ss.proceeded);
		/* Only a failed flush may leave a flush owed, and then it is. */
		if (tlbp_batch_flush_required(&b))
			FUZZ_REQUIRE(err == -EAGAIN);
	}
	FUZZ_REQUIRE(res.split_huge_pmd == (!f.hugetlb && order >= 9));
}

/* --- grace-period work ------------------------------------------------------- */

#define GP_MAX 64
static struct {
	bool needs[GP_MAX];
	int err_first[GP_MAX], err_retry[GP_MAX];
	unsigned int attempts[GP_MAX];
	unsigned int syncs, flushes;
	bool synced, unflushed_pages;
	unsigned long pending;
	int sync_fail, flush_fail;
} gs;

static bool g_needs(void *c, unsigned int i) { (void)c; return gs.needs[i]; }
static int g_process(void *c, unsigned int i)
{
	int err;

	(void)c;
	FUZZ_REQUIRE(i < GP_MAX && gs.synced);
	err = gs.attempts[i]++ ? gs.err_retry[i] : gs.err_first[i];
	if (!err) {
		gs.pending++;
		gs.unflushed_pages = true;
	}
	return err;
}
static int g_sync(void *c)
{
	(void)c;
	if (gs.sync_fail && !--gs.sync_fail)
		return -EINTR;
	gs.syncs++;
	gs.synced = true;
	return 0;
}
static int g_flush(void *c)
{
	(void)c;
	if (gs.flush_fail && !--gs.flush_fail)
		return -EIO;
	gs.flushes++;
	gs.unflushed_pages = false;
	return 0;
}
static unsigned long g_nr(void *c) { (void)c; return gs.pending; }
static void g_free(void *c)
{
	(void)c;
	FUZZ_REQUIRE(!gs.unflushed_pages);
	gs.pending = 0;
}

static const struct tlbp_gp_ops gp_ops = {
	.needs_work = g_needs, .process = g_process, .sync = g_sync,
	.flush = g_flush, .nr_pending_free = g_nr, .free_pending = g_free,
};

static void fuzz_gp(struct fuzz_input *in)
{
	unsigned int policy = fuzz_u8(in) % TLBP_GP_POLICY_NR;
	unsigned int mode = fuzz_u8(in) % TLBP_GP_ON_ERROR_NR;
	unsigned int n = fuzz_u8(in) % GP_MAX, i, attempted = 0;
	struct tlbp_gp_result res;
	struct tlbp_gp_batch g;
	int err;

	memset(&gs, 0, sizeof(gs));
	for (i = 0; i < n; i++) {
		static const int errs[] = { 0, 0, 0, 0, 0, -ENOMEM, -EIO, -EBUSY };

		gs.needs[i] = fuzz_u8(in) % 4 != 0;
		gs.err_first[i] = errs[fuzz_u8(in) % 8];
		gs.err_retry[i] = errs[fuzz_u8(in) % 8];
	}
	gs.sync_fail = fuzz_u8(in) % 8 == 0 ? 1 + fuzz_u8(in) % 4 : 0;
	gs.flush_fail = fuzz_u8(in) % 8 == 0 ? 1 + fuzz_u8(in) % 4 : 0;
	FUZZ_REQUIRE(tlbp_gp_batch_init(&g, policy, mode, &gp_ops, NULL) == 0);
	err = tlbp_gp_batch_run(&g, n, &res);
	for (i = 0; i < n; i++)
		attempted += gs.attempts[i] > 0;
	FUZZ_REQUIRE(res.syncs == gs.syncs && res.flushes == gs.flushes);
	if (policy == TLBP_GP_BATCHED)
		FUZZ_REQUIRE(gs.syncs <= 1);
	else
		FUZZ_REQUIRE(gs.syncs == attempted);
	FUZZ_REQUIRE(res.done + res.failed <= attempted);
	FUZZ_REQUIRE(res.done + res.failed + res.not_needed + res.handed_back <= n);
	if (!err)
		FUZZ_REQUIRE(!gs.unflushed_pages && res.first_error == 0);
	if (res.first_error)
		FUZZ_REQUIRE(err == res.first_error || err == -EINTR || err == -EIO);
	/* After a successful run nothing processed is left unflushed. */
	if (!gs.flush_fail && !gs.unflushed_pages)
		FUZZ_REQUIRE(gs.pending == 0 || !gs.flushes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fuzz_input in = { data, len, 0 };

	while (fuzz_more(&in)) {
		switch (fuzz_u8(&in) % 4) {
		case 0: fuzz_migrate(&in); break;
		case 1: fuzz_hint(&in); break;
		case 2: fuzz_split(&in); break;
		default: fuzz_gp(&in); break;
		}
	}
	return 0;
}
