#!/bin/sh
# A kmap of Debian's own kernel, unmodified, counted in the emulator:
# vm/run --stock --mtrace-kmap loads mtrace_task.ko and mtrace_label.ko
# (built against Debian's headers by make stock) before this script, and
# the plugin counts every kernel access on its object while it reads
# files, lists directories and archives /etc. The host half
# (tests/vm/host/stock-kmap.sh) looks in the kmap for what those do.
# vm/run: --stock --mtrace-kmap "$out/kmap.bin"
. /vmrun/guest-lib.sh
check "a Debian kernel" grep -q Debian /proc/version
check "mtrace_label.ko is loaded" [ -d /sys/module/mtrace_label ]
for i in 1 2 3; do
	cat /etc/passwd /etc/group > /dev/null
done
ls -lR /sbin > /dev/null
check "tar archives /etc" tar cf /tmp/etc.tar /etc
finish
