#!/bin/sh
# The host's half of vm/demo-workload: by source file and function (the
# demo kernel's DWARF), less than 1% of the accesses in the demo's kmap and
# in the whole-system mixed one come from KASAN, the unwinder,
# stack_trace_save(), the stack depot or lockdep, and none of the 20
# busiest functions is theirs.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
vmlinux=${VMLINUX:-out/demo-kernel/vmlinux}
instr='^(kernel/locking/lockdep[a-z_]*\.c|mm/kasan/|arch/x86/kernel/unwind_orc\.c|arch/x86/kernel/stacktrace\.c|kernel/stacktrace\.c|lib/stackdepot\.c):'

# per_mille FILE: the instruments' share of the accesses in FILE's rows.
per_mille() {
	awk -v re="$instr" '{ all += $2 } $1 ~ re { ins += $2 }
		END { printf "%d\n", all ? 1000 * ins / all : 1000 }' "$1"
}

for k in tar mixed; do
	by_function "$out/$k.kmap_offsets" > "$out/$k.functions"
	echo "$k: the 20 busiest functions:"
	head -n 20 "$out/$k.functions"
	echo "$k: the instruments' functions, busiest first:"
	grep -E "$instr" "$out/$k.functions" | head
	check "$k: less than 1% of the accesses from the instruments ($(per_mille "$out/$k.functions") per mille)" \
		[ "$(per_mille "$out/$k.functions")" -lt 10 ]
	check "$k: none of the 20 busiest functions is an instrument's" \
		not sh -c "head -n 20 '$out/$k.functions' | grep -Eq '$instr'"
done
finish
