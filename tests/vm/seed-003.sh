#!/bin/sh
# Seed 003's process-specific non-streaming experiment, verbatim but for
# the copy (to /out rather than over ssh): only the marked shell and its
# children appear, and the kmap parses.
. /vmrun/guest-lib.sh
cd /tmp
echo 0 > /sys/kernel/debug/memorizer/memorizer_enabled
echo 1 > /sys/kernel/debug/clear_dead_objects
echo 1 > /sys/kernel/debug/memorizer/memorizer_log_access

# The experiment, in a shell of its own so that its pids are known.
sh -c 'echo $$ > /tmp/experiment.pid
echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled
tar zcf /tmp/etc.tar.gz /etc &
echo $! >> /tmp/experiment.pid
wait
echo 0 > /sys/kernel/debug/memorizer/memorizer_enabled
cat > /out/kmap < /sys/kernel/debug/memorizer/kmap'
echo 0 > /sys/kernel/debug/memorizer/memorizer_log_access

check "kmap parses" kmap_valid /out/kmap
# Once mode 3 was on, every object is the experiment shell's or its
# children's (tar, its compressor child, cat): no other process, no IRQ.
check "only the experiment's tree after it started" \
	only_after /out/kmap /tmp/experiment.pid "tar exe gzip"
finish
