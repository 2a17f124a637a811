#!/bin/sh
# Mode 3 records the writing process and its children only, while an
# unmarked process does the same kind of work beside it.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
mkdir -p /tmp/bin
ln -s /bin/busybox /tmp/bin/md5sum
ln -s /bin/busybox /tmp/bin/sha1sum

check "off at boot with memorizer_enabled_boot=no" [ "$(cat $M/memorizer_enabled)" = 0 ]
sh -c 'while [ ! -e /tmp/stop ]; do /tmp/bin/md5sum /bin/busybox >/dev/null &
	echo $! >> /tmp/unmarked.pids; wait; done' &
unmarked=$!
echo $unmarked >> /tmp/unmarked.pids
sleep 1
echo 1 > $M/memorizer_log_access
sh -c 'echo $$ > /tmp/marked.pid
echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled
read v < /proc/$$/memorizer_enabled; echo $v > /tmp/marked.proc
for i in 1 2 3 4 5; do
	/tmp/bin/sha1sum /bin/busybox >/dev/null &
	echo $! >> /tmp/marked.pid
	wait
done
echo 0 > /sys/kernel/debug/memorizer/memorizer_enabled'
# The loop's md5sums, less the loop's own pid written before them.
before=$(($(wc -l < /tmp/unmarked.pids) - 1))
echo 0 > $M/memorizer_log_access
unmarked_proc=$(cat /proc/$unmarked/memorizer_enabled)
touch /tmp/stop
wait
cat $M/kmap > /out/kmap

check "kmap parses" kmap_valid /out/kmap
check "the marked shell read 1 from /proc/self" [ "$(cat /tmp/marked.proc)" = 1 ]
check "the unmarked shell reads 0" [ "$unmarked_proc" = 0 ]
check "the unmarked loop ran alongside" [ "$before" -gt 0 ]
check "nothing but the marked tree, and all of it" \
	only_after /out/kmap /tmp/marked.pid
check "no object of the unmarked loop" not grep -q ',md5sum$' /out/kmap
no_object_of() {	# PIDFILE
	awk -F, -v pidfile="$1" '
	BEGIN { while ((getline p < pidfile) > 0) bad[p] = 1 }
	/^[0-9a-f]/ && ($2 in bad) { print "unmarked: " $0; found = 1 }
	END { exit found }' /out/kmap
}
check "no object of any unmarked pid" no_object_of /tmp/unmarked.pids
finish
