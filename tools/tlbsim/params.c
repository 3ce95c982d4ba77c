// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "params.h"
#include "suggest.h"

static const char *const backend_names[] = { "x86-ipi", "arm64-tlbi", "x86-invlpgb", NULL };
static const char *const pattern_names[] = { "uniform", "hotcold", "pareto", "sweep", NULL };
static const char *const filter_names[] = { "probability", "last-node", NULL };
/* In the order of profiles[] (profile.c); "none" is index 0. */
static const char *const profile_names[] = { "none", "qemu-testbed", NULL };
static const char *const split_bench_names[] = { "thpscale", "debugfs", NULL };

#define SC PARAM_SCENARIO
#define WL PARAM_WORKLOAD
#define CO PARAM_COST
/* The public sources the defaults come from, cited in full once here. */
#define AMIT "N. Amit, 'x86/mm/tlb: Flush remote and local TLBs concurrently', RFC, LKML 2019-05-25: "
#define HANSEN "D. Hansen, 'x86: mm: set TLB flush tunable to sane value (33)', 2014 (IvyBridge): "
#define SEED000 "the unpatched 2 x 192-CPU x86 run published with 'mm/migrate: don't batch the TLB flush when there is nothing to batch' v2 (Nov 2026)"
#define FAIR "kernel/sched/fair.c default "
#define KHUGEPAGED "L. Yang, 'mm/khugepaged: reduce process visible downtime by pre-zeroing hugepage', LKML 2024-03 (Intel Core i5): "
#define NUMA_REGIONS "tools/testbed/numa_regions.c default: "
/* split_bench=debugfs only: no other machine measured. */
#define ROUND "the kernel testbed's guest alone (make testbed-microbench, thp_round_* and split_thp_*, median of 3 boots, 2026-12-04): "

const struct param_def param_defs[NR_PARAMS] = {
	[P_CPUS] = { "cpus", "CPUs", 384, 2, 8192, true, SC, NULL, SEED000 },
	[P_SOCKETS] = { "sockets", "nodes", 2, 1, 63, true, SC, NULL, SEED000 },
	[P_THREADS] = { "threads", "threads", 384, 1, 8192, true, SC, NULL, "one per CPU unless set, as in " SEED000 "; at most cpus" },
	[P_WORKING_SET_GIB] = { "working_set_gib", "GiB", 120, 0.001, 4096, false, SC, NULL, "120 GiB of anonymous 4 KiB pages: " SEED000 },
	[P_DURATION_S] = { "duration_s", "s", 180, 0.001, 86400, false, SC, NULL, "one 180 s A/B run of " SEED000 },
	[P_FOLIO_ORDER] = { "folio_order", "order", 0, 0, 9, true, SC, NULL, "0 = 4 KiB, 4 = 64 KiB mTHP, 9 = 2 MiB THP" },
	[P_SHARED_MAPPERS] = { "shared_mappers", "processes", 1, 1, 8, true, SC, NULL, "1 = private anon; n > 1 = MAP_SHARED by n processes" },
	[P_SPLIT_PARTIAL_THP] = { "split_partial_thp", "bool", 0, 0, 1, true, SC, NULL, "map THPs partially so NUMA migration splits them" },
	[P_BACKEND] = { "backend", "", 0, 0, 2, true, SC, backend_names, "x86-ipi (default), arm64-tlbi, or x86-invlpgb (AMD broadcast invalidation as Linux 6.15 uses it)" },
	[P_DEMOTE_PAGES] = { "demote_pages", "1 GiB pages", 100, 1, 4096, true, SC, NULL, "assumption: 100 1 GiB pages, enough batches to show the grace periods of 'mm/hugetlb_vmemmap: batch HVO work when demoting'" },
	[P_FAIL_AT_ITEM] = { "fail_at_item", "item", -1, -1, 1e9, true, SC, NULL, "hugetlb-demote: de-HVO failure injected at restore item k (-1 none)" },
	[P_PROCESSES] = { "processes", "processes", 1, 1, 64, true, SC, NULL, "private processes sharing the threads (when shared_mappers is 1)" },
	[P_PROFILE] = { "profile", "", 0, 0, 1, true, SC, profile_names, "a real machine whose measured costs replace the defaults (the user's --set still wins): none, or qemu-testbed (the kernel testbed's guest, make testbed-microbench)" },
	[P_MIGRATE_BATCHING] = { "migrate_batching", "bool", 1, 0, 1, true, SC, NULL,
		"the kernel modelled: 1 = migrate_pages_batch() defers the unmap's flush to one batch flush and the policy decides which folios join it (v6.4+, commit 7e12beb8ca2a); 0 = every unmap flushes at once (ptep_clear_flush()), as before v6.4, so there is no batch to decide on, to drain or to break" },
	[P_SPLIT_BENCH] = { "split_bench", "", 0, 0, 1, true, SC, split_bench_names,
		"thp-split's benchmark: thpscale (every thread faults and splits its own THPs at once) or debugfs (the kernel testbed's thp_split, tools/testbed/thp_split.c: rounds of THP faults, mprotect() pairs that split the PMDs, one write to split_huge_pages under its mutex and the mm's mmap_lock, munmap(); threads wait on the locks, spinning or asleep, and a sleeping thread's CPU goes lazy)" },
	[P_SCALE] = { "scale", "factor", 1, 1e-6, 1, false, SC, NULL, "shrinks the scenario's size: cpus, threads, working set, duration, demote pages" },

	[P_ACCESS_RATE_HZ] = { "access_rate_hz", "1/s", 400, 1, 1e9, false, WL, NULL, "sampled accesses per thread per second (a sample, not the real rate)" },
	[P_PRIVATE_FRACTION] = { "private_fraction", "fraction", 0.9, 0, 1, false, WL, NULL, "share of a thread's accesses to its own slice" },
	[P_WRITE_FRACTION] = { "write_fraction", "fraction", 0.3, 0, 1, false, WL, NULL, "share of accesses that write" },
	[P_PATTERN] = { "pattern", "", 1, 0, 3, true, WL, pattern_names, "uniform, hotcold, pareto (pmbench-like) or sweep (each thread writes its part page after page, as the testbed workload does)" },
	[P_HOT_FRACTION] = { "hot_fraction", "fraction", 0.2, 0.001, 1, false, WL, NULL, "hotcold: share of pages that are hot" },
	[P_HOT_WEIGHT] = { "hot_weight", "fraction", 0.8, 0, 1, false, WL, NULL, "hotcold: share of accesses to hot pages" },
	[P_PARETO_ALPHA] = { "pareto_alpha", "", 1.5, 0.1, 10, false, WL, NULL, "pareto: tail index" },
	[P_MISPLACED_FRACTION] = { "misplaced_fraction", "fraction", 0.045, 0, 1, false, WL, NULL, "share of pages first placed on another node" },
	[P_MIGRATE_PROB] = { "migrate_prob", "fraction", 1, 0, 1, false, WL, NULL, "share of misplaced faults the policy migrates (two-stage filter)" },
	[P_REMOTE_PENALTY] = { "remote_penalty", "fraction", 0.3, 0, 10, false, WL, NULL, "extra time of a remote access relative to a local one" },
	[P_SCAN_DELAY_MS] = { "scan_delay_ms", "ms", 1000, 0, 1e6, false, WL, NULL, FAIR "sysctl_numa_balancing_scan_delay (1000 ms)" },
	[P_SCAN_PERIOD_MIN_MS] = { "scan_period_min_ms", "ms", 1000, 1, 1e7, false, WL, NULL, FAIR "sysctl_numa_balancing_scan_period_min (1000 ms)" },
	[P_SCAN_PERIOD_MAX_MS] = { "scan_period_max_ms", "ms", 60000, 1, 1e7, false, WL, NULL, FAIR "sysctl_numa_balancing_scan_period_max (60000 ms)" },
	[P_SCAN_SIZE_MB] = { "scan_size_mb", "MiB", 256, 1, 1e6, false, WL, NULL, FAIR "sysctl_numa_balancing_scan_size (256 MB)" },
	[P_THP_OPS_PER_THREAD] = { "thp_ops_per_thread", "folios", 64, 1, 1e7, true, WL, NULL, "thp-split: THPs each thread faults and splits" },
	[P_HOLDOFF_FRACTION] = { "holdoff_fraction", "fraction", 0.0026, 0, 0.5, false, WL, NULL,
		"share of a busy CPU's time in long interrupt-disabled sections; assumption: about 1 of 380 CPUs at any instant, what the published 0.7 ms per PTE table needs given the IPI costs (docs/results.md)" },
	[P_HOLDOFF_MEAN_US] = { "holdoff_mean_us", "us", 1650, 0, 1e6, false, WL, NULL,
		"mean length of such a section (exponential); fitted to the 0.7 ms per PTE table of the unpatched scanner" },
	[P_FAULT_PROMPT_FRACTION] = { "fault_prompt_fraction", "fraction", 0.28, 0, 1, false, WL, NULL,
		"share of marked pages in their thread's active set, touched again within milliseconds; fitted to 42% of migrations seeing tlb_flush_pending" },
	[P_FAULT_PROMPT_MS] = { "fault_prompt_ms", "ms", 2, 0.001, 1e5, false, WL, NULL,
		"mean marking-to-fault delay of active-set pages (exponential); assumption, poorly constrained below 10 ms" },
	[P_MMAP_WRITER_HZ] = { "mmap_writer_hz", "1/s", 50, 0, 1e6, false, WL, NULL,
		"mmap_lock write acquisitions per process (munmap, mprotect, brk); a writer queued behind a scan pass blocks every later reader; assumption" },
	[P_MMAP_WRITE_HOLD_MS] = { "mmap_write_hold_ms", "ms", 80, 0, 1e5, false, WL, NULL,
		"how long that writer holds mmap_lock once the pass lets it in (its unmap and shootdown); the queued readers wait this long too; fitted to throughput loss" },
	[P_CONVOY_SPIN_US] = { "convoy_spin_us", "us", 82000, 0, 1e7, false, WL, NULL,
		"how long a reader blocked behind a queued writer spins before it sleeps; fitted to kernel cycles per hinting PTE. A stand-in: 6.12's rwsem readers sleep at once (0)" },
	[P_MIGRATE_FILTER] = { "migrate_filter", "", 0, 0, 1, true, WL, filter_names,
		"probability: migrate_prob of misplaced faults migrate; last-node: should_numa_migrate_memory() of mm/mempolicy.c 6.12, a private folio migrates on its first fault while the mm has done at most 4 scan sequences, later only when its previous fault came from the same node" },
	[P_SCAN_OVERHEAD_RATIO] = { "scan_overhead_ratio", "factor", 0, 0, 1000, false, WL, NULL,
		"kernel/sched/fair.c 6.12, task_numa_work(): the task that scanned may trigger the next scan only after running 32 times the scan's runtime (its 3% cap on scan overhead); 0 = not modelled" },
	[P_MOVING_THREADS] = { "moving_threads", "threads", 4, 0, 64, true, SC, NULL, NUMA_REGIONS "threads that switch node, each at the end of its first sweep switch_ms after its last switch" },
	[P_STABLE_THREADS] = { "stable_threads", "threads", 4, 0, 64, true, SC, NULL, NUMA_REGIONS "threads that stay on their node" },
	[P_SLICE_MIB] = { "slice_mib", "MiB", 32, 1, 1 << 20, true, SC, NULL, NUMA_REGIONS "a moving thread's part, at the start of the region" },
	[P_STABLE_MIB] = { "stable_mib", "MiB", 192, 1, 1 << 20, true, SC, NULL, NUMA_REGIONS "a stable thread's part, after the moving slices" },
	[P_SWITCH_MS] = { "switch_ms", "ms", 3000, 1, 1e7, false, WL, NULL, NUMA_REGIONS "how long a moving thread stays on a node at least: it switches at the end of its first sweep after that" },
	[P_WARMUP_S] = { "warmup_s", "s", 5, 0, 86400, false, SC, NULL, NUMA_REGIONS "run before the measured window (duration_s); counters are window deltas, as the testbed's" },
	[P_SWEEP_NS_PER_PAGE] = { "sweep_ns_per_page", "ns", 250, 1, 1e9, false, WL, NULL,
		"sweep: time a thread takes per 4 KiB page of its part (one store each) whose translation its TLB does not hold (the walk included), all threads running; assumption (the qemu-testbed profile has it measured)" },
	[P_SWEEP_HIT_NS_PER_PAGE] = { "sweep_hit_ns_per_page", "ns", 250, 1, 1e9, false, WL, NULL,
		"sweep: the same for a page whose translation its TLB holds, in a part of 32 MiB or less; assumption, as a miss (the qemu-testbed profile has it measured)" },
	[P_SWEEP_HIT_192_NS_PER_PAGE] = { "sweep_hit_192_ns_per_page", "ns", 0, 0, 1e9, false, WL, NULL,
		"sweep: a cached page's time in a part of 192 MiB or more, linear in the part's size from sweep_hit_ns_per_page at 32 MiB; 0 = sweep_hit_ns_per_page at every size (the qemu-testbed profile has it measured)" },
	[P_SWEEP_SAMPLE_PAGES] = { "sweep_sample_pages", "pages", 64, 1, 1 << 20, true, WL, NULL,
		"sweep: pages between two sampled accesses (TLB and oracle checks); every page of the stretch is still walked for hint faults" },
	[P_HVO] = { "hvo", "bool", 1, 0, 1, true, WL, NULL, "hugetlb-demote: vmemmap optimisation on" },

	[P_IPI_FIRST_NS] = { "ipi_first_ns", "ns", 780, 0, 1e7, false, CO, NULL, AMIT "1436 - 661 ns, the first remote target (Haswell)" },
	[P_IPI_EXTRA_NS] = { "ipi_extra_ns", "ns", 70, 0, 1e7, false, CO, NULL, AMIT "(1571 - 1436) / 2, each extra same-socket target" },
	[P_IPI_SOCKET_NS] = { "ipi_socket_ns", "ns", 1900, 0, 1e7, false, CO, NULL, "Kumar et al., LATR, ASPLOS 2018: 2.7 us IPI on 2 sockets, less the 0.78 us same-socket first target of Amit 2019" },
	[P_IPI_HANDLER_NS] = { "ipi_handler_ns", "ns", 400, 0, 1e7, false, CO, NULL, AMIT "the target's share of the 775 ns first-target round trip" },
	[P_INVLPG_NS] = { "invlpg_ns", "ns", 100, 0, 1e6, false, CO, NULL, HANSEN "about 100 ns per INVLPG (also the comment in arch/x86/mm/tlb.c)" },
	[P_FULL_FLUSH_NS] = { "full_flush_ns", "ns", 40, 0, 1e6, false, CO, NULL, "I. Molnar, LKML 2015-06-08: CR3 flush 96 cycles, at 2.4 GHz" },
	[P_TLB_MISS_NS] = { "tlb_miss_ns", "ns", 17.1, 0, 1e6, false, CO, NULL, HANSEN "dTLB miss 17.1 ns" },
	[P_TLB_ENTRIES] = { "tlb_entries", "entries", 512, 0, 1 << 20, true, CO, NULL, HANSEN "512-entry dTLB; 0 = unbounded, every translation stays until flushed" },
	[P_TLB_RESIZE] = { "tlb_resize", "0/1", 0, 0, 1, true, CO, NULL,
		"1 = qemu TCG's software TLB (accel/tcg/cputlb.c): with tlb_entries=0, each TLB is direct-mapped, 2^8 slots at boot, and resized at every full flush (doubled when more than 70% of it was in use in the last 100 ms, shrunk when under 30%; 2^6 to 2^22 slots)" },
	[P_TLBI_ISSUE_NS] = { "tlbi_issue_ns", "ns", 30, 0, 1e6, false, CO, NULL, "assumption; Z. Ye, 'arm64: tlb: add support for TLBI RANGE instructions' RFC v5 (2020) gives only relative costs" },
	[P_DVM_TLBI_NS] = { "dvm_tlbi_ns", "ns", 40, 0, 1e6, false, CO, NULL,
		"assumption: interconnect time of one broadcast TLBI, serialised machine-wide, so the flush share grows with cores as the arm64 batched-flush series (B. Song, Y. Yang) measured: 5.4% of CPU at 8 cores, 17% at about 100" },
	[P_DSB_NS] = { "dsb_ns", "ns", 500, 0, 1e7, false, CO, NULL, "assumption: DSB ISH waiting for broadcast completion" },
	[P_INVLPGB_NS] = { "invlpgb_ns", "ns", 100, 0, 1e6, false, CO, NULL,
		"assumption: issuing one INVLPGB, taken as one INVLPG (" "about 100 ns, D. Hansen 2014); no per-instruction figure is published" },
	[P_TLBSYNC_NS] = { "tlbsync_ns", "ns", 1800, 0, 1e7, false, CO, NULL,
		"derived: R. van Riel, 'AMD broadcast TLB invalidation' (2024-25), 36-core Milan, will-it-scale tlb_flush2_threads: TLB invalidation fell from 40% to 4% of CPU at an unchanged 527k loops/s, so a broadcast flush costs a tenth of this model's 36-CPU IPI shootdown (19 us of CPU): 1.9 us, less one INVLPGB (docs/tlbsim.md)" },
	[P_INVLPGB_COUNT_MAX] = { "invlpgb_count_max", "pages", 8, 1, 65536, true, CO, NULL,
		"assumption: pages one INVLPGB covers (CPUID 0x80000008 EDX[15:0] + 1, the kernel's invlpgb_count_max); 8 is not a sourced Zen 3 value" },
	[P_PTE_UPDATE_NS] = { "pte_update_ns", "ns", 20, 0, 1e6, false, CO, NULL, "assumption: one PTE change under the PTL" },
	[P_FAULT_NS] = { "fault_ns", "ns", 1500, 0, 1e7, false, CO, NULL, "assumption: hint-fault entry, walk, decision, exit" },
	[P_MIGRATE_COPY_NS] = { "migrate_copy_ns", "ns/4KiB", 1000, 0, 1e7, false, CO, NULL, "assumption: 4 KiB copy plus rmap work" },
	[P_SYNC_RCU_US] = { "sync_rcu_us", "us", 9500, 0, 1e8, false, CO, NULL,
		"one synchronize_rcu(): J. Fernandes, 'rcu: Fix synchronize_rcu latency by removing CPU threshold for wake_from_gp' (2025), 36 CPUs: about 9.5 ms with the default of more than 16 CPUs (two force-quiescent-state rounds of jiffies_till_first_fqs = 3), about 4 ms with rcu_normal_wake_from_gp" },
	[P_HVO_REMAP_NS] = { "hvo_remap_ns", "ns", 20000, 0, 1e8, false, CO, NULL, "assumption: remap one 2 MiB folio's vmemmap" },
	[P_THP_ALLOC_US] = { "thp_alloc_us", "us", 198, 0, 1e7, false, CO, NULL,
		"allocating and charging a 2 MiB folio: " KHUGEPAGED "alloc_charge_hpage() 198 us without __GFP_ZERO" },
	[P_THP_CLEAR_US] = { "thp_clear_us", "us", 97, 0, 1e7, false, CO, NULL,
		"zeroing a 2 MiB folio: " KHUGEPAGED "295 us with __GFP_ZERO less 198 us without" },
	[P_ROUND_FAULT_NS] = { "round_fault_ns", "ns/THP", 624453, 0, 1e10, false, CO, NULL,
		ROUND "the round's first write pass per THP (its THP fault: allocation, zeroing, then stores to a PMD mapping)" },
	[P_ROUND_MPROTECT_NS] = { "round_mprotect_ns", "ns/THP", 129020, 0, 1e10, false, CO, NULL,
		ROUND "the mprotect() pair per THP (the PMD split and one PTE's downgrade, their flushes local)" },
	[P_ROUND_REWRITE_NS] = { "round_rewrite_ns", "ns/THP", 53827, 0, 1e10, false, CO, NULL,
		ROUND "the second write pass per THP, now PTE-mapped" },
	[P_ROUND_SPLIT_NS] = { "round_split_ns", "ns/THP", 2019303, 0, 1e10, false, CO, NULL,
		ROUND "the write to split_huge_pages per THP split (split_thp_batched_ns; per-PTE flushes, all local there, cost the same)" },
	[P_ROUND_MUNMAP_NS] = { "round_munmap_ns", "ns/round", 2198490, 0, 1e10, false, CO, NULL,
		ROUND "the munmap() of the round's THPs, its page tables freed" },
	[P_HOST_CPUS] = { "host_cpus", "CPUs", 0, 0, 8192, true, CO, NULL,
		"0: the CPUs are hardware; n: they are threads of a host with n CPUs (qemu TCG's vCPUs): a flush waits for its targets' threads to be run once more than n vCPUs run (host_slice_ns), and under split_bench=debugfs, whose costs were measured with one vCPU running, work runs (running CPUs / n) times slower" },
	[P_HOST_SLICE_NS] = { "host_slice_ns", "ns", 0, 0, 1e9, false, CO, NULL,
		"with host_cpus: how long the host runs a vCPU's thread before the next waiting one; a flush target off a core waits for its turn (host_sched.c)" },
	[P_WAKE_NS] = { "wake_ns", "ns", 5000, 0, 1e9, false, CO, NULL,
		"assumption: a sleeping thread woken by another CPU (the wake-up IPI, the idle CPU's exit, the switch) runs this much later; split_bench=debugfs only" },
	[P_CPU_GHZ] = { "cpu_ghz", "GHz", 2.4, 0.1, 10, false, CO, NULL, "converts ns to cycles for per-PTE figures" },
	[P_JIFFIES_RATE] = { "jiffies_rate", "factor", 1, 0.01, 10, false, CO, NULL,
		"jiffies per second of the machine's clock, over HZ: the NUMA scanner's delays and periods are in jiffies; 1 on hardware, less in a guest that loses timer ticks (HZ_PERIODIC counts one jiffy per tick handled)" },
	[P_FLUSH_CEILING] = { "flush_ceiling", "pages", -1, -1, 1e6, true, CO, NULL,
		"-1 = the back-end's library profile (tlbp_batch_config_arch): x86 33 (tlb_single_page_flush_ceiling), arm64 511 (MAX_DVM_OPS)" },
	[P_BATCH_FLUSH_CEILING] = { "batch_flush_ceiling", "pages", -1, -1, 4294967295.0, true, CO, NULL,
		"-1 = the back-end's library profile: x86 arch_tlbbatch_flush() always flushes all (0), arm64 completes exactly the TLBIs it issued (no ceiling)" },
};

void params_defaults(struct params *p)
{
	int i;

	for (i = 0; i < NR_PARAMS; i++) {
		p->v[i] = param_defs[i].def;
		p->set[i] = false;
	}
}

void params_default(struct params *p, enum param_id id, double v)
{
	if (!p->set[id])
		p->v[id] = v;
}

int param_lookup(const char *name)
{
	int i;

	for (i = 0; i < NR_PARAMS; i++)
		if (!strcmp(param_defs[i].name, name))
			return i;
	return -1;
}

static int parse_value(const struct param_def *d, const char *s, double *out)
{
	char *end;
	int i;

	if (d->choices) {
		for (i = 0; d->choices[i]; i++) {
			if (!strcmp(d->choices[i], s)) {
				*out = i;
				return 0;
			}
		}
		return -1;
	}
	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*out))
		return -1;
	return 0;
}

int params_set(struct params *p, const char *kv, char *err, size_t errlen)
{
	const struct param_def *d;
	char name[64];
	const char *eq = strchr(kv, '=');
	double v;
	int id;

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(name)) {
		snprintf(err, errlen, "expected key=value, got '%s'", kv);
		return -1;
	}
	memcpy(name, kv, (size_t)(eq - kv));
	name[eq - kv] = '\0';
	id = param_lookup(name);
	if (id < 0) {
		const char *names[NR_PARAMS];
		char hint[96];
		int i;

		for (i = 0; i < NR_PARAMS; i++)
			names[i] = param_defs[i].name;
		snprintf(err, errlen, "unknown parameter '%s'%s (see 'tlbsim list')", name,
			 suggest_hint(name, names, NR_PARAMS, hint, sizeof(hint)));
		return -1;
	}
	d = &param_defs[id];
	if (parse_value(d, eq + 1, &v)) {
		size_t n = (size_t)snprintf(err, errlen, "bad value '%s' for %s", eq + 1, name);
		int i;

		for (i = 0; d->choices && d->choices[i] && n < errlen; i++)
			n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? ", " : ": one of ",
					      d->choices[i]);
		return -1;
	}
	if (v < d->min || v > d->max || (d->integer && v != floor(v))) {
		snprintf(err, errlen, "%s=%s out of range: %s %g..%g", name, eq + 1,
			 d->integer ? "integer" : "number", d->min, d->max);
		return -1;
	}
	p->v[id] = v;
	p->set[id] = true;
	return 0;
}

void param_format(enum param_id id, double v, char *buf, size_t len)
{
	const struct param_def *d = &param_defs[id];

	if (d->choices && v >= 0 && v == floor(v))
		snprintf(buf, len, "%s", d->choices[(int)v]);
	else
		snprintf(buf, len, "%.10g", v);
}

const char *param_kind_name(enum param_kind k)
{
	return k == PARAM_SCENARIO ? "scenario" : k == PARAM_WORKLOAD ? "workload" : "cost";
}
