// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * x86 lazy TLB mode. A CPU whose thread sleeps runs the idle task, which
 * keeps the last mm loaded (enter_lazy_tlb()) and the CPU in its
 * mm_cpumask. native_flush_tlb_multi() skips lazy CPUs unless the flush
 * frees page tables (should_flush_tlb()); a lazy CPU such a flush
 * reaches switches to init_mm and so leaves the mm (flush_tlb_func()).
 * When the thread runs again, switch_mm_irqs_off() compares the CPU's
 * TLB generation with the mm's and flushes if it fell behind: here, if a
 * flush skipped it or it left the mm.
 *
 * A thread's work runs in one event, so a flush another CPU sends during
 * it happens, in the model, at the event's start. A CPU whose thread will
 * have finished its work by the time the flush is sent (struct cpu's
 * awake_until against the sender's time into its own event) counts as
 * lazy for it if it would then sleep for its next step's lock as the
 * locks stand, and as awake if it would go on or spin, as a task does in
 * mutex_spin_on_owner() while the split that holds the mutex runs: what
 * most of the guest's per-PTE split flushes find
 * (docs/data/testbed-ipi-where.md).
 *
 * The model drops a skipped flush's entries from the lazy CPU's TLB at
 * once, uncharged: nothing runs there to use them before it wakes, and
 * the oracle's copy check must not count them as live. The full flush on
 * waking is what the CPU pays.
 */
#include "paths.h"
#include "sim.h"

void sim_cpu_enter_lazy(struct sim *s, unsigned int cpu)
{
	struct cpu *c = &s->cpu[cpu];

	if (c->lazy)
		return;
	c->lazy = true;
	s->nr_lazy++;
}

void sim_cpu_exit_lazy(struct sim *s, unsigned int cpu, struct mm *mm)
{
	struct cpu *c = &s->cpu[cpu];

	c->awake_until = 0;
	if (!c->lazy && !c->lazy_owes_flush)
		return;
	if (c->lazy) {
		c->lazy = false;
		s->nr_lazy--;
	}
	if (!tlbp_cpuset_test(&mm->cpus, cpu)) {
		sim_mm_add_cpu(s, mm, cpu);
		c->lazy_owes_flush = true;
	}
	if (!c->lazy_owes_flush)
		return;
	c->lazy_owes_flush = false;
	sim_cpu_sync(s, c);
	c->acct.refill_ns += sim_refill_ns(s, tlb_flush_all(&c->tlb));
	c->acct.kernel_ns += (uint64_t)s->p.v[P_FULL_FLUSH_NS];
	s->st.local_flushes++;
}

bool sim_cpu_lazy_for_flush(const struct sim *s, unsigned int cpu, unsigned int self)
{
	const struct cpu *c = &s->cpu[cpu];

	if (c->lazy)
		return true;
	if (!c->awake_until)
		return false;
	return s->now + (cpu_path_ns(&s->cpu[self]) - s->event_path_base) >=
	       sim_split_round_awake_until(s, cpu);
}
