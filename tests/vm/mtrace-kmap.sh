#!/bin/sh
# The emulator's kmap against Memorizer's, in one run: the mtrace plugin
# in mode kmap (vm/run --mtrace-kmap: mtrace_label.ko's labels, every
# kernel access counted on its object) while Memorizer traces this shell
# (pid mode) through the test module's workload
# (kernel/mm/memorizer/memorizer_test_module.c): 20 objects allocated in
# run_write(), 7 writes by test_store() and 5 reads by test_load() each,
# and one object per allocation API, 3 writes and 2 reads by touch().
# The guest saves Memorizer's kmap and its symbols; the host half
# (tests/vm/host/mtrace-kmap.sh) compares the two, count by count.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --mtrace-kmap "$out/kmap.bin"
. /vmrun/guest-lib.sh
modprobe memorizer_test_module || echo "modprobe failed"
T=/sys/kernel/debug/memorizer_test
check "mtrace_label.ko is loaded" [ -d /sys/module/mtrace_label ]
echo 1 > $M/clear_object_list
echo $$ > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access
echo '20 7 5' > $T/run; run=$?
echo '3 2' > $T/apis; apis=$?
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
check "the test module's run" [ $run = 0 ]
check "the test module's apis" [ $apis = 0 ]
cat $M/kmap > /out/test.kmap
check "kmap parses" kmap_valid /out/test.kmap
echo $$ > /out/pid
cat /proc/kallsyms > /out/kallsyms
finish
