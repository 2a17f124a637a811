#!/bin/sh
# clear_object_list and clear_dead_objects drop the records of freed
# objects and keep live ones.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
# A marked process that stays alive holds live objects; its short-lived
# children leave freed ones.
sh -c 'echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled
for i in 1 2 3; do cat /etc/passwd > /dev/null; done
exec sleep 1000' &
keeper=$!
while [ "$(cat /proc/$keeper/comm)" != sleep ]; do sleep 0.1; done

# Records as "alloc_ip,pid,va,alloc_jiffies" and their state.
records() { awk -F, '/^[0-9a-f]/ { print $1 "," $2 "," $3 "," $5, ($7 == "0" ? "live" : "freed") }' "$1"; }

for name in clear_object_list clear_dead_objects; do
	cat $M/kmap > /out/before-$name
	echo 1 > $M/$name
	cat $M/kmap > /out/after-$name
	records /out/before-$name | sort > /tmp/before
	records /out/after-$name | sort > /tmp/after
	check "$name: kmap parses" kmap_valid /out/after-$name
	check "$name: there were freed records" grep -q ' freed$' /tmp/before
	# No record freed before the clear survives it.
	grep ' freed$' /tmp/before > /tmp/freed
	check "$name: freed records dropped" not grep -qxF -f /tmp/freed /tmp/after
	# The keeper's records, live before, are all still there.
	awk -v p="$keeper" -F, '$2 == p && / live$/' /tmp/before > /tmp/keep
	check "$name: the keeper has live records" [ -s /tmp/keep ]
	check "$name: live records kept" \
		sh -c 'while read -r r; do grep -qxF "$r" /tmp/after || exit 1; done < /tmp/keep'
	# Start the second round with fresh freed records.
	sh -c 'echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled
		cat /etc/passwd > /dev/null
		echo 0 > /sys/kernel/debug/memorizer/memorizer_enabled'
done
echo 0 > $M/memorizer_enabled
kill $keeper
finish
