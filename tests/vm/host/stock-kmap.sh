#!/bin/sh
# The host's half of vm/stock-kmap: the plugin's kmap of Debian's kernel
# is a valid binary stream, and in its capability map (functions by
# System.map's names) are the objects a file read makes and touches: the
# names getname_flags() allocates, the struct files alloc_empty_file()
# allocates read by vfs_read(), and the tasks' stacks.
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
finish
