/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/**
 * DOC: Umbrella header: the whole public API of libtlbpolicy
 *
 * Includes every other public header.
 */
#ifndef TLBPOLICY_TLBPOLICY_H
#define TLBPOLICY_TLBPOLICY_H

#include <tlbpolicy/platform.h>
#include <tlbpolicy/cpuset.h>
#include <tlbpolicy/flush_ops.h>
#include <tlbpolicy/mm.h>
#include <tlbpolicy/batch.h>
#include <tlbpolicy/arch.h>
#include <tlbpolicy/gather.h>
#include <tlbpolicy/migrate.h>
#include <tlbpolicy/hint_fault.h>
#include <tlbpolicy/split.h>
#include <tlbpolicy/gp_batch.h>
#include <tlbpolicy/fastpath.h>

#endif /* TLBPOLICY_TLBPOLICY_H */
