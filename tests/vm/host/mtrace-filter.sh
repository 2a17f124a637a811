#!/bin/sh
# The host's half of vm/mtrace-filter: the log holds exactly what the
# policy keeps (every access's ip in the filter-arg's range, the guest's
# _stext to _etext), and what it dropped, counted in the summary, is at
# least the sharing test's threads' writes: module code, which the same
# run without the filter logs (vm/mtrace-sharing finds them). The log is
# deleted when every check passes.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
log=$out/mtrace.log
sym() { awk -v s="$1" '$3 == s { print $1; exit }' "$out/kallsyms"; }
cat "$log.summary"
check "the log checks" "$memorizer" check --system-map "$out/kallsyms" "$log"
range=$(sed -n 's/^mtrace: filter .*select\.so (filter-arg=ip=\(0x[0-9a-f]*-0x[0-9a-f]*\)): .*/\1/p' "$log.summary")
dropped=$(sed -n 's/^mtrace: filter .*: \([0-9]*\) kernel accesses dropped.*/\1/p' "$log.summary")
echo "range $range, $dropped dropped"
check "the summary names the policy and its range" [ -n "$range" ]
check "the range is the guest's _stext to _etext" \
	[ "$range" = "0x$(sym _stext)-0x$(sym _etext)" ]
"$memorizer" text "$log" | python3 -c 'import sys
lo, hi = (int(x, 16) for x in sys.argv[1].split("-"))
kept = out = 0
for r in sys.stdin:
	f = r.split(",")
	if f[0] != "access":
		continue
	kept += 1
	if not lo <= int(f[4], 16) < hi:
		out += 1
		if out <= 5:
			print("outside:", r.strip(), file=sys.stderr)
print(kept, out)' "$range" > "$out/kept.txt"
read -r kept outside < "$out/kept.txt"
echo "$kept accesses logged, $outside outside the range"
check "accesses were logged" [ "$kept" -gt 0 ]
check "every one in the range" [ "$outside" = 0 ]
set -- $(cat "$out/writes")
echo "the threads' writes: $1 and $2"
check "the threads ran" [ -n "$2" ]
check "at least their writes were dropped" [ "$dropped" -ge $(($1 + $2)) ]
finish && rm -f "$log" "$log.summary"
