# Sourced by guest tests (tests/run copies it to /vmrun/guest-lib.sh).
# check DESCRIPTION COMMAND...: run one assertion, print ok/not ok.
# finish: print the tally; exit non-zero if any assertion failed.
checks_failed=0
checks_run=0
check() {
	desc=$1
	shift
	checks_run=$((checks_run + 1))
	if "$@"; then
		echo "ok - $desc"
	else
		echo "not ok - $desc"
		checks_failed=$((checks_failed + 1))
	fi
}
not() { ! "$@"; }
finish() {
	echo "$checks_run checks, $checks_failed failed"
	[ "$checks_failed" -eq 0 ]
}

M=/sys/kernel/debug/memorizer

# kmap_valid FILE: FILE is a kmap by the format's rules (seeds 000 and 003,
# Documentation/dev-tools/memorizer.rst), as libkmap holds them: `memorizer
# check`, the guest's static build (the host's in a host half, where the
# caller sets $memorizer). It names the first bad line as FILE:LINE: what is
# wrong. busybox awk took 77 s on a 20 MB kmap under TCG; check, 1.7 s.
kmap_valid() {
	"${memorizer:-memorizer}" check "$1"
}

# stat_value KEY: a figure from $M/stats, whose lines are "key value"
# (kmalloc_tracked, accesses_recorded, memory_used_bytes, ...), found by
# name. Prints nothing and fails, saying why and naming the file, when the
# file cannot be read or has no KEY.
stat_value() {
	stat_value_v=$(awk -v k="$1" '$1 == k { print $2; exit }' $M/stats) ||
		{ echo "stat_value $1: cannot read $M/stats" >&2; return 1; }
	[ -n "$stat_value_v" ] ||
		{ echo "stat_value $1: no $1 in $M/stats" >&2; return 1; }
	echo "$stat_value_v"
}

# stats_sums_agree FILE: in a copy of $M/stats (one reading), the totals
# are the sums of their parts: accesses_recorded of the KIND_accesses,
# accesses_untracked of the untracked_CLASS.
stats_sums_agree() {
	awk '/^[a-z_]+_accesses / && !/^accesses/ { kinds += $2 }
	     /^untracked_/ { classes += $2 }
	     $1 == "accesses_recorded" { rec = $2 }
	     $1 == "accesses_untracked" { untr = $2 }
	     END { if (rec != kinds || untr != classes) {
			printf "recorded %d, per kind %d; untracked %d, per class %d\n", rec, kinds, untr, classes
			exit 1 } }' "$1"
}

# only_after KMAP PIDFILE [COMMS]: once the first process of PIDFILE (one
# pid a line, the traced tree) allocated, objects come only from the pids
# in PIDFILE or from processes whose comm is in COMMS (space-separated: for
# grandchildren whose pids the test cannot know), and every pid of PIDFILE
# allocated something. Found objects (alloc_ip is their own address:
# globals, per-CPU variables, stacks, slab objects and pages allocated
# unseen) are what the tree's accesses found, not allocations: they pass.
only_after() {
	awk -F, -v pidfile="$2" -v comms="${3:-}" '
	BEGIN {
		while ((getline p < pidfile) > 0) tree[p] = 1
		n = split(comms, c, " "); for (i = 1; i <= n; i++) ok[c[i]] = 1
	}
	/^[0-9a-f]/ { obj[NR] = $0; if (($2 in tree) && (!first || $5 < first)) first = $5 }
	END {
		if (!first) { print "no object from the traced tree"; exit 1 }
		for (i in obj) {
			split(obj[i], o, ",")
			if (o[5] <= first)
				continue
			if (!(o[2] in tree) && !(o[8] in ok) && o[1] != o[3]) {
				print "outside the traced tree: " obj[i]; bad = 1
			}
			seen[o[2]] = 1
		}
		for (p in tree) if (!(p in seen)) { print "nothing from pid " p; bad = 1 }
		exit bad
	}' "$1"
}

# The test module's objects (kernel/mm/memorizer/memorizer_test_module.c):
# 1999 bytes each, allocated by a process the tests name busybox-trig.
# test_objects FILE W R [WEND REND]: how many FILE holds whose access lines
# are exactly one of W writes and one of R reads, by their own pid; with
# WEND and REND (a kmap_offsets), the writes over bytes [0, WEND) and the
# reads over [0, REND).
test_objects() {
	awk -F, -v w="$2" -v r="$3" -v we="${4:-}" -v re="${5:-}" '
	function done() { if (obj && lines == 2 && sw && sr) n++; obj = 0 }
	function bytes(end) { return end == "" || (a[5] == 0 && a[6] == end) }
	/^[0-9a-f]/ { done(); obj = ($4 == 1999 && $8 == "busybox-trig"); pid = $2
		lines = sw = sr = 0; next }
	obj { lines++; split(substr($0, 3), a, ",")
		if (a[2] == pid && a[3] == w && a[4] == 0 && bytes(we)) sw = 1
		if (a[2] == pid && a[3] == 0 && a[4] == r && bytes(re)) sr = 1 }
	END { done(); print n + 0 }' "$1"
}

# records_out CHECK_OUTPUT: the records of a binary stream but its LOST
# records, from what memorizer check printed for it ("1 task", "2 tasks").
records_out() {
	grep -oE '[0-9]+ (allocs?|frees?|access(es)?|tasks?|caches?|calls?)(,|$)' "$1" |
		awk '{ n += $1 } END { print n + 0 }'
}

# test_objects_any FILE: the test module's objects in FILE, whatever their
# accesses.
test_objects_any() {
	awk -F, '/^[0-9a-f]/ && $4 == 1999 && $8 == "busybox-trig"' "$1" | wc -l
}

# by_function KMAP: "FILE:FUNCTION ACCESSES" a line, busiest first: the
# accesses (reads and writes) of each function of the kernel's sources, by
# memorizer capmap with $vmlinux's DWARF (host halves).
by_function() {
	"${memorizer:-memorizer}" capmap --rows file-function --cols kind --csv \
		--vmlinux "$vmlinux" "$1" |
		awk -F, 'NR > 1 { n[$1] += $3 + $4 } END { for (f in n) print f, n[f] }' |
		sort -k2,2nr -k1,1
}

# expect_kasan_reports, expected_kasan_reports_end: mark in the kernel log
# where the guest makes KASAN reports on purpose (KASAN's own kasan_test).
# vm/run --expect-kasan counts the reports between the marks instead of
# failing on them; without that option the marks change nothing.
expect_kasan_reports() {
	echo "vmrun: KASAN reports expected" > /dev/kmsg
}
expected_kasan_reports_end() {
	echo "vmrun: KASAN reports no longer expected" > /dev/kmsg
}
