#!/bin/sh
# memorizer_enabled: root-only; reads back every accepted value; rejects bad
# input with EINVAL and keeps the old value; unprivileged users can do
# nothing with it.
. /vmrun/guest-lib.sh
f=/sys/kernel/debug/memorizer/memorizer_enabled
is() { [ "$(cat $f)" = "$1" ]; }
accepts() { printf '%s' "$1" > $f && is "$2"; }
rejects() {	# the write fails with EINVAL, and the value stays what it was
	before=$(cat $f)
	err=$(echo -n "$1" 2>&1 > $f) && return 1
	echo "$err" | grep -q 'Invalid argument' && is "$before"
}
as_nobody_denied() {	# COMMAND fails as user nobody with EACCES
	err=$(su -s /bin/sh nobody -c "$1" 2>&1) && return 1
	echo "$err" | grep -q 'Permission denied'
}

check "file exists" [ -f $f ]
check "mode 0600 root:root" [ "$(stat -c '%a %u %g' $f)" = "600 0 0" ]
check "off at boot" is 0

for v in 1 2 3 0; do
	check "accepts $v" accepts "$v" "$v"
	check "accepts $v with newline" accepts "$v
" "$v"
done
sleep 1000 &
pid=$!
check "accepts live pid $pid" accepts "$pid" "$pid"
echo 3 > $f
for bad in abc -1 +1 1x "1 2" " 1" 0x3 "3

" 99999999999 4194304; do
	check "rejects '$bad'" rejects "$bad"
done
kill $pid; wait $pid 2>/dev/null
check "rejects exited pid $pid" rejects "$pid"
check "value kept after rejects" is 3

# The unprivileged see nothing and change nothing.
check "nobody cannot read" as_nobody_denied "cat $f"
check "nobody cannot write" as_nobody_denied "echo 0 > $f"
check "value kept after nobody" is 3
echo 0 > $f

finish
