#!/bin/sh
# bench/guest/stages.sh PAIRS: for bench/stages, in one boot of a Memorizer
# bench kernel, PAIRS times: hackbench (the bench's full size) with the
# access path off, then with full tracing on (memorizer_enabled 1,
# log_access 1), each time appended to /out/off and /out/on; then the
# sum of the traced accesses (recorded, untracked, dropped) of the "on"
# runs, from memorizer/stats, to /out/accesses. One untimed run first.
set -eu
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
m=/sys/kernel/debug/memorizer
btime=/vmrun/btime
hb="hackbench -g 2 -f 10 -l 20"
pairs=$1

traced() {
	awk '$1 ~ /^accesses_(recorded|untracked|dropped)$/ { n += $2 }
	     END { print n + 0 }' $m/stats
}

$hb >/dev/null 2>&1
before=$(traced)
i=0
while [ $i -lt "$pairs" ]; do
	$btime /out/off $hb >/dev/null 2>&1
	echo 1 > $m/memorizer_log_access
	echo 1 > $m/memorizer_enabled
	$btime /out/on $hb >/dev/null 2>&1
	echo 0 > $m/memorizer_enabled
	echo 0 > $m/memorizer_log_access
	echo 1 > $m/clear_dead_objects
	i=$((i + 1))
done
echo $(( $(traced) - before )) > /out/accesses
