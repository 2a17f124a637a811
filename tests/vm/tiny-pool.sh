#!/bin/sh
# With a pool far too small, the system keeps running through a workload,
# stats counts the drops, and kmap stays well-formed.
# Access logging is on from boot (mem_log_boot=yes) but tracking starts
# after it: counting every access of the boot itself takes minutes here.
# vm/run: --append "memorizer.pool_size=256K memorizer_enabled_boot=no mem_log_boot=yes"
. /vmrun/guest-lib.sh
cd /tmp
check "the bound is the boot parameter" [ "$(stat_value memory_bound_bytes)" = 262144 ]
check "access logging on from boot (mem_log_boot=yes)" [ "$(cat $M/memorizer_log_access)" = 1 ]
check "tracking off from boot (memorizer_enabled_boot=no)" [ "$(cat $M/memorizer_enabled)" = 0 ]
echo 1 > $M/memorizer_enabled
check "workload runs to the end" sh -c 'tar zcf /tmp/a.tgz /etc /bin && tar ztf /tmp/a.tgz > /dev/null'
cat $M/show_stats
check "objects dropped" [ "$(stat_value objects_dropped)" -gt 0 ]
check "memory used within the bound" [ "$(stat_value memory_used_bytes)" -le 262144 ]
cat $M/kmap > /out/kmap
check "kmap parses" kmap_valid /out/kmap
# Memory cleared goes to whoever allocates next: with nothing else traced,
# the next marked process gets it.
echo 0 > $M/memorizer_enabled
echo 0 > $M/memorizer_log_access
echo 1 > $M/clear_dead_objects
before=$(($(stat_value kmalloc_tracked) + $(stat_value kmem_cache_tracked)))
sh -c 'echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled
	cat /etc/passwd > /dev/null
	echo 0 > /sys/kernel/debug/memorizer/memorizer_enabled'
after=$(($(stat_value kmalloc_tracked) + $(stat_value kmem_cache_tracked)))
check "after clearing, new objects are tracked again" [ "$after" -gt "$before" ]
finish
