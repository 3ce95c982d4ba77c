// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The testbed machine (docs/kernel-port.md): Linux 6.12 in qemu TCG, 8
 * vCPUs on 2 NUMA nodes, run by a host with 2 cores. Every cost here was
 * measured inside that guest by tools/testbed/microbench.c
 * (make testbed-microbench, median of 3 boots); nothing was fitted to the
 * testbed's results. The guest's clock is the host's, and its 8 vCPU
 * threads share 2 host cores, so a cost measured while the other vCPUs
 * are busy (as they are under the workload) is wall time at a quarter of
 * a core. scripts/testbed_profile.py derives these costs from a
 * microbench output as the sources below say (testbed-predict.py
 * --profile-from), and tests/testbed/profile-from.sh checks that the
 * costs taken from all boots come out of those boots there.
 */
#include "profile.h"

/* Every boot of make testbed-microbench on the hosts the matrix ran on
 * (docs/data/testbed-microbench.txt, 2026-12-03 to 05; not the last 6, on
 * hosts 2 to 4 times slower in memory-bound work). The first profile took
 * six costs from 3 boots of 2026-12-01, not in that file; five of them sit
 * a third or more away from the 24 later boots' medians, and a cost the same
 * microbench measures in every boot takes the median of all. */
#define ALL_BOOTS "median of the 24 boots of make testbed-microbench in docs/data/testbed-microbench.txt (2026-12-03 to 05): "
#define GROWN_MIX "make testbed-microbench, median of 3 boots, 2026-12-05 (docs/data/testbed-microbench.txt, docs/data/testbed-sweep-mix.md): "

static const struct profile_value testbed_values[] = {
	{ P_CPUS, 8, "the testbed guest: -smp 8,sockets=2" },
	{ P_BACKEND, BACKEND_X86_IPI, "the testbed guest: x86-64 under qemu TCG, shootdowns by IPI (no INVLPGB)" },
	{ P_SOCKETS, 2, "the testbed guest: two 1 GiB memory-backend-ram nodes" },
	{ P_IPI_FIRST_NS, 8038, ALL_BOOTS "ipi_first_ns, a one-page mprotect() shootdown with one remote thread less one alone [5.2-12.7 us]; the 3 boots of 2026-12-01 gave 5.16" },
	{ P_IPI_EXTRA_NS, 0, "two busy targets and their sender are more runnable vCPUs than the host's 2 cores, where the wait for the targets' threads (host_slice_ns) is the extra round trip; this is charged only for targets halted until the flush woke them (a flush that frees page tables reaches lazy CPUs), whose wake-up was not measured apart: 0" },
	{ P_IPI_SOCKET_NS, 0, ALL_BOOTS "ipi_socket_ns, the remote thread on the other node less on this one, -0.1 us [-5.3 to 4.1]: nothing apart from the noise; the 3 boots of 2026-12-01 gave 2.0 us" },
	{ P_FAULT_NS, 9168, ALL_BOOTS "fault_loaded_ns, a zero-page read fault (the trap, walk and PTE install of a hint fault) while 7 processes keep the other vCPUs busy [6.3-17.1 us]; the 3 boots of 2026-12-01 gave 13.6" },
	{ P_MIGRATE_COPY_NS, 65620, ALL_BOOTS "derived: migrate_page_ns, move_pages() per page with the guest idle (20.2 us: unmap, copy, remap), times the slowdown the loaded fault shows (fault_loaded_ns / fault_ns, 9.17 / 2.82 us) [48.7-161.7 us over the boots]; move_pages() itself under load (0.88 ms a page) is lru_add_drain_all() waiting for every busy vCPU, which a hint fault's migration does not call; the 3 boots of 2026-12-01 gave 132 us" },
	{ P_PTE_UPDATE_NS, 356.9, ALL_BOOTS "protnone_pte_loaded_ns, mprotect(PROT_NONE) of 64 MiB of present pages per PTE, change_pte_range() as the scanner runs it, other vCPUs busy [83-941 ns]" },
	{ P_TLB_MISS_NS, 273.1, ALL_BOOTS "tlb_refill_loaded_ns, a pass over 32 MiB just after a full flush less a pass with the TLB warm, per page, other vCPUs busy [99-1,051 ns]: a translation walked again; the 3 boots of 2026-12-01 gave 509" },
	{ P_SWEEP_NS_PER_PAGE, 670.8, GROWN_MIX "derived: a sweep's walked page, (4 x sweep_mixed_32_ns_per_page - sweep_grown_32_ns_per_page) / 3, the private mix's 32 MiB sweepers with NUMA balancing off, less the one of the four whose TLB the microbench's refill passes had grown (it hit, at about the grown mix's cost, while three walked; seen sweeper by sweeper in docs/data/testbed-sweep-mix.md) [601.7-674.4 ns]. The figure this took before, sweep_ns_per_page (163.6, the 24 boots' median), was the rate of eight sweepers of which that same one hit: 3 to 4 times under a walk" },
	{ P_SWEEP_HIT_NS_PER_PAGE, 26.1, GROWN_MIX "sweep_grown_32_ns_per_page, the 32 MiB sweepers of the private mix (four over 32 MiB, four over 192 MiB, NUMA balancing off) with qemu's TLBs grown by 16 full flushes first, so that a second pass hits [20.9-28.5 ns]; warm_pass_loaded_ns, one sweeper over a warm 32 MiB with the TLB at its boot size, gave 16.2" },
	{ P_SWEEP_HIT_192_NS_PER_PAGE, 63.3, GROWN_MIX "sweep_grown_192_ns_per_page, the 192 MiB sweepers of the same runs [57.3-72.3 ns]; one sweeper alone over a warm 192 MiB part costs 55.6 in the same boots, so the growth is the part's size, not the sharing" },
	{ P_WAKE_NS, 222770, "make testbed-microbench, median of 3 boots, 2026-12-04 (docs/data/testbed-microbench.txt): wake_ns, half a pipe ping-pong between two threads on two vCPUs of a node, each asleep in between [131-252 us]" },
	{ P_HOST_CPUS, 2, "the testbed's host: 2 cores run the guest's 8 vCPU threads (qemu -accel tcg, one thread a vCPU)" },
	{ P_HOST_SLICE_NS, 6.243e6, "derived from make testbed-microbench, median of 3 boots, 2026-12-03 (docs/data/testbed-microbench.txt): the shootdown with 7 spinning threads less with 1, 16.0 ms [16.0-16.6], is 2.5625 slices for 8 runnable vCPUs on 2 cores (host_sched.c) [6.24-6.46 ms]; it predicts the 3-thread shootdown at 3.93 ms, which 12 boots measured at 4.0 ms median [2.1-7.4], and with the other vCPUs busy at 13.3 ms, measured 13.6 ms mean [13.0-14.6] (docs/data/testbed-host-sched.md)" },
	{ P_HOLDOFF_FRACTION, 0, "the measured round trips already hold whatever keeps a vCPU from answering (its host thread not running): no separate hold-off" },
	{ P_JIFFIES_RATE, 0.55, "numa_regions' window_tick_rate (timer ticks every vCPU accounted in /proc/stat over /proc/uptime, HZ_PERIODIC), median of 4 testbed runs of 2026-12-02 [0.54-0.57]; the scanner's own log (make testbed-vma-walk) gave 0.52 and 0.62 jiffies per ms of ktime: TCG delivers about half the guest's timer ticks" },
	{ P_TLB_ENTRIES, 0, "qemu TCG's software TLB (accel/tcg/cputlb.c) is sized by qemu, not by a hardware geometry: 0, and tlb_resize gives it qemu's sizes" },
	{ P_TLB_RESIZE, 1, "qemu 7.2's accel/tcg/cputlb.c: direct-mapped (tlb_index()), an 8-entry victim table, 2^8 entries at boot, resized at each full flush by tlb_mmu_resize_locked() between 2^6 and 2^22; the guest's full flushes (CR3 writes) are the ones that resize it, INVLPG does not" },
	{ NR_PARAMS, 0, NULL },
};

const struct profile profile_testbed = {
	.name = "qemu-testbed",
	.help = "the kernel testbed's qemu TCG guest: 8 vCPUs, 2 nodes, 2 host cores",
	.values = testbed_values,
};
