#!/bin/sh
# The host's half of vm/mtrace-sharing (tests/run runs it after the
# guest's, with the guest's --out directory): the plugin's log checks, its
# task switches were decoded, and memorizer sharing ranks the test
# module's falsely shared line first among its two threads' accesses
# (--pid: the plugin decoded the task switches), flagged, with the two writer
# functions, and its truly shared counter's line unflagged, with the
# counting function. The log is deleted when every check passes.
#
# With a second argument "byte", vm/mtrace-sharing-byte's (the same guest
# run at granularity=byte): the log says so, the counter's line is ranked
# first (true sharing: the same bytes), and of the falsely shared line
# each thread has at most one access flagged -- its first write, if the
# other vCPU zeroed the module's .bss when it was loaded -- at offset 0
# (thread a) or 32 (thread b): no byte the other wrote.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
granularity=${2:-line}
memorizer=${MEMORIZER:-out/bin/memorizer}
log=$out/mtrace.log
sym() { awk -v s="$1" '$3 == s { print $1; exit }' "$out/kallsyms"; }
false_line=$(sym mtrace_false_line)
true_line=$(sym mtrace_true_line)
echo "mtrace_false_line at $false_line, mtrace_true_line at $true_line"
check "the module's mtrace_false_line is known" [ -n "$false_line" ]
check "the module's mtrace_true_line is known" [ -n "$true_line" ]
check "the log checks" "$memorizer" check --system-map "$out/kallsyms" "$log"
switches=$("$memorizer" text "$log" | grep -c '^switch,[0-9]*,[0-9]*,[0-9]')
echo "$switches task switches decoded"
check "task switches were decoded (mtrace_task's markers)" [ "$switches" -gt 0 ]
# The test's two threads (the rest of the boot moves lines too: jiffies
# and the timekeeper's, by the timer, rank above a busy host's threads).
set -- $(cat "$out/pids")
echo "the threads: $1 and $2"
check "the threads' pids are known" [ -n "$2" ]
pids="--pid $1 --pid $2"
"$memorizer" sharing $pids --system-map "$out/kallsyms" -n 10 "$log" > "$out/sharing.txt"
check "memorizer sharing runs" [ $? = 0 ]
head -n 40 "$out/sharing.txt"
check "at granularity $granularity" \
	grep -q "^$log: mode sharing, granularity $granularity," "$out/sharing.txt"
"$memorizer" sharing $pids --csv --system-map "$out/kallsyms" -n 10 "$log" > "$out/sharing.csv"
first=$(sed -n 2p "$out/sharing.csv")
echo "first: $first"
row=$(grep "^[0-9]*,$true_line," "$out/sharing.csv")
echo "counter: $row"
check "the counter's line is ranked" [ -n "$row" ]
check "as true sharing" [ "$(echo "$row" | cut -d, -f7)" = no ]
check "by mtrace_share_count" sh -c 'echo "$1" | grep -q "mtrace_share_count+"' - "$row"
check "moved between the threads at least 10 times" [ "$(echo "$row" | cut -d, -f3)" -ge 10 ]
if [ "$granularity" = byte ]; then
	# The threads' flagged accesses to the false line, by thread and
	# offset; those at a byte the other thread writes are "bad".
	"$memorizer" text "$log" | python3 -c 'import sys
line, a, b = int(sys.argv[1], 16), sys.argv[2], sys.argv[3]
n = {a: 0, b: 0}
bad = 0
for r in sys.stdin:
	f = r.split(",")
	if f[0] != "access" or f[3] not in n or int(f[5], 16) >> 6 != line >> 6:
		continue
	off = int(f[5], 16) - line
	print("flagged: pid", f[3], "offset", off, "size", f[7], file=sys.stderr)
	n[f[3]] += 1
	bad += off != (0 if f[3] == a else 32)
print(n[a], n[b], bad)' "$false_line" "$1" "$2" > "$out/false-byte.txt"
	read -r na nb bad < "$out/false-byte.txt"
	echo "the false line: $na flagged of thread a, $nb of thread b, $bad at another offset"
	check "thread a: at most its first write flagged" [ "$na" -le 1 ]
	check "thread b: at most its first write flagged" [ "$nb" -le 1 ]
	check "at offsets 0 (a) and 32 (b) only" [ "$bad" = 0 ]
	# Every line ranked (-n 0): the false line's transfers, 0 if none.
	n=$("$memorizer" sharing $pids --csv -n 0 "$log" |
		awk -F, -v l="$false_line" '$2 == l { n = $3 } END { print n + 0 }')
	echo "the false line: $n transfers"
	check "the false line has at most 2 transfers" [ "$n" -le 2 ]
	"$memorizer" sharing $pids --json --system-map "$out/kallsyms" -n 10 "$log" > "$out/sharing.json"
	check "--json says granularity byte" grep -q '"granularity":"byte"' "$out/sharing.json"
	finish && rm -f "$log" "$log.summary"
	exit
fi
check "the falsely shared line is ranked first" \
	[ "$(echo "$first" | cut -d, -f2)" = "$false_line" ]
check "and flagged false sharing" [ "$(echo "$first" | cut -d, -f7)" = yes ]
check "by mtrace_share_write_a" sh -c 'echo "$1" | grep -q "mtrace_share_write_a+"' - "$first"
check "and mtrace_share_write_b" sh -c 'echo "$1" | grep -q "mtrace_share_write_b+"' - "$first"
check "the writers wrote bytes 0-3 and 32-35" \
	sh -c 'echo "$1" | grep -q "0:0-3;1:32-35\|1:32-35;0:0-3"' - "$first"
"$memorizer" sharing $pids --json --system-map "$out/kallsyms" -n 10 "$log" > "$out/sharing.json"
check "--json is JSON" python3 -m json.tool "$out/sharing.json" > /dev/null
finish && rm -f "$log" "$log.summary"
