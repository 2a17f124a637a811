#!/bin/sh
# Debian's own kernel, unmodified (make stock): it boots under vm/run
# --stock, vm/init loads the virtio disk's module it carries (or /out
# would not come back), and the mtrace plugin's guest module, built
# against Debian's headers, loads into it and unloads. The host half
# (tests/vm/host/stock-boot.sh) checks the release against make stock's
# and that /out came back.
# vm/run: --stock
. /vmrun/guest-lib.sh
uname -r > /out/uname
cat /out/uname
check "a Debian kernel" grep -q Debian /proc/version
check "the output disk is there (virtio_blk loaded)" [ -b /dev/vda ]
check "mtrace_task loads" insmod /lib/modules/mtrace/mtrace_task.ko
check "mtrace_task is loaded" [ -d /sys/module/mtrace_task ]
lsmod > /out/lsmod
cat /out/lsmod
check "mtrace_task unloads" rmmod mtrace_task
finish
