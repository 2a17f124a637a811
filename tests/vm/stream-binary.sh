#!/bin/sh
# The binary channel under a workload of a minute and a half: a collector
# reads every CPU's buffer while the whole system is traced, accesses
# included. Memorizer's memory stays flat (records of dead objects leave,
# sweeps free the counters no longer in use), no record is lost at the
# default buffer size, and every test-module object appears exactly once
# with its exact counts. The stream (370 MB once the workload made 60
# rounds) is checked on the host by tests/vm/host/stream-binary.sh: under
# TCG its text and the awk passes over it took about 4 of this test's 6
# minutes in the guest. 2G: the stream lives in the guest's tmpfs beside
# KASAN's shadow and Memorizer's pool.
# vm/run: --append memorizer_enabled_boot=no --timeout 900 --mem 2G
. /vmrun/guest-lib.sh
cd /tmp
modprobe memorizer_test_module || echo "modprobe failed"
cp /bin/busybox /tmp/busybox-trig
mkdir -p tree && cp -r /etc tree/

# A collector at high priority, as one should run one.
memorizer stream --binary -o /tmp/s.bin 2> /tmp/stream.err & c=$!
renice -n -20 -p $c > /dev/null
sleep 1
echo 1 > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access
uptime_s() { cut -d. -f1 /proc/uptime; }
start=$(uptime_s)
# Memorizer's memory every 2 s, beside the workload: bytes, records,
# live objects (of every kind), access counters. Shell builtins only: a
# fork costs seconds here.
(while :; do
	live=0
	while read -r key value; do
		case $key in
		memory_used_bytes) bytes=$value ;;
		records_in_memory) records=$value ;;
		counters_in_memory) counters=$value ;;
		*_live) live=$((live + value)) ;;
		esac
	done < $M/stats
	echo "$bytes $records $live $counters"
	sleep 2
done > /tmp/mem) & sampler=$!
rounds=0
# 90 s, and at least 9 memory samples: on a loaded host a sample can take
# far longer than its 2 s.
while [ $(($(uptime_s) - start)) -lt 90 ] || [ "$(wc -l < /tmp/mem)" -lt 9 ]; do
	tar zcf /tmp/a.tgz tree
	/tmp/busybox-trig sh -c "echo '20 7 5' > /sys/kernel/debug/memorizer_test/run"
	rounds=$((rounds + 1))
done
kill $sampler
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
elapsed=$(($(uptime_s) - start))
# With the collector still reading: what the retiring worker had not
# reached under load, it reaches now.
sleep 5
live=$(awk '$1 ~ /^[a-z_]+_live$/ { s += $2 }
	END { print s + 0 }' $M/stats)
records=$(stat_value records_in_memory)
kill -INT $c
wait $c; rc=$?
cat /tmp/stream.err
cat $M/show_stats
echo "$rounds rounds in $elapsed s; every 2 s, memory used, records, live objects, counters:"
cat /tmp/mem
check "the workload ran for 90 s or more" [ "$elapsed" -ge 90 ]
check "the collector stops cleanly on SIGINT" [ $rc = 0 ]
check "no record lost (total_overruns)" [ "$(cat $M/total_overruns)" = 0 ]
check "no LOST record in the stream" grep -q 'lost records: 0$' /tmp/stream.err
# Flat: over the last third of the samples, memory used less the live
# objects' records is on average at most 2.5 times what it is over the
# first third. The workload repeats the same rounds; what grows with time
# breaks this, such as the counters of every pid a long-lived object saw
# (before sweeps, counters grew 20k -> 277k over the run: had that been
# steady, 3.7x between the thirds' means). What is left is nearly all access
# counters (memory used = records x 184 + counters x 32, to 0.5%), live
# objects' and those of dead objects the sweeps have not reached yet, and
# how many a sample catches swings with the sweeps' timing: over 9 runs of
# one kernel (eb73255, 2026-11-24) the thirds' peaks were 0.54x to 2.15x
# apart (2.15x failed the earlier bound of 2x on peaks), their means 0.72x
# to 1.87x. Live objects are left out since pages are found: the stream's
# own page cache in tmpfs (95k pages by the end) is a live object per
# page, and grows with it.
check "enough memory samples" [ "$(wc -l < /tmp/mem)" -ge 9 ]
flat() {
	awk -v rb="$(stat_value record_bytes)" '{ b[NR] = $1 - $3 * rb } END {
		t = int(NR / 3)
		for (i = 1; i <= t; i++) first += b[i] / t
		for (i = NR - t + 1; i <= NR; i++) last += b[i] / t
		printf "memory used less live records: on average %d bytes in the first third, %d in the last\n", first, last
		exit !(rb > 0 && last <= first * 2.5)
	}' /tmp/mem
}
check "memory flat under load" flat
# 5 s after the workload, the records in memory are the live objects'.
echo "5 s after the workload: $records records in memory, $live objects live"
check "dead objects' records left memory" [ "$records" -le $((live + live / 20 + 50)) ]
# The stream and the count of test objects made, for the host's checks.
mv /tmp/s.bin /out/s.bin
echo $((rounds * 20)) > /out/test-objects-made
finish
