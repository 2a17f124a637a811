#!/bin/sh
# The host's half of vm/instruments: by source file and function (out/vmlinux's
# DWARF), tar's kmap has no access from KASAN's unwinding nor from
# lockdep's own work (the functions of its recursion sections); the
# process that read /proc/self/stack has the unwinder's accesses in its
# kmap; with both instruments counted, they are back in tar's kmap.
# (What lockdep does before its sections, and the checks PROVE_RCU and
# spinlock debugging inline into every lock, stay: the demo kernel has no
# lockdep, tests/vm/demo-workload.sh.)
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
vmlinux=${VMLINUX:-out/vmlinux}
kasan='^(mm/kasan/|arch/x86/kernel/unwind_orc\.c|arch/x86/kernel/stacktrace\.c|kernel/stacktrace\.c|lib/stackdepot\.c):'
lockdep='^kernel/locking/lockdep\.c:(__lock_acquire|mark_lock|validate_chain|check_prev_add|lookup_chain_cache_add|__lock_release|mark_usage|__trace_hardirqs_on_caller|mark_held_locks) '

by_function "$out/tar.kmap_offsets" > "$out/tar.functions"
echo "tar: the 20 busiest functions:"
head -n 20 "$out/tar.functions"
check "tar: no access from KASAN's unwinding and stack depot" \
	not grep -Eq "$kasan" "$out/tar.functions"
check "tar: no access from lockdep's own work" \
	not grep -Eq "$lockdep" "$out/tar.functions"

by_function "$out/stack.kmap_offsets" > "$out/stack.functions"
echo "/proc/self/stack: the unwinder's functions:"
grep -E '^arch/x86/kernel/unwind_orc.c:' "$out/stack.functions"
check "/proc/self/stack: the workload's own unwinding is counted" \
	grep -q '^arch/x86/kernel/unwind_orc.c:unwind_next_frame [1-9]' "$out/stack.functions"

by_function "$out/counted.kmap_offsets" > "$out/counted.functions"
echo "counted: the instruments' functions, busiest first:"
grep -E "$instr" "$out/counted.functions" | head
check "counted: lockdep's accesses in the kmap" \
	grep -q '^kernel/locking/lockdep.c:__lock_acquire [1-9]' "$out/counted.functions"
check "counted: KASAN's unwinding in the kmap" \
	grep -q '^arch/x86/kernel/unwind_orc.c:unwind_next_frame [1-9]' "$out/counted.functions"
finish
