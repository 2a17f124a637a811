#!/bin/sh
# On the test kernel (lockdep on), make demo's tar in mode 3: KASAN's and
# lockdep's work for it is left out of the kmap and counted in stats
# instead. A process that reads its own /proc/PID/stack: that unwinding is
# its own, and counted. The tar again with both instruments counted: they
# leave nothing out, and their accesses are in the kmap.
# tests/vm/host/instruments.sh reads the kmaps with the vmlinux. No KUnit
# at boot: its suites' accesses to objects that live on would be in the
# kmaps.
# demo.sh logs calls, whose text patching needs one TCG thread.
# vm/run: --one-thread --append "memorizer_enabled_boot=no kunit.enable=0" --file vm/demo.sh
. /vmrun/guest-lib.sh
e=$M/memorizer_enabled
l=$M/memorizer_log_access

stat_in() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

check "count_instruments: none counted by default" [ "$(cat $M/count_instruments)" = none ]
sh /vmrun/demo.sh
for i in kasan lockdep; do
	check "tar: $i's accesses left out and counted" \
		[ "$(stat_in /out/stats excluded_$i)" -gt 0 ]
done
check "tar: the kmap_offsets check" kmap_valid /out/tar.kmap_offsets

# The workload's own unwinding: a process reading its kernel stack.
echo 1 > $M/clear_dead_objects
echo 1 > $l
sh -c "echo 3 > $e && for i in 1 2 3 4 5; do cat /proc/self/stack > /dev/null; done"
echo 0 > $e
echo 0 > $l
cat $M/kmap_offsets > /out/stack.kmap_offsets
check "/proc/self/stack: the kmap_offsets check" kmap_valid /out/stack.kmap_offsets

# Both instruments counted: nothing left out for them, their work in the kmap.
echo all > $M/count_instruments
cat $M/stats > /tmp/before
echo 1 > $M/clear_dead_objects
echo 1 > $l
sh -c "echo 3 > $e && tar zcf /tmp/sample2.tar.gz /tmp/sample"
echo 0 > $e
echo 0 > $l
cat $M/stats > /out/counted.stats
cat $M/kmap_offsets > /out/counted.kmap_offsets
echo none > $M/count_instruments
for i in kasan lockdep; do
	check "counted: none of $i's accesses left out" \
		[ "$(stat_in /tmp/before excluded_$i)" = "$(stat_in /out/counted.stats excluded_$i)" ]
done
check "counted: Memorizer's own still left out" \
	[ "$(stat_in /out/counted.stats excluded_memorizer)" -gt "$(stat_in /tmp/before excluded_memorizer)" ]
check "counted: the kmap_offsets check" kmap_valid /out/counted.kmap_offsets
finish
