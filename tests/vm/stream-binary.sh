#!/bin/sh
# The binary channel under a minute of workload: a collector
# reads every CPU's buffer while the whole system is traced, accesses
# included. Memorizer's memory stays flat (records of dead objects leave,
# sweeps free the counters no longer in use), no record is lost at the
# default buffer size, and every test-module object appears exactly once
# with its exact counts. The stream (370 MB once the workload made 60
# rounds) is checked on the host by tests/vm/host/stream-binary.sh: under
# TCG its text and the awk passes over it took about 4 of this test's 6
# minutes in the guest. 2G: the stream lives in the guest's tmpfs beside
# KASAN's shadow and Memorizer's pool.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --timeout 900 --mem 2G
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
rounds=0 failed=0
while [ $(($(uptime_s) - start)) -lt 60 ]; do
	tar zcf /tmp/a.tgz tree &&
		/tmp/busybox-trig sh -c "echo '20 7 5' > /sys/kernel/debug/memorizer_test/run" ||
		failed=$((failed + 1))
	rounds=$((rounds + 1))
done
kill $sampler
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
elapsed=$(($(uptime_s) - start))
# With the collector still reading, what the retiring worker and the
# sweeps had not reached under load, they reach now: the records of dead
# objects leave, and a sweep frees every counter idle since the one before
# (its counts went out on the stream). Up to 30 s for both, once a second.
settled() {
	set -- $(awk '$1 ~ /^[a-z_]+_live$/ { live += $2 }
		$1 == "records_in_memory" { records = $2 }
		$1 == "counters_in_memory" { counters = $2 }
		END { print live + 0, records + 0, counters + 0 }' $M/stats)
	live=$1 records=$2 counters=$3
	records_left && counters_left
}
records_left() { [ "$records" -le $((live + live / 20 + 50)) ]; }
counters_left() { [ "$counters" -le $((live / 4)) ]; }
waited=0
until settled || [ $waited -ge 30 ]; do
	sleep 1
	waited=$((waited + 1))
done
kill -INT $c
wait $c; rc=$?
cat /tmp/stream.err
cat $M/show_stats
echo "$rounds rounds in $elapsed s; every 2 s, memory used, records, live objects, counters:"
cat /tmp/mem
check "the workload ran, every round of it" \
	sh -c "[ $rounds -gt 0 ] && [ $failed = 0 ]"
check "the collector stops cleanly on SIGINT" [ $rc = 0 ]
check "no record lost (total_overruns)" [ "$(cat $M/total_overruns)" = 0 ]
check "no LOST record in the stream" grep -q 'lost records: 0$' /tmp/stream.err
# Flat: the samples above are for the reader. What they catch under load
# swings with the sweeps' timing (a sweep frees at most 128k counters and
# yields to a busy ring), so their thirds' means were 0.72x to 1.87x apart
# over 9 runs of one kernel and 3.03x in one CI run (14 rounds in 95 s,
# counters 574k at the peak, 172k at the last sample). What breaks memory
# being flat is what stays once the load is gone, such as the counters of
# every pid a long-lived object saw (before sweeps, 277k at the end of the
# run). Once the workload stopped, idle counters fell to 1156, against
# 31,723 live objects, within 3 s (2026-11-25, one host core kept busy).
echo "after the workload and $waited s: $records records in memory, $live objects live, $counters counters"
check "dead objects' records left memory" records_left
check "idle counters left memory (at most one per 4 live objects)" counters_left
# The stream and the count of test objects made, for the host's checks.
mv /tmp/s.bin /out/s.bin
echo $((rounds * 20)) > /out/test-objects-made
finish
