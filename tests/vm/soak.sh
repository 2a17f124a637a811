#!/bin/sh
# Soak: SECONDS (default 60; make soak runs 600) of whole-system tracing
# with access logging, a binary collector attached, and mixed workloads
# side by side: hackbench, stress-ng, tar and the test module. vm/run fails
# the test on any hang, lockup, lockdep, KASAN or RCU report. At the end,
# Memorizer's memory stayed within its bound all along, and the stream
# holds exactly the records the kernel made, less those it says it lost
# or left unread.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --timeout 1500
. /vmrun/guest-lib.sh
duration=${1:-60}
cd /tmp
modprobe memorizer_test_module || echo "modprobe failed"
cp /bin/busybox /tmp/busybox-trig
mkdir -p tree && cp -r /etc /sbin tree/
uptime_s() { cut -d. -f1 /proc/uptime; }
stop_at=$(($(uptime_s) + duration))

# Compressed: ten minutes of stream would not fit in the guest's memory.
# (Checked afterwards: a check reading along, itself traced, made the
# collector lose three records in four.)
memorizer stream --binary --zstd -o /tmp/s.bin.zst 2> /tmp/stream.err & c=$!
renice -n -20 -p $c > /dev/null
sleep 1
echo 1 > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access

# Each workload in a loop of its own until the time is up; one line per
# round in /tmp/rounds.
loop() {	# loop NAME COMMAND...
	name=$1
	shift
	while [ "$(uptime_s)" -lt $stop_at ]; do
		if "$@" > /tmp/$name.out 2>&1; then
			echo "$name" >> /tmp/rounds
		else
			echo "$name failed" >> /tmp/rounds
			cat /tmp/$name.out
		fi
	done
}
loop hackbench hackbench -g 2 -f 5 -l 20 & w1=$!
loop stress-ng stress-ng --pipe 1 --pipe-ops 100 --open 1 --open-ops 100 \
	--futex 1 --futex-ops 100 --brk 1 --brk-ops 100 --temp-path /tmp \
	--quiet & w2=$!
loop tar tar zcf /tmp/a.tgz tree & w3=$!
loop module /tmp/busybox-trig sh -c \
	"echo '20 7 5' > /sys/kernel/debug/memorizer_test/run &&
	 echo '3 2' > /sys/kernel/debug/memorizer_test/apis" & w4=$!

# Memorizer's memory every 5 s: its peak must stay within the bound.
bound=$(stat_value memory_bound_bytes)
peak=0
while [ "$(uptime_s)" -lt $stop_at ]; do
	used=$(stat_value memory_used_bytes)
	[ "$used" -gt "$peak" ] && peak=$used
	sleep 5
done
wait $w1 $w2 $w3 $w4
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
kill -INT $c
wait $c
rc=$?
cat /tmp/stream.err
cat $M/show_stats
echo "rounds: $(sort /tmp/rounds | uniq -c | tr '\n' ' ')"
echo "memory used: peak $peak of $bound bytes"

check "every workload ran, none failed" sh -c '
	for w in hackbench stress-ng tar module; do grep -qx $w /tmp/rounds || exit 1; done
	! grep -q failed /tmp/rounds'
check "memory within the bound" [ "$peak" -le "$bound" ]
check "the collector stops cleanly" [ $rc = 0 ]
check "the stream checks" sh -c \
	'zstd -dc /tmp/s.bin.zst | memorizer check - > /tmp/check.out 2>&1'
tail -n 3 /tmp/check.out
ls -l /tmp/s.bin.zst
out=$(records_out /tmp/check.out)
made=$(stat_value binary_records_made)
lost=$(stat_value binary_records_lost)
unread=$(stat_value binary_records_unread)
echo "records: $out out, $made made, $lost lost, $unread left unread"
check "records out = made - lost - left unread" [ "$out" = $((made - lost - unread)) ]
check "the stream's LOST records add up to the kernel's" \
	grep -Eq "lost records: $lost( |\$)" /tmp/stream.err
finish
