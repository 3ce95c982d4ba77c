#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# /init of the testbed guest (scripts/testbed.sh). The run comes in on the
# kernel command line, which the kernel hands to init as environment:
# TB_WORKLOAD, TB_ARGS (comma-separated key=value), TB_MIGRATE, TB_HINT,
# TB_SPLIT, TB_PROBE (0: no speed probe). Everything the host parses is on
# lines starting with "@@".
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
echo "@@boot uptime=$(cut -d' ' -f1 /proc/uptime) nodes=$(ls -d /sys/devices/system/node/node* | wc -l) cpus=$(grep -c ^processor /proc/cpuinfo)"

knob() {
	echo "$2" >"$1" 2>/dev/null || echo "@@error cannot set $1 to $2"
}
# See docs/kernel-port.md: passes must cover the workload VMA and come often
# enough to overlap migrations; scan_delay_ms below 1000 stops migrations.
nb=/sys/kernel/debug/sched/numa_balancing
knob /proc/sys/kernel/numa_balancing 1
knob $nb/scan_delay_ms 1000
knob $nb/scan_period_min_ms 200
knob $nb/scan_period_max_ms 1000
knob $nb/scan_size_mb 1024
tp=/sys/kernel/debug/tlbpolicy
knob $tp/migrate_policy "$TB_MIGRATE"
knob $tp/hint_fault_policy "$TB_HINT"
knob $tp/split_policy "$TB_SPLIT"
echo "@@policy migrate=$(cat $tp/migrate_policy | tr ' ' ,) hint=$(cat $tp/hint_fault_policy | tr ' ' ,) split=$(cat $tp/split_policy | tr ' ' ,)"

/bin/$TB_WORKLOAD $(echo "$TB_ARGS" | tr , ' ')
echo "@@exit $?"
# How fast this host runs the guest's memory-bound work (the testbed's
# sweep counts follow it): a "@@speed" line, after the workload, since its
# full flushes grow qemu's TLBs and that size outlives it (the storm's
# ignition depends on it). Its sweeps first bring the TLBs back to their
# boot size, so the workload's growth does not reach its figures. The
# microbench measures the same itself.
if [ "${TB_PROBE:-1}" != 0 ] && [ "$TB_WORKLOAD" != microbench ]; then
	/bin/microbench speed
fi
echo "@@dmesg"
dmesg
echo "@@dmesg-end"
poweroff -f
