#!/bin/sh
# memorizer crosscheck on a real workload (tools/qemu-plugin/README.md,
# "The cross-check"): tar over a copy of /etc, traced by Memorizer (mode
# 3: the shell that runs tar, and tar) into a binary stream, while the
# mtrace plugin logs every kernel access in mtrace_task.ko's window,
# opened after Memorizer starts counting and closed before it stops.
#
#   vm/run --append "memorizer_enabled_boot=no kunit.enable=0" \
#       --mtrace out/xtar/mtrace.log --mtrace-mode all --mtrace-window task \
#       --file out/mtrace/modules/obj/mtrace_task.ko --out out/xtar \
#       vm/crosscheck-tar.sh
#   memorizer crosscheck --system-map out/xtar/kallsyms out/xtar/mtrace.log out/xtar/s.bin
set -e
m=/sys/kernel/debug/memorizer
cd /tmp
mkdir -p sample
cp -r /etc sample/
insmod /vmrun/mtrace_task.ko window=0
memorizer stream --binary -o /tmp/s.bin 2> /tmp/stream.err & c=$!
sleep 1
echo 1 > $m/clear_object_list
echo 1 > $m/memorizer_log_access
# The shell that runs tar: marked (mode 3), then the window opens, tar
# runs, the window closes, all by builtins.
sh -c 'echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled
	echo 1 > /sys/module/mtrace_task/parameters/window
	tar cf /tmp/sample.tar sample
	echo 0 > /sys/module/mtrace_task/parameters/window'
echo 0 > $m/memorizer_enabled
echo 0 > $m/memorizer_log_access
rmmod mtrace_task
sleep 2
kill -INT $c
wait $c
cat /tmp/stream.err
mv /tmp/s.bin /out/
cat /proc/kallsyms > /out/kallsyms
