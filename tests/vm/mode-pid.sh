#!/bin/sh
# Writing a pid traces that process and what it starts afterwards, not
# the writer.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
mkdir -p /tmp/bin
ln -s /bin/busybox /tmp/bin/md5sum

# The target waits on FIFOs with shell builtins: every process it starts
# after being marked is one whose pid it records.
mkfifo /tmp/go /tmp/done /tmp/stop
sh -c 'read x < /tmp/go
echo $$ > /tmp/tree.pid
for i in 1 2 3; do
	/tmp/bin/md5sum /bin/busybox > /dev/null &
	echo $! >> /tmp/tree.pid
	wait
done
echo > /tmp/done
read x < /tmp/stop' &
target=$!
echo $target > $M/memorizer_enabled
check "reads back the pid" [ "$(cat $M/memorizer_enabled)" = "$target" ]
check "target marked in /proc" [ "$(cat /proc/$target/memorizer_enabled)" = 1 ]
check "writer not marked" [ "$(cat /proc/$$/memorizer_enabled)" = 0 ]
echo > /tmp/go
read x < /tmp/done
echo 0 > $M/memorizer_enabled
check "marks cleared by mode 0" [ "$(cat /proc/$target/memorizer_enabled)" = 0 ]
echo > /tmp/stop
wait
cat $M/kmap > /out/kmap

check "kmap parses" kmap_valid /out/kmap
check "objects of the target and its children only" \
	only_after /out/kmap /tmp/tree.pid
check "no object of the writer" \
	awk -F, -v p="$$" '/^[0-9a-f]/ && $2 == p { exit 1 }' /out/kmap
finish
