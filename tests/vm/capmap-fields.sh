#!/bin/sh
# A known function writes a known member of a known struct, a known number
# of times: dd reads a file one byte at a time, 13 reads, and each read(2)
# loads and stores the file's struct file.f_pos once (ksys_read: pos =
# *ppos, then f_pos = pos). The traced tree is the shell and its dd, from
# dd's open on (mode 3); the host half names the members with out/vmlinux.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
printf 'Memorizer, 13' > /tmp/thirteen
echo 1 > $M/clear_object_list
echo 1 > $M/memorizer_log_access
sh -c 'echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled
	dd if=/tmp/thirteen of=/dev/null bs=1 count=13 2> /tmp/dd.err
	echo 0 > /sys/kernel/debug/memorizer/memorizer_enabled'
echo 0 > $M/memorizer_log_access
cat $M/kmap_offsets > /out/kmap_offsets
cat /tmp/dd.err
check "dd read 13 bytes, one at a time" grep -q '^13+0 records in' /tmp/dd.err
finish
