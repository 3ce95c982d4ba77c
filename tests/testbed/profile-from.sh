#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed_profile.py, the qemu-testbed profile's costs derived from
# a host's `make testbed-microbench`, through testbed-predict.py: medians
# over the boots with failed figures left out, the derived costs (the
# migration's copy under load, the host's slice from host_sched.c's
# rotation, the other node's extra only when every boot shows one), the
# host's cores, the --set words `run --profile-from` hands tlbsim and
# their order, bad input. Then the profile itself: tlbsim's own
# qemu-testbed numbers come out of the 24 boots they were taken from.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
predict="python3 ${top_srcdir:-.}/scripts/testbed-predict.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

# Three boots; the second could not sweep (-1) and has no grown mix.
cat >"$tmp/micro.txt" <<'EOF'
# make testbed-microbench, 3 boots
# host: Some CPU @ 2.0GHz, 4 cores, load 1.00 0.50 0.20
@@micro reps=2000 shootdown_1_ns=10000 shootdown_7_ns=16000000 ipi_first_ns=5000 ipi_socket_ns=300 fault_ns=2000 fault_loaded_ns=8000 migrate_page_ns=20000 protnone_pte_loaded_ns=300.5 tlb_refill_loaded_ns=250 sweep_walk_ns_per_page=150 sweep_grown_32_ns_per_page=25 sweep_grown_192_ns_per_page=60 wake_ns=200000
@@micro reps=2000 shootdown_1_ns=12000 shootdown_7_ns=14000000 ipi_first_ns=9000 ipi_socket_ns=100 fault_ns=3000 fault_loaded_ns=9000 migrate_page_ns=22000 protnone_pte_loaded_ns=400 tlb_refill_loaded_ns=300 sweep_walk_ns_per_page=-1 wake_ns=100000
@@micro reps=2000 shootdown_1_ns=11000 shootdown_7_ns=15000000 ipi_first_ns=7000 ipi_socket_ns=200 fault_ns=2500 fault_loaded_ns=10000 migrate_page_ns=21000 protnone_pte_loaded_ns=350 tlb_refill_loaded_ns=350 sweep_walk_ns_per_page=170 sweep_grown_32_ns_per_page=35 sweep_grown_192_ns_per_page=80 wake_ns=300000
EOF
out=$($predict profile "$tmp/micro.txt") || bad "profile exited non-zero"
expect '^# 3 boots of .*micro.txt, a host of 4 cores$' "the boots and the host's cores"
expect '^ipi_first_ns=7000	' "a plain cost is the median over the boots"
expect '^ipi_socket_ns=200	' "the other node's extra when every boot shows one"
expect '^fault_ns=9000	' "fault_ns is the loaded fault"
# 21000 x 9000 / 2500
expect '^migrate_copy_ns=75600	' "the copy stretched as the loaded fault is"
expect '^pte_update_ns=350	' "pte_update_ns is the loaded PTE change"
expect '^sweep_ns_per_page=160	' "the walked sweep; a failed one (-1) stays out of the median"
expect '^sweep_hit_ns_per_page=30	' "the grown mix from the boots that have it"
expect '^sweep_hit_192_ns_per_page=70	' "the grown mix's 192 MiB sweepers"
# 4 cores: R=8, H=4, p=4/7, 7 targets: a rotation of 1 slice, the last
# of m waiting 0.7815 of it on average; the median difference 14.989 ms.
expect '^host_slice_ns=1.91798e+07	' "the slice from host_sched.c's rotation on the host's cores"
expect '^host_cpus=4	' "host_cpus from the host line"

sed -i 's/ipi_socket_ns=100/ipi_socket_ns=-50/; /^# host:/d' "$tmp/micro.txt"
out=$($predict profile "$tmp/micro.txt") || bad "profile exited non-zero"
expect '^ipi_socket_ns=0	' "a boot at or under 0: the other node's extra is noise"
# 2 cores: 2.5625 slices (docs/data/testbed-host-sched.md): 14.989 ms / 2.5625
expect '^host_slice_ns=5.84937e+06	' "2 cores without a host line: the profile's rotation"
echo "$out" | grep -q '^host_cpus' && bad "no host line must leave host_cpus alone" || ok "no host line: host_cpus left alone"

# run --profile-from: the derived costs go to tlbsim before --speed-from's
# and the user's --set (the later wins).
cat >"$tmp/fake-tlbsim" <<'SH'
#!/bin/sh
if [ "$1" = list ]; then
	printf 'policies:\n  always  x\n\nparameters (--set key=value):\n  name  kind  default\n'
	for p in ipi_first_ns ipi_socket_ns fault_ns migrate_copy_ns pte_update_ns tlb_miss_ns sweep_ns_per_page sweep_hit_ns_per_page sweep_hit_192_ns_per_page host_slice_ns host_cpus scale; do echo "  $p  cost  1"; done
	exit 0
fi
echo "$*" >>"$FAKE_ARGS"
while [ $# -gt 1 ]; do [ "$1" = --json ] && echo '[]' >"$2"; shift; done
SH
chmod +x "$tmp/fake-tlbsim"
printf '{"scenario": "numa-private", "policy": "always", "status": "ok", "host": {"speed": {"sweep_walk_ns_per_page": 400}}, "metrics": {}}\n' >"$tmp/rec.jsonl"
FAKE_ARGS=$tmp/args $predict run --tlbsim "$tmp/fake-tlbsim" --out "$tmp/p" --cells numa-private:always \
	--profile-from "$tmp/micro.txt" --speed-from "$tmp/rec.jsonl" --set scale=2 2>"$tmp/err" \
	|| bad "run --profile-from exited non-zero"
out=$(cat "$tmp/args" 2>/dev/null)
expect ' --set ipi_first_ns=7000 .* --set sweep_ns_per_page=160 .* --set sweep_hit_192_ns_per_page=70 --set host_slice_ns=5.84937e+06 --set sweep_ns_per_page=400 --set scale=2$' \
	"--profile-from's costs, then --speed-from's, then --set"
# The stand-in's testbed lists no wake_ns (the real one does not read it).
echo "$out" | grep -q wake_ns && bad "a cost the scenario does not read must be left out: $out" \
	|| ok "a cost the scenario does not read is left out"
out=$(cat "$tmp/err")
expect '^testbed-predict: testbed does not read wake_ns: left out$' "and the run says so"

# Boots from before sweep_walk_ns_per_page: their sweep_ns_per_page had
# one sweeper hitting, so the walk comes from the mix, less that one; a
# boot without the mix gives none.
cat >"$tmp/old.txt" <<'EOF'
@@micro reps=2000 sweep_ns_per_page=160 sweep_mixed_32_ns_per_page=500 sweep_grown_32_ns_per_page=26
EOF
out=$($predict profile "$tmp/old.txt") || bad "profile of old boots exited non-zero"
# (4 x 500 - 26) / 3
expect '^sweep_ns_per_page=658	' "an old boot's walk from its mix, less the sweeper that hit"
echo '@@micro reps=2000 sweep_ns_per_page=160' >"$tmp/old.txt"
out=$($predict profile "$tmp/old.txt")
expect '^sweep_ns_per_page=none	' "an old boot's sweep_ns_per_page alone gives no walk"

# make testbed-microbench's own output: the host line and the medians.
cat >"$tmp/medians.txt" <<'EOF'
# host: Some CPU @ 2.0GHz, 2 cores, load 1.00 0.50 0.20
reps=2000  # median of 3 boots, range 2000..2000
ipi_first_ns=6500  # median of 3 boots, range 5000..9000
sweep_walk_ns_per_page=-1  # median of 3 boots, range -1..-1
EOF
out=$($predict profile "$tmp/medians.txt") || bad "profile of medians exited non-zero"
expect '^# 1 boots of .*medians.txt, a host of 2 cores$' "the printed medians stand for one boot"
expect '^ipi_first_ns=6500	' "a median line gives its cost"
expect '^sweep_ns_per_page=none	' "a failed median (-1) gives none"

printf '# nothing measured\nipi_first_ns=5\n' >"$tmp/empty.txt"
if $predict profile "$tmp/empty.txt" >/dev/null 2>"$tmp/err"; then
	bad "a file without @@micro lines or medians must fail"
else
	out=$(cat "$tmp/err")
	expect 'has no "@@micro" line and no medians' "a file without @@micro lines or medians fails, saying why"
fi
if $predict run --tlbsim "$tmp/fake-tlbsim" --out "$tmp/p" --profile-from "$tmp/missing.txt" 2>"$tmp/err"; then
	bad "a missing microbench file must fail"
else
	out=$(cat "$tmp/err")
	expect '^testbed-predict: .*missing.txt' "a missing microbench file fails, naming it"
fi

# The profile's costs from all boots come out of those 24 boots (the file
# ends with 6 boots of slower hosts); the grown mix's two and the walk
# from the only 3 of them that measured it. wake_ns and host_slice_ns
# took 3 boots each.
tlbsim=${TLBSIM:-tools/tlbsim/tlbsim}
if [ ! -x "$tlbsim" ]; then
	bad "no tlbsim at $tlbsim (run from the build directory, or set TLBSIM)"
else
	grep '^@@micro' "${top_srcdir:-.}/docs/data/testbed-microbench.txt" | head -n 24 >"$tmp/24.txt"
	derived=$($predict profile "$tmp/24.txt")
	listed=$("$tlbsim" list testbed)
	for cost in ipi_first_ns ipi_socket_ns fault_ns migrate_copy_ns pte_update_ns tlb_miss_ns \
		sweep_ns_per_page sweep_hit_ns_per_page sweep_hit_192_ns_per_page; do
		d=$(echo "$derived" | sed -n "s/^$cost=\([^	]*\)	.*/\1/p")
		l=$(echo "$listed" | awk -v c="$cost" '$1 == c { print $3 }')
		# The profile rounds to its figures' own precision: within 0.05%.
		if [ -n "$d" ] && [ -n "$l" ] && python3 -c "import sys; d, l = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(d - l) > 5e-4 * max(abs(l), 1))" "$d" "$l"; then
			ok "the profile's $cost ($l) is its boots' derivation ($d)"
		else
			bad "the profile's $cost ($l) against its boots' derivation ($d)"
		fi
	done
fi
[ "$fails" -eq 0 ]
