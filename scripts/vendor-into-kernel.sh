#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Copy libtlbpolicy into a kernel tree as mm/tlbpolicy/ (sources, Kconfig,
# Makefile, the KUnit test and the shared vectors) and include/tlbpolicy/
# (headers), and hook it into mm/Kconfig and mm/Makefile. Running it again
# refreshes the copy and adds no second hook.
# Usage: vendor-into-kernel.sh KERNEL_TREE [SRCDIR]
set -eu
tree=${1:?usage: vendor-into-kernel.sh KERNEL_TREE [SRCDIR]}
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
[ -f "$tree/mm/Kconfig" ] && [ -f "$tree/mm/Makefile" ] || {
	echo "vendor-into-kernel: $tree has no mm/Kconfig and mm/Makefile" >&2; exit 1; }

dst=$tree/mm/tlbpolicy
rm -rf "$dst" "$tree/include/tlbpolicy"
mkdir -p "$dst/tests/vectors" "$tree/include/tlbpolicy"
cp "$src"/include/tlbpolicy/*.h "$tree/include/tlbpolicy/"
objs=""
cp "$src"/lib/*.h "$dst/"
for c in "$src"/lib/*.c "$src"/kernel/tlbpolicy_module.c; do
	cp "$c" "$dst/"
	objs="$objs $(basename "$c" .c).o"
done
cp "$src"/tests/fake_ops.c "$src"/tests/fake_ops.h "$dst/tests/"
cp "$src"/tests/vectors/*.c "$src"/tests/vectors/*.h "$dst/tests/vectors/"
cp "$src"/kernel/tlbpolicy_kunit.c "$dst/tests/"
cp "$src"/kernel/.kunitconfig "$dst/.kunitconfig"
vecs=""
for c in "$src"/tests/vectors/*.c; do
	vecs="$vecs tests/vectors/$(basename "$c" .c).o"
done
version=$(sed -n 's/^AC_INIT(\[tlbpolicy\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")

cat >"$dst/Kconfig" <<KCONFIG
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Vendored from tlbpolicy $version by scripts/vendor-into-kernel.sh.
config TLBPOLICY
	tristate "Batched TLB-flush policy primitives (tlbpolicy)"
	help
	  Decision primitives for batched TLB flushes: the unmap batch and
	  the mm's pending/flushed generation, the migration single-folio
	  fast path, the deferred-map NUMA hint fault, the split flush and
	  batched grace-period work.

config TLBPOLICY_KUNIT_TEST
	tristate "KUnit tests for tlbpolicy" if !KUNIT_ALL_TESTS
	depends on TLBPOLICY && KUNIT
	default KUNIT_ALL_TESTS
	help
	  Runs tlbpolicy's shared test vectors under KUnit.
KCONFIG

cat >"$dst/Makefile" <<MAKEFILE
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Vendored from tlbpolicy $version by scripts/vendor-into-kernel.sh.
obj-\$(CONFIG_TLBPOLICY) += tlbpolicy.o
tlbpolicy-y :=$objs
obj-\$(CONFIG_TLBPOLICY_KUNIT_TEST) += tlbpolicy_kunit.o
tlbpolicy_kunit-y := tests/tlbpolicy_kunit.o tests/fake_ops.o$vecs
# External-module builds (M=) see \$(src) absolute; in-tree builds name
# the directory from \$(srctree), since what \$(src) holds there changed
# in v6.10 (relative before, prefixed with the source tree after).
ccflags-y += \$(if \$(KBUILD_EXTMOD),-I\$(src)/tests,-I\$(srctree)/mm/tlbpolicy/tests)
MAKEFILE
echo "tlbpolicy $version" >"$dst/VERSION"

grep -q 'source "mm/tlbpolicy/Kconfig"' "$tree/mm/Kconfig" ||
	printf '\nsource "mm/tlbpolicy/Kconfig"\n' >>"$tree/mm/Kconfig"
grep -q '^obj-y += tlbpolicy/$' "$tree/mm/Makefile" ||
	printf '\nobj-y += tlbpolicy/\n' >>"$tree/mm/Makefile"
echo "vendor-into-kernel: tlbpolicy $version -> $dst and $tree/include/tlbpolicy"
