#!/bin/sh
# Allocation failures, injected with the kernel's fault injection
# (Documentation/fault-injection/) and aimed at the test module's code by
# the stack-trace filter (require-start/require-end), so that nothing else
# in the guest fails:
#  - failslab and fail_page_alloc, at the workload: an allocation that
#    fails makes no record; the objects that were made have their exact
#    counts; Memorizer drops nothing.
#  - fail_memorizer_pool (memorizer/fail_pool), at Memorizer's own memory:
#    a record or a counter the pool refuses is counted as dropped, one for
#    one, and what was recorded stays exact.
# Each case traces one shell (mode 3) that writes to the module's files,
# with `times` bounding the failures, so that the counts are known.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
cp /bin/busybox /tmp/busybox-trig
D=/sys/kernel/debug
T=$D/memorizer_test
modprobe memorizer_test_module || { echo "no test module"; exit 1; }
mod=memorizer_test_module
# The module's text symbols, by address (16 hex digits: they compare as
# strings); the filter's range is from the first to 64 KiB past the last.
grep "\[$mod\]\$" /proc/kallsyms | awk '$2 ~ /^[tT]$/ { print $1, $3 }' | sort > /tmp/syms
start=$(head -n 1 /tmp/syms | cut -d' ' -f1)
last=$(tail -n 1 /tmp/syms | cut -d' ' -f1)
[ -n "$start" ] || { echo "no text symbols of $mod in /proc/kallsyms"; exit 1; }
end=${last%????}ffff
# The awk function fn(ip): the module function ip is in, or "".
FN='FILENAME == "/tmp/syms" { split($0, s, " "); nsym++; at[nsym] = s[1]; nm[nsym] = s[2]; next }
function fn(ip,   i) { for (i = nsym; i >= 1; i--) if (ip >= at[i]) return nm[i]; return "" }'

# aim DIR PROBABILITY TIMES [START END]: fail allocations made under the
# module's code (or under the code from START to END), silently. disarm
# DIR: no more.
aim() {
	echo 0 > "$1/probability"
	echo 1 > "$1/interval"
	echo 0 > "$1/verbose"
	echo N > "$1/task-filter"
	echo 32 > "$1/stacktrace-depth"
	echo "0x${4:-$start}" > "$1/require-start"
	echo "0x${5:-$end}" > "$1/require-end"
	echo 0 > "$1/space"
	echo "$3" > "$1/times"
	echo "$2" > "$1/probability"
}
disarm() { echo 0 > "$1/probability"; }
for d in $D/failslab $D/fail_page_alloc; do
	echo N > $d/ignore-gfp-wait
done
echo N > $D/fail_page_alloc/ignore-gfp-highmem
echo 0 > $D/fail_page_alloc/min-order
echo N > $D/failslab/cache-filter

# traced NAME COMMAND [LOG]: run COMMAND in a shell traced alone (mode
# 3), counting accesses unless LOG is 0, its
# kmap to /out/NAME.kmap, its pid to /tmp/NAME.pid; the stats before and
# after to /tmp/NAME.stats0 and .stats1. COMMAND's status is not checked:
# the module's writes fail when an allocation does.
traced() {
	echo 1 > $M/clear_object_list
	cp $M/stats /tmp/$1.stats0
	echo "${3:-1}" > $M/memorizer_log_access
	/tmp/busybox-trig sh -c "echo \$\$ > /tmp/$1.pid
		echo 3 > $M/memorizer_enabled
		$2
		echo 0 > $M/memorizer_enabled"
	echo 0 > $M/memorizer_log_access
	cp $M/stats /tmp/$1.stats1
	cat $M/kmap > /out/$1.kmap
	kmap_valid /out/$1.kmap
}
# delta NAME KEY: how much the stat KEY grew during NAME.
delta() {
	echo $(( $(awk -v k="$2" '$1 == k { print $2 }' /tmp/$1.stats1) -
		 $(awk -v k="$2" '$1 == k { print $2 }' /tmp/$1.stats0) ))
}
# logged TEXT: the module said TEXT (last line of its kind), after MARK.
logged() { dmesg | sed -n "/fault-inject mark $mark/,\$p" | grep -F "$mod: $1" > /dev/null; }
mark=0
marker() { mark=$((mark + 1)); echo "fault-inject mark $mark" > /dev/kmsg; }

# run_objects NAME: the run file's objects of NAME's shell (size 1999,
# allocated, not found), one line each: test_store's stores and
# test_load's loads.
run_objects() {
	awk -F, -v pid="$(cat /tmp/$1.pid)" "$FN"'
	function flush() { if (cur) print w + 0, r + 0; cur = 0; w = r = 0 }
	/^[0-9a-f]/ { flush(); if ($2 == pid && $4 == 1999 && $1 != $3) cur = 1; next }
	cur {
		split(substr($0, 3), a, ",")
		if (fn(a[1]) == "test_store") w += a[3]
		else if (fn(a[1]) == "test_load") r += a[4]
	}
	END { flush() }' /tmp/syms /out/$1.kmap
}
# want_objects NAME N W R: exactly N such objects, each with W and R.
want_objects() {
	run_objects "$1" > /tmp/$1.objs || return 1
	n=$(wc -l < /tmp/$1.objs)
	[ "$n" = "$2" ] || { echo "$1: $n objects of the run file, want $2"; return 1; }
	bad=$(grep -cvx "$3 $4" /tmp/$1.objs)
	[ "$bad" = 0 ] || { echo "$1: $bad objects without $3 stores and $4 loads:"; sort /tmp/$1.objs | uniq -c; return 1; }
}

# 1. failslab: the first 5 of 20 kmem_cache_alloc() calls fail.
marker
aim $D/failslab 100 5
traced slab "echo '20 3 2' > $T/run"
disarm $D/failslab
check "failslab: the module saw 5 of 20 allocations fail" logged "5 of 20 allocations failed"
check "failslab: 15 objects, each with exact counts" want_objects slab 15 3 2
check "failslab: Memorizer dropped no object" [ "$(delta slab objects_dropped)" = 0 ]
check "failslab: Memorizer dropped no access" [ "$(delta slab accesses_dropped)" = 0 ]

# 2. fail_page_alloc: every page allocation under the module fails; each
# API that allocates pages (the page APIs, large kmalloc, vmalloc) says
# so and leaves no object; the others' objects are exact.
marker
aim $D/fail_page_alloc 100 -1
traced pages "echo '3 2' > $T/apis"
disarm $D/fail_page_alloc
dmesg | sed -n "/fault-inject mark $mark/,\$p" | sed -n "s/.*$mod: apis: \(api_[a-z_0-9]*\).* failed$/\1/p" |
	sort -u > /out/pages.failed
cat /out/pages.failed
page_apis="api_alloc_pages api_alloc_page api_alloc_pages_node api___alloc_pages
api___alloc_pages_node api___get_free_pages api___get_free_page
api_get_zeroed_page api_folio_alloc api___folio_alloc api___folio_alloc_node
api_kmalloc_large api_vmalloc api_vzalloc api_vmalloc_node"
missing=
for a in $page_apis; do grep -qx "$a" /out/pages.failed || missing="$missing $a"; done
check "fail_page_alloc: every API that takes pages failed" [ -z "$missing" ]
[ -z "$missing" ] || echo "did not fail:$missing"
# Each API's objects (by the module function that allocated them): none
# from an API that failed, exactly its count from every other.
cat > /tmp/apis <<'EOF'
api_kmalloc 1
api_kzalloc 1
api_kcalloc 1
api_kmalloc_array 1
api_kmalloc_node 1
api_kmemdup 1
api_krealloc 1
api_kmalloc_large 1
api_kmem_cache_alloc 1
api_kmem_cache_zalloc 1
api_kmem_cache_alloc_node 1
api_kmem_cache_alloc_bulk 3
api_vmalloc 1
api_vzalloc 1
api_vmalloc_node 1
api_alloc_pages 1
api_alloc_page 1
api_alloc_pages_node 1
api___alloc_pages 1
api___alloc_pages_node 1
api___get_free_pages 1
api___get_free_page 1
api_get_zeroed_page 1
api_folio_alloc 1
api___folio_alloc 1
api___folio_alloc_node 1
EOF
api_objects() {
	awk -F, -v pid="$(cat /tmp/pages.pid)" "$FN"'
	FILENAME == "/tmp/apis" { want[$0] = 1; next }
	FILENAME == "/out/pages.failed" { failed[$1] = 1; next }
	/^[0-9a-f]/ && $2 == pid && $1 != $3 && fn($1) ~ /^api_/ { got[fn($1)]++ }
	END {
		for (w in want) {
			split(w, x, " ")
			n = (x[1] in failed) ? 0 : x[2]
			if (got[x[1]] + 0 != n) {
				printf "%s: %d objects, want %d\n", x[1], got[x[1]], n
				err = 1
			}
		}
		exit err
	}' /tmp/syms /tmp/apis /out/pages.failed /out/pages.kmap
}
check "fail_page_alloc: each API's objects, none from those that failed" api_objects
check "fail_page_alloc: Memorizer dropped no object" [ "$(delta pages objects_dropped)" = 0 ]

# 3. The pool refuses 5 records: 5 objects dropped, counted, 15 made.
# Accesses not counted: the counters of the allocator's own accesses
# under the module's code would take failures first.
marker
aim $M/fail_pool 100 5
traced pool_obj "echo '20 0 0' > $T/run" 0
disarm $M/fail_pool
check "fail_pool: 5 objects dropped, counted" [ "$(delta pool_obj objects_dropped)" = 5 ]
check "fail_pool: 15 objects recorded" want_objects pool_obj 15 0 0

# 4. The pool refuses the counters made under test_store() twice: its
# first two stores are dropped and counted, the third makes its counter;
# test_load()'s are whole.
marker
store_at=$(awk '$2 == "test_store" { s = $1; getline; print s, $1; exit }' /tmp/syms)
aim $M/fail_pool 100 2 $store_at
traced pool_ctr "echo '1 3 2' > $T/run"
disarm $M/fail_pool
check "fail_pool: 2 accesses dropped, counted" [ "$(delta pool_ctr accesses_dropped)" = 2 ]
check "fail_pool: the object with 1 store and 2 loads" want_objects pool_ctr 1 1 2
check "fail_pool: no object dropped" [ "$(delta pool_ctr objects_dropped)" = 0 ]

rmmod $mod
finish
