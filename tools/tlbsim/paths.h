/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The kernel paths the model runs, each calling the library where the
 * kernel would, and the handlers they register with the engine.
 */
#ifndef TLBSIM_PATHS_H
#define TLBSIM_PATHS_H

#include <stdint.h>
#include "numa_group.h"
#include "sim.h"

/* Registers every path's event handlers (and the scanner's end hook). */
void sim_paths_register(struct sim *s);

/* path_migrate.c: @cpu is the CPU running (sim_this_cpu()), whose batch
 * the unmaps queue on. */
int sim_migrate_folios(struct sim *s, unsigned int cpu, struct mm *mm,
		       const uint64_t *vpns, unsigned int n, unsigned int target,
		       int reason);
int sim_migrate_folio(struct sim *s, unsigned int cpu, struct mm *mm,
		      uint64_t vpn, unsigned int target, int reason);
/* try_to_migrate_one()'s migration entry for PTE @pte: readable
 * (PTE_READONLY) when @pte had no write bit (PROT_NONE or read-only). */
uint8_t sim_migration_entry(uint8_t pte);
/* remove_migration_ptes(): @m's migration entries of pages [@head,
 * @head + @nr) become PTEs built from the VMA's protection (present;
 * read-only from a readable entry of a private mapping). */
void sim_remove_migration_ptes(struct mm *m, uint64_t head, uint64_t nr);
/* The testbed kernel's counters of @n PROT_NONE PTEs of @mm unmapped
 * (patch 0002): queued in the batch they count only while the mm's
 * tlb_flush_pending makes them accessible (set_tlb_ubc_flush_pending()),
 * cleared and flushed at once (ptep_clear_flush()) they always count. */
void sim_count_protnone_unmaps(struct sim *s, const struct mm *mm, bool deferred,
			       uint64_t n);

/* path_migrate.c: migrate_pages_batch() of one stack page @pg of @mm
 * (mapcount 1, order 0) to node @target; 0 or -errno. */
int sim_migrate_private_page(struct sim *s, unsigned int cpu, struct mm *mm,
			     struct walk_page *pg, unsigned int target);

/* path_fault.c */
void sim_hint_fault(struct sim *s, struct thread *t, uint64_t vpn);
/* A store of @mm's owner to read-only page @vpn (PTE_READONLY). */
void sim_write_protect_fault(struct mm *mm, uint64_t vpn);
/* A store to page @vpn of @mm: the write-protect fault first if the PTE
 * is present and read-only. Inline: the sweep's loop stores to every
 * page. */
static inline void sim_store_check_wp(struct mm *mm, uint64_t vpn)
{
	if ((*pte_of(mm, vpn) & (PTE_PRESENT | PTE_READONLY)) == (PTE_PRESENT | PTE_READONLY))
		sim_write_protect_fault(mm, vpn);
}
/* A hint fault of @t on page @vpn through tlbp_hint_fault_handle() with
 * @ops over @ctx: its cost, and task_numa_fault()'s counts for the scan
 * period (@local: the page was on @t's node; @private: @t took its last
 * fault too). */
void sim_hint_fault_run(struct sim *s, struct thread *t, const struct tlbp_hint_fault_ops *ops,
			void *ctx, uint64_t vpn, bool local, bool private);
/*
 * The head of every hint-fault ops ctx: the faulting task and what the
 * folio's last_cpupid held before the fault, for the account op.
 */
struct hint_who {
	struct sim *s;
	struct thread *t;
	struct numa_last last;
};
/* The lock ops: the model has nothing to do for the PTL (one event runs
 * at a time). */
void sim_hint_op_nop(void *ctx);
/* The account op, task_numa_fault(): sim_numa_task_fault() for the
 * struct hint_who @ctx starts with. */
void sim_hint_op_account(void *ctx, int nid, unsigned int nr_pages, unsigned int flags);

/* path_private_fault.c */
/* Stack page @pg, just marked, takes its hint fault at @t's next access. */
void sim_private_fault_queue(struct thread *t, struct walk_page *pg);
/* @t's next access: the stack pages' faults queued for it first. */
void sim_private_faults(struct sim *s, struct thread *t);

/* path_scan.c */
/* The CPU of @mm's next pass: its next task in turn (task_numa_work). */
unsigned int sim_scan_next_cpu(const struct sim *s, const struct mm *mm);
/* Starts a scan call (a pass) of @mm on sim_this_cpu(). */
void sim_scan_start(struct sim *s, struct mm *mm);
/* @mm's first call: numa_next_scan is @next_scan_ns (mm_init's scan
 * delay), and with tasks' ticks modelled the call waits for the first
 * tick after it, of whichever task that is. */
void sim_scan_schedule_first(struct sim *s, struct mm *mm, uint64_t next_scan_ns);
/* The next step of @mm's call in slot @slot. */
void sim_scan_table(struct sim *s, struct mm *mm, unsigned int slot);
/* Where @vpn was marked, for a migration while @mm's pass runs. */
enum scan_origin sim_scan_origin(const struct mm *mm, uint64_t vpn);
/* Closes the gathers of passes still open when the run ends. */
void sim_scan_end(struct sim *s);
/* The scan period @t's hint faults count toward: its own where tasks'
 * ticks are modelled (scan_overhead_ratio), else its mm's. */
struct scan_rate *sim_scan_rate(struct sim *s, struct thread *t);
/* reset_ptenuma_scan(): @mm completed a scan sequence. */
void sim_scan_seq_done(struct sim *s, struct mm *mm);
/*
 * task_numa_placement(), from a hint fault of @t before it is counted:
 * with tasks' ticks modelled, the task's first fault in a sequence it has
 * not seen updates its period from its faults since its last update,
 * however many sequences went by.
 */
void sim_scan_task_fault(struct sim *s, struct thread *t);
/*
 * With tasks' ticks modelled, @thread's task is in a task_numa_work()
 * call of its own: it runs as task_work on the task's way back to user
 * space, so the task touches none of its memory until the call returns.
 */
bool sim_scan_in_own_call(const struct sim *s, unsigned int thread);
/* A delay of @ns by the kernel's jiffies, in the machine's time. */
uint64_t sim_jiffies_ns(const struct sim *s, double ns);

/* workload.c */
void sim_access(struct sim *s, unsigned int thread);
/* @thread's own scan call returned: its parked access runs now. */
void sim_access_resume(struct sim *s, unsigned int thread);
/* The first access of @thread to page @vpn after it was marked PROT_NONE. */
void sim_prompt_access(struct sim *s, unsigned int thread, uint64_t vpn);
/* Draws a thread's first access and schedules it. */
void sim_access_start(struct sim *s, unsigned int thread);
/* Start loading what the next sim_access()/sim_prompt_access() reads. */
void sim_access_prefetch(const struct sim *s, unsigned int thread);
void sim_prompt_prefetch(const struct sim *s, unsigned int thread, uint64_t vpn);

/* path_sched.c */
/* @thread finished a sweep of its part: a moving thread that is due
 * switches node. */
void sim_sweep_done(struct sim *s, unsigned int thread);
/* Restarts the counters: the measured window begins now. */
void sim_window_start(struct sim *s);

/* path_split.c */
void sim_thp_op(struct sim *s, unsigned int thread);
/* Splits the large folio at @head of @mm's private object on @cpu
 * (unmap_folio(), then the split): its pages come back as order-0 folios,
 * accessible. Returns 0; -EINVAL if @head is not the head of a large
 * folio or the object is shared (nothing changed); or the error of the
 * unmap, after which the folio is mapped back whole (remap_page()) and
 * what the library owes stays in @cpu's batch. */
int sim_split_folio(struct sim *s, unsigned int cpu, struct mm *mm, uint64_t head);

/* path_split_round.c: the testbed's thp_split, a round at a time */
/* Sets up the round's locks, unmaps every page and starts every thread:
 * 0, or -1 (no memory). */
int sim_split_round_start(struct sim *s);
/* The next stage of @thread's round (an EV_SPLIT_ROUND). */
void sim_split_round(struct sim *s, unsigned int thread);
/* Until when the thread on @cpu stays awake, as the locks stand now:
 * through its work (struct cpu's awake_until) and the steps after it
 * that need no lock held by another, then for good if it spins for the
 * next one (UINT64_MAX), or asleep from then on. awake_until itself if
 * it is 0 or @cpu runs no thread of the round. */
uint64_t sim_split_round_awake_until(const struct sim *s, unsigned int cpu);
/* path_demote.c */
void sim_demote(struct sim *s);

#endif
