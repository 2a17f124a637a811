# A guest hung in the kernel (a CPU spinning with interrupts off, from
# LKDTM's HARDLOCKUP) is reported twice over: by a detector while it runs,
# and, when vm/run's timeout fires, by the backtraces that vm/run's NMI
# makes the guest print, the spinning function among them. Which detector
# speaks first depends on timing under TCG: the hard-lockup detector, RCU's
# stall warning, or the soft-lockup detector on the other CPU, stuck in
# smp_call_function() waiting for the spinning one (fresh-clone CI,
# 2026-11-23). The backtrace of the spinning CPU is what must be there.
set -u
g=$(mktemp); e=$(mktemp); trap 'rm -f "$g" "$e"' EXIT
cat > "$g" <<'GUEST'
#!/bin/sh
modprobe lkdtm || exit 3
echo HARDLOCKUP > /sys/kernel/debug/provoke-crash/DIRECT
exit 0
GUEST
vm/run --timeout 120 --append kunit.enable=0 "$g" 2> "$e"
rc=$?
cat "$e"
echo "vm/run exited $rc"
[ $rc -eq 124 ] &&
	grep -Eq 'timed out after 120s \((hard lockup|RCU stall|soft lockup)\); CPU backtraces, blocked tasks and held locks captured by NMI' "$e" &&
	grep -q '^vm/run: NMI backtrace for cpu' "$e" &&
	grep -q '^vm/run:   at lkdtm_HARDLOCKUP+0x' "$e"
