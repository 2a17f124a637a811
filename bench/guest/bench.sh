#!/bin/sh
# make bench, guest side: time the bench workloads on this kernel, in each
# Memorizer mode asked for, and (optionally) measure the stream.
#
#   bench.sh MODES WORKLOADS REPS SIZE [stream]
#
# MODES: comma list of base (a kernel without Memorizer, or one never
# enabled), off (Memorizer compiled in, never enabled: boot with
# memorizer_enabled_boot=no), alloc_only (memorizer_enabled=1, log_access
# 0), full (1 + log_access 1), mode3 (the workload started by a shell that
# wrote 3, log_access 1), calls (full, and log_calls_enabled 1: call edges
# and stack frames counted too; on a kernel that runs in one TCG thread).
# Modes run in the order given; off must come first.
# WORKLOADS: comma list of hackbench, hackbench_long (hackbench with 50
# times the loops: for the mtrace plugin's boots and their baseline),
# stressng, tar. SIZE: quick or full.
# Writes /out/times ("mode workload seconds" a line), /out/stats.MODE.WL
# (memorizer/stats right after the run, before clearing; for people,
# show_stats then as /out/show_stats.MODE.WL; stats as the run began, whose
# counts since boot aggregate.py subtracts, as /out/stats-before.MODE.WL),
# /out/stream (stream results,
# or "unavailable REASON"), /out/uname, /out/sample-size.
set -eu
modes=$1 workloads=$2 reps=$3 size=$4 stream=${5:-}
m=/sys/kernel/debug/memorizer
btime=/vmrun/btime
export PATH=/usr/bin:/bin:/usr/sbin:/sbin

# Sized for TCG, where KASAN alone makes hackbench -g 2 -l 50 take 26 s
# and full tracing multiplies that again.
case $size in
quick)	hb_args="-g 2 -f 5 -l 20" hb_long_args="-g 2 -f 5 -l 1000"
	sng_ops=100 ;;
full)	hb_args="-g 2 -f 10 -l 20" hb_long_args="-g 2 -f 10 -l 1000"
	sng_ops=400 ;;
*)	echo "bench: unknown size $size" >&2; exit 2 ;;
esac
# stress-ng: a fixed number of operations (not a time limit) of stressors
# that make syscalls and kernel allocations and work in this guest (pipes,
# file descriptors, poll, futexes, eventfd, timerfd, signals, brk), one
# instance each, all at once; --S-ops bounds each.
# (Tried and left out: sock and udp-flood, no INET here; vm-rw, no
# process_vm_readv; fork, mmap, dup, clone, sem and sockpair take tens of
# seconds for a few hundred operations under TCG.)
sng_stressors="pipe open poll futex eventfd timerfd signal brk"

uname -a > /out/uname
cd /tmp
# The fixed tree for tar: the guest image's /etc, /bin, /sbin and
# /usr/sbin (busybox's links) and the memorizer command (1.7 MB).
rm -rf sample
mkdir sample
cp -r /etc /bin /sbin /usr/sbin /usr/bin/memorizer sample/
du -sk sample | cut -f1 > /out/sample-size

run_wl() {	# run_wl TIMEFILE WORKLOAD: the timed workload, output discarded
	case $2 in
	hackbench)
		$btime "$1" hackbench $hb_args >/tmp/wl.out 2>&1 ;;
	hackbench_long)
		$btime "$1" hackbench $hb_long_args >/tmp/wl.out 2>&1 ;;
	stressng)
		args=
		for s in $sng_stressors; do
			args="$args --$s 1 --$s-ops $sng_ops"
		done
		$btime "$1" stress-ng $args --temp-path /tmp --quiet \
			>/tmp/wl.out 2>&1 ;;
	tar)
		rm -f /tmp/sample.tar.gz
		$btime "$1" tar zcf /tmp/sample.tar.gz sample >/tmp/wl.out 2>&1 ;;
	*)
		echo "bench: unknown workload $2" >&2; return 2 ;;
	esac
}

ctl() { echo "$2" > "$m/$1"; }
has_memorizer() { [ -d $m ]; }

timed() {	# timed MODE WORKLOAD: one timed run, appended to /out/times
	t=/tmp/t.$$
	rm -f $t
	if has_memorizer; then
		ctl memorizer_enabled 0
		ctl memorizer_log_access 0
		ctl clear_dead_objects 1
		[ ! -e $m/log_calls_enabled ] || ctl log_calls_enabled 0
		[ ! -e $m/clear_function_calls ] || ctl clear_function_calls 1
		# Counts since boot: the run's own are the difference.
		cat $m/stats > /tmp/stats.before
	fi
	case $1 in
	base|off)
		run_wl $t "$2" ;;
	alloc_only)
		ctl memorizer_enabled 1
		run_wl $t "$2"
		ctl memorizer_enabled 0 ;;
	full)
		ctl memorizer_log_access 1
		ctl memorizer_enabled 1
		run_wl $t "$2"
		ctl memorizer_enabled 0
		ctl memorizer_log_access 0 ;;
	calls)
		ctl log_calls_enabled 1
		ctl memorizer_log_access 1
		ctl memorizer_enabled 1
		run_wl $t "$2"
		ctl memorizer_enabled 0
		ctl memorizer_log_access 0
		ctl log_calls_enabled 0 ;;
	mode3)
		ctl memorizer_log_access 1
		# The shell that writes 3 is marked and starts the timer.
		( ctl memorizer_enabled 3 && run_wl $t "$2" )
		ctl memorizer_enabled 0
		ctl memorizer_log_access 0 ;;
	*)
		echo "bench: unknown mode $1" >&2; return 2 ;;
	esac || { echo "bench: $2 failed in mode $1:"; tail -5 /tmp/wl.out; return 1; }
	echo "$1 $2 $(cat $t)" >> /out/times
	echo "bench: $1 $2 $(cat $t) s"
	if has_memorizer && [ "$1" != off ] && [ "$1" != base ]; then
		# Records of freed objects stay until cleared: what is used
		# now is the run's peak.
		cat $m/stats > "/out/stats.$1.$2"
		cp /tmp/stats.before "/out/stats-before.$1.$2"
		cat $m/show_stats > "/out/show_stats.$1.$2"
	fi
}

if echo ",$modes," | grep -q ',off,'; then
	has_memorizer || { echo "bench: mode off on a kernel without Memorizer" >&2; exit 2; }
	[ "$(cat $m/memorizer_enabled)" = 0 ] ||
		{ echo "bench: mode off needs memorizer_enabled_boot=no" >&2; exit 2; }
fi
r=0
while [ $r -lt "$reps" ]; do
	for mode in $(echo "$modes" | tr , ' '); do
		for wl in $(echo "$workloads" | tr , ' '); do
			timed "$mode" "$wl"
		done
	done
	r=$((r + 1))
done

[ "$stream" = stream ] || exit 0

# Stream: what the collector gets out of kmap_stream (text) and the binary
# channel under full tracing, per workload.
stream_unavailable() { echo "unavailable $*" > /out/stream; exit 0; }
has_memorizer || stream_unavailable "kernel built without Memorizer"
for f in kmap_stream binary/header binary/cpu0 total_overruns; do
	[ -e $m/$f ] || stream_unavailable "$m/$f does not exist in this kernel ($(uname -r) $(uname -v))"
done
: > /out/stream
for wl in $(echo "$workloads" | tr , ' '); do
	for kind in text binary; do
		ctl memorizer_enabled 0
		ctl memorizer_log_access 0
		ctl clear_dead_objects 1
		rm -f /tmp/stream.out /tmp/stream.err /tmp/t.stream
		opt=
		[ $kind = binary ] && opt=--binary
		ov0=$(cat $m/total_overruns)
		memorizer stream $opt -q -o /tmp/stream.out 2>/tmp/stream.err &
		pid=$!
		sleep 1
		ctl memorizer_log_access 1
		ctl memorizer_enabled 1
		run_wl /tmp/t.stream "$wl"
		ctl memorizer_enabled 0
		ctl memorizer_log_access 0
		# Let the collector drain what is complete, then stop it.
		sleep 1
		kill -INT $pid 2>/dev/null || true
		if ! wait $pid; then
			# A collector that failed is reported, not counted.
			echo "$wl $kind failed $(tr '\n' ' ' < /tmp/stream.err)" >> /out/stream
			echo "bench: stream $wl $kind: memorizer stream $opt failed: $(cat /tmp/stream.err)"
			continue
		fi
		ov1=$(cat $m/total_overruns)
		bytes=$(wc -c < /tmp/stream.out)
		if [ $kind = text ]; then
			records=$(grep -c '^[0-9a-f]' /tmp/stream.out || true)
		else
			records=$(sed -n 's/.*: \([0-9]*\) records from.*/\1/p' /tmp/stream.err)
		fi
		echo "$wl $kind seconds=$(cat /tmp/t.stream) bytes=$bytes records=${records:-0} overruns=$((ov1 - ov0)) collector=$(tr '\n' ' ' < /tmp/stream.err)" >> /out/stream
		echo "bench: stream $wl $kind: $(tail -n 1 /out/stream)"
	done
done
