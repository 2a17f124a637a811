#!/bin/sh
# The host's half of vm/mtrace-filter: the log holds exactly what the
# policy keeps (every access's ip in the filter-arg's range, the guest's
# _stext to _etext), and what it dropped, counted in the summary, is at
# least the sharing test's threads' writes: module code, which the same
# run without the filter logs (vm/mtrace-sharing finds them). The log is
# deleted when every check passes.
. "$(dirname "$0")/../../lib/guest-lib.sh"
. "$(dirname "$0")/../../lib/mtrace-filter.sh"
out=$1
log=$out/mtrace.log
cat "$log.summary"
check "the log checks" "$memorizer" check --system-map "$out/kallsyms" "$log"
filter_summary "$log.summary"
check "the summary names the policy and its range" [ -n "$range" ]
check "the range is the guest's _stext to _etext" \
	[ "$range" = "0x$(sym _stext)-0x$(sym _etext)" ]
"$memorizer" text "$log" | ips_in_range "$range" log > "$out/kept.txt"
read -r kept outside < "$out/kept.txt"
echo "$kept accesses logged, $outside outside the range"
check "accesses were logged" [ "$kept" -gt 0 ]
check "every one in the range" [ "$outside" = 0 ]
set -- $(cat "$out/writes")
echo "the threads' writes: $1 and $2"
check "the threads ran" [ -n "$2" ]
check "at least their writes were dropped" [ "$dropped" -ge $(($1 + $2)) ]
finish && rm -f "$log" "$log.summary"
