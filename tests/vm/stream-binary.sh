#!/bin/sh
# The binary channel under a workload of a minute and more: a collector
# reads every CPU's buffer while the whole system is traced, accesses
# included. Memorizer's memory stays flat, no record is lost at the
# default buffer size, and every test-module object appears exactly once
# with its exact counts.
# vm/run: --append memorizer_enabled_boot=no --timeout 900
. /vmrun/guest-lib.sh
cd /tmp
modprobe memorizer_test_module || echo "modprobe failed"
cp /bin/busybox /tmp/busybox-trig
mkdir -p tree && cp -r /etc /bin tree/ 2>/dev/null

memorizer stream --binary -o /tmp/s.bin 2> /tmp/stream.err & c=$!
sleep 1
echo 1 > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access
start=$(cut -d. -f1 /proc/uptime)
rounds=0
: > /tmp/mem
while [ $(($(cut -d. -f1 /proc/uptime) - start)) -lt 60 ]; do
	tar zcf /tmp/a.tgz tree
	hackbench -g 2 -l 20 > /dev/null
	/tmp/busybox-trig sh -c "echo '20 7 5' > /sys/kernel/debug/memorizer_test/run"
	rounds=$((rounds + 1))
	stat_value 'memory used (bytes)' >> /tmp/mem
done
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
elapsed=$(($(cut -d. -f1 /proc/uptime) - start))
sleep 2
kill -INT $c
wait $c; rc=$?
cat /tmp/stream.err
cat $M/show_stats
echo "$rounds rounds in $elapsed s; memory used per round: $(tr '\n' ' ' < /tmp/mem)"
check "the workload ran for 60 s or more" [ "$elapsed" -ge 60 ]
check "the collector stops cleanly on SIGINT" [ $rc = 0 ]
check "no record lost (total_overruns)" [ "$(cat $M/total_overruns)" = 0 ]
check "no LOST record in the stream" grep -q 'lost records: 0$' /tmp/stream.err
# Flat: after the first round, memory used never exceeds the first
# round's by more than a quarter (the live set of a repeated workload).
check "Memorizer memory flat" awk 'NR == 2 { base = $1 } NR > 2 && $1 > base * 1.25 { print "round " NR ": " $1 " > 1.25 x " base; bad = 1 } END { exit bad }' /tmp/mem
check "the stream checks" memorizer check /tmp/s.bin
memorizer text /tmp/s.bin > /tmp/s.kmap 2> /tmp/text.err
cat /tmp/text.err
check "its text is a kmap" kmap_valid /tmp/s.kmap
n=$(awk -F, '
	function done() { if (obj && lines == 2 && sw && sr) n++; obj = 0 }
	/^[0-9a-f]/ { done(); obj = ($4 == 1999 && $8 == "busybox-trig"); pid = $2
		lines = sw = sr = 0; next }
	obj { lines++; split(substr($0, 3), a, ",")
		if (a[2] == pid && a[3] == 7 && a[4] == 0) sw = 1
		if (a[2] == pid && a[3] == 0 && a[4] == 5) sr = 1 }
	END { done(); print n + 0 }' /tmp/s.kmap)
all=$(awk -F, '/^[0-9a-f]/ && $4 == 1999 && $8 == "busybox-trig"' /tmp/s.kmap | wc -l)
echo "test objects: $all in the stream, $n with exact counts, $((rounds * 20)) made"
check "every test object exactly once, with exact counts" [ "$n" = $((rounds * 20)) ] && [ "$all" = "$n" ]
finish
