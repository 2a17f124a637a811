#!/bin/sh
# The mtrace plugin's mode kmap under a filter policy: select.so keeping
# the accesses of the kernel image's code, ip=[_stext, _etext) from
# System.map, while the test module's run_write() makes 140 writes and
# 100 reads from module code, which it drops. The host half
# (tests/vm/host/mtrace-kmap-filter.sh) checks that every access counted
# is by an instruction in the range, and that the summary counts the
# dropped ones apart, at least the module's 240.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --mtrace-kmap "$out/kmap.bin" --mtrace-filter out/lib/mtrace-filters/select.so --mtrace-filter-arg "ip=0x$(awk '$3 == "_stext" { print $1 }' out/System.map)-0x$(awk '$3 == "_etext" { print $1 }' out/System.map)"
. /vmrun/guest-lib.sh
check "mtrace_label.ko is loaded" [ -d /sys/module/mtrace_label ]
check "the test module loads" modprobe memorizer_test_module
echo '20 7 5' > /sys/kernel/debug/memorizer_test/run; run=$?
check "the test module's run" [ $run = 0 ]
cat /proc/kallsyms > /out/kallsyms
finish
