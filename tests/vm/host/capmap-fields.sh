#!/bin/sh
# The host's half of vm/capmap-fields: with out/vmlinux's DWARF, the
# struct file dd opened (alloc_empty_file keeps it in its variable f) and
# the read syscall's 13 loads and 13 stores of its f_pos, named by
# memorizer capmap (by function, and by file and function), export (file,
# line and member of each counter) and diff (the second run's 7 more).
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
vmlinux=${VMLINUX:-out/vmlinux}
a=$out/kmap_offsets b=$out/kmap_offsets2
check "the kmap_offsets check" "$memorizer" check "$a" "$b"
"$memorizer" capmap --rows file-function --cols type --fields \
	--vmlinux "$vmlinux" --csv "$a" > "$out/capmap.csv"
rc=$?
check "capmap exits 0" [ $rc = 0 ]
echo "capmap: exit $rc, $(wc -l < "$out/capmap.csv") lines; struct file's rows of ksys_read:"
grep ':ksys_read,struct file,' "$out/capmap.csv"
"$memorizer" capmap --rows function --cols type --fields --vmlinux "$vmlinux" \
	"$a" | sed -n 3p
check "ksys_read in fs/read_write.c loaded and stored struct file.f_pos 13 times, of one file" \
	grep -qx 'fs/read_write.c:ksys_read,struct file,288,296,f_pos,13,13,0,1' "$out/capmap.csv"
check "and loaded its f_mode 13 times" \
	grep -qx 'fs/read_write.c:ksys_read,struct file,72,76,f_mode,13,0,0,1' "$out/capmap.csv"
rm -rf "$out/export"
"$memorizer" export "$a" --format csv -o "$out/export" --vmlinux "$vmlinux"
rc=$?
check "export exits 0" [ $rc = 0 ]
echo "export: exit $rc; ksys_read's counters of f_pos:"
grep ',ksys_read,.*,f_pos$' "$out/export/accesses.csv"
check "export: a load and a store counter of f_pos, with file and line" sh -c "
	grep -Eq '^[0-9]+,[0-9a-f]+,ksys_read,fs/read_write.c,[0-9]+,[0-9]+,13,0,288,296,f_pos$' '$out/export/accesses.csv' &&
	grep -Eq '^[0-9]+,[0-9a-f]+,ksys_read,fs/read_write.c,[0-9]+,[0-9]+,0,13,288,296,f_pos$' '$out/export/accesses.csv'"
"$memorizer" diff "$a" "$b" --rows function --cols type --vmlinux "$vmlinux" \
	--csv -a > "$out/diff.csv"
rc=$?
check "diff exits 0" [ $rc = 0 ]
echo "diff: exit $rc; ksys_read's row:"
grep ',ksys_read,' "$out/diff.csv"
# 13 + 7 loads each of f_pos and f_mode, 13 + 7 stores of f_pos.
check "diff: the second run's 14 loads and 7 stores more" \
	grep -q '^changed,ksys_read,struct file,26,40,13,20,0,0,' "$out/diff.csv"
finish
