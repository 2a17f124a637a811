#!/bin/sh
# The mtrace plugin on known sharing (tools/qemu-plugin/guest/
# mtrace_share_test.c): two kthreads on CPUs 0 and 1 write neighbouring
# fields of one cache line (false sharing) and increment and read one
# counter (true sharing). mtrace_task.ko marks task switches. The guest
# only runs the workload and saves its symbols; the host half
# (tests/vm/host/mtrace-sharing.sh) checks the log and what
# memorizer sharing makes of it. tests/run builds the modules
# (scripts/build-mtrace-modules.sh) and gives $out, the --out directory.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --mtrace "$out/mtrace.log" --mtrace-mode sharing --file out/mtrace/modules/obj/mtrace_task.ko --file out/mtrace/modules/obj/mtrace_share_test.ko
. /vmrun/guest-lib.sh
check "mtrace_task loads" insmod /vmrun/mtrace_task.ko
check "mtrace_share_test loads (its threads ran)" insmod /vmrun/mtrace_share_test.ko
dmesg | grep mtrace_ | tail -n 3
# The module's symbols, and the kernel's, for memorizer sharing.
cat /proc/kallsyms > /out/kallsyms
# The two threads' pids, for memorizer sharing --pid.
dmesg | sed -n 's/.*mtrace_share_test: pids \([0-9]*\) and \([0-9]*\),.*/\1 \2/p' > /out/pids
cat /out/pids
check "mtrace_task unloads" rmmod mtrace_task
check "mtrace_share_test unloads" rmmod mtrace_share_test
finish
