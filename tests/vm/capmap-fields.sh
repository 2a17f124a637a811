#!/bin/sh
# A known function writes a known member of a known struct, a known number
# of times: dd reads a file one byte at a time, 13 reads, and each read(2)
# loads and stores the file's struct file.f_pos once (ksys_read: pos =
# *ppos, then f_pos = pos), and loads f_mode once (file_ppos()). The traced
# tree is the shell and its dd (mode 3). Then a second dd reads 7 bytes
# likewise, for memorizer diff. The host half reads both kmap_offsets with
# out/vmlinux's DWARF.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
printf 'Memorizer, 13' > /tmp/thirteen
# read_bytes N: dd reads N bytes of the file, one at a time, traced.
read_bytes() {
	sh -c "echo 3 > $M/memorizer_enabled
		dd if=/tmp/thirteen of=/dev/null bs=1 count=$1 2> /tmp/dd.err
		echo 0 > $M/memorizer_enabled"
	cat /tmp/dd.err
}
echo 1 > $M/clear_object_list
echo 1 > $M/memorizer_log_access
read_bytes 13
check "dd read 13 bytes, one at a time" grep -q '^13+0 records in' /tmp/dd.err
cat $M/kmap_offsets > /out/kmap_offsets
read_bytes 7
check "dd read 7 bytes, one at a time" grep -q '^7+0 records in' /tmp/dd.err
echo 0 > $M/memorizer_log_access
cat $M/kmap_offsets > /out/kmap_offsets2
finish
