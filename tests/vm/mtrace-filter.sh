#!/bin/sh
# The mtrace plugin's filter policies (tools/qemu-plugin/mtrace-filter.h):
# the example select.so keeping only the accesses of the kernel image's
# code, ip=[_stext, _etext) from System.map, in mode all while
# mtrace_task.ko is loaded. Meanwhile the sharing test's module runs its
# two threads, whose loops are module code: all dropped. The host half
# (tests/vm/host/mtrace-filter.sh) checks that every record kept is in the
# range, and that the summary counts at least the threads' writes dropped.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --mtrace "$out/mtrace.log" --mtrace-mode all --mtrace-window task --mtrace-filter out/lib/mtrace-filters/select.so --mtrace-filter-arg "ip=0x$(awk '$3 == "_stext" { print $1 }' out/System.map)-0x$(awk '$3 == "_etext" { print $1 }' out/System.map)" --file out/mtrace/modules/obj/mtrace_task.ko --file out/mtrace/modules/obj/mtrace_share_test.ko
. /vmrun/guest-lib.sh
check "mtrace_task loads" insmod /vmrun/mtrace_task.ko
check "mtrace_share_test loads (its threads ran)" insmod /vmrun/mtrace_share_test.ko msecs=300
check "mtrace_task unloads" rmmod mtrace_task
check "mtrace_share_test unloads" rmmod mtrace_share_test
cat /proc/kallsyms > /out/kallsyms
# The threads' writes: "A and B writes".
dmesg | sed -n 's/.*mtrace_share_test: pids [0-9]* and [0-9]*, \([0-9]*\) and \([0-9]*\) writes.*/\1 \2/p' > /out/writes
cat /out/writes
finish
