# vm/run --icount: the guest's clock counts its instructions, so time the
# host takes away from the guest is not time to the guest. The guest reads
# its uptime in a loop while this script stops QEMU for 8 s of the host's
# time (SIGSTOP, then SIGCONT): on the host's clock the guest would see an
# 8 s step between two readings; on instructions, no step of a second.
set -u
g=$(mktemp); o=$(mktemp); trap 'rm -f "$g" "$o"' EXIT
cat > "$g" <<'GUEST'
#!/bin/sh
grep -o 'tsc_early_khz=[0-9]*' /proc/cmdline
read -r start _ < /proc/uptime
echo "icount test: reading the clock"
# Five seconds of the guest's time, the largest step between two readings
# in hundredths of a second (/proc/uptime's resolution).
prev=${start%.*}${start#*.}; last=$prev; max=0
while [ $((last - ${start%.*}${start#*.})) -lt 500 ]; do
	read -r now _ < /proc/uptime
	last=${now%.*}${now#*.}
	[ $((last - prev)) -gt $max ] && max=$((last - prev))
	prev=$last
done
echo "largest step: $max"
GUEST
marker=vmrun_icount_test=$$
vm/run --icount --timeout 300 --append "kunit.enable=0 $marker" "$g" > "$o" 2>&1 &
vmrun=$!
# Wait for the guest's loop, then stop QEMU for 8 s.
stopped=0
for _ in $(seq 600); do
	if grep -q '^icount test: reading the clock' "$o"; then
		pid=$(pgrep -f "qemu-system-x86_64 .*$marker") &&
			kill -STOP $pid && sleep 8 && kill -CONT $pid && stopped=1
		break
	fi
	kill -0 $vmrun 2>/dev/null || break
	sleep 0.2
done
wait $vmrun
rc=$?
cat "$o"
echo "vm/run exited $rc"
[ $stopped = 1 ] || { echo "QEMU was not stopped while the guest read its clock"; exit 1; }
[ $rc = 0 ] || exit 1
grep -q '^tsc_early_khz=1000000$' "$o" || { echo "the guest was not told its 1 GHz TSC"; exit 1; }
step=$(sed -n 's/^largest step: \([0-9]*\)$/\1/p' "$o")
[ -n "$step" ] && [ "$step" -lt 100 ] ||
	{ echo "the guest's clock stepped ${step:-?} hundredths of a second: it saw the host's pause"; exit 1; }
