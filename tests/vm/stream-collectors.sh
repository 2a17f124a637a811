#!/bin/sh
# Collectors one after another on 1 MiB binary buffers, the first held up
# (SIGSTOP) until its buffers overflow and stopped while the system is
# still busy: every read gives whole records, each collector's stream
# checks, it holds exactly the records made less those lost or left
# unread (its LOST records tell no more than the kernel counted), and a
# collector that keeps up has every test-module object of its time exactly
# once, with exact counts.
# vm/run: --append "memorizer_enabled_boot=no memorizer.stream_buf_size=1M kunit.enable=0" --file out/tests/stream-probe
. /vmrun/guest-lib.sh
cd /tmp
probe=/vmrun/stream-probe
modprobe memorizer_test_module || echo "modprobe failed"
cp /bin/busybox /tmp/busybox-trig
lost_in() { sed -n 's/.*lost records: \([0-9]*\).*/\1/p' "$1"; }
echo 1 > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access

# 1. Held up while tar runs, then stopped in the middle of another tar.
memorizer stream --binary -o /tmp/a.bin 2> /tmp/a.err & c=$!
sleep 1
kill -STOP $c
tar zcf /tmp/a.tgz /etc /bin
kill -CONT $c
tar zcf /tmp/b.tgz /etc /bin & t=$!
sleep 2
kill -INT $c
wait $c; rc=$?
wait $t
cat /tmp/a.err
check "collector 1 stops cleanly" [ $rc = 0 ]
check "collector 1's stream checks" sh -c 'memorizer check /tmp/a.bin > /tmp/a.check 2>&1'
cat /tmp/a.check
out=$(records_out /tmp/a.check)
made=$(stat_value binary_records_made)
lost=$(stat_value binary_records_lost)
unread=$(stat_value binary_records_unread)
echo "stream 1: $out records out, $(lost_in /tmp/a.err) told lost; kernel: $made made, $lost lost, $unread left unread"
check "collector 1 was told of lost records" [ "$(lost_in /tmp/a.err)" -gt 0 ]
# Records dropped after its last read cannot be told in its stream: the
# kernel's count is the whole, and the stream's a part of it.
check "its LOST records are the kernel's, or fewer" [ "$(lost_in /tmp/a.err)" -le "$lost" ]
check "records out = made - lost - left unread" [ "$out" = $((made - lost - unread)) ]

# 2. Plain reads of a busy channel: whole records in every read, however
# small the buffer; a buffer smaller than a record is refused.
(while [ ! -e /tmp/stop ]; do tar zcf /tmp/c.tgz /etc; done 2> /dev/null) &
load=$!
check "100-byte reads give whole records" $probe records $M/binary/cpu0 100 300
check "4096-byte reads give whole records" $probe records $M/binary/cpu1 4096 100
check "an 8-byte read is refused (EINVAL)" $probe einval $M/binary/cpu0 8
touch /tmp/stop
wait $load
t2=$(cat $M/total_overruns)

# 3. A collector that keeps up, after the others. Its session starts
# afresh: nothing left over or owed from before, TASK and CACHE records
# for everything it needs.
memorizer stream --binary -o /tmp/d.bin 2> /tmp/d.err & c=$!
renice -n -20 -p $c > /dev/null
sleep 1
for i in 1 2 3; do
	/tmp/busybox-trig sh -c "echo '50 7 5' > /sys/kernel/debug/memorizer_test/run"
done
sleep 1
kill -INT $c
wait $c; rc=$?
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
cat /tmp/d.err
check "collector 2 stops cleanly" [ $rc = 0 ]
memorizer check /tmp/d.bin > /tmp/d.check 2>&1
cat /tmp/d.check
check "collector 2's stream checks, with no warning" \
	[ "$(grep -c warning /tmp/d.check)" = 0 ]
check "collector 2 lost nothing" [ "$(lost_in /tmp/d.err)" = 0 ]
memorizer text /tmp/d.bin > /tmp/d.kmap
check "its text is a kmap" kmap_valid /tmp/d.kmap
check "every test object of its time, with exact counts" \
	[ "$(test_objects /tmp/d.kmap 7 5)" = 150 ]
check "each exactly once" [ "$(test_objects_any /tmp/d.kmap)" = 150 ]
check "and the kernel counted none" [ "$(cat $M/total_overruns)" = "$t2" ]
finish
