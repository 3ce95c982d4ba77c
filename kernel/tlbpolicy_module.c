// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Kernel glue: makes libtlbpolicy a loadable module and exports its API.
 * Built only by Kbuild; the portable sources never see EXPORT_SYMBOL.
 */
#include <linux/module.h>
#include <tlbpolicy/tlbpolicy.h>

EXPORT_SYMBOL_GPL(tlbp_cpuset_size);
EXPORT_SYMBOL_GPL(tlbp_cpuset_init);
EXPORT_SYMBOL_GPL(tlbp_cpuset_wrap);
EXPORT_SYMBOL_GPL(tlbp_cpuset_nr_cpus);
EXPORT_SYMBOL_GPL(tlbp_cpuset_set);
EXPORT_SYMBOL_GPL(tlbp_cpuset_clear);
EXPORT_SYMBOL_GPL(tlbp_cpuset_test);
EXPORT_SYMBOL_GPL(tlbp_cpuset_zero);
EXPORT_SYMBOL_GPL(tlbp_cpuset_empty);
EXPORT_SYMBOL_GPL(tlbp_cpuset_weight);
EXPORT_SYMBOL_GPL(tlbp_cpuset_or);
EXPORT_SYMBOL_GPL(tlbp_cpuset_copy);
EXPORT_SYMBOL_GPL(tlbp_cpuset_next);
EXPORT_SYMBOL_GPL(tlbp_cpuset_any_but);

EXPORT_SYMBOL_GPL(tlbp_mm_init);
EXPORT_SYMBOL_GPL(tlbp_mm_mark_batched_pending);
EXPORT_SYMBOL_GPL(tlbp_mm_batched_pending);
EXPORT_SYMBOL_GPL(tlbp_mm_flush_batched_pending);
EXPORT_SYMBOL_GPL(tlbp_mm_batched_gen);
EXPORT_SYMBOL_GPL(tlbp_mm_inc_flush_pending);
EXPORT_SYMBOL_GPL(tlbp_mm_dec_flush_pending);
EXPORT_SYMBOL_GPL(tlbp_mm_flush_pending);
EXPORT_SYMBOL_GPL(tlbp_mm_flush_nested);

EXPORT_SYMBOL_GPL(tlbp_batch_config_default);
EXPORT_SYMBOL_GPL(tlbp_batch_config_arch);
EXPORT_SYMBOL_GPL(tlbp_arch_name);
EXPORT_SYMBOL_GPL(tlbp_arch_from_name);
EXPORT_SYMBOL_GPL(tlbp_batch_cpus_size);
EXPORT_SYMBOL_GPL(tlbp_batch_init);
EXPORT_SYMBOL_GPL(tlbp_batch_should_defer);
EXPORT_SYMBOL_GPL(tlbp_pte_accessible);
EXPORT_SYMBOL_GPL(tlbp_batch_add_pending);
EXPORT_SYMBOL_GPL(tlbp_batch_flush_required);
EXPORT_SYMBOL_GPL(tlbp_batch_writable);
EXPORT_SYMBOL_GPL(tlbp_batch_cpus);
EXPORT_SYMBOL_GPL(tlbp_batch_flush);
EXPORT_SYMBOL_GPL(tlbp_batch_flush_dirty);
EXPORT_SYMBOL_GPL(tlbp_clear_flush);
EXPORT_SYMBOL_GPL(tlbp_flush_reason_name);

EXPORT_SYMBOL_GPL(tlbp_migrate_should_batch);
EXPORT_SYMBOL_GPL(tlbp_migrate_batch_policy_name);
EXPORT_SYMBOL_GPL(tlbp_hint_fault_init);
EXPORT_SYMBOL_GPL(tlbp_hint_fault_handle);
EXPORT_SYMBOL_GPL(tlbp_hint_path_name);
EXPORT_SYMBOL_GPL(tlbp_split_init);
EXPORT_SYMBOL_GPL(tlbp_split_unmap);
EXPORT_SYMBOL_GPL(tlbp_gp_batch_init);
EXPORT_SYMBOL_GPL(tlbp_gp_batch_run);

EXPORT_SYMBOL_GPL(tlbp_gather_begin);
EXPORT_SYMBOL_GPL(tlbp_gather_add);
EXPORT_SYMBOL_GPL(tlbp_gather_finish);

MODULE_DESCRIPTION("tlbpolicy: batched TLB-flush policy primitives");
MODULE_LICENSE("Dual MIT/GPL");
