// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The library's hot paths next to the kernel's open-coded versions
 * (kernel_ref.h), three ways each: k_* is the kernel transcription, lib_*
 * the library's checked, out-of-line call, fast_* its inline form
 * (fastpath.h). Same inputs, same loop, results into a volatile sink so
 * nothing folds away. bench/callgrind.sh counts instructions per call.
 */
#include <string.h>
#include "bench.h"

static volatile unsigned int sink;

/* The x86 mechanism at add time, as arch_tlbbatch_add_pending() does it. */
static atomic_llong lib_tlb_gen;
static void *lib_notifiers;

static int x86_add_pending(void *ctx, struct tlbp_mm *mm, uint64_t start,
			   uint64_t end)
{
	(void)ctx;
	(void)mm;
	(void)start;
	(void)end;
	atomic_fetch_add(&lib_tlb_gen, 1);
	if (__builtin_expect(lib_notifiers != NULL, 0))
		return -1;
	return 0;
}

static const struct tlbp_flush_ops x86_ops = {
	.flush = null_flush, .flush_mm = null_flush_mm,
	.add_pending = x86_add_pending,
};

static void ready_init(void);

void kref_flush_tlb_mm(struct kref_mm *mm)
{
	(void)mm;
}

void kref_notifier_hook(struct kref_mm *mm)
{
	(void)mm;
}

void vs_kernel_rig_init(struct rig *r, unsigned int nr_cpus)
{
	struct tlbp_batch_config cfg;
	unsigned int cpu, f;

	tlbp_batch_config_arch(&cfg, TLBP_ARCH_X86, nr_cpus);
	tlbp_batch_init(&r->x86_batch, &cfg, &x86_ops, NULL, r->x86_bits,
			sizeof(r->x86_bits));
	nr_cpu_ids = nr_cpus;
	memset(&r->kmm, 0, sizeof(r->kmm));
	memset(&r->kubc, 0, sizeof(r->kubc));
	for (cpu = 0; cpu < nr_cpus; cpu++)
		r->kmm.cpumask[cpu / BITS_PER_LONG] |= 1UL << (cpu % BITS_PER_LONG);
	ready_init();
	/* Small and large folios mapped once or twice, for both readers. */
	for (f = 0; f < NR_FOLIOS; f++) {
		struct kref_folio *k = &r->folios[f];
		bool large = f & 1;
		int extra = (f >> 1) & 1;

		k->flags = large ? 1UL << PG_head : 0;
		k->order = large ? 9 : 0;
		k->_entire_mapcount = large ? 0 : -1;
		atomic_store(&k->_mapcount, large ? -1 : extra);
		atomic_store(&k->_large_mapcount, large ? extra : -1);
	}
}

/* --- should_defer_flush(), the mm live on every CPU ----------------------- */

static void k_should_defer(struct rig *r, unsigned long i)
{
	(void)i;
	sink = should_defer_flush(&r->kmm, KREF_TTU_BATCH_FLUSH);
}

static void lib_should_defer(struct rig *r, unsigned long i)
{
	struct tlbp_defer_decision d;

	(void)i;
	tlbp_batch_should_defer(&r->x86_batch, &r->mm_cpus, kref_this_cpu, true, &d);
	sink = d.defer;
}

static void fast_should_defer(struct rig *r, unsigned long i)
{
	(void)i;
	sink = tlbp_batch_should_defer_fast(&r->x86_batch, &r->mm_cpus,
					    kref_this_cpu, true);
}

/* --- set_tlb_ubc_flush_pending(): one present PTE ------------------------- */

static void k_add(struct rig *r, unsigned long i)
{
	set_tlb_ubc_flush_pending(&r->kubc, &r->kmm, _PAGE_PRESENT, i * PAGE);
}

static void lib_add(struct rig *r, unsigned long i)
{
	tlbp_batch_add_pending(&r->x86_batch, &r->mm, &r->mm_cpus,
			       TLBP_PTE_PRESENT, (i % 512) * PAGE,
			       (i % 512 + 1) * PAGE, NULL);
}

static void fast_add(struct rig *r, unsigned long i)
{
	tlbp_batch_add_pending_fast(&r->x86_batch, &r->mm, &r->mm_cpus,
				    TLBP_PTE_PRESENT, (i % 512) * PAGE,
				    (i % 512 + 1) * PAGE);
}

/* The same without an add_pending op: a back-end with nothing to do at add
 * time (its generation bumped at flush), to show what the op call costs. */
static void fast_add_no_op(struct rig *r, unsigned long i)
{
	tlbp_batch_add_pending_fast(&r->batch, &r->mm, &r->mm_cpus,
				    TLBP_PTE_PRESENT, (i % 512) * PAGE,
				    (i % 512 + 1) * PAGE);
}

/* --- flush_tlb_batched_pending() with nothing owed ------------------------ */

static void k_drain_clean(struct rig *r, unsigned long i)
{
	(void)i;
	flush_tlb_batched_pending(&r->kmm);
}

static void lib_drain_clean(struct rig *r, unsigned long i)
{
	(void)i;
	tlbp_mm_flush_batched_pending(&r->mm, NULL);
}

static void fast_drain_clean(struct rig *r, unsigned long i)
{
	(void)i;
	tlbp_mm_flush_batched_pending_fast(&r->mm, NULL);
}

/* --- inc_tlb_flush_pending(), mm_tlb_flush_pending(), dec ----------------- */

static void k_flush_pending(struct rig *r, unsigned long i)
{
	(void)i;
	inc_tlb_flush_pending(&r->kmm);
	sink = mm_tlb_flush_pending(&r->kmm);
	dec_tlb_flush_pending(&r->kmm);
}

static void lib_flush_pending(struct rig *r, unsigned long i)
{
	(void)i;
	tlbp_mm_inc_flush_pending(&r->mm);
	sink = tlbp_mm_flush_pending(&r->mm);
	tlbp_mm_dec_flush_pending(&r->mm);
}

static void fast_flush_pending(struct rig *r, unsigned long i)
{
	(void)i;
	tlbp_mm_inc_flush_pending_fast(&r->mm);
	sink = tlbp_mm_flush_pending_fast(&r->mm);
	tlbp_mm_dec_flush_pending_fast(&r->mm);
}

/* --- seed 000 v2's condition, inputs ready -------------------------------- */

/*
 * The same folios' inputs in each reader's shape, computed beforehand: the
 * kernel's single/large/shared booleans, the library's batch size, order
 * and mapcount. Each case loads its three.
 */
struct ready {
	bool single, large, shared;
	unsigned int nr_folios, order;
	int mapcount;
};
static struct ready ready[NR_FOLIOS];

static void ready_init(void)
{
	unsigned int i;

	for (i = 0; i < NR_FOLIOS; i++) {
		bool large = (i >> 1) & 1, shared = !large && ((i >> 2) & 1);

		ready[i] = (struct ready){
			.single = i & 1, .large = large, .shared = shared,
			.nr_folios = i & 1 ? 1 : 2, .order = large ? 9 : 0,
			.mapcount = shared ? 2 : 1,
		};
	}
}

static void k_migrate_ready(struct rig *r, unsigned long i)
{
	const struct ready *in = &ready[i % NR_FOLIOS];

	(void)r;
	sink = kref_migrate_batch(true, in->single, in->large, in->shared);
}

static void lib_migrate_ready(struct rig *r, unsigned long i)
{
	const struct ready *in = &ready[i % NR_FOLIOS];
	struct tlbp_migrate_folio f = {
		.mode = TLBP_MIGRATE_ASYNC, .reason = TLBP_MR_NUMA_MISPLACED,
		.nr_folios = in->nr_folios, .order = in->order,
		.mapcount = in->mapcount, .maybe_mapped_shared = in->shared,
	};
	struct tlbp_migrate_decision d;

	(void)r;
	tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_SKIP_SINGLE, &f, &d);
	sink = d.batch;
}

static void fast_migrate_ready(struct rig *r, unsigned long i)
{
	const struct ready *in = &ready[i % NR_FOLIOS];

	(void)r;
	sink = tlbp_migrate_should_batch_fast(TLBP_MIGRATE_BATCH_SKIP_SINGLE,
					      TLBP_MIGRATE_ASYNC,
					      TLBP_MR_NUMA_MISPLACED,
					      in->nr_folios, in->order,
					      in->mapcount);
}

/* --- the same condition read from a folio --------------------------------- */

static void k_migrate_folio(struct rig *r, unsigned long i)
{
	sink = kref_migrate_batch_folio(true, i & 1, &r->folios[(i >> 1) % NR_FOLIOS]);
}

static void lib_migrate_folio(struct rig *r, unsigned long i)
{
	const struct kref_folio *folio = &r->folios[(i >> 1) % NR_FOLIOS];
	struct tlbp_migrate_folio f = {
		.mode = TLBP_MIGRATE_ASYNC, .reason = TLBP_MR_NUMA_MISPLACED,
		.nr_folios = i & 1 ? 1 : 2, .order = kref_folio_order(folio),
		.mapcount = folio_mapcount(folio),
		.maybe_mapped_shared = folio_likely_mapped_shared(folio),
	};
	struct tlbp_migrate_decision d;

	tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_SKIP_SINGLE, &f, &d);
	sink = d.batch;
}

static void fast_migrate_folio(struct rig *r, unsigned long i)
{
	const struct kref_folio *folio = &r->folios[(i >> 1) % NR_FOLIOS];

	sink = tlbp_migrate_should_batch_fast(TLBP_MIGRATE_BATCH_SKIP_SINGLE,
					      TLBP_MIGRATE_ASYNC,
					      TLBP_MR_NUMA_MISPLACED,
					      i & 1 ? 1 : 2, kref_folio_order(folio),
					      folio_mapcount(folio));
}

const struct bench_case vs_kernel_cases[] = {
	{ "k_should_defer", k_should_defer, true },
	{ "lib_should_defer", lib_should_defer, true },
	{ "fast_should_defer", fast_should_defer, true },
	{ "k_add", k_add, true },
	{ "lib_add", lib_add, true },
	{ "fast_add", fast_add, true },
	{ "fast_add_no_op", fast_add_no_op, true },
	{ "k_drain_clean", k_drain_clean, false },
	{ "lib_drain_clean", lib_drain_clean, false },
	{ "fast_drain_clean", fast_drain_clean, false },
	{ "k_flush_pending", k_flush_pending, false },
	{ "lib_flush_pending", lib_flush_pending, false },
	{ "fast_flush_pending", fast_flush_pending, false },
	{ "k_migrate_ready", k_migrate_ready, false },
	{ "lib_migrate_ready", lib_migrate_ready, false },
	{ "fast_migrate_ready", fast_migrate_ready, false },
	{ "k_migrate_folio", k_migrate_folio, false },
	{ "lib_migrate_folio", lib_migrate_folio, false },
	{ "fast_migrate_folio", fast_migrate_folio, false },
};
const unsigned int vs_kernel_nr_cases =
	sizeof(vs_kernel_cases) / sizeof(vs_kernel_cases[0]);
