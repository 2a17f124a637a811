#!/bin/sh
# kmap_stream: records of dead objects, each to exactly one reader, then
# gone from Memorizer. The test module's objects are the ground truth:
# 1999 bytes each, allocated by a process named busybox-trig, each stored
# to W and loaded R times from one instruction each.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --file out/tests/stream-probe
. /vmrun/guest-lib.sh
cd /tmp
S=$M/kmap_stream
probe=/vmrun/stream-probe
modprobe memorizer_test_module || echo "modprobe failed"
cp /bin/busybox /tmp/busybox-trig
# trigger N W R: the module's objects, in a process of its own, the only
# one traced (mode 3), accesses included.
trigger() {
	/tmp/busybox-trig sh -c "echo 3 > $M/memorizer_enabled
		echo '$1 $2 $3' > /sys/kernel/debug/memorizer_test/run
		echo 0 > $M/memorizer_enabled"
}

echo 1 > $M/memorizer_log_access
# What the boot's KUnit tests left.
echo 1 > $M/clear_dead_objects
check "the stream starts empty: O_NONBLOCK read gives EAGAIN" $probe eagain $S
check "poll: not readable while empty" not $probe poll $S 300

trigger 50 7 5
check "poll: readable once objects died" $probe poll $S 5000

# Two readers at once, opened after the first 50 died; 500 more meanwhile.
memorizer stream -o /tmp/a.kmap 2> /tmp/a.err & a=$!
memorizer stream -o /tmp/b.kmap 2> /tmp/b.err & b=$!
sleep 1
for i in 1 2 3 4 5; do
	trigger 100 3 2
done
sleep 3
kill -INT $a $b
wait $a; ra=$?
wait $b; rb=$?
check "reader a stops cleanly on SIGINT" [ $ra = 0 ]
check "reader b stops cleanly on SIGINT" [ $rb = 0 ]
cat /tmp/a.err /tmp/b.err
check "reader a's stream parses" kmap_valid /tmp/a.kmap
check "reader b's stream parses" kmap_valid /tmp/b.kmap
cat /tmp/a.kmap /tmp/b.kmap > /tmp/both.kmap
echo "reader a: $(test_objects_any /tmp/a.kmap) test objects, reader b: $(test_objects_any /tmp/b.kmap)"
check "the 50 that died before the readers opened: each exactly once, exact counts" \
	[ "$(test_objects /tmp/both.kmap 7 5)" = 50 ]
check "the 500 made while they read: each exactly once, exact counts" \
	[ "$(test_objects /tmp/both.kmap 3 2)" = 500 ]
check "no other test object" [ "$(test_objects_any /tmp/both.kmap)" = 550 ]
check "only dead objects are streamed" sh -c "! awk -F, '/^[0-9a-f]/ && \$6 == 0' /tmp/both.kmap | grep -q ."
cat $M/kmap > /tmp/kmap
check "streamed records are gone from kmap" [ "$(test_objects_any /tmp/kmap)" = 0 ]

# A record larger than the reader's buffer comes whole over several reads.
trigger 3 7 5
check "16-byte reads drain the stream" sh -c "$probe drain $S 16 > /tmp/small.kmap"
check "what 16-byte reads gave parses" kmap_valid /tmp/small.kmap
check "and holds the 3 objects whole" [ "$(test_objects /tmp/small.kmap 7 5)" = 3 ]
check "the stream is empty again" $probe eagain $S
finish
