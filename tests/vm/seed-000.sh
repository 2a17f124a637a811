#!/bin/sh
# Seed 000's "typical run", command for command (ssh left out: no network),
# then the kmap it leaves must parse and hold tar's objects and accesses.
. /vmrun/guest-lib.sh
mkdir -p /somedir && cp -r /etc /somedir/
cd /tmp

# mount the debugfs filesystem if it isn't already
mount -t debugfs nodev /sys/kernel/debug
# clear free objects: the current system traces from boot with a lot of
# uninteresting data
echo 1 > /sys/kernel/debug/clear_object_list
# enable memorizer object access tracking, which by default is off
echo 1 > /sys/kernel/debug/memorizer_log_access
# Now run whatever test
tar zcf something.tar.gz /somedir &
wait
# Disable access logging
echo 0 > /sys/kernel/debug/memorizer/memorizer_log_access
# Disable memorizer object tracking: isn't necessary but will reduce noise
echo 0 > /sys/kernel/debug/memorizer/memorizer_enabled
# Cat the results: make sure to pipe to something
cat /sys/kernel/debug/memorizer/kmap > test.kmap

cp test.kmap /out/
check "kmap parses" kmap_valid test.kmap
check "tar allocated objects" grep -q ',tar$' test.kmap
# Some object tar allocated was read or written by tar itself.
tar_touched() {
	awk -F, '/^[0-9a-f]/ { tar = ($8 == "tar"); pid = $2; next }
		 tar && $2 == pid && ($3 + $4) > 0 { found = 1 }
		 END { exit !found }' test.kmap
}
check "tar's accesses to its objects counted" tar_touched
check "stats counts recorded accesses" [ "$(stat_value accesses_recorded)" -gt 0 ]
cat $M/stats > stats
cp stats /out/
check "stats: accesses_recorded and _untracked are the sums per kind and class" \
	stats_sums_agree stats
check "stats: accesses recorded on kmalloc objects" [ "$(stat_value kmalloc_accesses)" -gt 0 ]
check "nothing dropped at the default pool size" [ "$(stat_value objects_dropped)" = 0 ]
finish
