// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The flush back-ends: struct tlbp_flush_ops over the model machine.
 *
 * x86-ipi: the initiator interrupts every other CPU of the request's set
 * and waits for the slowest ack, a target with interrupts disabled
 * included; targets pay the handler and, after a full flush, the refill of
 * what they lost (user time, after the ack: it does not lengthen the wait). arm64-tlbi: invalidations are
 * broadcast by hardware (no interrupts); the batch issues them at add time
 * and waits for completion (DSB) at flush time. x86-invlpgb: see
 * backend_invlpgb.c.
 *
 * Every op's ctx is a struct flush_ctx: a CPU's own batch names its CPU,
 * objects shared by CPUs name the CPU running the current event (sim.h).
 */
#include <math.h>
#include <stddef.h>
#include "backend.h"
#include "flush_turn.h"
#include "host_sched.h"

unsigned int backend_issuer(const struct flush_ctx *ctx)
{
	return ctx->cpu == SIM_THIS_CPU ? sim_this_cpu(ctx->s) : ctx->cpu;
}

struct mm *backend_mm_of(struct tlbp_mm *f)
{
	return (struct mm *)((char *)f - offsetof(struct mm, flush));
}

uint32_t backend_invalidate(struct sim *s, unsigned int cpu,
			    const struct tlbp_flush_req *req)
{
	struct tlb *t = &s->cpu[cpu].tlb;
	uint32_t dropped = 0;
	uint64_t vpn;

	sim_cpu_sync(s, &s->cpu[cpu]);
	if (req->full || !req->mm)
		return tlb_flush_all(t);
	for (vpn = req->start >> PAGE_SHIFT; vpn < req->end >> PAGE_SHIFT; vpn++)
		dropped += tlb_remove(t, tlb_key(backend_mm_of(req->mm)->id, vpn));
	return dropped;
}

static double flush_cost_ns(const struct sim *s, const struct tlbp_flush_req *req)
{
	if (req->full)
		return s->p.v[P_FULL_FLUSH_NS];
	return (double)req->nr_pages * s->p.v[P_INVLPG_NS];
}

void backend_count_kind(struct sim *s, const struct tlbp_flush_req *req)
{
	if (req->full)
		s->st.full_flushes++;
	else
		s->st.ranged_flushes++;
}

/*
 * The longest wait for a target that had interrupts disabled when the IPI
 * arrived. Sections arrive on each busy CPU at random, so the number of
 * targets inside one at a given instant is Poisson with mean
 * targets x holdoff_fraction; with exponential lengths the time left in
 * each is exponential too, and the initiator waits for the largest of
 * them: the maximum of k draws, sampled by inverting its distribution
 * (1 - e^(-x/mean))^k. Zero when no target is held off.
 */
static double holdoff_wait_ns(struct sim *s, unsigned int nr_targets)
{
	double mean_held = nr_targets * s->p.v[P_HOLDOFF_FRACTION];
	double mean_ns = s->p.v[P_HOLDOFF_MEAN_US] * 1e3;
	double limit, prod;
	unsigned int k = 0;

	if (mean_held <= 0 || mean_ns <= 0)
		return 0;
	/* Poisson draw by multiplying uniforms (mean is small: about 1). */
	limit = exp(-mean_held);
	for (prod = rng_unit(&s->rng); prod > limit && k < 64; k++)
		prod *= rng_unit(&s->rng);
	if (!k)
		return 0;
	return -mean_ns * log(1.0 - pow(rng_unit(&s->rng), 1.0 / k));
}

/*
 * Sending to @nr_targets CPUs and hearing back from the last, its handler
 * aside: serial sends on hardware; on a host with fewer cores than the
 * @running vCPUs, the wait for the targets' threads to run: @turns, the
 * last of the targets' turns (flush_turn.c), or drawn for the flush alone
 * (host_sched.c) when @turns < 0; when they all run beside the sender,
 * the whole round trip stretches by host_corun_factor() instead.
 */
static double ipi_round_trip_ns(struct sim *s, unsigned int nr_targets,
				unsigned int running, double turns)
{
	double extra = !host_overcommitted(s, running) ?
		       (nr_targets - 1) * s->p.v[P_IPI_EXTRA_NS] :
		       turns >= 0 ? turns : host_rotation_wait_draw_ns(s, nr_targets, running);

	return s->p.v[P_IPI_FIRST_NS] + extra;
}

/*
 * The sender's wait for one flush to @nr_targets CPUs with @running vCPUs
 * running: the round trip, the other node if one is, then the slowest
 * target's handler and flush of @each ns (not a sum), a hold-off, all
 * stretched when the host shares its cores.
 */
static double x86_flush_wait_ns(struct sim *s, unsigned int nr_targets,
				unsigned int running, bool remote_socket, double each,
				double turns)
{
	double wait = ipi_round_trip_ns(s, nr_targets, running, turns) +
		      (remote_socket ? s->p.v[P_IPI_SOCKET_NS] : 0) +
		      s->p.v[P_IPI_HANDLER_NS] + each + holdoff_wait_ns(s, nr_targets);

	return wait * host_corun_factor(s, nr_targets, running);
}

void sim_cpu_catch_up(struct sim *s, struct cpu *c)
{
	/* The first pending flush drops what the TLB holds; the others find
	 * it empty, as nothing ran on the CPU in between. */
	c->acct.refill_ns += sim_refill_ns(s, tlb_flush_all(&c->tlb));
	c->acct.irq_ns += s->all_flushes.irq_ns - c->all_irq_ns_seen;
	c->all_flushes_seen = s->all_flushes.count;
	c->all_irq_ns_seen = s->all_flushes.irq_ns;
}

void sim_cpus_sync(struct sim *s)
{
	unsigned int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		sim_cpu_sync(s, &s->cpu[cpu]);
}

bool backend_whole_machine(const struct sim *s, const struct tlbp_flush_req *req)
{
	unsigned int cpu = tlbp_cpuset_next(req->cpus, 0), n = 0;

	/* A lazy CPU may be skipped or leave its mm, one waiting for its
	 * turn may be caught up already: flush CPU by CPU. */
	if (!req->full || cpu != 0 || s->nr_lazy || s->waiters || s->turns.on)
		return false;
	/* A set is whole when no CPU is missing from it. */
	for (; cpu < s->nr_cpus; cpu = tlbp_cpuset_next(req->cpus, cpu + 1), n++)
		if (cpu != n)
			return false;
	return n == s->nr_cpus;
}

/*
 * backend_x86_flush() of every CPU: the issuer's share now, every target's as the
 * counters of struct machine_flushes. The wait is the same formula with
 * all the other CPUs as targets, and they span more than one node unless
 * the machine has only one.
 */
static int x86_flush_all_cpus(struct sim *s, unsigned int self, double each)
{
	struct cpu *me = &s->cpu[self];
	unsigned int nr_targets = s->nr_cpus - 1;
	bool remote_socket = cpu_node_of(s, 0) != cpu_node_of(s, s->nr_cpus - 1);
	double wait;

	sim_cpu_sync(s, me);
	me->acct.refill_ns += sim_refill_ns(s, tlb_flush_all(&me->tlb));
	me->acct.kernel_ns += (uint64_t)each;
	s->st.local_flushes++;
	s->all_flushes.count++;
	s->all_flushes.irq_ns += (uint64_t)(s->p.v[P_IPI_HANDLER_NS] + each);
	me->all_flushes_seen = s->all_flushes.count;
	me->all_irq_ns_seen = s->all_flushes.irq_ns;
	if (!nr_targets)
		return 0;
	wait = x86_flush_wait_ns(s, nr_targets, sim_running_vcpus(s), remote_socket, each, -1);
	me->acct.wait_ns += (uint64_t)wait;
	s->st.tlb_ipis_sent += nr_targets;
	s->st.tlb_irqs_received += nr_targets;
	return 0;
}

/*
 * A lazy target (cpu_idle.c): skipped, owing a flush when it wakes, unless
 * the flush frees page tables; then it takes the interrupt and leaves the
 * mm. True if it was skipped. Its entries are gone either way.
 */
static bool x86_lazy_target(struct sim *s, unsigned int cpu,
			    const struct tlbp_flush_req *req)
{
	s->cpu[cpu].lazy_owes_flush = true;
	if (!s->flush_freed_tables)
		return true;
	if (req->mm)
		tlbp_cpuset_clear(&backend_mm_of(req->mm)->cpus, cpu);
	return false;
}

/*
 * The flush's targets whose threads the host must run (flush_turn.c): a
 * turn drawn for each busy one that had none pending, with the chance and
 * the rotation of host_sched.c; the sender waits for the last turn, a
 * pending one included (@pending_ns, the longest).
 */
static double x86_target_turns(struct sim *s, const struct tlbp_flush_req *req,
			       unsigned int nr_targets, unsigned int running, double pending_ns)
{
	double p_off, rotation, last = pending_ns;
	unsigned int i;

	if (!host_rotation(s, nr_targets, running, &p_off, &rotation))
		return last;
	for (i = 0; i < s->turns.nr_to_draw; i++) {
		double w = flush_turn_draw(s, s->turns.to_draw[i], p_off, rotation, req->full);

		if (w > last)
			last = w;
	}
	return last;
}

int backend_x86_flush(void *ctx, const struct tlbp_flush_req *req)
{
	struct sim *s = ((struct flush_ctx *)ctx)->s;
	unsigned int self = backend_issuer(ctx), cpu, nr_targets = 0, asleep = 0, running;
	double each = flush_cost_ns(s, req), wait, turns = -1;
	bool remote_socket = false;

	backend_count_kind(s, req);
	if (backend_whole_machine(s, req))
		return x86_flush_all_cpus(s, self, each);
	if (s->turns.on) {
		flush_turn_running(s, self);
		s->turns.nr_to_draw = 0;
		turns = 0;
	}
	for (cpu = tlbp_cpuset_next(req->cpus, 0); cpu < s->nr_cpus;
	     cpu = tlbp_cpuset_next(req->cpus, cpu + 1)) {
		struct acct *a = &s->cpu[cpu].acct;
		bool lazy = cpu != self && sim_cpu_lazy_for_flush(s, cpu, self);
		uint32_t dropped;

		if (!lazy && cpu != self && flush_turn_pending(s, cpu)) {
			/* Queued behind a flush not yet handled: caught up by it. */
			double left = flush_turn_left_ns(s, cpu);

			flush_turn_absorb(s, cpu);
			a->irq_ns += (uint64_t)s->p.v[P_IPI_HANDLER_NS];
			remote_socket |= s->cpu[cpu].node != s->cpu[self].node;
			nr_targets++;
			turns = left > turns ? left : turns;
			continue;
		}
		dropped = backend_invalidate(s, cpu, req);
		if (req->full && s->turns.on)
			flush_turn_flushed(s, cpu);
		if (lazy) {
			/* Asleep by the time the flush is sent, though not
			 * lazy yet: its thread no longer needs the host. */
			asleep += !s->cpu[cpu].lazy;
			if (x86_lazy_target(s, cpu, req))
				continue;
		}
		if (req->full)
			a->refill_ns += sim_refill_ns(s, dropped);
		if (cpu == self) {
			a->kernel_ns += (uint64_t)each;
			s->st.local_flushes++;
			continue;
		}
		a->irq_ns += (uint64_t)(s->p.v[P_IPI_HANDLER_NS] + each);
		remote_socket |= s->cpu[cpu].node != s->cpu[self].node;
		nr_targets++;
		if (s->turns.on && !lazy)
			s->turns.to_draw[s->turns.nr_to_draw++] = cpu;
	}
	if (!nr_targets)
		return 0;
	running = sim_running_vcpus(s);
	running = running > asleep ? running - asleep : 0;
	if (s->turns.on)
		turns = x86_target_turns(s, req, nr_targets, running, turns);
	wait = x86_flush_wait_ns(s, nr_targets, running, remote_socket, each, turns);
	s->cpu[self].acct.wait_ns += (uint64_t)wait;
	s->st.tlb_ipis_sent += nr_targets;
	s->st.tlb_irqs_received += nr_targets;
	return 0;
}

int backend_x86_add_pending(void *ctx, struct tlbp_mm *mm, uint64_t start,
			    uint64_t end)
{
	(void)ctx;
	(void)start;
	(void)end;
	/* inc_mm_tlb_gen(): CPUs that next switch to the mm catch up. */
	backend_mm_of(mm)->tlb_gen++;
	return 0;
}

int backend_x86_flush_tlb_mm(void *ctx, struct tlbp_mm *f, backend_flush_fn *flush)
{
	struct sim *s = ((struct flush_ctx *)ctx)->s;
	struct mm *mm = backend_mm_of(f);
	struct tlbp_flush_req req = {
		.cpus = &mm->cpus, .mm = f, .start = 0, .end = TLBP_FLUSH_ALL,
		.full = true, .unmapped = true,
	};

	mm->tlb_gen++;
	s->st.batched_pending_drains++;
	return flush(ctx, &req);
}

static int x86_flush_mm(void *ctx, struct tlbp_mm *f)
{
	return backend_x86_flush_tlb_mm(ctx, f, backend_x86_flush);
}

/* TLBI ... IS without the DSB: cheap to issue, completes later. */
static void arm64_issue(struct sim *s, struct cpu *c, uint64_t pages)
{
	c->acct.kernel_ns += (uint64_t)(pages * s->p.v[P_TLBI_ISSUE_NS]);
	c->tlbi_issued += (uint32_t)pages;
}

static int arm64_add_pending(void *ctx, struct tlbp_mm *mm, uint64_t start,
			     uint64_t end)
{
	struct sim *s = ((struct flush_ctx *)ctx)->s;

	(void)mm;
	arm64_issue(s, &s->cpu[backend_issuer(ctx)], (end - start) >> PAGE_SHIFT);
	return 0;
}

/*
 * DSB ISH: waits until this CPU's broadcast invalidations are done. Each
 * crosses the interconnect, which carries one at a time machine-wide and
 * shares itself between the CPUs issuing at once: the wait grows with the
 * TLBIs outstanding times the issuers. A flush with nothing issued
 * beforehand (ptep_clear_flush) issues its own TLBI first.
 */
static int arm64_flush(void *ctx, const struct tlbp_flush_req *req)
{
	struct sim *s = ((struct flush_ctx *)ctx)->s;
	unsigned int self = backend_issuer(ctx), cpu;
	unsigned int issuers = s->op_cpu == self && s->op_issuers ? s->op_issuers : 1;
	struct cpu *c = &s->cpu[self];

	backend_count_kind(s, req);
	if (!c->tlbi_issued)
		arm64_issue(s, c, req->full ? 1 : req->nr_pages);
	c->acct.wait_ns += (uint64_t)((double)c->tlbi_issued * issuers * s->p.v[P_DVM_TLBI_NS]);
	c->tlbi_issued = 0;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		uint32_t dropped = backend_invalidate(s, cpu, req);

		if (req->full)
			s->cpu[cpu].acct.refill_ns += sim_refill_ns(s, dropped);
	}
	c->acct.wait_ns += (uint64_t)s->p.v[P_DSB_NS];
	return 0;
}

/* Another agent's drain: a DSB here would not complete the issuer's TLBIs,
 * so it must invalidate the whole mm (TLBI ASIDE1IS + DSB). */
static int arm64_flush_mm(void *ctx, struct tlbp_mm *f)
{
	struct sim *s = ((struct flush_ctx *)ctx)->s;
	struct tlbp_flush_req req = {
		.cpus = &s->all_cpus, .mm = f, .end = TLBP_FLUSH_ALL, .full = true,
	};

	s->st.batched_pending_drains++;
	return arm64_flush(ctx, &req);
}

static const struct tlbp_flush_ops x86_ops = {
	.flush = backend_x86_flush, .flush_mm = x86_flush_mm,
	.add_pending = backend_x86_add_pending,
};

static const struct tlbp_flush_ops arm64_ops = {
	.flush = arm64_flush, .flush_mm = arm64_flush_mm,
	.add_pending = arm64_add_pending,
};

const struct tlbp_flush_ops *backend_ops(enum backend_kind kind)
{
	switch (kind) {
	case BACKEND_ARM64_TLBI:
		return &arm64_ops;
	case BACKEND_X86_INVLPGB:
		return &backend_invlpgb_ops;
	default:
		return &x86_ops;
	}
}

/* INVLPGB changes how x86 flushes, not when it batches: same profile. */
const char *backend_arch_name(enum backend_kind kind)
{
	return kind == BACKEND_ARM64_TLBI ? "arm64" : "x86";
}
