#!/bin/sh
# make demo's answer is about its workload: on the demo kernel (kernel/demo.config:
# CONFIG_JUMP_LABEL=y, no lockdep, no KUnit at boot), the demo's tar in
# mode 3, then a whole-system mixed workload (hackbench, stress-ng, tar)
# in mode 1, toggling tracing and tracepoints (static branches patched in
# the kernel's text) between rounds, and at last 160 times beside
# hackbench. Their kmaps go to the host half,
# tests/vm/host/demo-workload.sh, which reads them with the demo kernel's
# DWARF: the instruments' code has less than 1% of the accesses and none
# of the 20 busiest functions.
# vm/run: --kernel out/demo-kernel/bzImage --append memorizer_enabled_boot=no --file vm/demo.sh
. /vmrun/guest-lib.sh
e=$M/memorizer_enabled
l=$M/memorizer_log_access
stat_in() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

check "the demo kernel: CONFIG_JUMP_LABEL=y, no lockdep" \
	sh -c '! grep -qw lock_acquire /proc/kallsyms && grep -qw arch_jump_label_transform /proc/kallsyms'
sh /vmrun/demo.sh
check "tar: KASAN's accesses left out and counted" [ "$(stat_in /out/stats excluded_kasan)" -gt 0 ]
check "tar: no lockdep, nothing left out for it" [ "$(stat_in /out/stats excluded_lockdep)" = 0 ]

# Tracing and tracepoints switched on and off a few times while the
# workload runs on both CPUs: the kernel's text is patched each time.
cd /tmp
mkdir -p tree && cp -r /etc /sbin tree/
echo 1 > $M/clear_dead_objects
for round in 1 2 3; do
	echo 1 > $l
	echo 1 > $e
	hackbench -g 2 -f 5 -l 10 > /dev/null & h=$!
	stress-ng --pipe 1 --pipe-ops 200 --open 1 --open-ops 200 --brk 1 \
		--brk-ops 100 --temp-path /tmp --quiet & s=$!
	tar zcf /tmp/a.tgz tree
	wait $h $s
	check "round $round: the workloads ran" [ -s /tmp/a.tgz ]
	echo 0 > $e
	echo 0 > $l
done
cat $M/kmap_offsets > /out/mixed.kmap_offsets
cat $M/stats > /out/mixed.stats
check "mixed: the kmap_offsets check" kmap_valid /out/mixed.kmap_offsets
check "mixed: accesses recorded" [ "$(stat_in /out/mixed.stats accesses_recorded)" -gt 0 ]

# Then what made a JUMP_LABEL guest die under QEMU 7.2's multi-threaded
# TCG within a few flips (vm/run runs it in one thread): Memorizer, its
# static keys and its tracepoints' probes, on and off 40 times in mode 1
# and 40 in mode 3 while hackbench runs beside the flipping shell.
hackbench -g 2 -f 5 -l 100 > /dev/null & h=$!
n=0
while [ $n -lt 40 ]; do
	echo 1 > $e && echo 0 > $e && echo 3 > $e && echo 0 > $e || break
	n=$((n + 1))
done
wait $h
hb=$?
check "160 flips of memorizer_enabled (modes 1 and 3) beside hackbench" \
	[ "$n flips, hackbench $hb, memorizer_enabled $(cat $e)" = \
	  "40 flips, hackbench 0, memorizer_enabled 0" ]
finish
