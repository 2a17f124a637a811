#!/bin/sh
# The control files: root-only modes, every accepted value reads back,
# bad input gets EINVAL and changes nothing, the unprivileged can do
# nothing, the seeds' names exist at the debugfs root, and
# /proc/<pid>/memorizer_enabled follows ptrace's rule. Booted with two
# kinds of object only: no allocation gets a record until all are back;
# and with lockdep's accesses counted.
# vm/run: --append "memorizer.kinds=global,stack memorizer.count_instruments=lockdep"
. /vmrun/guest-lib.sh
f=$M/memorizer_enabled
l=$M/memorizer_log_access

is() { [ "$(cat "$1")" = "$2" ]; }
accepts() { printf '%s' "$2" > "$1" && is "$1" "$3"; }
rejects() {	# FILE VALUE: the write fails with EINVAL, the value stays
	before=$(cat "$1" 2>/dev/null)
	err=$(echo -n "$2" 2>&1 > "$1") && return 1
	echo "$err" | grep -q 'Invalid argument' || return 1
	[ "$(cat "$1" 2>/dev/null)" = "$before" ]
}
as_nobody_denied() {	# COMMAND fails as user nobody with EACCES or EPERM
	err=$(su -s /bin/sh nobody -c "$1" 2>&1) && return 1
	echo "$err" | grep -qE 'Permission denied|Operation not permitted'
}
mode_is() { [ "$(stat -c '%a %u %g' "$1")" = "$2 0 0" ]; }

check "memorizer_enabled 0600" mode_is $f 600
check "memorizer_log_access 0600" mode_is $l 600
check "clear_object_list 0200" mode_is $M/clear_object_list 200
check "clear_dead_objects 0200" mode_is $M/clear_dead_objects 200
check "kmap 0400" mode_is $M/kmap 400
check "show_stats 0400" mode_is $M/show_stats 400
check "stats 0400" mode_is $M/stats 400
check "kinds 0600" mode_is $M/kinds 600
check "count_instruments 0600" mode_is $M/count_instruments 600
for n in memorizer_enabled memorizer_log_access clear_object_list clear_dead_objects; do
	check "/sys/kernel/debug/$n -> memorizer/$n" \
		[ "$(readlink /sys/kernel/debug/$n)" = "memorizer/$n" ]
done

# stats: the figures of show_stats as "key value" lines, like /proc/vmstat:
# exactly these keys, in this order, each with a decimal value, one space
# between, every line ended by a newline.
stats_keys="kmalloc_tracked kmalloc_live kmalloc_freed kmalloc_cleared
kmalloc_accesses kmem_cache_tracked kmem_cache_live kmem_cache_freed
kmem_cache_cleared kmem_cache_accesses kmalloc_large_tracked
kmalloc_large_live kmalloc_large_freed kmalloc_large_cleared
kmalloc_large_accesses vmalloc_tracked vmalloc_live vmalloc_freed
vmalloc_cleared vmalloc_accesses pages_tracked pages_live pages_freed
pages_cleared pages_accesses global_tracked global_live global_freed
global_cleared global_accesses percpu_tracked percpu_live percpu_freed
percpu_cleared percpu_accesses stack_tracked stack_live stack_freed
stack_cleared stack_accesses accesses_recorded accesses_untracked
accesses_slow_path objects_dropped accesses_dropped frees_missed records_in_memory
counters_in_memory memory_used_bytes memory_bound_bytes
binary_records_made binary_records_lost binary_records_unread
calls_recorded calls_dropped call_edges_in_memory
frame_accesses_recorded frame_accesses_dropped frame_accesses_unframed
frame_cells_in_memory shadow_stacks_in_memory
untracked_slab untracked_stack untracked_percpu untracked_kernel_data
untracked_kernel_text untracked_module untracked_page untracked_vmalloc untracked_other
excluded_kasan excluded_lockdep excluded_memorizer record_bytes
counter_bytes page_key_bytes call_edge_bytes frame_cell_bytes
shadow_stack_bytes"
stats_format() {	# FILE: a copy of stats
	awk -v keys="$stats_keys" '
	BEGIN { n = split(keys, k, " ") }
	function bad(msg) { printf "stats:%d: %s: %s\n", NR, msg, $0; err = 1; exit 1 }
	NR > n { bad("a line beyond the " n " keys") }
	$0 !~ /^[a-z_]+ (0|[1-9][0-9]*)$/ { bad("not \"key decimal-value\"") }
	$1 != k[NR] { bad("key " k[NR] " expected") }
	END { if (!err && NR != n) { printf "stats: %d lines, %d keys expected\n", NR, n; exit 1 } }
	' "$1" || return 1
	set -- "$1" $stats_keys
	[ "$(wc -l < "$1")" -eq $(($# - 1)) ] || { echo "stats: a line without its newline"; return 1; }
}
cat $M/stats > /tmp/stats
check "stats: its keys in order, each with a decimal value" stats_format /tmp/stats
check "stats: accesses_recorded and _untracked are the sums per kind and class" stats_sums_agree /tmp/stats
check "tracking on from boot (memorizer_enabled_boot=yes)" is $f 1
check "access logging off from boot (mem_log_boot=no)" is $l 0

for v in 2 3 0 1; do
	check "enabled accepts $v" accepts $f "$v" "$v"
	check "enabled accepts $v with newline" accepts $f "$v
" "$v"
done
sleep 1000 &
pid=$!
check "enabled accepts live pid $pid" accepts $f "$pid" "$pid"
echo 3 > $f
for bad in abc -1 +1 1x "1 2" " 1" 0x3 "3

" 99999999999 4194304; do
	check "enabled rejects '$bad'" rejects $f "$bad"
done
kill $pid; wait $pid 2>/dev/null
check "enabled rejects exited pid $pid" rejects $f "$pid"
check "enabled kept after rejects" is $f 3

for v in 1:1 0:0 yes:1 no:0 on:1 off:0 true:1 false:0 Y:1 N:0; do
	check "log_access accepts ${v%:*}" accepts $l "${v%:*}" "${v#*:}"
done
echo 1 > $l
for bad in 2 -1 maybe ye onn "1 " "
" x; do
	check "log_access rejects '$bad'" rejects $l "$bad"
done
check "log_access kept after rejects" is $l 1
echo 0 > $l

# kinds: the kinds of object that get records.
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $M/stats; }
all_kinds="kmalloc kmem_cache kmalloc_large vmalloc pages global percpu stack"
check "kinds from boot (memorizer.kinds=global,stack)" is $M/kinds "global stack"
check "the boot parameter reads the same" \
	is /sys/module/memorizer/parameters/kinds "global stack"
for k in kmalloc kmem_cache kmalloc_large vmalloc pages; do
	check "no $k record made while it is left out" [ "$(stat_of ${k}_tracked)" = 0 ]
done
for v in "all:$all_kinds" "kmalloc,stack:kmalloc stack" \
	"stack kmalloc:kmalloc stack" "pages
:pages" "global, percpu:global percpu" "$all_kinds:$all_kinds"; do
	check "kinds accepts '${v%%:*}'" accepts $M/kinds "${v%%:*}" "${v#*:}"
done
echo global > $M/kinds
long=$(printf 'stack %.0s' $(seq 30))
for bad in none kmallocx "global bogus" KMALLOC , "global;stack" "$long"; do
	check "kinds rejects '$(echo "$bad" | cut -c1-20)'" rejects $M/kinds "$bad"
done
check "kinds kept after rejects" is $M/kinds global
before=$(stat_of kmalloc_tracked)
echo 1 > $f
ls -R /usr > /dev/null
check "no kmalloc record while kinds is global" [ "$(stat_of kmalloc_tracked)" = "$before" ]
echo all > $M/kinds
ls -R /usr > /dev/null
check "kmalloc records again once all kinds are back" [ "$(stat_of kmalloc_tracked)" -gt "$before" ]

# count_instruments: the instruments whose accesses are counted.
check "count_instruments from boot (memorizer.count_instruments=lockdep)" \
	is $M/count_instruments lockdep
check "the boot parameter reads the same" \
	is /sys/module/memorizer/parameters/count_instruments lockdep
for v in "none:none" "all:kasan lockdep" "lockdep,kasan:kasan lockdep" \
	"kasan
:kasan" "kasan kasan:kasan" "none
:none"; do
	check "count_instruments accepts '${v%%:*}'" accepts $M/count_instruments "${v%%:*}" "${v#*:}"
done
echo kasan > $M/count_instruments
for bad in memorizer "none kasan" "kasan none" KASAN lock , "kasan;lockdep" "$long"; do
	check "count_instruments rejects '$(echo "$bad" | cut -c1-20)'" rejects $M/count_instruments "$bad"
done
check "count_instruments kept after rejects" is $M/count_instruments kasan
echo none > $M/count_instruments

for c in clear_object_list clear_dead_objects; do
	check "$c accepts 1" sh -c "echo 1 > $M/$c"
	for bad in 0 2 yes 11 x; do
		check "$c rejects '$bad'" sh -c "err=\$(echo -n $bad 2>&1 > $M/$c) && exit 1; echo \"\$err\" | grep -q 'Invalid argument'"
	done
done

# /proc/<pid>/memorizer_enabled
echo 0 > $f
sleep 1000 &
pid=$!
p=/proc/$pid/memorizer_enabled
check "/proc: unmarked reads 0" is $p 0
check "/proc: accepts 1" accepts $p 1 1
check "/proc: accepts 0" accepts $p 0 0
for bad in 2 x 10 "1 "; do
	check "/proc: rejects '$bad'" rejects $p "$bad"
done
check "/proc: nobody cannot mark root's process" as_nobody_denied "echo 1 > $p"
check "/proc: still unmarked" is $p 0
check "/proc: nobody can mark its own process" \
	su -s /bin/sh nobody -c 'echo 1 > /proc/self/memorizer_enabled && grep -qx 1 /proc/$$/memorizer_enabled'
kill $pid

# The unprivileged see nothing and change nothing.
echo 3 > $f
for file in memorizer_enabled memorizer_log_access kinds count_instruments kmap show_stats stats; do
	check "nobody cannot read $file" as_nobody_denied "cat $M/$file"
done
for file in memorizer_enabled memorizer_log_access kinds count_instruments clear_object_list clear_dead_objects; do
	check "nobody cannot write $file" as_nobody_denied "echo 0 > $M/$file"
	[ -e /sys/kernel/debug/$file ] || continue
	check "nobody cannot write /sys/kernel/debug/$file" \
		as_nobody_denied "echo 0 > /sys/kernel/debug/$file"
done
check "enabled kept after nobody" is $f 3
echo 0 > $f
finish
