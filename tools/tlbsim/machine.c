// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* CPUs, nodes and their per-CPU state. */
#include <stdlib.h>
#include <string.h>
#include "flush_turn.h"
#include "hugemem.h"
#include "numa_group.h"
#include "tlb_qemu.h"
#include "sim.h"

unsigned int cpu_node_of(const struct sim *s, unsigned int cpu)
{
	/* CPUs are numbered node by node, like a 2-socket box's first half. */
	return (unsigned int)((uint64_t)cpu * s->nr_nodes / s->nr_cpus);
}

/*
 * Every CPU's TLB sets in one block, each CPU's on whole cache lines, and
 * on 2 MiB host pages where the host allows, as the page array is: one
 * allocation instead of one per CPU. Alternating runs at 4,096 CPUs gave
 * no speed difference this host could resolve (docs/tlbsim.md).
 */
static int tlbs_init(struct sim *s)
{
	uint32_t capacity = (uint32_t)s->p.v[P_TLB_ENTRIES];
	size_t stride = tlb_bytes_for(capacity);
	unsigned int c;

	s->tlb_slots = huge_alloc(stride * s->nr_cpus);
	if (!s->tlb_slots)
		return -1;
	for (c = 0; c < s->nr_cpus; c++)
		if (tlb_init_at(&s->cpu[c].tlb, capacity,
				(struct tlb_slot *)((char *)s->tlb_slots + c * stride)))
			return -1;
	return 0;
}

int sim_machine_init(struct sim *s, unsigned int nr_cpus, unsigned int nr_nodes)
{
	size_t bytes = tlbp_cpuset_size(nr_cpus);
	enum tlbp_arch arch;
	unsigned int c;

	s->nr_cpus = nr_cpus;
	s->nr_nodes = nr_nodes;
	s->cpu = calloc(nr_cpus, sizeof(*s->cpu));
	s->all_cpu_bits = calloc(1, bytes);
	if (!s->cpu || !s->all_cpu_bits || heap_init(&s->heap, 4 * nr_cpus + 64))
		return -1;
	if (tlbp_cpuset_init(&s->all_cpus, s->all_cpu_bits, bytes, nr_cpus))
		return -1;
	s->this_cpu_ctx = (struct flush_ctx){ .s = s, .cpu = SIM_THIS_CPU };
	/* The back-end's architecture profile from the library, by name. */
	if (tlbp_arch_from_name(backend_arch_name((enum backend_kind)s->p.v[P_BACKEND]),
				&arch) ||
	    tlbp_batch_config_arch(&s->batch_cfg, arch, nr_cpus))
		return -1;
	if (s->p.v[P_BATCH_FLUSH_CEILING] >= 0)
		s->batch_cfg.flush_ceiling = (unsigned int)s->p.v[P_BATCH_FLUSH_CEILING];
	if (s->p.v[P_FLUSH_CEILING] >= 0)
		s->batch_cfg.range_ceiling = (unsigned int)s->p.v[P_FLUSH_CEILING];
	if (tlbs_init(s))
		return -1;
	for (c = 0; c < nr_cpus; c++) {
		struct cpu *cpu = &s->cpu[c];

		cpu->node = cpu_node_of(s, c);
		cpu->flush_ctx = (struct flush_ctx){ .s = s, .cpu = c };
		tlbp_cpuset_set(&s->all_cpus, c);
		cpu->batch_bits = calloc(1, bytes);
		if (!cpu->batch_bits ||
		    tlbp_batch_init(&cpu->batch, &s->batch_cfg, s->flush_ops,
				    &cpu->flush_ctx, cpu->batch_bits, bytes))
			return -1;
	}
	if (tlb_tags_init(&s->tlb_tags, nr_cpus, &s->cpu[0].tlb) || flush_turn_init(s))
		return -1;
	for (c = 0; c < nr_cpus; c++)
		tlb_attach_tags(&s->cpu[c].tlb, &s->tlb_tags, c);
	return 0;
}

int sim_machine_tlbs_unbounded(struct sim *s)
{
	uint64_t pages = 0;
	unsigned int i;

	if (s->p.v[P_TLB_ENTRIES] > 0)
		return 0;
	for (i = 0; i < s->nr_mms; i++)
		if (s->mm[i].nr_pages > pages)
			pages = s->mm[i].nr_pages;
	for (i = 0; i < s->nr_cpus; i++) {
		struct tlb *t = &s->cpu[i].tlb;

		if (tlb_make_unbounded(t, s->nr_mms, pages) ||
		    (s->p.v[P_TLB_RESIZE] > 0 && tlb_qemu_attach(t, &s->now)))
			return -1;
	}
	return 0;
}

void sim_free(struct sim *s)
{
	unsigned int i;

	if (s->cpu) {
		for (i = 0; i < s->nr_cpus; i++) {
			tlb_free(&s->cpu[i].tlb);
			free(s->cpu[i].batch_bits);
		}
	}
	for (i = 0; s->mm && i < s->nr_mms; i++) {
		free(s->mm[i].cpu_bits);
		free(s->mm[i].walk);
	}
	for (i = 0; s->obj && i < s->nr_objs; i++) {
		free(s->obj[i].page);
		free(s->obj[i].pte_more);
	}
	sim_numa_groups_free(s);
	free(s->cpu);
	free(s->thread);
	free(s->mm);
	free(s->obj);
	free(s->all_cpu_bits);
	free(s->waiters);
	free(s->tlb_slots);
	heap_free(&s->heap);
	tlb_tags_free(&s->tlb_tags);
	flush_turn_free(s);
	memset(s, 0, sizeof(*s));
}
