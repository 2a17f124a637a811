# vm/run --one-thread: QEMU runs the guest's vCPUs in one TCG thread, in
# which the kernel may patch its own text. The guest turns call logging
# on and off twice (ftrace patches every function's entry each time)
# while both vCPUs are busy; under multi-threaded TCG such a guest once
# died of an unhandled int3 (vm/instruments in CI). Here it must end
# cleanly, and QEMU must have been started with thread=single.
set -u
g=$(mktemp); o=$(mktemp); trap 'rm -f "$g" "$o"' EXIT
cat > "$g" <<'GUEST'
#!/bin/sh
M=/sys/kernel/debug/memorizer
(while :; do cat /proc/kallsyms > /dev/null; done) & load=$!
i=0
while [ $i -lt 2 ]; do
	echo 1 > $M/log_calls_enabled && echo 0 > $M/log_calls_enabled || exit 1
	i=$((i + 1))
done
kill $load
echo "one-thread test: $i flips"
GUEST
vm/run --one-thread --timeout 300 --append kunit.enable=0 "$g" > "$o" 2>&1 & run=$!
single=no
for _ in $(seq 120); do
	if pgrep -af qemu-system-x86 | grep -q 'accel tcg,thread=single'; then
		single=yes
		break
	fi
	kill -0 $run 2> /dev/null || break
	sleep 0.5
done
wait $run; rc=$?
cat "$o"
[ $rc = 0 ] || { echo "vm/run --one-thread: exit $rc"; exit 1; }
grep -q '^one-thread test: 2 flips' "$o" || { echo "the guest did not flip call logging twice"; exit 1; }
[ $single = yes ] || { echo "QEMU did not run with accel tcg,thread=single"; exit 1; }
echo "vmrun-one-thread: ok"
