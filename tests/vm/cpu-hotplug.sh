#!/bin/sh
# CPU hotplug while Memorizer traces the whole system, accesses included:
# the second CPU goes down and comes back three times with work on it each
# time. vm/run fails the test on any splat (lockdep, BUG, WARNING, KASAN);
# the kmap stays well-formed and the objects made on the returned CPU by a
# task pinned there are in it.
. /vmrun/guest-lib.sh
cd /tmp
online=/sys/devices/system/cpu/cpu1/online
check "cpu1 can be taken offline" [ -w $online ]
echo 1 > $M/memorizer_enabled
echo 1 > $M/memorizer_log_access
for i in 1 2 3; do
	check "cpu1 offline ($i)" sh -c "echo 0 > $online"
	check "one CPU online ($i)" [ "$(cat /sys/devices/system/cpu/online)" = 0 ]
	check "work runs on cpu0 alone ($i)" sh -c 'tar zcf a.tgz /etc /bin'
	check "cpu1 online ($i)" sh -c "echo 1 > $online"
	check "two CPUs online ($i)" [ "$(cat /sys/devices/system/cpu/online)" = 0-1 ]
	# A copy of tar under its own name, pinned to the CPU that came back.
	cp /bin/busybox /tmp/busybox-cpu1-$i
	check "work runs on cpu1 ($i)" taskset 2 /tmp/busybox-cpu1-$i tar zcf b.tgz /etc /bin
done
echo 0 > $M/memorizer_log_access
echo 0 > $M/memorizer_enabled
cat $M/show_stats
cat $M/kmap > /out/kmap
check "kmap parses" kmap_valid /out/kmap
# One pass over the kmap (busybox grep: seconds for each under TCG).
pinned=$(grep -o ',busybox-cpu1-[1-3]$' /out/kmap | sort -u)
pinned_has() { printf '%s\n' "$pinned" | grep -qx "$1"; }
for i in 1 2 3; do
	check "objects of the task pinned to cpu1 ($i)" pinned_has ",busybox-cpu1-$i"
done
check "accesses recorded" [ "$(stat_value accesses_recorded)" -gt 0 ]
finish
