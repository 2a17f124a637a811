#!/bin/sh
# memorizer crosscheck on a real workload (tools/qemu-plugin/README.md,
# "The cross-check"): tar over a few files of /etc, traced by Memorizer
# (its pid mode: tar alone) into a binary stream, while the mtrace plugin
# logs every kernel access in mtrace_task.ko's window. Mode all logs
# every access under Memorizer too: tar over the whole of /etc, exec
# included, made a log of tens of GB. So tar (busybox's: no -T) extracts an
# archive of them from a FIFO: started before the window, it waits on the
# FIFO; the window holds its work on the files and its exit (and cat's,
# which feeds the FIFO, untraced by Memorizer and not counted).
#
#   vm/run --append "memorizer_enabled_boot=no kunit.enable=0" \
#       --mtrace out/xtar/mtrace.log --mtrace-mode all --mtrace-window task \
#       --file out/mtrace/modules/obj/mtrace_task.ko --out out/xtar \
#       vm/crosscheck-tar.sh
#   memorizer crosscheck --system-map out/xtar/kallsyms out/xtar/mtrace.log out/xtar/s.bin
set -e
m=/sys/kernel/debug/memorizer
W=/sys/module/mtrace_task/parameters/window
cd /tmp
mkdir -p sample
for f in passwd group hostname hosts inittab profile; do
	[ -f /etc/$f ] && cp /etc/$f sample/
done
ls -l sample
insmod /vmrun/mtrace_task.ko window=0
memorizer stream --binary -o /tmp/s.bin 2> /tmp/stream.err & c=$!
tar cf /tmp/sample.tar sample
mkfifo /tmp/fifo
mkdir -p /tmp/x
tar xf /tmp/fifo -C /tmp/x & t=$!
sleep 2
echo 1 > $m/clear_object_list
echo $t > $m/memorizer_enabled
echo 1 > $m/memorizer_log_access
echo 1 > $W
cat /tmp/sample.tar > /tmp/fifo
wait $t
echo 0 > $W
echo 0 > $m/memorizer_log_access
echo 0 > $m/memorizer_enabled
ls -l /tmp/x/sample
rmmod mtrace_task
sleep 2
kill -INT $c
wait $c || true
cat /tmp/stream.err
mv /tmp/s.bin /out/
cat /proc/kallsyms > /out/kallsyms
