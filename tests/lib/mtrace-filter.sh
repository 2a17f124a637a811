# Sourced by the host halves of the mtrace filter tests
# (tests/vm/host/mtrace-filter.sh, mtrace-kmap-filter.sh).
#
memorizer=${MEMORIZER:-out/bin/memorizer}

# sym NAME: NAME's address in the guest's kallsyms, $out/kallsyms.
sym() { awk -v s="$1" '$3 == s { print $1; exit }' "$out/kallsyms"; }

# filter_summary SUMMARY: from the plugin's summary, the select.so policy's
# ip= range ("0xSTART-0xEND") in $range and its dropped count in $dropped.
filter_summary() {
	range=$(sed -n 's/^mtrace: filter .*select\.so (filter-arg=ip=\(0x[0-9a-f]*-0x[0-9a-f]*\)): .*/\1/p' "$1")
	dropped=$(sed -n 's/^mtrace: filter .*: \([0-9]*\) kernel accesses dropped, .*/\1/p' "$1")
	echo "range $range, $dropped dropped"
}

# ips_in_range RANGE log|kmap: of memorizer text's output on standard
# input (an mtrace log's access lines, or a kmap's "  IP,PID,..." lines),
# "N OUTSIDE": the accesses (counters) and those whose ip is not in RANGE.
ips_in_range() {
	python3 -c 'import sys
lo, hi = (int(x, 16) for x in sys.argv[1].split("-"))
log = sys.argv[2] == "log"
n = out = 0
for r in sys.stdin:
	if not (r.startswith("access,") if log else r.startswith("  ")):
		continue
	n += 1
	ip = r.split(",")[4 if log else 0]
	if not lo <= int(ip, 16) < hi:
		out += 1
		if out <= 5:
			print("outside:", r.strip(), file=sys.stderr)
print(n, out)' "$1" "$2"
}
