#!/bin/sh
# Writing a pid traces that process and what it starts afterwards, not
# the writer.
# vm/run: --append "memorizer_enabled_boot=no"
. /vmrun/guest-lib.sh
cd /tmp
mkdir -p /tmp/bin
ln -s /bin/busybox /tmp/bin/md5sum

sh -c 'while [ ! -e /tmp/go ]; do sleep 0.1; done
echo $$ > /tmp/tree.pid
for i in 1 2 3; do
	/tmp/bin/md5sum /bin/busybox > /dev/null &
	echo $! >> /tmp/tree.pid
	wait
done
touch /tmp/done
while [ ! -e /tmp/stop ]; do sleep 0.1; done' &
target=$!
echo $target > $M/memorizer_enabled
check "reads back the pid" [ "$(cat $M/memorizer_enabled)" = "$target" ]
check "target marked in /proc" [ "$(cat /proc/$target/memorizer_enabled)" = 1 ]
check "writer not marked" [ "$(cat /proc/$$/memorizer_enabled)" = 0 ]
touch /tmp/go
while [ ! -e /tmp/done ]; do sleep 0.1; done
echo 0 > $M/memorizer_enabled
check "marks cleared by mode 0" [ "$(cat /proc/$target/memorizer_enabled)" = 0 ]
touch /tmp/stop
wait
cat $M/kmap > /out/kmap

check "kmap parses" kmap_valid /out/kmap
# The target's sleep children before /tmp/go have pids the test does not
# know: they may appear, under their own name.
check "objects of the target and its children only" \
	only_after /out/kmap /tmp/tree.pid sleep
check "no object of the writer" \
	awk -F, -v p="$$" '/^[0-9a-f]/ && $2 == p { exit 1 }' /out/kmap
finish
