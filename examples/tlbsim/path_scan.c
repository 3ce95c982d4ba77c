// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The NUMA scanner (task_numa_work / change_prot_numa): every scan period,
 * mark scan_size worth of an mm's PTEs PROT_NONE, one PTE table per event so
 * that faults and migrations interleave with a pass, inside one gather whose
 * flush comes at the end of the pass.
 */
#include "sim.h"

/* task_numa_work runs in the context of one of the mm's tasks; a whole
 * pass stays on that task's CPU, the next pass takes the next task. */
static unsigned int pick_scan_cpu(struct sim *s, struct mm *mm)
{
	struct thread *t = &s->thread[mm->first_thread + mm->scan_cpu_rr++ % mm->nr_threads];

	return t->cpu;
}

void sim_scan_start(struct sim *s, struct mm *mm)
{
	uint64_t pages = (uint64_t)(s->p.v[P_SCAN_SIZE_MB] * 1048576.0) >> PAGE_SHIFT;

	if (!pages)
		pages = 1;
	if (mm->scan_next_vpn >= mm->nr_pages)
		mm->scan_next_vpn = 0;
	mm->scan_pass_end = mm->scan_next_vpn + pages;
	if (mm->scan_pass_end > mm->nr_pages)
		mm->scan_pass_end = mm->nr_pages;
	mm->pass_started_ns = s->now;
	mm->scan_cpu = pick_scan_cpu(s, mm);
	mm->in_pass = true;
	tlbp_gather_begin(&mm->gather, &mm->flush, s->clear_cfg.flush_ceiling,
			  PAGE_SHIFT);
	sim_schedule(s, s->now, EV_SCAN_TABLE, mm->id - 1);
}

static void scan_finish(struct sim *s, struct mm *mm, unsigned int cpu)
{
	enum tlbp_flush_reason why;
	uint64_t took;

	s->cur_cpu = cpu;
	tlbp_gather_finish(&mm->gather, &mm->cpus, &why);
	if (why != TLBP_FLUSH_NOT_REQUIRED)
		s->st.scanner_flush_mm_calls++;
	mm->in_pass = false;
	took = s->now - mm->pass_started_ns;
	s->st.scan_passes++;
	s->st.scan_pass_ns_total += took;
	if (mm->scan_next_vpn >= mm->nr_pages)
		mm->scan_next_vpn = 0;
	sim_schedule(s, mm->pass_started_ns + mm->scan_period_ns > s->now ?
		     mm->pass_started_ns + mm->scan_period_ns : s->now + 1,
		     EV_SCAN_START, mm->id - 1);
}

void sim_scan_table(struct sim *s, struct mm *mm)
{
	unsigned int cpu = mm->scan_cpu;
	uint64_t start = mm->scan_next_vpn, end, vpn, changed = 0;
	double cost;

	end = (start | (PTES_PER_TABLE - 1)) + 1;
	if (end > mm->scan_pass_end)
		end = mm->scan_pass_end;
	s->cur_cpu = cpu;
	/* Under this table's PTL, before touching its PTEs. */
	tlbp_mm_flush_batched_pending(&mm->flush, NULL);
	for (vpn = start; vpn < end; vpn++) {
		uint8_t *pte = pte_of(mm, vpn);

		if (!(*pte & PTE_PRESENT))
			continue;
		*pte = PTE_PROTNONE | (*pte & PTE_DIRTY);
		changed++;
	}
	if (changed)
		tlbp_gather_add(&mm->gather, start << PAGE_SHIFT, end << PAGE_SHIFT);
	s->st.hint_ptes_updated += changed;
	cost = (double)(end - start) * s->p.v[P_PTE_UPDATE_NS];
	s->cpu[cpu].acct.kernel_ns += (uint64_t)cost;
	mm->scan_next_vpn = end;
	if (end >= mm->scan_pass_end) {
		scan_finish(s, mm, cpu);
		return;
	}
	sim_schedule(s, s->now + (uint64_t)cost + 1, EV_SCAN_TABLE, mm->id - 1);
}
