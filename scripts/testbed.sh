#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The kernel testbed: Debian's linux-source-6.12 with tlbpolicy vendored and
# kernel/patches/6.12/*.patch applied, booted under qemu (TCG, 2 NUMA nodes,
# 8 vCPUs) once per run of a policy x workload matrix. Writes one JSON record
# per run and a table of medians (scripts/testbed-report.py).
#
# Usage: testbed.sh [options] [SRCDIR]
#   --gate          the CI gate: numa-private, always vs skip-single, 3 runs,
#                   then the gate's checks (exit 1 if one fails)
#   --runs N        repeats per cell (default 3)
#   --window S      measured seconds per run (default 35)
#   --cells LIST    comma-separated cells, e.g. numa-private:always
#                   (default: the full matrix, see `cells_full` below)
#   --build-only    build (or reuse) the kernel and the initramfs, no runs
#   --out DIR       where records, logs and the table go
#                   (default $TLBP_TESTBED_DIR/results/<date>)
# Environment: TLBP_TESTBED_DIR (default /var/tmp/tlbp-testbed): the cache of
# unpacked sources, kernels (by version and series+library hash) and runs.
set -eu

gate=0 runs=3 window=35 cells="" build_only=0 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--gate) gate=1 ;;
	--runs) runs=$2; shift ;;
	--window) window=$2; shift ;;
	--cells) cells=$2; shift ;;
	--build-only) build_only=1 ;;
	--out) out=$2; shift ;;
	-*) echo "testbed: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
tarball=${TLBP_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
start=$(date +%s)
say() { echo "testbed [$(( $(date +%s) - start ))s]: $*" >&2; }

for tool in qemu-system-x86_64 cpio gzip python3 flex bison bc gcc make; do
	command -v $tool >/dev/null || { echo "testbed: $tool not installed (scripts/install-deps.sh --ci)" >&2; exit 1; }
done
[ -r "$tarball" ] || { echo "testbed: no $tarball (apt-get install linux-source-6.12)" >&2; exit 1; }
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" 2>/dev/null | grep -q static || busybox=/bin/busybox
[ -x "$busybox" ] || { echo "testbed: busybox-static not installed" >&2; exit 1; }
mkdir -p "$cache"

# --- the kernel, cached by source version and everything that goes into it
key=$( (ls -l "$tarball" | awk '{print $5}'; basename "$tarball"
	cat "$srcdir"/kernel/patches/6.12/*.patch "$srcdir"/kernel/testbed/config-6.12 \
		"$srcdir"/scripts/vendor-into-kernel.sh "$srcdir"/kernel/tlbpolicy_module.c \
		"$srcdir"/lib/*.c "$srcdir"/lib/*.h "$srcdir"/include/tlbpolicy/*.h) |
	sha256sum | cut -c1-12)
kdir=$cache/kernel-$key
bzimage=$kdir/bzImage
exec 9>"$cache/lock"
flock 9
if [ -s "$bzimage" ]; then
	say "reusing kernel $kdir"
else
	say "building kernel $key (about 6 min on 2 cores; log $kdir/build.log)"
	rm -rf "$kdir" && mkdir -p "$kdir"
	# Keep only the newest few kernels.
	ls -dt "$cache"/kernel-* 2>/dev/null | tail -n +4 | xargs -r rm -rf
	tar -xJf "$tarball" -C "$kdir"
	ksrc=$(ls -d "$kdir"/linux-source-*)
	sh "$srcdir/scripts/vendor-into-kernel.sh" "$ksrc" "$srcdir" >"$kdir/build.log"
	for p in "$srcdir"/kernel/patches/6.12/*.patch; do
		patch -d "$ksrc" -p1 --forward --quiet <"$p" >>"$kdir/build.log" 2>&1 || {
			echo "testbed: $(basename "$p") does not apply:" >&2; tail -n 20 "$kdir/build.log" >&2; exit 1; }
	done
	obj=$kdir/obj
	mkdir -p "$obj"
	{
		make -C "$ksrc" O="$obj" tinyconfig &&
		"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
			"$srcdir/kernel/testbed/config-6.12" &&
		make -C "$ksrc" O="$obj" olddefconfig
	} >>"$kdir/build.log" 2>&1 || { tail -n 30 "$kdir/build.log" >&2; exit 1; }
	for opt in $(grep '^CONFIG_.*=' "$srcdir/kernel/testbed/config-6.12"); do
		grep -qx "$opt" "$obj/.config" || {
			echo "testbed: $opt did not survive olddefconfig" >&2; exit 1; }
	done
	b0=$(date +%s)
	make -C "$ksrc" O="$obj" -j"$(nproc)" bzImage >>"$kdir/build.log" 2>&1 || {
		grep -E 'error|Error' "$kdir/build.log" | head -n 20 >&2; exit 1; }
	cp "$obj/arch/x86/boot/bzImage" "$bzimage.tmp" && mv "$bzimage.tmp" "$bzimage"
	say "kernel built in $(( $(date +%s) - b0 )) s"
	# The object tree is kept for incremental rebuilds by hand; the
	# source is not needed again.
	rm -rf "$ksrc"
fi

# --- the initramfs: busybox, the workloads, /init
work=$cache/work
rm -rf "$work" && mkdir -p "$work/root/bin" "$work/root/proc" "$work/root/sys" "$work/root/dev"
for w in numa_regions thp_split; do
	gcc -O2 -static -pthread -std=gnu11 -Wall -Wextra -Werror \
		-o "$work/root/bin/$w" "$srcdir/tools/testbed/$w.c" "$srcdir/tools/testbed/tb_common.c"
done
cp "$busybox" "$work/root/bin/busybox"
cp "$srcdir/tools/testbed/init.sh" "$work/root/init"
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz"
[ "$build_only" -eq 0 ] || { say "kernel $bzimage, initramfs $work/initramfs.gz"; exit 0; }

# --- the matrix
# A cell is <scenario>:<policy>. Scenarios: numa-{private,mthp64,shared,
# thp-split} take migrate policies; hint-private takes hint-fault policies;
# thp-split-flush takes split policies.
migrate_policies="always skip-numa skip-single skip-single-mapcount"
cells_full=""
for s in numa-private numa-mthp64 numa-shared numa-thp-split; do
	for p in $migrate_policies; do cells_full="$cells_full $s:$p"; done
done
cells_full="$cells_full hint-private:eager hint-private:deferred"
cells_full="$cells_full thp-split-flush:per-pte thp-split-flush:batched"
if [ "$gate" -eq 1 ]; then
	cells="numa-private:always,numa-private:skip-single"
fi
[ -n "$cells" ] || cells=$(echo $cells_full | tr ' ' ',')
out=${out:-$cache/results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
records=$out/records.jsonl
: >"$records"
vcpus=8
warmup=5

nr_cells=$(echo "$cells" | tr ',' '\n' | grep -c .)
total=$((nr_cells * runs))
n=0
for r in $(seq 1 "$runs"); do
	for cell in $(echo "$cells" | tr ',' ' '); do
		scenario=${cell%%:*} policy=${cell#*:}
		migrate=always hint=deferred split=batched
		case $scenario in
		numa-shared) migrate=$policy; workload=numa_regions
			# Two processes fault and map the region: keep it smaller.
			wargs="mode=shared,slice_mb=16,stable_mb=32,warmup=$warmup,window=$window" ;;
		numa-*) migrate=$policy; workload=numa_regions
			wargs="mode=${scenario#numa-},warmup=$warmup,window=$window" ;;
		hint-private) hint=$policy; workload=numa_regions
			wargs="mode=private,warmup=$warmup,window=$window" ;;
		thp-split-flush) split=$policy; workload=thp_split
			wargs="warmup=$warmup,window=$window" ;;
		*) echo "testbed: unknown scenario $scenario" >&2; exit 2 ;;
		esac
		n=$((n + 1))
		log=$out/$scenario-$policy-$r.log
		say "run $n/$total: $scenario $policy (repeat $r)"
		t0=$(date +%s)
		rc=0
		timeout $((window + warmup + 150)) qemu-system-x86_64 \
			-accel tcg,thread=multi -m 2G -smp $vcpus,sockets=2 \
			-object memory-backend-ram,id=m0,size=1G \
			-object memory-backend-ram,id=m1,size=1G \
			-numa node,nodeid=0,cpus=0-$((vcpus / 2 - 1)),memdev=m0 \
			-numa node,nodeid=1,cpus=$((vcpus / 2))-$((vcpus - 1)),memdev=m1 \
			-nographic -no-reboot -kernel "$bzimage" -initrd "$work/initramfs.gz" \
			-append "console=ttyS0 loglevel=5 panic=-1 TB_WORKLOAD=$workload TB_ARGS=$wargs TB_MIGRATE=$migrate TB_HINT=$hint TB_SPLIT=$split" \
			</dev/null >"$log" 2>&1 || rc=$?
		elapsed=$(( $(date +%s) - t0 ))
		python3 "$srcdir/scripts/testbed-report.py" record --log "$log" \
			--scenario "$scenario" --policy "$policy" --run "$r" \
			--qemu-rc "$rc" --host-seconds "$elapsed" --vcpus $vcpus \
			--migrate "$migrate" --hint "$hint" --split "$split" \
			--workload "$workload" --args "$wargs" --kernel "$key" >>"$records"
		say "  $(tail -n 1 "$records" | python3 "$srcdir/scripts/testbed-report.py" brief)"
	done
done

python3 "$srcdir/scripts/testbed-report.py" table "$records" | tee "$out/table.txt"
say "records in $records, table in $out/table.txt"
if [ "$gate" -eq 1 ]; then
	python3 "$srcdir/scripts/testbed-report.py" gate "$records"
fi
