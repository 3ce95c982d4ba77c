// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <stdlib.h>
#include <check.h>
#include "tiny_machine.h"

struct sim *tiny_machine(enum backend_kind be, enum unsafe_mode unsafe,
			 enum tlbp_hint_policy hint_policy, double host_cpus)
{
	struct sim *s = calloc(1, sizeof(*s));
	struct object *o;
	struct mm *mm;
	unsigned int c;

	ck_assert_ptr_nonnull(s);
	params_defaults(&s->p);
	s->p.v[P_BACKEND] = be;
	s->p.v[P_HOST_CPUS] = host_cpus;
	s->p.v[P_HOST_SLICE_NS] = 1e6;
	s->flush_ops = backend_ops(be);
	s->unsafe = unsafe;
	s->policy.migrate = TLBP_MIGRATE_BATCH_ALWAYS;
	s->policy.hint = hint_policy;
	s->end_ns = UINT64_MAX / 2;
	rng_seed(&s->rng, 1);
	rng_seed(&s->host_rng, 2);
	ck_assert_int_eq(sim_machine_init(s, TINY_CPUS, 2), 0);
	s->obj = calloc(1, sizeof(*s->obj));
	s->mm = calloc(1, sizeof(*s->mm));
	s->thread = calloc(TINY_CPUS, sizeof(*s->thread));
	o = sim_object_new(s, TINY_PAGES, 0);
	ck_assert_ptr_nonnull(o);
	mm = sim_mm_new(s, o);
	ck_assert_ptr_nonnull(mm);
	for (c = 0; c < TINY_CPUS; c++) {
		s->thread[c].cpu = c;
		s->thread[c].mm = mm;
		s->thread[c].slice_pages = TINY_PAGES;
		sim_mm_add_cpu(s, mm, c);
	}
	s->nr_threads = TINY_CPUS;
	mm->nr_threads = TINY_CPUS;
	return s;
}

void tiny_destroy(struct sim *s)
{
	sim_free(s);
	free(s);
}

bool tiny_cached(struct sim *s, unsigned int cpu, uint64_t vpn)
{
	sim_cpu_sync(s, &s->cpu[cpu]);
	return tlb_lookup(&s->cpu[cpu].tlb, tlb_key(s->mm[0].id, vpn), NULL);
}

void tiny_cache_everywhere(struct sim *s, uint64_t vpn)
{
	unsigned int c;

	for (c = 0; c < TINY_CPUS; c++) {
		sim_cpu_sync(s, &s->cpu[c]);
		tlb_insert(&s->cpu[c].tlb, tlb_key(s->mm[0].id, vpn),
			   s->obj[0].page[vpn].frame_gen);
	}
}
