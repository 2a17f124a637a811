#!/bin/sh
# The host's half of vm/capmap-fields: from the guest's kmap_offsets and
# out/vmlinux's DWARF, memorizer capmap --cols type --fields names the
# struct file dd opened (typed by alloc_empty_file's variable f), the
# member f_pos, and the read syscall's 13 loads and 13 stores of it.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
vmlinux=${VMLINUX:-out/vmlinux}
check "the kmap_offsets checks" "$memorizer" check "$out/kmap_offsets"
"$memorizer" capmap --rows function --cols type --fields --vmlinux "$vmlinux" \
	--csv "$out/kmap_offsets" > "$out/capmap.csv"
echo "capmap: exit $?, $(wc -l < "$out/capmap.csv") lines; f_pos's rows:"
grep ',f_pos,' "$out/capmap.csv"
"$memorizer" capmap --rows function --cols type --fields --vmlinux "$vmlinux" \
	"$out/kmap_offsets" | sed -n 3p
check "ksys_read loaded and stored struct file.f_pos 13 times, of one file" \
	grep -qx 'ksys_read,struct file,[0-9]*,[0-9]*,f_pos,13,13,0,1' "$out/capmap.csv"
finish
