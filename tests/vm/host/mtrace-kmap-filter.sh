#!/bin/sh
# The host's half of vm/mtrace-kmap-filter: the plugin's stream is valid,
# it counts accesses, all by instructions in the policy's range (the
# guest's _stext to _etext), and its summary counts at least the test
# module's 240 accesses dropped by the filter, apart from the rest.
. "$(dirname "$0")/../../lib/guest-lib.sh"
. "$(dirname "$0")/../../lib/mtrace-filter.sh"
out=$1
bin=$out/kmap.bin
cat "$bin.summary"
check "memorizer check accepts the plugin's stream" "$memorizer" check "$bin"
filter_summary "$bin.summary"
check "the summary counts the dropped apart" [ -n "$dropped" ]
check "the range is the guest's _stext to _etext" \
	[ "$range" = "0x$(sym _stext)-0x$(sym _etext)" ]
check "at least the test module's 240 accesses dropped" [ "${dropped:-0}" -ge 240 ]
"$memorizer" text "$bin" | ips_in_range "$range" kmap > "$out/counted.txt"
read -r counted outside < "$out/counted.txt"
echo "$counted (object, ip, pid) counters, $outside by an ip outside the range"
check "accesses were counted" [ "$counted" -gt 0 ]
check "every one by an ip in the range" [ "$outside" = 0 ]
finish
