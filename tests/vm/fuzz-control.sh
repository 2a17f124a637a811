#!/bin/sh
# Memorizer's interface under an adversary: for SECONDS (default 60; make
# soak runs 600), processes at once drive every control file with random
# and hostile values (empty, huge, negative, not numbers, the pid of a
# task that just exited, writes at odd offsets, byte by byte), read every
# readable file at random sizes and offsets, open and drop kmap_stream and
# binary/cpuN readers mid-record (the records they read kept: at the end,
# those read, lost and left unread are all the kernel made), switch modes
# 0-3 and pids, clear the lists, take CPU 1 off and on line, load and
# unload the test module, while hackbench, tar and the test module run.
# Each worker's choices come from
# SEED (printed; give it as the second argument to run the same choices
# again). A write the kernel refuses must leave the file as it was: the
# workers that own memorizer_enabled, memorizer_log_access, kinds and
# count_instruments check it after each of their writes (no other process
# writes those). vm/run fails the test on any BUG, WARN, KASAN, lockdep,
# RCU or lockup report.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --timeout 1500 --file out/tests/stream-probe
. /vmrun/guest-lib.sh
probe=/vmrun/stream-probe
[ -x $probe ] || { echo "fuzz-control: no $probe (vm/run --file out/tests/stream-probe)"; exit 1; }
duration=${1:-60}
seed=${2:-$(date +%s)}
faults=${3:-none}
echo "fuzz-control: seed $seed, $duration s, faults $faults"
# FAULTS (third argument): none; workload, failslab and fail_page_alloc
# failing 1 in 100 of the workloads' allocations (hackbench's, tar's:
# make-it-fail, inherited); pool, fail_memorizer_pool failing 1 in 100 of
# Memorizer's own chunks, anywhere.
D=/sys/kernel/debug
arm() {	# arm DIR: 1 in 100, silently, with no end
	echo 0 > "$1/verbose"
	echo 1 > "$1/interval"
	echo -1 > "$1/times"
	echo 1 > "$1/probability"
}
case $faults in
none) ;;
workload)
	for d in $D/failslab $D/fail_page_alloc; do
		echo N > $d/ignore-gfp-wait
		echo Y > $d/task-filter
		arm $d
	done
	echo 0 > $D/fail_page_alloc/min-order ;;
pool) arm $M/fail_pool ;;
*) echo "fuzz-control: FAULTS: none, workload or pool, not $faults"; exit 1 ;;
esac
cd /tmp
: > /tmp/fuzz.records
cp /bin/busybox /tmp/busybox-trig
mkdir -p tree && cp -r /etc /sbin tree/
uptime_s() { cut -d. -f1 /proc/uptime; }
stop_at=$(($(uptime_s) + duration))
running() { [ "$(uptime_s)" -lt $stop_at ]; }

# rand SEED: an endless stream of random numbers, one a line.
rand() {
	awk -v s="$1" 'BEGIN { srand(s); for (;;) print int(rand() * 2147483647) }'
}
# exited_pid: the pid of a task that has just exited.
exited_pid() { sh -c 'echo $$'; }
# hostile N: the Nth of the values no control file should take whole.
hostile() {
	case $(($1 % 22)) in
	0) printf '' ;;
	1) printf -- '-1' ;;
	2) printf '99999999999999999999999999' ;;
	3) printf 'abc' ;;
	4) printf ' 1' ;;
	5) printf '1 ' ;;
	6) printf '0x3' ;;
	7) printf '1\n2\n' ;;
	8) printf '%04096d' 1 ;;
	9) exited_pid ;;
	10) printf '\n' ;;
	11) printf '3\000' ;;
	12) printf 'kasan,' ;;
	13) printf 'all none' ;;
	14) printf 'global;stack' ;;
	15) printf '+1' ;;
	16) printf '4194304' ;;
	17) printf '%b' "$(printf '\\0%03o' $(($1 % 255 + 1)) \
		$(($1 / 7 % 255 + 1)) $(($1 / 49 % 255 + 1)) $(($1 / 343 % 255 + 1)))" ;;
	18) printf 'yes\n\n' ;;
	19) printf 'KMALLOC' ;;
	20) printf '2147483648' ;;
	21) printf 'on off' ;;
	esac
}
fail() { echo "$*" >> /tmp/fuzz.fail; }

# owner FILE SEED VALID...: the one writer of FILE. Each round writes a
# valid value or a hostile one, whole or at an odd offset, and checks that
# a refused write left FILE as it was.
owner() {
	file=$1 s=$2
	shift 2
	rand "$s" | while read -r r && running; do
		before=$(cat "$file")
		n=$((r % 3))
		if [ $n = 0 ]; then
			eval "v=\${$((r / 3 % $# + 1))}"
			printf '%s' "$v" > "$file" 2>/dev/null
		elif [ $n = 1 ]; then
			hostile $((r / 3)) > /tmp/v.$s
			cat /tmp/v.$s > "$file" 2>/dev/null
		else
			# At an odd offset: a write must start at 0.
			printf '1' | dd of="$file" bs=1 seek=$((r / 3 % 7 + 1)) \
				conv=notrunc 2>/dev/null
		fi
		status=$?
		after=$(cat "$file")
		if [ $status != 0 ] && [ "$after" != "$before" ]; then
			fail "$file: a refused write changed '$before' to '$after'"
		fi
		echo "$file" >> /tmp/fuzz.rounds
	done
}

# The modes: 0-3, a live pid, an exited one, as writes to the debugfs file
# and to /proc/PID/memorizer_enabled of a live task.
sleep 100000 & sleeper=$!
owner $M/memorizer_enabled $((seed + 1)) 0 1 2 3 "$sleeper" &
owner $M/memorizer_log_access $((seed + 2)) 0 1 yes no &
owner $M/kinds $((seed + 3)) all "kmalloc stack" "global,percpu" pages &
owner $M/count_instruments $((seed + 4)) none kasan lockdep all "kasan lockdep" &

# Readers: every readable file at random sizes and offsets; the stream
# channels opened and dropped mid-record.
readers() {
	files="$M/kmap $M/kmap_offsets $M/stats $M/show_stats $M/memorizer_enabled
$M/memorizer_log_access $M/kinds $M/count_instruments $M/total_overruns
$M/binary/header /proc/self/memorizer_enabled"
	set -- $files
	rand $((seed + 5)) | while read -r r && running; do
		eval "f=\${$((r % $# + 1))}"
		dd if="$f" of=/dev/null bs=$((r % 4096 + 1)) skip=$((r / 4096 % 5)) \
			count=$((r / 20480 % 50 + 1)) 2>/dev/null
		case $((r % 5)) in
		0) timeout 1 cat $M/kmap_stream > /dev/null 2>&1 ;;
		# Whole records only, nonblocking, kept: the stream's accounting
		# is checked at the end.
		1) $probe drain $M/binary/cpu$((r / 5 % 2)) $((r / 10 % 4096 + 1)) \
			$((r / 40960 % 8 + 1)) >> /tmp/fuzz.records 2>/dev/null ;;
		esac
		echo readers >> /tmp/fuzz.rounds
	done
}
readers &

# Clearing, flushing, the test module, CPU 1.
others() {
	rand $((seed + 6)) | while read -r r && running; do
		case $((r % 10)) in
		0) echo 1 > $M/clear_dead_objects ;;
		1) echo 1 > $M/clear_object_list ;;
		2) echo 1 > $M/binary/flush 2>/dev/null ;;
		3) hostile $((r / 8)) > $M/clear_dead_objects 2>/dev/null ;;
		4) modprobe memorizer_test_module 2>/dev/null &&
			/tmp/busybox-trig sh -c "echo '5 3 2' > /sys/kernel/debug/memorizer_test/run" 2>/dev/null ;;
		5) rmmod memorizer_test_module 2>/dev/null ;;
		6) [ -w /sys/devices/system/cpu/cpu1/online ] &&
			echo $((r / 8 % 2)) > /sys/devices/system/cpu/cpu1/online 2>/dev/null ;;
		# Braces: the shell's own complaint when the module is out.
		7) { hostile $((r / 8)) > /sys/kernel/debug/memorizer_test/apis; } 2>/dev/null ;;
		8) echo $((r / 10 % 4)) > /proc/$sleeper/memorizer_enabled 2>/dev/null ;;
		9) hostile $((r / 10)) > /proc/$sleeper/memorizer_enabled 2>/dev/null ;;
		esac
		echo others >> /tmp/fuzz.rounds
	done
	echo 1 > /sys/devices/system/cpu/cpu1/online 2>/dev/null
}
others &

# The workloads, each in a loop of its own. A round counts when it
# succeeds, or, with the workload's allocations failing, when it ends.
loop() {	# loop NAME COMMAND...
	name=$1
	shift
	# The command is marked, not this shell: its forks must not fail.
	[ "$faults" != workload ] ||
		set -- sh -c 'echo 1 > /proc/self/make-it-fail && exec "$@"' sh "$@"
	while running; do
		if "$@" > /dev/null 2>&1; then
			echo "$name" >> /tmp/fuzz.rounds
		elif [ "$faults" = workload ]; then
			echo "$name" >> /tmp/fuzz.rounds
			echo "$name failed" >> /tmp/fuzz.rounds
		fi
	done
}
loop hackbench hackbench -g 2 -f 5 -l 10 &
loop tar tar zcf /tmp/a.tgz tree &

while running; do sleep 5; done
kill $sleeper 2>/dev/null
wait
# The owners' random writes may have left tracing off for most of the run
# (CI once saw no drop at all): with the pool still failing, one traced
# tar makes thousands of chunk requests, so drops are certain.
if [ "$faults" = pool ]; then
	echo all > $M/kinds
	echo 1 > $M/memorizer_log_access
	echo 1 > $M/memorizer_enabled
	tar zcf /tmp/a.tgz tree
fi
for d in $D/failslab $D/fail_page_alloc $M/fail_pool; do
	[ ! -e $d/probability ] || echo 0 > $d/probability
done
echo 0 > $M/memorizer_enabled
echo 0 > $M/memorizer_log_access
echo 1 > /sys/devices/system/cpu/cpu1/online 2>/dev/null

echo "rounds: $(sort /tmp/fuzz.rounds | uniq -c | tr '\n' ' ')"
[ -s /tmp/fuzz.fail ] && head -n 20 /tmp/fuzz.fail
check "no refused write changed a control file" [ ! -s /tmp/fuzz.fail ]
for w in $M/memorizer_enabled $M/memorizer_log_access $M/kinds \
	$M/count_instruments readers others hackbench tar; do
	check "$w ran" grep -qx "$w" /tmp/fuzz.rounds
done
[ "$faults" != workload ] ||
	check "injected failures made workload rounds fail" grep -q " failed\$" /tmp/fuzz.rounds
pool_drops() {
	echo "drops: $(stat_value objects_dropped) objects," \
		"$(stat_value accesses_dropped) accesses"
	[ "$(stat_value objects_dropped)" -gt 0 ] &&
		[ "$(stat_value accesses_dropped)" -gt 0 ]
}
[ "$faults" != pool ] ||
	check "the pool's refusals were counted as drops" pool_drops
# The records read come from many sessions (each drain opened one): a
# session sends the found objects' ALLOC again, so together they are no
# one stream for memorizer check; stream-probe counts them, whole.
made=$(stat_value binary_records_made)
lost=$(stat_value binary_records_lost)
unread=$(stat_value binary_records_unread)
check "the records read are whole records" sh -c "$probe count /tmp/fuzz.records > /tmp/count.out"
cat /tmp/count.out
read=$(sed -n 's/^\([0-9]*\) records, .*/\1/p' /tmp/count.out)
echo "binary records: $made made, $read read, $lost lost, $unread left unread"
check "binary records read = made - lost - left unread" [ "$read" = $((made - lost - unread)) ]
check "Memorizer still off and readable" sh -c \
	"[ \"\$(cat $M/memorizer_enabled)\" = 0 ] && cat $M/kmap > /dev/null"
check "the kmap checks" sh -c "cat $M/kmap_offsets > /tmp/k && memorizer check /tmp/k > /dev/null"
finish
