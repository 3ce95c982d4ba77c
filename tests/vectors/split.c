// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "tv.h"
#include <tlbpolicy/split.h>
#include <tlbpolicy/arch.h>

#define PAGE 4096ULL
#define NR_CPUS 16
#define MAX_ENTRIES 512

/*
 * A folio's PTEs and one event trace shared by the split ops and the flush
 * ops: 'c' per cleared entry, 'F' per flush (ranged) or 'A' (full), 'P' for
 * proceed. Each entry remembers whether a flush has covered it since it
 * was cleared, so "proceed" can check that none is left uncovered.
 */
struct folio_model {
	unsigned int pte[MAX_ENTRIES]; /* TLBP_PTE_* bits; 0 = not mapped */
	bool cleared_unflushed[MAX_ENTRIES];
	char trace[4 * MAX_ENTRIES];
	size_t len;
	int clear_err_at;   /* index whose clear fails, -1 for none */
	int flush_err;      /* error the next flushes return */
	unsigned int flush_fail_count;
	int proceed_err;
	unsigned int flushes, proceeds;
	uint64_t last_start, last_end;
	bool last_full;
};

static struct folio_model fm;
static struct tlbp_mm mm;

static void event(char c)
{
	fm.trace[fm.len++] = c;
	fm.trace[fm.len] = '\0';
}

static int op_clear_pte(void *ctx, unsigned int idx, unsigned int *old_pte)
{
	(void)ctx;
	ck_assert_uint_lt(idx, MAX_ENTRIES);
	if ((int)idx == fm.clear_err_at)
		return -EIO;
	if (!fm.pte[idx])
		return -ENOENT;
	*old_pte = fm.pte[idx];
	fm.pte[idx] = 0;
	/* Only an entry some TLB may hold needs a flush before the split. */
	fm.cleared_unflushed[idx] = (*old_pte & TLBP_PTE_PRESENT) ||
		((*old_pte & TLBP_PTE_PROTNONE) && tlbp_mm_flush_pending(&mm));
	event('c');
	return 0;
}

static int op_proceed(void *ctx)
{
	unsigned int i;

	(void)ctx;
	for (i = 0; i < MAX_ENTRIES; i++)
		ck_assert_msg(!fm.cleared_unflushed[i],
			      "split proceeds while entry %u may be cached", i);
	fm.proceeds++;
	event('P');
	return fm.proceed_err;
}

static int op_flush(void *ctx, const struct tlbp_flush_req *req)
{
	unsigned int i;

	(void)ctx;
	if (fm.flush_fail_count) {
		fm.flush_fail_count--;
		return fm.flush_err;
	}
	fm.flushes++;
	fm.last_full = req->full;
	fm.last_start = req->start;
	fm.last_end = req->end;
	for (i = 0; i < MAX_ENTRIES; i++)
		fm.cleared_unflushed[i] = false;
	event(req->full ? 'A' : 'F');
	return 0;
}

static unsigned int flush_mm_calls;

static int op_flush_mm(void *ctx, struct tlbp_mm *m)
{
	(void)ctx;
	(void)m;
	flush_mm_calls++;
	return 0;
}

static int add_err;
static int op_add_pending(void *ctx, struct tlbp_mm *m, uint64_t s, uint64_t e)
{
	(void)ctx;
	(void)m;
	(void)s;
	(void)e;
	return add_err;
}

static const struct tlbp_flush_ops flush_ops = {
	.flush = op_flush, .flush_mm = op_flush_mm, .add_pending = op_add_pending,
};
static const struct tlbp_split_ops split_ops = {
	.clear_pte = op_clear_pte, .proceed = op_proceed,
};

static struct tlbp_batch batch;
static unsigned long batch_bits[TLBP_CPUSET_WORDS(NR_CPUS)];
static unsigned long mm_bits[TLBP_CPUSET_WORDS(NR_CPUS)];
static struct tlbp_cpuset mm_cpus;

/* The batch of @arch's profile, empty. */
static void use_profile(enum tlbp_arch arch)
{
	struct tlbp_batch_config cfg;

	ck_assert_int_eq(tlbp_batch_config_arch(&cfg, arch, NR_CPUS), 0);
	ck_assert_int_eq(tlbp_batch_init(&batch, &cfg, &flush_ops, NULL,
					 batch_bits, sizeof(batch_bits)), 0);
}

static void setup(void)
{
	memset(&fm, 0, sizeof(fm));
	fm.clear_err_at = -1;
	add_err = 0;
	flush_mm_calls = 0;
	use_profile(TLBP_ARCH_X86);
	ck_assert_int_eq(tlbp_mm_init(&mm, &flush_ops, NULL), 0);
	ck_assert_int_eq(tlbp_cpuset_init(&mm_cpus, mm_bits, sizeof(mm_bits), NR_CPUS), 0);
	tlbp_cpuset_set(&mm_cpus, 1);
	tlbp_cpuset_set(&mm_cpus, 7);
}

static void map_folio(unsigned int nr, unsigned int pte)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		fm.pte[i] = pte;
}

static struct tlbp_split_folio folio_of(unsigned int order)
{
	return (struct tlbp_split_folio){
		.mm = &mm, .mm_cpus = &mm_cpus, .addr = 0x40000000ULL,
		.order = order, .pmd_order = 9,
	};
}

static int split(enum tlbp_split_policy policy,
		 const struct tlbp_split_folio *f, struct tlbp_split_result *res)
{
	struct tlbp_split s;

	ck_assert_int_eq(tlbp_split_init(&s, policy, &split_ops, NULL, &batch), 0);
	return tlbp_split_unmap(&s, f, res);
}

TV_CASE(test_split_unmap_flush_counts_by_order)
{
	unsigned int order = (unsigned int)_i;
	unsigned int nr = 1U << order;
	struct tlbp_split_folio f = folio_of(order);
	struct tlbp_split_result res;

	/* per-PTE: one flush per entry */
	map_folio(nr, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_PER_PTE, &f, &res), 0);
	ck_assert_uint_eq(res.nr_cleared, nr);
	ck_assert_uint_eq(res.nr_flushes, nr);
	ck_assert_uint_eq(fm.flushes, nr);
	ck_assert_int_eq(res.why, TLBP_SPLIT_WHY_PER_PTE);
	ck_assert(res.proceeded);
	ck_assert_uint_eq(fm.proceeds, 1);
	ck_assert(!tlbp_batch_flush_required(&batch));
	ck_assert_int_eq(res.split_huge_pmd, order >= 9);
	ck_assert_int_eq(fm.trace[fm.len - 1], 'P');

	/* batched: every clear, then exactly one flush, then proceed */
	setup();
	map_folio(nr, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_uint_eq(res.nr_cleared, nr);
	ck_assert_uint_eq(res.nr_flushes, 1);
	ck_assert_uint_eq(fm.flushes, 1);
	ck_assert_int_eq(res.why, TLBP_SPLIT_WHY_BATCHED);
	ck_assert_uint_eq(fm.len, nr + 2);
	ck_assert_int_eq(fm.trace[nr + 1], 'P');
	ck_assert_uint_eq(strspn(fm.trace, "c"), nr);
	/* x86's arch_tlbbatch_flush() flushes everything. */
	ck_assert(fm.last_full);
	/* arm64 completes the TLBIs it issued: ranged over the folio. */
	setup();
	use_profile(TLBP_ARCH_ARM64);
	map_folio(nr, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_uint_eq(res.nr_flushes, 1);
	ck_assert(!fm.last_full);
	ck_assert_uint_eq(fm.last_start, f.addr);
	ck_assert_uint_eq(fm.last_end, f.addr + nr * PAGE);
}

TV_CASE(test_split_unmap_per_pte_interleaves)
{
	struct tlbp_split_folio f = folio_of(2);
	struct tlbp_split_result res;

	map_folio(4, TLBP_PTE_PRESENT | TLBP_PTE_DIRTY);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_PER_PTE, &f, &res), 0);
	ck_assert_str_eq(fm.trace, "cFcFcFcFP");
}

TV_CASE(test_split_unmap_partially_mapped)
{
	struct tlbp_split_folio f = folio_of(4);
	struct tlbp_split_result res;

	map_folio(5, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_uint_eq(res.nr_cleared, 5);
	ck_assert_uint_eq(res.nr_skipped, 11);
	ck_assert_str_eq(fm.trace, "cccccAP");
	ck_assert_uint_eq(res.nr_deferred, 5);
}

TV_CASE(test_split_unmap_inaccessible_needs_no_flush)
{
	struct tlbp_split_folio f = folio_of(3);
	struct tlbp_split_result res;

	/* PROT_NONE (NUMA-hinted) with no gather in flight: nothing cached. */
	map_folio(8, TLBP_PTE_PROTNONE);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_PER_PTE, &f, &res), 0);
	ck_assert_uint_eq(res.nr_cleared, 8);
	ck_assert_uint_eq(res.nr_flushes, 0);
	ck_assert_str_eq(fm.trace, "ccccccccP");
	/* While a gather's flush is pending they count as accessible. */
	setup();
	map_folio(8, TLBP_PTE_PROTNONE);
	tlbp_mm_inc_flush_pending(&mm);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_uint_eq(res.nr_flushes, 1);
}

TV_CASE(test_split_unmap_hugetlb_never_batches)
{
	unsigned int p;

	for (p = 0; p < TLBP_SPLIT_POLICY_NR; p++) {
		struct tlbp_split_folio f = folio_of(9);
		struct tlbp_split_result res;

		setup();
		f.hugetlb = true;
		map_folio(1, TLBP_PTE_PRESENT);
		ck_assert_int_eq(split(p, &f, &res), 0);
		ck_assert_int_eq(res.why, TLBP_SPLIT_WHY_HUGETLB);
		ck_assert_uint_eq(res.nr_cleared, 1);
		ck_assert_uint_eq(res.nr_flushes, 1);
		ck_assert_uint_eq(res.nr_deferred, 0);
		ck_assert(!res.split_huge_pmd);
		/* huge_ptep_clear_flush(): one entry, one ranged flush of it. */
		ck_assert_str_eq(fm.trace, "cFP");
		ck_assert_uint_eq(fm.last_start, f.addr);
		ck_assert_uint_eq(fm.last_end, f.addr + 512 * PAGE);
	}
}

TV_CASE(test_split_unmap_pmd_flag_only_pmd_mappable)
{
	struct tlbp_split_folio f = folio_of(4);
	struct tlbp_split_result res;

	map_folio(16, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert(!res.split_huge_pmd);
	setup();
	f = folio_of(4);
	f.pmd_order = 4; /* e.g. a 64 KiB PMD on a small-page configuration */
	map_folio(16, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert(res.split_huge_pmd);
}

TV_CASE(test_split_unmap_clear_fails_flushes_first)
{
	struct tlbp_split_folio f = folio_of(3);
	struct tlbp_split_result res;

	map_folio(8, TLBP_PTE_PRESENT);
	fm.clear_err_at = 5;
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), -EIO);
	ck_assert_str_eq(fm.trace, "cccccA");
	ck_assert(!res.proceeded);
	ck_assert(!tlbp_batch_flush_required(&batch));
}

TV_CASE(test_split_unmap_flush_fails_keeps_owed)
{
	unsigned int p;

	for (p = 0; p < TLBP_SPLIT_POLICY_NR; p++) {
		struct tlbp_split_folio f = folio_of(2);
		struct tlbp_split_result res;

		setup();
		map_folio(4, TLBP_PTE_PRESENT);
		fm.flush_err = -EAGAIN;
		fm.flush_fail_count = 1;
		ck_assert_int_eq(split(p, &f, &res), -EAGAIN);
		ck_assert_uint_eq(fm.proceeds, 0);
		ck_assert(!res.proceeded);
		ck_assert_uint_eq(res.nr_flushes, 0);
		/* A failed immediate flush is queued into the batch. */
		ck_assert(tlbp_batch_flush_required(&batch));
		ck_assert_uint_eq(res.nr_deferred,
				  p == TLBP_SPLIT_FLUSH_PER_PTE ? 1 : 4);
	}
}

TV_CASE(test_split_unmap_clear_fails_then_flush_fails)
{
	struct tlbp_split_folio f = folio_of(2);
	struct tlbp_split_result res;

	map_folio(4, TLBP_PTE_PRESENT);
	fm.clear_err_at = 2;
	fm.flush_err = -EAGAIN;
	fm.flush_fail_count = 1;
	/* The flush error wins: the caller must retry the flush first. */
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), -EAGAIN);
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert_uint_eq(fm.proceeds, 0);
}

TV_CASE(test_split_unmap_add_pending_fails)
{
	struct tlbp_split_folio f = folio_of(3);
	struct tlbp_split_result res;

	map_folio(8, TLBP_PTE_PRESENT);
	add_err = -EBUSY;
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), -EBUSY);
	/* The entry was queued anyway and flushed in full at once. */
	ck_assert_str_eq(fm.trace, "cA");
	ck_assert(!tlbp_batch_flush_required(&batch));
	ck_assert(!res.proceeded);
}

TV_CASE(test_split_unmap_add_and_flush_fail_flush_error_wins)
{
	struct tlbp_split_folio f = folio_of(2);
	struct tlbp_split_result res;

	/* Found by fuzz_policies: an add_pending failure whose catch-up
	 * flush fails too must report the flush, which is still owed. */
	map_folio(4, TLBP_PTE_PRESENT);
	add_err = -EBUSY;
	fm.flush_err = -EAGAIN;
	fm.flush_fail_count = 1;
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), -EAGAIN);
	ck_assert(tlbp_batch_flush_required(&batch));
	ck_assert(!res.proceeded);
}

TV_CASE(test_split_unmap_proceed_error_passes_through)
{
	struct tlbp_split_folio f = folio_of(1);
	struct tlbp_split_result res;

	map_folio(2, TLBP_PTE_PRESENT);
	fm.proceed_err = -EBUSY;
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), -EBUSY);
	ck_assert(res.proceeded);
	ck_assert_str_eq(fm.trace, "ccAP");
}

TV_CASE(test_split_bad_input)
{
	struct tlbp_split_ops no_clear = { .proceed = op_proceed };
	struct tlbp_split_ops no_proceed = { .clear_pte = op_clear_pte };
	struct tlbp_split_folio f = folio_of(2);
	struct tlbp_split_result res;
	struct tlbp_split s;

	ck_assert_int_eq(tlbp_split_init(NULL, 0, &split_ops, NULL, &batch), -EINVAL);
	ck_assert_int_eq(tlbp_split_init(&s, 0, NULL, NULL, &batch), -EINVAL);
	ck_assert_int_eq(tlbp_split_init(&s, 0, &split_ops, NULL, NULL), -EINVAL);
	ck_assert_int_eq(tlbp_split_init(&s, 0, &no_clear, NULL, &batch), -EINVAL);
	ck_assert_int_eq(tlbp_split_init(&s, 0, &no_proceed, NULL, &batch), -EINVAL);
	ck_assert_int_eq(tlbp_split_init(&s, TLBP_SPLIT_POLICY_NR, &split_ops, NULL, &batch), -EINVAL);
	ck_assert_int_eq(tlbp_split_init(&s, 0, &split_ops, NULL, &batch), 0);

	map_folio(4, TLBP_PTE_PRESENT);
	ck_assert_int_eq(tlbp_split_unmap(NULL, &f, &res), -EINVAL);
	ck_assert_int_eq(tlbp_split_unmap(&s, NULL, &res), -EINVAL);
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, NULL), -EINVAL);
	f.order = 0;
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, &res), -EINVAL);
	f.order = 21;
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, &res), -EINVAL);
	f = folio_of(2);
	f.pmd_order = 0;
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, &res), -EINVAL);
	f = folio_of(2);
	f.addr += PAGE; /* not aligned to the 16 KiB folio */
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, &res), -EINVAL);
	f = folio_of(2);
	f.mm = NULL;
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, &res), -EINVAL);
	f = folio_of(2);
	f.mm_cpus = NULL;
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, &res), -EINVAL);
	f = folio_of(2);
	f.this_cpu = NR_CPUS; /* a CPU the batch does not cover */
	ck_assert_int_eq(tlbp_split_unmap(&s, &f, &res), -EINVAL);
	/* Nothing was touched. */
	ck_assert_uint_eq(fm.len, 0);
	ck_assert_uint_eq(fm.pte[0], TLBP_PTE_PRESENT);
}

TV_CASE(test_split_unmap_largest_order)
{
	struct tlbp_split_folio f = folio_of(20);
	struct tlbp_split_result res;

	/* A 4 GiB hugetlb folio: order 20 is accepted, as one entry. */
	f.hugetlb = true;
	f.addr = 0;
	map_folio(1, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_uint_eq(res.nr_cleared, 1);
}


/*
 * ptep_clear_flush() and huge_ptep_clear_flush() never touch
 * mm->tlb_flush_batched: only entries that went into the batch may leave a
 * flush for flush_tlb_batched_pending() to find.
 */
TV_CASE(test_split_unmap_unbatched_leaves_generation)
{
	static const struct { unsigned int policy; bool hugetlb; bool deferred; } rows[] = {
		{ TLBP_SPLIT_FLUSH_PER_PTE, false, false },
		{ TLBP_SPLIT_FLUSH_PER_PTE, true, false },
		{ TLBP_SPLIT_FLUSH_BATCHED, true, false },
		{ TLBP_SPLIT_FLUSH_BATCHED, false, true },
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tlbp_split_folio f = folio_of(rows[i].hugetlb ? 9 : 4);
		struct tlbp_split_result res;
		int gen;
		bool flushed;

		setup();
		f.hugetlb = rows[i].hugetlb;
		map_folio(rows[i].hugetlb ? 1 : 16, TLBP_PTE_PRESENT);
		gen = tlbp_mm_batched_gen(&mm);
		ck_assert_int_eq(split(rows[i].policy, &f, &res), 0);
		ck_assert_int_eq(tlbp_mm_batched_gen(&mm) != gen, rows[i].deferred);
		ck_assert_int_eq(tlbp_mm_batched_pending(&mm), rows[i].deferred);
		ck_assert_uint_eq(res.nr_deferred, rows[i].deferred ? 16 : 0);
		/* A later drain under the PTL flushes the mm only if batched. */
		ck_assert_int_eq(tlbp_mm_flush_batched_pending(&mm, &flushed), 0);
		ck_assert_int_eq(flushed, rows[i].deferred);
		ck_assert_uint_eq(flush_mm_calls, rows[i].deferred ? 1 : 0);
	}
}

/* x86's should_defer_flush(): an mm live only on this CPU is flushed at
 * once, locally, per PTE; arm64 and riscv defer regardless. */
TV_CASE(test_split_unmap_mm_local_is_not_deferred)
{
	struct tlbp_split_folio f = folio_of(2);
	struct tlbp_split_result res;

	tlbp_cpuset_zero(&mm_cpus);
	tlbp_cpuset_set(&mm_cpus, 3);
	f.this_cpu = 3;
	map_folio(4, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_int_eq(res.why, TLBP_SPLIT_WHY_NOT_DEFERRED);
	ck_assert_str_eq(fm.trace, "cFcFcFcFP");
	ck_assert_uint_eq(res.nr_flushes, 4);
	ck_assert_uint_eq(res.nr_deferred, 0);
	ck_assert(!tlbp_mm_batched_pending(&mm));

	/* Another CPU in the mask: the same split batches. */
	setup();
	f.this_cpu = 1;
	map_folio(4, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_int_eq(res.why, TLBP_SPLIT_WHY_BATCHED);
	ck_assert_uint_eq(res.nr_deferred, 4);

	/* arm64 defers even for a local mm. */
	setup();
	use_profile(TLBP_ARCH_ARM64);
	tlbp_cpuset_zero(&mm_cpus);
	tlbp_cpuset_set(&mm_cpus, 3);
	f.this_cpu = 3;
	map_folio(4, TLBP_PTE_PRESENT);
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_BATCHED, &f, &res), 0);
	ck_assert_int_eq(res.why, TLBP_SPLIT_WHY_BATCHED);
	ck_assert_str_eq(fm.trace, "ccccFP");
	ck_assert(tlbp_mm_batched_pending(&mm));
}

/* ptep_clear_flush() flushes only an entry pte_accessible() says some TLB
 * may hold: a per-PTE split of a half PROT_NONE folio flushes half. */
TV_CASE(test_split_unmap_per_pte_flushes_accessible_only)
{
	struct tlbp_split_folio f = folio_of(3);
	struct tlbp_split_result res;
	unsigned int i;

	for (i = 0; i < 8; i++)
		fm.pte[i] = i % 2 ? TLBP_PTE_PROTNONE : TLBP_PTE_PRESENT;
	ck_assert_int_eq(split(TLBP_SPLIT_FLUSH_PER_PTE, &f, &res), 0);
	ck_assert_str_eq(fm.trace, "cFccFccFccFcP");
	ck_assert_uint_eq(res.nr_flushes, 4);
}

const struct tv_case tv_split_cases[] = {
	TV_LOOP(test_split_unmap_flush_counts_by_order, setup, 2, 10),
	TV_ENTRY(test_split_unmap_per_pte_interleaves, setup),
	TV_ENTRY(test_split_unmap_partially_mapped, setup),
	TV_ENTRY(test_split_unmap_inaccessible_needs_no_flush, setup),
	TV_ENTRY(test_split_unmap_hugetlb_never_batches, setup),
	TV_ENTRY(test_split_unmap_pmd_flag_only_pmd_mappable, setup),
	TV_ENTRY(test_split_unmap_clear_fails_flushes_first, setup),
	TV_ENTRY(test_split_unmap_flush_fails_keeps_owed, setup),
	TV_ENTRY(test_split_unmap_clear_fails_then_flush_fails, setup),
	TV_ENTRY(test_split_unmap_add_pending_fails, setup),
	TV_ENTRY(test_split_unmap_add_and_flush_fail_flush_error_wins, setup),
	TV_ENTRY(test_split_unmap_proceed_error_passes_through, setup),
	TV_ENTRY(test_split_bad_input, setup),
	TV_ENTRY(test_split_unmap_largest_order, setup),
	TV_ENTRY(test_split_unmap_unbatched_leaves_generation, setup),
	TV_ENTRY(test_split_unmap_mm_local_is_not_deferred, setup),
	TV_ENTRY(test_split_unmap_per_pte_flushes_accessible_only, setup),
};
const unsigned int tv_split_nr_cases =
	sizeof(tv_split_cases) / sizeof(tv_split_cases[0]);
