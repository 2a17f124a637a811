#!/bin/sh
# The host's half of vm/stock-kmap: the plugin's kmap of Debian's kernel
# is a valid binary stream, and in its capability map (functions by
# System.map's names) are the objects a file read makes and touches: the
# names getname_flags() allocates, the struct files alloc_empty_file()
# allocates read by vfs_read(), and the tasks' stacks; with the kernel's
# BTF (make stock's out/stock/vmlinux.btf: Debian ships no DWARF), the
# members of struct file vfs_read() reads, and filp's objects as struct
# file.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
bin=$out/kmap.bin
cat "$bin.summary"
check "memorizer check accepts the plugin's stream" "$memorizer" check "$bin"
"$memorizer" capmap --csv --system-map out/stock/System.map "$bin" > "$out/capmap.csv"
check "memorizer capmap reads it" [ -s "$out/capmap.csv" ]
# rows FUNCTION CALLSITE COLUMN: the capmap's rows of a function and a
# call site (gcc's clones too: getname_flags.part.0) whose COLUMN (3
# reads, 4 writes) is not 0.
rows() {
	awk -F, -v f="$1" -v c="$2" -v col="$3" '
	function is(name, want) { return name == want || index(name, want ".") == 1 }
	is($1, f) && is($2, c) && $col > 0' "$out/capmap.csv"
}
rows getname_flags getname_flags 4
check "getname_flags() allocates names and writes them" \
	[ -n "$(rows getname_flags getname_flags 4)" ]
rows vfs_read alloc_empty_file 3
check "vfs_read() reads the struct files alloc_empty_file() allocates" \
	[ -n "$(rows vfs_read alloc_empty_file 3)" ]
check "tasks' stacks are written" \
	sh -c "[ \"\$(awk -F, '\$2 == \"[stack]\" && \$4 > 0' '$out/capmap.csv')\" ]"
btf="--btf out/stock/vmlinux.btf --system-map out/stock/System.map"
"$memorizer" capmap --cols cache --fields $btf --csv "$bin" > "$out/fields.csv"
# vfs_read() reads f_mode (FMODE_READ, FMODE_CAN_READ, fsnotify's
# FMODE_NONOTIFY), f_op (->read_iter), f_iocb_flags (init_sync_kiocb())
# and f_path.dentry (fsnotify_access()), and no other member of a file.
read_members=$(awk -F, '$1 == "vfs_read" && $2 == "filp" && $6 > 0 { print $5 }' \
	"$out/fields.csv" | LC_ALL=C sort -u | tr '\n' ' ')
echo "vfs_read reads of filp's struct file: $read_members"
check "vfs_read() reads f_iocb_flags, f_mode, f_op and f_path.dentry of struct file" \
	[ "$read_members" = "f_iocb_flags f_mode f_op f_path.dentry " ]
"$memorizer" capmap --cols type $btf --csv "$bin" > "$out/types.csv"
check "--cols type groups filp's objects as struct file, read by vfs_read()" \
	sh -c "[ \"\$(awk -F, '\$1 == \"vfs_read\" && \$2 == \"struct file\" && \$3 > 0' '$out/types.csv')\" ]"
check "no cell of --cols type is filp's" \
	sh -c "[ -z \"\$(awk -F, '\$2 == \"filp\"' '$out/types.csv')\" ]"
check "a missing --btf file is an error" \
	sh -c "! '$memorizer' capmap --cols type --btf '$out/no.btf' '$bin' > /dev/null 2>&1"
finish
