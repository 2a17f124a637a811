#!/bin/sh
# The cross-check: Memorizer against the emulator, in one run. The mtrace
# plugin logs every kernel access (mode all) while Memorizer traces the
# test module's workload (kernel/mm/memorizer/memorizer_test_module.c:
# objects with known writes and reads from known instructions). What is
# compared is the plugin's window (--mtrace-window task), opened and closed
# by writes to mtrace_task.ko's window parameter inside Memorizer's
# counting (memorizer crosscheck's rule, tools/qemu-plugin/README.md):
# the two differ by the ends of those writes only. Mode all logs some
# 150 MB a second of guest time, and more under Memorizer (its own code's
# accesses): Memorizer traces the test's shell alone (its pid mode), and
# the window holds no fork (the shell's echo is a builtin). The guest's
# clock counts instructions (--icount): on the host's, the emulator's
# slowness under mode all looked like lockups to the guest. The guest only
# runs the workload and saves the kmap and its symbols; the host half
# (tests/vm/host/mtrace-crosscheck.sh) compares.
# vm/run: --icount --append "memorizer_enabled_boot=no kunit.enable=0" --mtrace "$out/mtrace.log" --mtrace-mode all --mtrace-window task --file out/mtrace/modules/obj/mtrace_task.ko
. /vmrun/guest-lib.sh
mount -t debugfs nodev /sys/kernel/debug 2> /dev/null
modprobe memorizer_test_module || echo "modprobe failed"
T=/sys/kernel/debug/memorizer_test
# Memorizer's counts must all be the window's: no KUnit at boot (its
# suites enable Memorizer, and the globals and stacks they find live on
# with their counts), no record of before.
echo 1 > $M/clear_object_list
check "mtrace_task loads, its window closed" insmod /vmrun/mtrace_task.ko window=0
W=/sys/module/mtrace_task/parameters/window
# Warm-up: what is done once, on first use, is done before the counting
# (lockdep registers a lock class on its first use, comparing its name
# with every class's: thousands of accesses at the windows' edges).
echo 0 > $W
echo 0 > $M/memorizer_log_access
echo '1 1 1' > $T/run
echo '1 1' > $T/apis
# Memorizer traces this shell only (its pid mode), and counts from here.
echo $$ > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access
# The plugin's window opens, inside Memorizer's counting.
echo 1 > $W
# 20 objects of 1999 bytes, 7 writes and 5 reads each, from test_store()
# and test_load() (run_write() allocates them); then every allocation API
# once, 3 writes and 2 reads each (touch()). The shell's builtin echo:
# no fork in the window.
echo '20 7 5' > $T/run; run=$?
echo '3 2' > $T/apis; apis=$?
echo 0 > $W
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
check "mtrace_task unloads" rmmod mtrace_task
check "the test module's run" [ $run = 0 ]
check "the test module's apis" [ $apis = 0 ]
cat $M/kmap > /out/test.kmap
check "kmap parses" kmap_valid /out/test.kmap
cat /proc/kallsyms > /out/kallsyms
finish
