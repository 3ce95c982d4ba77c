/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The model machine: CPUs grouped in nodes, each with a TLB and time
 * accounts; address spaces whose page tables point at folios of a backing
 * object (private or MAP_SHARED by several processes); and the counters the
 * reports are built from. One struct sim per run, no global state.
 */
#ifndef TLBSIM_SIM_H
#define TLBSIM_SIM_H

#include <limits.h>
#include <stdint.h>
#include <tlbpolicy/tlbpolicy.h>
#include "heap.h"
#include "params.h"
#include "rng.h"
#include "scan_walk.h"
#include "sleeplock.h"
#include "tlb.h"
#include "tlb_tags.h"

#define PAGE_SHIFT 12
#define PMD_ORDER 9
#define PTES_PER_TABLE 512
#define MAX_MAPPERS 8

/* PTE byte of one virtual page. */
#define PTE_PRESENT   0x01 /* hardware-present */
#define PTE_PROTNONE  0x02 /* NUMA hinting */
#define PTE_DIRTY     0x04
#define PTE_MIGRATION 0x08 /* migration entry: not present, being moved */
/*
 * Present but write-protected: an anonymous folio's PTE put back from a
 * readable migration entry. A PROT_NONE PTE has no write bit, so its
 * migration entry is readable and remove_migration_pte() maps the folio
 * read-only; the owner's next store takes a write-protect fault
 * (sim_write_protect_fault()). On a migration entry: the entry is readable.
 */
#define PTE_READONLY  0x10

/*
 * Everything about one 4 KiB page in 8 bytes: its folio's state (every
 * page of a folio carries the same values) and the PTE byte of the first
 * process mapping it. The PTE bytes of further processes sharing the
 * object live in the object's pte_more[], so the common private mapping
 * pays for one PTE only: the page array is read at random on every
 * sampled access, and half the bytes is half the memory a run faults in.
 */
struct folio_page {
	uint32_t frame_gen; /* bumped when the contents move to a new frame */
	uint8_t node;
	uint8_t order;      /* order of the folio this page belongs to */
	uint8_t flags;
	uint8_t pte;        /* the PTE of the mapper in slot 0 */
};
_Static_assert(sizeof(struct folio_page) == 8, "a page's state is 8 bytes");
#define FOLIO_ISOLATED 0x01
/* 6.12's partially_mapped flag: the folio is on the deferred split queue
 * as partially mapped, so its next migration splits it first. */
#define FOLIO_PARTIALLY_MAPPED 0x02
/* The node of the folio's last hint fault, plus one (0: none yet): the
 * nid half of the kernel's last_cpupid, for the last-node filter. Six
 * bits: at most 63 nodes (the sockets parameter's bound). */
#define FOLIO_LAST_NODE_SHIFT 2

static inline unsigned int folio_last_node(const struct folio_page *fp)
{
	return fp->flags >> FOLIO_LAST_NODE_SHIFT;
}

static inline void folio_set_last_node(struct folio_page *fp, unsigned int node_plus_one)
{
	fp->flags = (uint8_t)((fp->flags & ((1U << FOLIO_LAST_NODE_SHIFT) - 1)) |
			      (node_plus_one << FOLIO_LAST_NODE_SHIFT));
}

/* Backing memory: private to one mm, or MAP_SHARED by several. */
struct object {
	uint64_t nr_pages;
	struct folio_page *page;
	/* PTEs of slots 1..MAX_MAPPERS-1, MAX_MAPPERS-1 per page; NULL
	 * until a second process maps the object. */
	uint8_t *pte_more;
	unsigned int nr_mappers; /* every page is mapped by all of them */
	struct mm *mapper[MAX_MAPPERS];
};

/* A NUMA scan period and the hint faults since update_task_scan_period()
 * last set it: a task's, or the mm's where tasks' ticks are not modelled */
struct scan_rate {
	uint64_t period_ns;
	uint64_t faults_local, faults_remote, faults_private, faults_shared;
};

/* One task_numa_work() call under way: its ranges are marked a PTE table
 * per event, each range in a gather of its own. */
struct scan_call {
	bool active;
	unsigned int cpu;        /* its task's, where its events run */
	unsigned int task;       /* index in sim->thread */
	uint64_t started_ns;
	struct tlbp_gather gather;
	enum { SCAN_STEP_DRAIN, SCAN_STEP_MARK, SCAN_STEP_DONE } step;
	uint64_t next_vpn;       /* the next table of its range starts here */
	uint64_t range_end;      /* where its range ends */
	bool changed;            /* its range's marking changed a PTE */
	uint64_t writer_at;      /* when an mmap_lock writer queues in it */
	struct walk_call walk;   /* with a walk: its place in it */
};

/* At least a process's most tasks (the testbed's 64 + 64): a task makes
 * one call at a time. */
#define SCAN_CALLS_MAX 128U

struct mm {
	uint32_t id;             /* 1.. ; part of TLB keys */
	uint64_t nr_pages;
	unsigned int slot;       /* this mm's PTE slot in its object (obj_pte()) */
	struct object *obj;      /* page i maps obj->page[i] */
	struct tlbp_mm flush;    /* batched generation pair, tlb_flush_pending */
	struct tlbp_cpuset cpus; /* mm_cpumask */
	unsigned long *cpu_bits;
	uint64_t tlb_gen;        /* x86 mm->context.tlb_gen */
	bool global_asid;        /* x86-invlpgb: flushed by broadcast */
	/* NUMA scanner state */
	uint64_t scan_next_vpn;  /* without a walk: where the next pass starts */
	/* Without a walk, the pages the current (or last) pass marks lie in
	 * [pass_start_vpn, scan_pass_end); a walk keeps no such span. */
	uint64_t pass_start_vpn, scan_pass_end;
	/* The pages the one and two passes before it marked, for where a
	 * migration's page was marked (enum scan_origin) */
	struct { uint64_t start, end; } earlier_pass[2];
	/* without scan_overhead_ratio; with it, the period that set the next
	 * scan (the calling task's) */
	struct scan_rate rate;
	uint64_t next_scan_ns;   /* numa_next_scan */
	unsigned int scan_cpu_rr;
	/* The calls under way: one at a time without a walk; with one, a
	 * call of each task (an EV_SCAN_TABLE's argument names the slot). */
	struct scan_call call[SCAN_CALLS_MAX];
	unsigned int nr_calls;   /* calls under way: a pass is running */
	bool call_pending;       /* an EV_SCAN_START is scheduled */
	/* ... the one whose argument is this (the setup's first, 0, too) */
	uint64_t start_gen;
	/* threads of this mm, for picking the scanner's CPU and a page's owner */
	unsigned int first_thread, nr_threads;
	uint64_t slice_pages;
	uint64_t scan_seq;       /* completed sequences over it (numa_scan_seq) */
	unsigned int scan_thread; /* the task of the next pass, with scan_overhead_ratio */
	/* The VMA walk of a scan call (scan_walk.c); NULL: each call is a
	 * pass over the region and each pass a sequence */
	struct vma_walk *walk;
};

struct acct {
	uint64_t irq_ns;    /* handling shootdown IPIs */
	uint64_t refill_ns; /* TLB refills after full flushes */
	uint64_t fault_ns;  /* hint faults, migration done in fault context */
	uint64_t wait_ns;   /* initiator waiting for acks */
	uint64_t kernel_ns; /* scanner, local flushes, other kernel work */
	uint64_t spin_ns;   /* spinning on mmap_lock behind a queued writer */
	uint64_t sleep_ns;  /* asleep on mmap_lock behind a queued writer */
};

struct sim;

/*
 * The ctx of the flush ops: the model and the CPU that issues the flush.
 * A CPU's own unmap batch names that CPU. Objects shared by CPUs (an mm's
 * flush state and the scanner's gathers, which use the mm's ops) name
 * SIM_THIS_CPU: whichever CPU runs the current event, sim_this_cpu(),
 * as the kernel's flush_tlb_mm_range() issues from smp_processor_id().
 */
struct flush_ctx {
	struct sim *s;
	unsigned int cpu; /* or SIM_THIS_CPU */
};
#define SIM_THIS_CPU UINT_MAX

struct cpu {
	unsigned int node;
	struct flush_ctx flush_ctx; /* this CPU's batch's ops ctx */
	struct tlb tlb;
	struct acct acct;
	struct tlbp_batch batch; /* the running task's tlbflush_unmap_batch */
	uint32_t tlbi_issued;    /* arm64: broadcast TLBIs not yet waited for */
	uint64_t op_until;       /* end of this CPU's last one-event operation */
	unsigned long *batch_bits;
	/* struct machine_flushes' counters when this CPU last caught up */
	uint64_t all_flushes_seen, all_irq_ns_seen;
	/* x86 lazy TLB mode: its thread sleeps and the idle task keeps the
	 * mm loaded; flushes that free no page table skip it (cpu_idle.c) */
	bool lazy;
	bool lazy_owes_flush; /* a flush skipped it, or it left the mm */
	/* Its thread's work, done in one event, ends here; then it takes its
	 * next step's locks, awake or asleep (0: not known). */
	uint64_t awake_until;
	/* Off a core with flushes queued until then (flush_turn.c; 0: not) */
	uint64_t turn_ns;
	bool turn_flushed_all; /* the turn's flush, carried out already, was full */
	uint64_t changes_seen; /* struct flush_turns' seq when its TLB last caught up */
};

/*
 * Full flushes of every CPU of the machine (x86: an IPI to each), kept as
 * two counters instead of being carried out on each CPU at once: a flush
 * of the whole machine would otherwise cost every migration O(CPUs), and
 * the run O(CPUs^2). A CPU catches up (sim_cpu_sync()) before anything
 * reads or changes its TLB or its interrupt and refill time; what it then
 * applies is exactly what the flushes would have (integer time, and a
 * TLB emptied by the first flush stays empty until the CPU runs again).
 */
struct machine_flushes {
	uint64_t count;  /* full flushes of every CPU so far */
	uint64_t irq_ns; /* their interrupt time on each target, summed */
};

/* The PTE changes CPUs waiting for their turn must drop (flush_turn.c):
 * a ring of tlb_key()s, seq counting every change ever logged. */
struct flush_turns {
	bool on; /* x86 IPIs on an overcommitted host */
	uint64_t *log;
	uint64_t seq;
	/* The current flush's busy targets that had no turn pending */
	unsigned int *to_draw, nr_to_draw;
};

/* A task faults on its own stack's page and main()'s few frame pages. */
#define PRIVATE_FAULTS_MAX 8
struct walk_page;

struct thread {
	unsigned int cpu;
	struct mm *mm;
	uint64_t slice_start, slice_pages; /* its private part of the mm */
	uint64_t useful_ns;    /* time spent on the workload, speed-weighted */
	uint64_t local, remote;
	uint64_t lost_seen_ns; /* CPU time lost to the kernel, already paid */
	uint64_t ops_done;     /* thp-split operations */
	uint64_t next_vpn;     /* page of its next sampled access */
	uint64_t scan_stamp_ns; /* task_tick_numa's node_stamp (runtime ~ virtual time) */
	uint64_t scan_seq_seen; /* p->numa_scan_seq: its mm's sequence at its last period update */
	struct scan_rate scan_rate; /* its own, with scan_overhead_ratio */
	bool moving;           /* switches node every switch_ms, between sweeps */
	bool switch_wanted;    /* due, waiting for a CPU on the other node */
	uint64_t switch_due_ns; /* when its next sweep's end may switch */
	uint64_t swept;        /* pages of its sweep written so far */
	/* The testbed's thp_split round (path_split_round.c) */
	uint8_t round_step, round_stage, round_locks;
	uint8_t round_waits;      /* the lock it waits for (HOLD_*), or 0 */
	bool spinning;            /* waits awake: optimistic spinning */
	bool fault_locked;        /* its first THP fault waited for mmap_lock */
	unsigned int round_part;  /* which THP or mprotect() of the step */
	uint64_t split_started_ns; /* its split write began (mutex_lock) */
	/* Its round's mapping (split_vmas.c): start page, mapped or not,
	 * the VMA it is in and that VMA's anon_vma */
	int64_t va;
	bool va_mapped;
	uint32_t vma_id, anon_id;
	bool vma_wlocked;  /* its VMA is write-locked (vma_start_write()) */
	bool vma_waited;   /* its vma_start_write() waited for faults */
	uint64_t vma_fault_until; /* a fault under its VMA's lock ends */
	/* That access's page state and TLB set, for the prefetches. */
	const void *next_page, *next_set;
	/* Stack pages the scanner marked that it faults on at its next
	 * access (path_private_fault.c) */
	struct walk_page *private_fault[PRIVATE_FAULTS_MAX];
	unsigned int nr_private_faults;
	/* A task_numa_work() call of its task is under way (mm->call[]) */
	bool in_call;
	/* Its access came while a scan call of its own ran: the next waits
	 * for that call to return (sim_scan_in_own_call()). */
	bool parked;
};

/* Emulator-only policies that break a kernel rule on purpose, to prove the
 * oracle catches them. Never offered by the library. */
enum unsafe_mode {
	UNSAFE_NONE,
	UNSAFE_NEVER_FLUSH,      /* migration never flushes its batch */
	UNSAFE_IGNORE_PENDING,   /* PROT_NONE counts as uncached even while a
				    gather's flush is pending */
	UNSAFE_FREE_BEFORE_FLUSH /* copy the page before the batch flush */
};

/* Where the page of a migration during a pass was marked PROT_NONE. */
enum scan_origin {
	SCAN_ORIGIN_THIS_PASS,   /* in the chunk the running pass covers */
	SCAN_ORIGIN_RECENT,      /* by one of the two passes before it */
	SCAN_ORIGIN_OLDER,       /* longer ago */
	NR_SCAN_ORIGINS
};

struct stats {
	uint64_t sim_events;
	uint64_t accesses, tlb_hits, tlb_misses;
	uint64_t hint_faults, hint_ptes_updated;
	uint64_t migrated_pages, migrate_calls, migrations_with_flush_pending;
	uint64_t migrate_failed;
	uint64_t tlb_ipis_sent, tlb_irqs_received;
	uint64_t tlb_irqs_absorbed; /* received by a CPU already caught up */
	uint64_t invlpgb_flushes;     /* INVLPGB ... TLBSYNC sequences */
	uint64_t full_flushes, ranged_flushes, local_flushes;
	uint64_t scanner_flush_mm_calls, batched_pending_drains;
	uint64_t scan_passes, scan_pass_ns_total, scan_in_pass_ns;
	uint64_t scan_calls, scan_sequences; /* task_numa_work() calls, numa_scan_seq steps */
	uint64_t faults_during_pass;
	/* hint-fault migrations taken while a pass ran, by where their page
	 * was marked (enum scan_origin); all of them are migrate_calls */
	uint64_t migrations_during_pass[NR_SCAN_ORIGINS];
	uint64_t prompt_faults;       /* hint faults from the active-set stream */
	uint64_t convoy_passes, convoy_ns; /* passes with a queued writer, thread time lost */
	uint64_t scan_period_updates;
	uint64_t sync_calls, tlb_flush_all_calls;
	uint64_t op_count, op_latency_ns_total;
	uint64_t violations;
	uint64_t splits;
	uint64_t sys_ns, real_ns;     /* hugetlb-demote */
	uint64_t demoted_pages;
	uint64_t protnone_batched_unmaps;   /* accessible PROT_NONE PTEs queued in a batch */
	uint64_t protnone_unbatched_unmaps; /* PROT_NONE PTEs cleared without the batch */
	uint64_t node_switches;
	uint64_t moving_sweeps, stable_sweeps; /* whole parts written */
};

enum event_kind {
	EV_ACCESS,     /* arg: thread */
	EV_PROMPT_ACCESS, /* arg: thread, arg2: page marked PROT_NONE */
	EV_SCAN_START, /* arg: mm index */
	EV_SCAN_TABLE, /* arg: mm index * SCAN_CALLS_MAX + call slot */
	EV_THP_OP,     /* arg: thread */
	EV_DEMOTE,     /* one-shot */
	EV_WINDOW,     /* the measured window starts: counters restart */
	EV_SPLIT_ROUND, /* arg: thread; its thp_split round's next stage */
	NR_EVENT_KINDS
};

/*
 * A hook the engine calls every @every_ns of virtual time, before the
 * first event past each boundary: the state it sees is the state at the
 * boundary. Only installed on request (run --timeline, run progress), so
 * other runs pay one predictable branch per event.
 */
struct sim_tick {
	uint64_t every_ns;
	void (*fn)(void *ctx, const struct sim *s, uint64_t at);
	void *ctx;
	/* Keeps what it sees (a timeline), so the run cannot be done over;
	 * false for progress shown as it goes. */
	bool records;
};

struct event;

/*
 * What one event kind does (registered by the kernel paths, paths.h) and
 * the CPU it runs on, which the engine makes sim_this_cpu() before calling
 * @run. @cpu only reads the model.
 */
struct sim_handler {
	void (*run)(struct sim *s, const struct event *ev);
	unsigned int (*cpu)(const struct sim *s, const struct event *ev);
};

/* Starts loading what an event's handler will read (engine.h). */
typedef void sim_prefetch_fn(const struct sim *s, const struct event *ev);

/*
 * The library policy each decision point of a run uses. A scenario's
 * policy selects those its paths decide with; the others keep their
 * zero value, which no path of that scenario reads.
 */
struct policy_choice {
	enum tlbp_migrate_batch_policy migrate;
	enum tlbp_hint_policy hint;
	enum tlbp_split_policy split;
	enum tlbp_gp_policy gp;
};

#define SIM_PREFETCH_BURST 8

struct sim {
	struct params p;
	/* What each event kind does: registered by the kernel paths
	 * (paths.h), so the engine dispatches without knowing any of them. */
	struct sim_handler on_event[NR_EVENT_KINDS];
	/* Optional, per kind: called for the next event while one runs. */
	sim_prefetch_fn *prefetch[NR_EVENT_KINDS];
	/* Called once the queue is empty, before the run ends (a scan pass
	 * still open closes its gather); may be NULL. */
	void (*on_end)(struct sim *s);
	const struct sim_tick *tick; /* NULL: none */
	uint64_t tick_next;
	struct rng rng;
	struct rng host_rng; /* the host's rotation draws only (host_sched.c) */
	uint64_t seed; /* the run's: a setup that draws seeds a stream of its own from it */
	struct event_heap heap;
	uint64_t now, end_ns;
	uint64_t window_ns; /* start of the measured window (0: the whole run) */
	unsigned int nr_cpus, nr_nodes, nr_threads, nr_mms;
	struct cpu *cpu;
	struct thread *thread;
	struct mm *mm;
	struct object *obj;
	unsigned int nr_objs;
	/* The tasks' NUMA fault statistics and groups (numa_group.c), where
	 * the scenario's migrate filter reads them; else NULL. */
	struct numa_groups *numa;
	const struct tlbp_flush_ops *flush_ops;
	/* The back-end's architecture profile: per-CPU unmap batches and
	 * unbatched clear-and-flush (its range_ceiling) alike. */
	struct tlbp_batch_config batch_cfg;
	/* The ops ctx of objects shared by CPUs: { this sim, SIM_THIS_CPU }. */
	struct flush_ctx this_cpu_ctx;
	/* The CPU running the current event. Written by the engine only
	 * (engine.c), read through sim_this_cpu(); 0, the boot CPU, outside
	 * any event. */
	unsigned int this_cpu;
	/* arm64: CPUs issuing broadcast TLBIs at once, as seen by op_cpu's
	 * operation (the path sets both); others count as alone. */
	unsigned int op_cpu, op_issuers;
	struct policy_choice policy;
	enum unsafe_mode unsafe;
	bool balancing;           /* NUMA scanner on */
	/* Accesses skip the TLBs (scenario.c's blind twins); every use of a
	 * TLB, or access that needed one, counts in tlb_blind_uses. */
	bool tlb_blind;
	uint64_t tlb_blind_uses;
	struct stats st;
	char first_violation[160];
	unsigned long *all_cpu_bits;
	void *tlb_slots;             /* every CPU's TLB sets, one block */
	struct tlbp_cpuset all_cpus;
	/* Which CPUs may cache a translation, for the oracle (tlb_tags.h). */
	struct tlb_tags tlb_tags;
	struct machine_flushes all_flushes;
	struct flush_turns turns;
	unsigned int nr_lazy;      /* CPUs in lazy TLB mode */
	/* The flush under way frees page tables (munmap()): x86 sends it to
	 * lazy CPUs too (native_flush_tlb_multi()'s freed_tables). */
	bool flush_freed_tables;
	/* The current event's work began when its CPU's cpu_path_ns() read
	 * this: its flushes happen that much later than s->now. */
	uint64_t event_path_base;
	/* The sleeping locks of the thp_split round: one waiter a thread. */
	struct lock_waiter *waiters;
	struct model_rwsem mmap_lock;
	struct model_mutex split_mutex;
	uint32_t last_vma_id; /* split_vmas.c's VMA and anon_vma names */
	bool mmap_writer_sleeps; /* in vma_start_write(), holding mmap_lock */
	/* Drawn accesses whose lines are not yet prefetched: they go out
	 * SIM_PREFETCH_BURST at a time (workload.c, prefetch_soon()). */
	struct { const void *page, *set; } prefetch_ring[SIM_PREFETCH_BURST];
	unsigned int prefetch_queued;
};

/* Something the contents of blind TLBs (scenario.c) could matter to
 * happened: a page marked, a frame moved, a marked page met. */
static inline void sim_blind_note(struct sim *s)
{
	s->tlb_blind_uses += s->tlb_blind;
}

/* The emulator's smp_processor_id(): the CPU the current event runs on. */
static inline unsigned int sim_this_cpu(const struct sim *s)
{
	return s->this_cpu;
}

void sim_cpu_catch_up(struct sim *s, struct cpu *c);

/* Applies to @c the machine-wide flushes it has not seen (struct
 * machine_flushes); before any use of its TLB or its irq/refill time. */
static inline void sim_cpu_sync(struct sim *s, struct cpu *c)
{
	if (c->all_flushes_seen != s->all_flushes.count)
		sim_cpu_catch_up(s, c);
}

/* Every CPU caught up: before reading the whole machine's accounts. */
void sim_cpus_sync(struct sim *s);

/* The PTE of page @vpn of object @o in the mapping of slot @slot. */
static inline uint8_t *obj_pte(const struct object *o, unsigned int slot, uint64_t vpn)
{
	if (!slot)
		return &o->page[vpn].pte;
	return &o->pte_more[vpn * (MAX_MAPPERS - 1) + slot - 1];
}

/* The PTE of virtual page @vpn in @mm. */
static inline uint8_t *pte_of(const struct mm *mm, uint64_t vpn)
{
	return obj_pte(mm->obj, mm->slot, vpn);
}

/* A PTE's state as the library reads it (TLBP_PTE_* bits). */
static inline unsigned int pte_to_tlbp(uint8_t pte)
{
	return (pte & PTE_PRESENT ? TLBP_PTE_PRESENT : 0) |
	       (pte & PTE_PROTNONE ? TLBP_PTE_PROTNONE : 0) |
	       (pte & PTE_DIRTY ? TLBP_PTE_DIRTY : 0);
}

/*
 * Time a CPU spent running kernel paths itself: its own flushes and waits
 * for acks, faults, other kernel work. A path that runs in one event takes
 * as long as this grows while it runs.
 */
static inline uint64_t cpu_path_ns(const struct cpu *c)
{
	return c->acct.kernel_ns + c->acct.wait_ns + c->acct.fault_ns;
}

/*
 * Whether the workload's own pace already pays for the walks its TLB
 * misses make (workload.c): a sweep charges each page it writes a miss's
 * or a hit's time, so a full flush only empties its TLB.
 */
bool sim_workload_pays_walks(const struct sim *s);

/* A sweep's time for a page its TLB holds, in a part of @part_pages
 * pages: sweep_hit_ns_per_page up to 32 MiB, sweep_hit_192_ns_per_page
 * from 192 MiB (unless 0), linear between (workload.c). */
double sim_sweep_hit_ns(const struct sim *s, uint64_t part_pages);

/* What refilling @dropped translations after a full flush costs the CPU,
 * unless the workload pays for its walks itself (counting them twice). */
static inline uint64_t sim_refill_ns(const struct sim *s, uint32_t dropped)
{
	if (sim_workload_pays_walks(s))
		return 0;
	return (uint64_t)(dropped * s->p.v[P_TLB_MISS_NS]);
}

/* Time @c lost to the kernel so far: what pushes its thread's work back. */
static inline uint64_t sim_cpu_lost_ns(const struct cpu *c)
{
	const struct acct *a = &c->acct;

	return a->irq_ns + a->refill_ns + a->fault_ns + a->wait_ns + a->kernel_ns +
	       a->spin_ns + a->sleep_ns;
}

/* cpu_idle.c: a CPU whose thread sleeps enters lazy TLB mode; when the
 * thread runs again it reloads @mm, flushing its TLB if a flush skipped
 * it meanwhile or it left @mm (switch_mm_irqs_off()). */
void sim_cpu_enter_lazy(struct sim *s, unsigned int cpu);
void sim_cpu_exit_lazy(struct sim *s, unsigned int cpu, struct mm *mm);
/* Whether @cpu is lazy for a flush @self sends now (cpu_idle.c). */
bool sim_cpu_lazy_for_flush(const struct sim *s, unsigned int cpu, unsigned int self);

/* machine.c */
int sim_machine_init(struct sim *s, unsigned int nr_cpus, unsigned int nr_nodes);
void sim_free(struct sim *s);
/* With tlb_entries=0, once the mms exist: every CPU's TLB holds every
 * translation of every mm until it is flushed. 0 or -1. */
int sim_machine_tlbs_unbounded(struct sim *s);
unsigned int cpu_node_of(const struct sim *s, unsigned int cpu);

/* aspace.c */
struct object *sim_object_new(struct sim *s, uint64_t nr_pages, unsigned int order);
struct mm *sim_mm_new(struct sim *s, struct object *obj);
void sim_mm_add_cpu(struct sim *s, struct mm *mm, unsigned int cpu);
/* First virtual page of the folio holding @vpn, and its size in pages. */
uint64_t folio_head(const struct mm *mm, uint64_t vpn);
uint64_t folio_pages(const struct mm *mm, uint64_t vpn);
uint64_t aspace_bytes(const struct sim *s);

/* backend.c */
const struct tlbp_flush_ops *backend_ops(enum backend_kind kind);
/* The library's architecture profile (tlbp_arch_from_name()) of a back-end. */
const char *backend_arch_name(enum backend_kind kind);
/* oracle.c */
void oracle_violation(struct sim *s, const char *what, uint32_t mm_id, uint64_t vpn);
void oracle_check_hit(struct sim *s, unsigned int cpu, struct mm *mm,
		      uint64_t vpn, uint32_t cached_gen);
void oracle_check_copy(struct sim *s, struct mm *mm, uint64_t head, uint64_t nr);

#endif
