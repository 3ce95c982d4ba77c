// SPDX-License-Identifier: GPL-2.0-only OR MIT
// A C++ program using libtlbpolicy through pkg-config, as a simulator
// written in C++ would: it includes the umbrella header, links the shared
// library and checks a few decisions. Built and run by .ci/run.
#include <cerrno>
#include <cstdio>
#include <tlbpolicy/tlbpolicy.h>

namespace {

int flushes;

int count_flush(void *, const struct tlbp_flush_req *)
{
	++flushes;
	return 0;
}

int flush_mm(void *, struct tlbp_mm *)
{
	return 0;
}

const struct tlbp_flush_ops ops = { count_flush, flush_mm, nullptr };

bool check(bool ok, const char *what)
{
	std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	return ok;
}

} // namespace

int main()
{
	unsigned long bits[TLBP_CPUSET_WORDS(64)] = {}, mm_bits[TLBP_CPUSET_WORDS(64)] = {};
	struct tlbp_batch_config cfg;
	struct tlbp_batch batch;
	struct tlbp_mm mm;
	struct tlbp_cpuset mm_cpus;
	struct tlbp_migrate_folio folio = {};
	struct tlbp_migrate_decision d;
	enum tlbp_arch arch;
	bool ok = true;

	ok &= check(tlbp_arch_from_name("arm64", &arch) == 0 && arch == TLBP_ARCH_ARM64,
		    "profile looked up by name");
	ok &= check(tlbp_batch_config_arch(&cfg, TLBP_ARCH_X86, 64) == 0 &&
		    tlbp_batch_init(&batch, &cfg, &ops, nullptr, bits, sizeof(bits)) == 0 &&
		    tlbp_mm_init(&mm, &ops, nullptr) == 0 &&
		    tlbp_cpuset_init(&mm_cpus, mm_bits, sizeof(mm_bits), 64) == 0,
		    "batch, mm and CPU set initialised");
	tlbp_cpuset_set(&mm_cpus, 3);
	ok &= check(tlbp_batch_add_pending(&batch, &mm, &mm_cpus, TLBP_PTE_PRESENT,
					   0x1000, 0x2000, nullptr) == 0 &&
		    tlbp_batch_flush(&batch, nullptr) == 0 && flushes == 1,
		    "one queued entry, one flush");
	folio.mode = TLBP_MIGRATE_ASYNC;
	folio.reason = TLBP_MR_NUMA_MISPLACED;
	folio.nr_folios = 1;
	folio.mapcount = 1;
	ok &= check(tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_SKIP_SINGLE, &folio, &d) == 0 &&
		    !d.batch, "skip-single does not batch one small folio");
	folio.nr_folios = 0;
	ok &= check(tlbp_migrate_should_batch(TLBP_MIGRATE_BATCH_SKIP_SINGLE, &folio, &d) == -EINVAL,
		    "an empty batch is refused");
	return ok ? 0 : 1;
}
