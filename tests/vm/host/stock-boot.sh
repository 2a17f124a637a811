#!/bin/sh
# The host's half of vm/stock-boot: what the guest wrote to /out came
# back, and the kernel that booted is make stock's.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
want=$(cat out/stock/kernel.release)
echo "booted $(cat "$out/uname" 2>/dev/null), make stock's $want"
check "/out came back" [ -s "$out/uname" ]
check "the release is make stock's" [ "$(cat "$out/uname")" = "$want" ]
check "lsmod listed mtrace_task" grep -q '^mtrace_task ' "$out/lsmod"
finish
