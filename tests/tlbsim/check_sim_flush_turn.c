// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Flushes a vCPU takes on its turn (tools/tlbsim/flush_turn.c), against
 * 6.12's flush_tlb_func() (arch/x86/mm/tlb.c): a CPU that handles several
 * queued flush requests flushes once and returns early for the rest
 * ("new_tlb_gen <= local_tlb_gen", "local_tlb_gen == mm_tlb_gen"); the
 * one flush is a full one unless exactly one ranged request was behind
 * ("f->new_tlb_gen == local_tlb_gen + 1 && f->new_tlb_gen ==
 * mm_tlb_gen"). The model keeps what its thread refills meanwhile unless
 * it went stale, and the sender waits for the target's turn. Only vCPUs
 * of an overcommitted host queue; on hardware nothing changes.
 */
#include <check.h>
#include "flush_turn.h"
#include "host_sched.h"
#include "suite_runner.h"
#include "tiny_machine.h"

static struct tlbp_flush_req full_req(struct sim *s)
{
	return (struct tlbp_flush_req){
		.cpus = &s->mm[0].cpus, .mm = &s->mm[0].flush,
		.end = TLBP_FLUSH_ALL, .full = true, .unmapped = true,
	};
}

static struct tlbp_flush_req page_req(struct sim *s, uint64_t vpn)
{
	return (struct tlbp_flush_req){
		.cpus = &s->mm[0].cpus, .mm = &s->mm[0].flush,
		.start = vpn << PAGE_SHIFT, .end = (vpn + 1) << PAGE_SHIFT,
		.nr_pages = 1, .unmapped = true,
	};
}

/* CPU @cpu off a core, its turn @in_ns away, the turn's flush (done
 * already) @full or ranged. */
static void queue_at(struct sim *s, unsigned int cpu, uint64_t in_ns, bool full)
{
	s->cpu[cpu].turn_ns = s->now + in_ns;
	s->cpu[cpu].turn_flushed_all = full;
}

/* The scanner marks @vpn PROT_NONE (path_scan.c's change). */
static void mark(struct sim *s, uint64_t vpn)
{
	*pte_of(&s->mm[0], vpn) = PTE_PROTNONE;
	flush_turn_note_change(s, s->mm[0].id, vpn);
}

START_TEST(test_queued_flush_finds_the_cpu_caught_up)
{
	struct sim *s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 2);
	struct tlbp_flush_req req = full_req(s);
	uint64_t irq_before;

	ck_assert(s->turns.on);
	tiny_cache_everywhere(s, 5);
	tiny_cache_everywhere(s, 6);
	queue_at(s, 3, 500000, true);
	mark(s, 6);
	irq_before = s->cpu[3].acct.irq_ns;
	ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
	/* The others flush everything, as before. */
	for (unsigned int c = 0; c < 3; c++) {
		ck_assert(!tiny_cached(s, c, 5));
		ck_assert(!tiny_cached(s, c, 6));
	}
	/* CPU 3 was caught up by its queued full flush: what its thread
	 * refilled meanwhile stays, unless its PTE changed since. */
	ck_assert(tiny_cached(s, 3, 5));
	ck_assert(!tiny_cached(s, 3, 6));
	ck_assert_uint_eq(s->st.tlb_irqs_absorbed, 1);
	ck_assert_uint_eq(s->st.tlb_irqs_received, 3);
	/* It takes the interrupt, not the flush. */
	ck_assert_uint_eq(s->cpu[3].acct.irq_ns - irq_before,
			  (uint64_t)s->p.v[P_IPI_HANDLER_NS]);
	ck_assert_uint_gt(s->cpu[1].acct.irq_ns,
			  (uint64_t)(s->p.v[P_IPI_HANDLER_NS] + s->p.v[P_FULL_FLUSH_NS]) - 1);
	/* The sender waits for CPU 3's turn. */
	ck_assert_uint_ge(s->cpu[0].acct.wait_ns, 500000);
	tiny_destroy(s);
}
END_TEST

/* One ranged request queued, then another: the first finds the CPU two
 * generations behind and flushes everything. */
START_TEST(test_second_request_makes_a_queued_ranged_flush_full)
{
	struct sim *s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 2);
	struct tlbp_flush_req req = page_req(s, 9);
	uint64_t irq_before;

	tiny_cache_everywhere(s, 5);
	queue_at(s, 3, 500000, false);
	ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
	ck_assert(!tiny_cached(s, 3, 5));
	ck_assert(tiny_cached(s, 2, 5)); /* on a core: the page alone */
	ck_assert(s->cpu[3].turn_flushed_all);
	/* A third finds the full flush done: the refill since stays. */
	tiny_cache_everywhere(s, 5);
	irq_before = s->cpu[3].acct.irq_ns;
	ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
	ck_assert(tiny_cached(s, 3, 5));
	ck_assert_uint_eq(s->cpu[3].acct.irq_ns - irq_before, (uint64_t)s->p.v[P_IPI_HANDLER_NS]);
	tiny_destroy(s);
}
END_TEST

/* A moved frame is stale too, and a turn that has come is over. */
START_TEST(test_moved_frame_dropped_and_turn_ends)
{
	struct sim *s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 2);
	struct tlbp_flush_req req = full_req(s);

	tiny_cache_everywhere(s, 7);
	queue_at(s, 3, 1000, true);
	s->obj[0].page[7].frame_gen++;
	flush_turn_note_change(s, s->mm[0].id, 7);
	ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
	ck_assert(!tiny_cached(s, 3, 7));
	/* Past every turn (the rotation is one 1 ms slice) the CPU
	 * flushes as any other. */
	tiny_cache_everywhere(s, 5);
	s->now += 2000000;
	ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
	ck_assert(!tiny_cached(s, 3, 5));
	ck_assert_uint_eq(s->st.tlb_irqs_absorbed, 1);
	tiny_destroy(s);
}
END_TEST

/*
 * A CPU that waited through more changes than the log keeps checks its
 * whole TLB: the stale page's change has been written over, and only the
 * page tables say it went stale.
 */
START_TEST(test_log_run_past_checks_the_whole_tlb)
{
	struct sim *s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 2);
	struct tlbp_flush_req req = full_req(s);
	uint64_t i;

	tiny_cache_everywhere(s, 5);
	tiny_cache_everywhere(s, 6);
	queue_at(s, 3, 500000, true);
	mark(s, 6);
	/* Changes to a page no CPU caches push page 6's out of the log. */
	for (i = 0; i < FLUSH_TURN_LOG_SIZE; i++)
		flush_turn_note_change(s, s->mm[0].id, 9);
	ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
	ck_assert_uint_eq(s->st.tlb_irqs_absorbed, 1);
	ck_assert(tiny_cached(s, 3, 5));
	ck_assert(!tiny_cached(s, 3, 6));
	/* Caught up: the next absorbed flush reads the log again. */
	ck_assert_uint_eq(s->cpu[3].changes_seen, s->turns.seq);
	tiny_destroy(s);
}
END_TEST

/* The sender runs, so nothing is queued at it; on hardware nothing
 * queues at all. */
START_TEST(test_sender_and_hardware_take_no_turns)
{
	struct sim *s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 2);
	struct sim *hw = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 0);
	struct tlbp_flush_req req = full_req(s), hw_req = full_req(hw);

	queue_at(s, 0, 500000, true);
	ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
	ck_assert(!flush_turn_pending(s, 0));

	ck_assert(!hw->turns.on);
	tiny_cache_everywhere(hw, 5);
	queue_at(hw, 3, 500000, true);
	ck_assert_int_eq(hw->flush_ops->flush(&hw->cpu[0].flush_ctx, &hw_req), 0);
	ck_assert(!tiny_cached(hw, 3, 5));
	ck_assert_uint_eq(hw->st.tlb_irqs_absorbed, 0);
	tiny_destroy(s);
	tiny_destroy(hw);
}
END_TEST

#define FLUSHES 4000

/*
 * Flushes far apart (nothing queued): each busy target is off a core with
 * host_sched.c's chance, (R - H) / (R - 1) = 2/3 with 4 running on 2
 * cores, its turn uniform in the rotation, and the sender's mean wait is
 * host_rotation_wait_ns()'s closed form.
 */
START_TEST(test_turns_drawn_as_the_host_rotates)
{
	struct sim *s = tiny_machine(BACKEND_X86_IPI, UNSAFE_NONE, TLBP_HINT_DEFERRED_MAP, 2);
	struct tlbp_flush_req req = page_req(s, 5);
	double expect = host_rotation_wait_ns(s, TINY_CPUS - 1, TINY_CPUS), waits = 0;
	unsigned int i, c, off = 0;

	s->p.v[P_HOLDOFF_FRACTION] = 0;
	for (i = 0; i < FLUSHES; i++) {
		uint64_t before = s->cpu[0].acct.wait_ns;

		s->now += 10000000; /* past every turn */
		ck_assert_int_eq(s->flush_ops->flush(&s->cpu[0].flush_ctx, &req), 0);
		waits += (double)(s->cpu[0].acct.wait_ns - before);
		for (c = 1; c < TINY_CPUS; c++) {
			off += flush_turn_pending(s, c);
			ck_assert_uint_le(s->cpu[c].turn_ns, s->now + 1000000);
		}
	}
	ck_assert_uint_eq(s->st.tlb_irqs_absorbed, 0);
	ck_assert_double_eq_tol(off / (double)(FLUSHES * (TINY_CPUS - 1)), 2.0 / 3, 0.02);
	/* The wait beyond the round trip is the last turn. */
	waits = waits / FLUSHES - s->p.v[P_IPI_FIRST_NS] - s->p.v[P_IPI_SOCKET_NS] -
		s->p.v[P_IPI_HANDLER_NS] - s->p.v[P_INVLPG_NS];
	ck_assert_double_eq_tol(waits, expect, 0.03 * expect);
	tiny_destroy(s);
}
END_TEST

static Suite *flush_turn_suite(void)
{
	Suite *s = suite_create("sim_flush_turn");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_queued_flush_finds_the_cpu_caught_up);
	tcase_add_test(tc, test_second_request_makes_a_queued_ranged_flush_full);
	tcase_add_test(tc, test_moved_frame_dropped_and_turn_ends);
	tcase_add_test(tc, test_log_run_past_checks_the_whole_tlb);
	tcase_add_test(tc, test_sender_and_hardware_take_no_turns);
	tcase_add_test(tc, test_turns_drawn_as_the_host_rotates);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(flush_turn_suite());
}
