// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * batch-demo: one task unmaps pages of an address space the way reclaim
 * does, through a tlbpolicy batch, over an "IPI to a CPU set" back-end that
 * prints what it is asked to do. Then a second task drains the mm's
 * deferred flush while the first one adds another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <tlbpolicy/tlbpolicy.h>

#define NR_CPUS 8
#define PAGE_SIZE 4096ULL

struct demo_machine {
	unsigned int ipis;
	unsigned int flushes;
};

static int demo_flush(void *ctx, const struct tlbp_flush_req *req)
{
	struct demo_machine *m = ctx;
	unsigned int cpu, n = 0;

	printf("  flush: %s", req->full ? "full" : "ranged");
	if (!req->full)
		printf(" [%#llx, %#llx) %llu pages", (unsigned long long)req->start,
		       (unsigned long long)req->end,
		       (unsigned long long)req->nr_pages);
	printf(", IPI to CPUs");
	for (cpu = tlbp_cpuset_next(req->cpus, 0); cpu < NR_CPUS;
	     cpu = tlbp_cpuset_next(req->cpus, cpu + 1)) {
		printf(" %u", cpu);
		n++;
	}
	printf("%s\n", req->writable ? " (dirty entries queued)" : "");
	m->ipis += n;
	m->flushes++;
	return 0;
}

static int demo_flush_mm(void *ctx, struct tlbp_mm *mm)
{
	struct demo_machine *m = ctx;

	(void)mm;
	printf("  flush_mm: whole address space on every CPU it ran on\n");
	m->flushes++;
	return 0;
}

static const struct tlbp_flush_ops demo_ops = {
	.flush = demo_flush,
	.flush_mm = demo_flush_mm,
};

static void die(const char *what, int err)
{
	fprintf(stderr, "batch-demo: %s failed: %d\n", what, err);
	exit(1);
}

static void unmap(struct tlbp_batch *b, struct tlbp_mm *mm,
		  const struct tlbp_cpuset *mm_cpus, unsigned int this_cpu,
		  uint64_t page, unsigned int pte)
{
	struct tlbp_defer_decision d;
	enum tlbp_add_reason why;
	int err;

	err = tlbp_batch_should_defer(b, mm_cpus, this_cpu, true, &d);
	if (err)
		die("should_defer", err);
	if (!d.defer) {
		printf("page %3llu: flush now on CPU %u (mm is local)\n",
		       (unsigned long long)page, this_cpu);
		return;
	}
	err = tlbp_batch_add_pending(b, mm, mm_cpus, pte, page * PAGE_SIZE,
				     (page + 1) * PAGE_SIZE, &why);
	if (err)
		die("add_pending", err);
	printf("page %3llu: %s\n", (unsigned long long)page,
	       why == TLBP_ADD_QUEUED ? "cleared, flush deferred" :
	       "PROT_NONE and no flush pending: nothing to flush");
}

int main(void)
{
	unsigned long batch_bits[TLBP_CPUSET_WORDS(NR_CPUS)];
	unsigned long mm_bits[TLBP_CPUSET_WORDS(NR_CPUS)];
	struct demo_machine machine = { 0 };
	struct tlbp_batch_config cfg;
	struct tlbp_cpuset mm_cpus;
	struct tlbp_batch batch;
	enum tlbp_flush_reason why;
	struct tlbp_mm mm;
	uint64_t page;
	bool drained;
	int err;

	tlbp_batch_config_default(&cfg, NR_CPUS);
	err = tlbp_batch_init(&batch, &cfg, &demo_ops, &machine, batch_bits,
			      sizeof(batch_bits));
	if (!err)
		err = tlbp_mm_init(&mm, &demo_ops, &machine);
	if (!err)
		err = tlbp_cpuset_init(&mm_cpus, mm_bits, sizeof(mm_bits), NR_CPUS);
	if (err)
		die("init", err);

	printf("== reclaim on CPU 0 while the mm runs only there\n");
	tlbp_cpuset_set(&mm_cpus, 0);
	unmap(&batch, &mm, &mm_cpus, 0, 1, TLBP_PTE_PRESENT);

	printf("== the mm now runs on CPUs 0, 2, 5: unmap 40 pages\n");
	tlbp_cpuset_set(&mm_cpus, 2);
	tlbp_cpuset_set(&mm_cpus, 5);
	for (page = 100; page < 140; page++)
		unmap(&batch, &mm, &mm_cpus, 0, page,
		      TLBP_PTE_PRESENT | (page == 120 ? TLBP_PTE_DIRTY : 0));
	unmap(&batch, &mm, &mm_cpus, 0, 200, TLBP_PTE_PROTNONE);
	printf("== before pageout of the dirty page\n");
	if ((err = tlbp_batch_flush_dirty(&batch, &why)))
		die("flush_dirty", err);
	printf("  -> %s\n", tlbp_flush_reason_name(why));

	printf("== four more pages, then free them\n");
	for (page = 300; page < 304; page++)
		unmap(&batch, &mm, &mm_cpus, 0, page, TLBP_PTE_PRESENT);
	if ((err = tlbp_batch_flush(&batch, &why)))
		die("flush", err);
	printf("  -> %s\n", tlbp_flush_reason_name(why));
	if ((err = tlbp_batch_flush(&batch, &why)))
		die("flush", err);
	printf("  second flush -> %s\n", tlbp_flush_reason_name(why));

	printf("== another task (mprotect) drains what reclaim deferred\n");
	unmap(&batch, &mm, &mm_cpus, 0, 400, TLBP_PTE_PRESENT);
	if ((err = tlbp_mm_flush_batched_pending(&mm, &drained)))
		die("flush_batched_pending", err);
	printf("  drained: %s; mm outstanding now: %s\n", drained ? "yes" : "no",
	       tlbp_mm_batched_pending(&mm) ? "yes" : "no");
	if ((err = tlbp_batch_flush(&batch, &why)))
		die("flush", err);

	printf("== totals: %u flushes, %u IPIs\n", machine.flushes, machine.ipis);
	return 0;
}
