#!/bin/sh
# The kernel's own tests of the code Memorizer hooks, built as modules of
# the test kernel and run here with every task traced (mode 1) and access
# logging on; the host half (tests/vm/host/peer-suites.sh) boots again and
# runs them with Memorizer off ("off" as $1), then requires both runs to
# pass and to agree case by case: Memorizer hides no bug KASAN reports
# and changes no allocator's behaviour.
#  - kasan_test (mm/kasan/kasan_test_c.c, KUnit): out-of-bounds accesses,
#    use-after-free, double and invalid frees on kmalloc, kmem_cache, page,
#    mempool and RCU-freed objects, each reported by KASAN as the case
#    expects, and no report where none is expected. Its reports are
#    deliberate: vm/run --expect-kasan counts them, between the marks,
#    and both runs must make as many.
#  - slub_kunit (lib/slub_kunit.c, KUnit): SLUB's debug checks find a
#    clobbered redzone, free pointer, first word and padding; kfree_rcu;
#    destroying a cache that still has objects.
#  - test_vmalloc (lib/test_vmalloc.c): vmalloc and vmap of fixed,
#    random and aligned sizes, a long busy list, a full fit, kvfree_rcu,
#    on two threads at once; align_shift_alloc_test is meant to fail.
#    Not its pcpu_alloc_test, 35000 per-CPU allocations a thread: the
#    slowest case by far, and of the per-CPU allocator, not vmalloc.
#  - test_meminit (lib/test_meminit.c): page, kmalloc, vmalloc and
#    kmem_cache memory comes zeroed, with init_on_alloc and init_on_free.
# Traced, each suite's own allocations must be in the kmap and counted.
# vm/run: --expect-kasan --timeout 1500 --mem 3G --file out/tests/load-module --append "memorizer_enabled_boot=no memorizer.pool_size=1G init_on_alloc=1 init_on_free=1 log_buf_len=4M"
. /vmrun/guest-lib.sh
pass=${1:-traced}
K=/sys/kernel/debug/kunit
# test_vmalloc's loops per case: each thread makes 9 * LOOPS + 47771
# vmalloc objects in the cases that cannot fail (full_fit's 2 * 16384 on
# two CPUs and long_busy_list's 15000 pages are most of them). Their
# records and counters overflow the default pool: this boot gives it 1G.
LOOPS=100

if [ "$pass" = traced ]; then
	echo 1 > $M/memorizer_log_access
	echo 1 > $M/memorizer_enabled
fi

# snap NAME: $M/stats now, for the deltas the checks below take.
snap() {
	cp $M/stats "/tmp/stats.$1"
}
# grew NAME KEY: how much KEY grew from snap NAME to now.
grew() {
	echo $(($(stat_value "$2") - $(awk -v k="$2" '$1 == k { print $2 }' "/tmp/stats.$1")))
}

# module_objects MODULE: the kmap's objects allocated by MODULE's code (its
# core, from /proc/modules while it is loaded), and of those, the ones
# with accesses: "OBJECTS ACCESSED". Read once, with tracing off (the
# caller's part): traced, the reader's own accesses to the seq_file
# buffer and to tmpfs were hooked and counted, which made each read
# several times slower and the kmap bigger.
module_objects() {
	set -- $(awk -v m="$1" '$1 == m { print $2, $6 }' /proc/modules)
	[ -n "${2:-}" ] || { echo "0 0"; return; }
	cat $M/kmap > /tmp/kmap
	# Addresses compare as 16-digit hex strings (awk's numbers are
	# doubles); the shell's arithmetic is 64-bit.
	awk -v lo="$(printf %016x $(($2)))" -v hi="$(printf %016x $(($2 + $1)))" '
		/^[0-9a-f]/ { split($0, f, ",")
			mine = f[1] >= lo && f[1] < hi && f[1] != f[3]; objs += mine; next }
		/^ / && mine { accessed++; mine = 0 }
		END { print objs + 0, accessed + 0 }' /tmp/kmap
}

# kunit_suite MODULE SUITE: load MODULE, whose KUnit suite SUITE runs as it
# loads; keep its KTAP results as /out/SUITE.ktap.
kunit_suite() {
	snap "$2"
	dmesg -c > /dev/null
	[ "$2" != kasan ] || expect_kasan_reports
	check "$1 loads" modprobe "$1"
	[ "$2" != kasan ] || expected_kasan_reports_end
	dmesg | grep -c 'BUG: KASAN:' > "/out/$2.reports"
	echo "$2: $(cat "/out/$2.reports") KASAN reports"
	check "$2: KTAP results in debugfs" cp "$K/$2/results" "/out/$2.ktap"
	if [ "$pass" = traced ]; then
		echo 0 > $M/memorizer_enabled
		check "$2: accesses recorded" [ "$(grew "$2" accesses_recorded)" -gt 0 ]
		set -- "$1" "$2" $(module_objects "$1")
		echo "$2: $3 objects allocated by $1, $4 of them accessed"
		check "$2: objects allocated by $1 are in the kmap" [ "$3" -gt 0 ]
		check "$2: and accessed" [ "$4" -gt 0 ]
		echo 1 > $M/memorizer_enabled
	fi
	check "$1 unloads" rmmod "$1"
}

kunit_suite kasan_test kasan
kunit_suite slub_kunit slub_test

# test_vmalloc runs its cases as it loads and then refuses to load
# (-EAGAIN), so that it is gone again; its verdicts are in the log.
# Records of freed objects out of the pool first: at its peak the test
# holds 2 * 32770 vmalloc areas live.
echo 1 > $M/clear_dead_objects
snap vmalloc
dmesg -c > /dev/null
/vmrun/load-module "$(find /lib/modules -name test_vmalloc.ko)" \
	"nr_threads=2 test_loop_count=$LOOPS sequential_test_order=1 run_test_mask=$((0x7ff & ~0x80))"
check "test_vmalloc refuses to stay loaded (its way to end)" [ $? -eq 1 ]
dmesg | sed -n 's/.*Summary: \([a-z0-9_]*\) passed: \([0-9]*\) failed: \([0-9]*\) .*/\1 \2 \3/p' \
	> /out/vmalloc.summary
cat /out/vmalloc.summary
check "test_vmalloc: 10 cases on each of 2 threads" [ "$(wc -l < /out/vmalloc.summary)" -eq 20 ]
check "test_vmalloc: every case passes, align_shift_alloc_test fails" awk '
	$1 == "align_shift_alloc_test" { if ($2 != 0 || $3 != 1) bad = 1; next }
	$2 != 1 || $3 != 0 { bad = 1 } END { exit bad }' /out/vmalloc.summary
if [ "$pass" = traced ]; then
	made=$(grew vmalloc vmalloc_tracked)
	echo "test_vmalloc: $made vmalloc objects tracked"
	check "test_vmalloc: at least 2 * (9 * $LOOPS + 47771) vmalloc objects tracked" \
		[ "$made" -ge $((2 * (9 * LOOPS + 47771))) ]
	check "test_vmalloc: no object dropped" [ "$(grew vmalloc objects_dropped)" -eq 0 ]
fi

# test_meminit stays loaded (it has no exit): one run a boot.
echo 1 > $M/clear_dead_objects
snap meminit
dmesg -c > /dev/null
check "test_meminit loads (all its cases pass)" modprobe test_meminit
dmesg | sed -n 's/.*test_meminit: //p' > /out/meminit.log
cat /out/meminit.log
check "test_meminit: says all passed" grep -q '^all [0-9]* tests passed!$' /out/meminit.log
if [ "$pass" = traced ]; then
	check "test_meminit: its kmalloc objects tracked" [ "$(grew meminit kmalloc_tracked)" -gt 0 ]
	check "test_meminit: its pages tracked" [ "$(grew meminit pages_tracked)" -gt 0 ]
	echo 0 > $M/memorizer_enabled
fi
finish
