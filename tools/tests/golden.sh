#!/usr/bin/env bash
# Golden-file tests of every memorizer subcommand: each case runs one
# command line and compares its standard output, standard error and exit
# status with tools/tests/golden/CASE.out.
#
#   golden.sh MEMORIZER MKSTREAM [GROUP]   run the cases (GROUP: one
#                                          subcommand's cases only)
#   golden.sh --list                       the groups
#   UPDATE=1 golden.sh ...                 rewrite the .out files (review
#                                          the diff before committing)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
groups="check report text symbolize record stream capmap diff export mtrace crosscheck compartments progress help"
if [ "${1:-}" = --list ]; then
	echo "$groups"
	exit 0
fi
[ $# -ge 2 ] || { echo "usage: $0 MEMORIZER MKSTREAM [GROUP]" >&2; exit 2; }
M=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MKSTREAM=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
only=${3:-}
fx=$here/fixtures
gold=$here/golden
# Progress lines only where a case asks for them.
unset MEMORIZER_PROGRESS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
ln -s "$fx" fixtures
passed=0
failed=0

# run GROUP NAME CMD...: one case.
run() {
	local group=$1 name=$2 out=$tmp/$2.out status
	shift 2
	[ -z "$only" ] || [ "$only" = "$group" ] || return 0
	"$@" > "$tmp/stdout" 2> "$tmp/stderr"
	status=$?
	{
		cat "$tmp/stdout"
		sed 's/^/stderr: /' "$tmp/stderr"
		echo "exit $status"
	} > "$out"
	if [ -n "${UPDATE:-}" ]; then
		cp "$out" "$gold/$name.out"
	fi
	if diff -u "$gold/$name.out" "$out" > "$tmp/diff" 2>&1; then
		passed=$((passed + 1))
		echo "ok - $group/$name"
	else
		failed=$((failed + 1))
		echo "not ok - $group/$name"
		sed 's/^/    /' "$tmp/diff" | head -40
	fi
}

"$MKSTREAM" < "$fx/stream.desc" > stream.bin || exit 1
"$MKSTREAM" < "$fx/globals.desc" > globals.bin || exit 1
"$MKSTREAM" < "$fx/found.desc" > found.bin || exit 1
"$MKSTREAM" < "$fx/modules.desc" > modules.bin || exit 1
# offsets.desc (a version 5 stream with offsets), and the same records as
# a version 4 stream: 56-byte ACCESS records, their offsets not read.
"$MKSTREAM" < "$fx/offsets.desc" > offsets.bin || exit 1
sed 's/^header nr_cpus=2 hz=250$/& version=4/' "$fx/offsets.desc" |
	"$MKSTREAM" > offsets-v4.bin || exit 1
bad() {	# bad NAME: a kmap from standard input
	cat > "$1"
}

# check: the golden kmap, a binary stream, and one file per kind of error.
run check check-kmap "$M" check fixtures/tar.kmap
run check check-kmap-symbols "$M" check --system-map fixtures/System.map fixtures/tar.kmap
run check check-stream "$M" check stream.bin
run check check-stdin sh -c "\"$M\" check - < fixtures/tar.kmap"
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  ffffffff81000010,1,0,0\n  ffffffff81000010,1,1,0\n' | bad dup.kmap
run check check-bad-access "$M" check dup.kmap
printf 'ffffffff81000000,1,ffff888000001000,8,100,90,ffffffff81000004,sh\nffffffff81000000,1,ffff888000002000,8,100,0,ffffffff81000004,sh\n' | bad freed.kmap
run check check-bad-free "$M" check freed.kmap
# Seed 000: not every free_ip is obtained; a freed object may have
# free_ip 0. Every reader takes it.
printf 'ffffffff81000000,1,ffff888000001000,8,100,120,0,sh\n  ffffffff81000010,1,1,0\n' > free-ip-0.kmap
run check check-free-ip-unknown sh -c "\"$M\" check free-ip-0.kmap && \"$M\" text free-ip-0.kmap | cmp - free-ip-0.kmap && \"$M\" report -n 1 free-ip-0.kmap > /dev/null && echo all read it"
printf 'ffffffff81000000,1,ffff888000001000,64,100,0,0,sh\nffffffff81000000,0,ffff888000001020,8,101,0,0,hardirq\nffffffff81000000,7,ffff888000001040,8,101,0,0,softirq\n' | bad overlap.kmap
run check check-bad-overlap "$M" check overlap.kmap
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  0ff,1,0,1\n' | bad zero.kmap
run check check-bad-leading-zero "$M" check zero.kmap
printf 'FFFFFFFF81000000,1,ffff888000001000,8,100,0,0,sh\n' | bad upper.kmap
run check check-bad-uppercase "$M" check upper.kmap
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  ffffffff81000010,1,18446744073709551616,1\n' | bad big.kmap
run check check-bad-overflow "$M" check big.kmap
printf 'ffffffff81000000,4194304,ffff888000001000,8,100,0,0,sh\n' | bad pid.kmap
run check check-bad-pid "$M" check pid.kmap
printf '  ffffffff81000010,1,0,1\n' | bad orphan.kmap
run check check-bad-orphan-access "$M" check orphan.kmap
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,a,b\n' | bad fields.kmap
run check check-bad-fields "$M" check fields.kmap
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n   ffffffff81000010,1,0,1\n' | bad indent.kmap
run check check-bad-indent "$M" check indent.kmap
head -c 100 fixtures/tar.kmap > cut.kmap
run check check-bad-cut "$M" check cut.kmap
{ printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,'; head -c 600 /dev/zero | tr '\0' x; echo; } > long.kmap
run check check-bad-long-line "$M" check long.kmap
# Offsets (kmap_offsets, version 5 streams): valid ones, and each kind of
# bad one, refused by check and by every reader alike.
run check check-offsets-stream sh -c "\"$M\" check offsets.bin && \"$M\" check offsets-v4.bin"
run check check-offsets-kmap sh -c "\"$M\" check fixtures/offsets.kmap && \"$M\" text --offsets offsets.bin | \"$M\" check -"
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  ffffffff81000010,1,1,0,8,4\n' | bad offset-after-end.kmap
run check check-bad-offset-after-end sh -c "\"$M\" check offset-after-end.kmap; \"$M\" text offset-after-end.kmap"
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  ffffffff81000010,1,1,0,4,4\n  ffffffff81000014,1,1,0,4,0\n  ffffffff81000018,1,1,0,0,4294967296\n' | bad offset-empty.kmap
run check check-bad-offset-empty "$M" check offset-empty.kmap
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  ffffffff81000010,1,1,0,0,4\n  ffffffff81000014,1,1,0\n' | bad mixed.kmap
run check check-bad-offsets-mixed sh -c "\"$M\" check mixed.kmap; \"$M\" report mixed.kmap"
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  ffffffff81000010,1,1,0\nffffffff81000000,1,ffff888000002000,8,100,0,0,sh\n  ffffffff81000014,1,1,0,0,4\n' | bad mixed-4-6.kmap
run check check-bad-offsets-mixed-4-6 "$M" check mixed-4-6.kmap
# kmap_offsets whose object lines name their kind and cache (10 fields):
# fixtures/kinds.kmap (one object of each kind, a cache name whose comma
# the kernel made '?', an interrupt's allocation), and what text --offsets
# makes of a stream, found objects and all.
run check check-kinds-kmap sh -c "\"$M\" check fixtures/kinds.kmap && \"$M\" text --offsets found.bin | \"$M\" check - && \"$M\" text --offsets stream.bin | \"$M\" check -"
# The public Memorizer fork's kmap (11 fields, its own access lines):
# fixtures/fork.kmap (catch-all records, found ones, a freed and live
# objects, pid -1, deadbeef and fedbeef, repeated (ip, pid)), valid, and
# what text copies of it; then each kind of malformed fork line, and a
# file that is no kmap at all.
run check check-fork-kmap sh -c "\"$M\" check fixtures/fork.kmap && \"$M\" text fixtures/fork.kmap | cmp - fixtures/fork.kmap && echo text: identical"
fo='ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,'
fb() { n=$((n + 1)); printf "$@" > "fork-bad-$n.kmap"; }
n=0
fb 'ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALOC,sh,no-slab,\n'
fb '%s\n  ffffffff81000010,1,0,1\nffffffff81000000,1,ffff888000002000,8,1,0,0,sh\n' "$fo"
fb '%s\n  ffffffff81000010,1,0,-1,7\n' "$fo"
fb '%s\n  ffffffff81000010,1,0\n' "$fo"
fb '%s\n  from:ffffffff81000010,1,0\n' "$fo"
fb '%s\n  81000010,1,0,-1\n' "$fo"
fb 'ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,KMALLOC\n'
fb 'ffffffff81000000,1,ffff888000001000,8,9,2,ffffffff81000100,KMALLOC,sh,no-slab,\n'
fb 'ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,VMALLOC,sh,kmalloc-8,\n'
fb 'ffffffff81000000,1,ffff888000001000,8,1,0,ffffffff81000100,KMALLOC,sh,no-slab,\n'
fb 'ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,kmalloc-8,\n%s\n' "ffffffff81000000,1,ffff888000001000,8,2,0,0000000000000000,KMALLOC,sh,kmalloc-8,"
run check check-bad-fork sh -c "for f in fork-bad-*.kmap; do \"$M\" check \$f; echo \"exit \$?\"; done; \"$M\" report fork-bad-2.kmap"
printf 'alloc_ip,pid,ptr,size,alloc_serial,free_serial,free_ip,type,slab,new_type\n' > fork-allocs.txt
run check check-bad-fork-not-kmap "$M" check fork-allocs.txt
# Each kind of bad one, a file each: what the reader refuses (syntax,
# fields against the file's other lines), then what the rules refuse (a
# kind against found or not, pid and executable).
o='ffffffff81000000,1,ffff888000001000,8,100,0,0,sh'
n=0
kb() { n=$((n + 1)); printf "$@" > "kinds-bad-$n.kmap"; }
kb '%s,kmalloc\n' "$o"
kb '%s,kmalloc,kmalloc-8,x\n' "$o"
kb '%s,slab,kmalloc-8\n' "$o"
kb '%s,KMALLOC,kmalloc-8\n' "$o"
kb '%s,kmalloc,kmalloc\0018\n' "$o"
kb '%s,kmalloc,%s\n' "$o" "$(head -c 33 /dev/zero | tr '\0' c)"
kb '%s,vmalloc,kmalloc-8\n' "$o"
kb '%s,kmalloc_large,kmalloc-8\n' "$o"
kb '%s,kmalloc,kmalloc-8\n%s\n' "$o" "$o"
kb '%s\n%s,kmalloc,kmalloc-8\n' "$o" "$o"
kb '%s,kmalloc,kmalloc-8\n  ffffffff81000010,1,1,0\n' "$o"
kb '%s\n  ffffffff81000010,1,1,0\n%s,kmalloc,\n' "$o" "$o"
kb 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,global,\n'
kb 'ffffffff81000000,0,ffffffff81000000,8,100,0,0,global,percpu,\n'
kb 'ffff888000001000,0,ffff888000001000,8,100,0,0,unseen,vmalloc,\n'
kb 'ffff888000001000,0,ffff888000001000,8,100,0,0,unseen,pages,\n'
kb 'ffff888000001000,5,ffff888000001000,8,100,0,0,sh,kmalloc,kmalloc-8\n'
kb 'ffff888000001000,0,ffff888000001000,8,100,0,0,swapper/0,kmem_cache,dentry\n'
run check check-bad-kinds sh -c "for i in \$(seq $n); do \"$M\" check -q kinds-bad-\$i.kmap 2>&1 | sed \"s/^/\$i: /\"; done; \"$M\" report kinds-bad-7.kmap"
# offset_end 33 past id 1's size_alloc 32: its ACCESS record after its
# ALLOC, or before it (another CPU's, read first: the ALLOC's byte).
sed 's/offset=24 offset_end=32/offset=24 offset_end=33/' "$fx/offsets.desc" |
	"$MKSTREAM" > past-end.bin
{ printf 'header nr_cpus=2 hz=250\n'
  printf 'access cpu=1 ns=1 id=1 ip=0xffffffff811556b9 pid=0 writes=1 offset=0 offset_end=40\n'
  printf 'alloc cpu=0 ns=2 id=1 addr=0xffff888000001000 call_site=0xffffffff812a4e74 jiffies=1000 size_req=24 size_alloc=32 pid=0 context=1\n'
} | "$MKSTREAM" > past-end-early.bin
run check check-bad-offset-past-end sh -c "\"$M\" check past-end.bin; \"$M\" text past-end.bin; \"$M\" check -q past-end-early.bin; \"$M\" report past-end-early.bin"
sed 's/offset=8 offset_end=16/offset=16 offset_end=8/' "$fx/offsets.desc" |
	"$MKSTREAM" > offset-reversed.bin
run check check-bad-offset-reversed sh -c "\"$M\" check offset-reversed.bin; \"$M\" export offset-reversed.bin -f csv -o exr"
# A version 5 ACCESS record of 56 bytes (version 4's size): too short,
# whether the header says 56 or 64.
sed 's/offset=8 offset_end=16/& size=56/' "$fx/offsets.desc" | "$MKSTREAM" > access-short.bin
sed 's/^header nr_cpus=2 hz=250$/& rec_size.3=56/; s/^access .*/& size=56/' "$fx/offsets.desc" |
	"$MKSTREAM" > access-short-header.bin
run check check-bad-access-short sh -c "\"$M\" check access-short.bin; \"$M\" check access-short-header.bin; \"$M\" text access-short-header.bin"
printf 'header version=6\n' | "$MKSTREAM" > v6.bin
run check check-bad-version sh -c "\"$M\" check v6.bin; \"$M\" report v6.bin; \"$M\" text v6.bin"
printf 'header magic=MEMZSTRX\n' | "$MKSTREAM" > magic.bin
run check check-bad-magic "$M" check magic.bin
printf 'header\nalloc cpu=0 ns=1 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8 size=64\n' | "$MKSTREAM" > short.bin
run check check-bad-short-record "$M" check short.bin
printf 'header\nalloc cpu=0 ns=1 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8\ncut bytes=8\n' | "$MKSTREAM" > cut.bin
run check check-bad-cut-record "$M" check cut.bin
printf 'header\ntask cpu=0 ns=1 pid=5 comm=sh\nalloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8 pid=5\nalloc cpu=0 ns=3 id=1 addr=0x2000 call_site=0xffffffff81000000 jiffies=5 size_req=8 pid=5\nfree cpu=0 ns=1 id=9 jiffies=3 call_site=0x5 api=4\nalloc cpu=2 ns=9 id=2\n' | "$MKSTREAM" > sem.bin
run check check-bad-stream-semantics "$M" check sem.bin
printf 'header\ntask cpu=0 ns=1 pid=5 comm=sh\nalloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8 size_alloc=4 pid=5\nfree cpu=0 ns=3 id=1 call_site=0xffffffff81000010 jiffies=4 api=0\n' | "$MKSTREAM" > early.bin
run check check-bad-stream-free "$M" check early.bin
# An object freed twice before its ALLOC (FREEs of other CPUs read first):
# refused by check, report and text alike.
printf '%s\n' header 'free cpu=1 ns=1 id=1 call_site=0xffffffff81000200 jiffies=6 api=0' \
	'free cpu=0 ns=2 id=1 call_site=0xffffffff81000200 jiffies=7 api=0' |
	"$MKSTREAM" > free-twice.bin
run check check-bad-stream-free-twice sh -c "\"$M\" check free-twice.bin; \"$M\" report free-twice.bin; \"$M\" text free-twice.bin"
# An object freed twice after its ALLOC, the second FREE while ACCESS
# records its first said were to come are still awaited: refused alike.
printf '%s\n' header \
	'alloc cpu=0 ns=1 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8' \
	'free cpu=0 ns=2 id=1 call_site=0xffffffff81000200 jiffies=6 api=0 nr_access=1' \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff81000200 jiffies=7 api=0' |
	"$MKSTREAM" > free-twice-swept.bin
run check check-bad-stream-free-twice-swept sh -c "\"$M\" check free-twice-swept.bin; \"$M\" report free-twice-swept.bin; \"$M\" text free-twice-swept.bin"
# An address allocated twice with no FREE between: an error, unless a
# LOST record says FREEs were lost (then a warning).
a1='alloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=64 size_alloc=64'
a2='alloc cpu=0 ns=4 id=2 addr=0x1000 call_site=0xffffffff81000000 jiffies=6 size_req=64 size_alloc=64'
printf 'header\n%s\n%s\n' "$a1" "$a2" | "$MKSTREAM" > reuse.bin
run check check-bad-stream-overlap "$M" check reuse.bin
printf 'header\n%s\nlost cpu=0 ns=3 records=1 frees=1\n%s\n' "$a1" "$a2" | "$MKSTREAM" > reuse-lost.bin
run check check-stream-overlap-lost-free "$M" check reuse-lost.bin
# A stream that starts mid-run: ACCESS records of objects it never
# allocated (400000 of them, 22 MB: past the 16 MiB libkmap waits for an
# ALLOC) are counted as orphans, held only that long; check reports them.
# An ALLOC of one later than that is an error.
orphans() {
	awk -v late="${1:-}" 'BEGIN { print "header"; print "task cpu=0 ns=1 pid=5 comm=sh"
		for (i = 0; i < (late ? 700000 : 400000); i++)
			printf "access cpu=0 ns=%d id=%d ip=0xffffffff81000100 pid=5 reads=1\n", i + 2, i + 100
		if (late) print "alloc cpu=0 ns=800000 id=100 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8 pid=5" }' |
		"$MKSTREAM"
}
orphans > orphans.bin
orphans late > orphans-late.bin
run check check-stream-orphan-accesses sh -c "\"$M\" check orphans.bin; \"$M\" report orphans.bin | grep before; \"$M\" text orphans.bin; \"$M\" report orphans-late.bin"
# Globals (stream version 2): kind global, context found, no TASK record
# needed. A version 1 stream still reads, without them.
run check check-stream-globals "$M" check globals.bin
printf '%s\n' 'header version=1' 'task cpu=0 ns=1 pid=5 comm=sh' \
	'alloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8 pid=5' \
	'access cpu=0 ns=3 id=1 ip=0xffffffff81000100 pid=5 reads=1' \
	'free cpu=0 ns=4 id=1 call_site=0xffffffff81000200 jiffies=6 api=0 nr_access=1' |
	"$MKSTREAM" > v1.bin
run check check-stream-version-1 sh -c "\"$M\" check v1.bin && \"$M\" text v1.bin"
# CALL records (log_calls_enabled): counted by check, in the stream's
# version 5 (a new type within a version); one of no calls is refused.
printf '%s\n' 'header' 'task cpu=0 ns=1 pid=5 comm=sh' \
	'call cpu=0 ns=2 caller=0xffffffff81000105 callee=0xffffffff81000200 pid=5 count=7' \
	'call cpu=1 ns=3 caller=0xffffffff81000205 callee=0xffffffff81000300 pid=0 count=3' \
	'call cpu=0 ns=4 caller=0xffffffff81000105 callee=0xffffffff81000200 pid=5 count=2' |
	"$MKSTREAM" > calls.bin
run check check-stream-calls "$M" check calls.bin
printf '%s\n' 'header' \
	'call cpu=0 ns=2 caller=0xffffffff81000105 callee=0xffffffff81000200 pid=5 count=0' |
	"$MKSTREAM" > calls-zero.bin
run check check-stream-call-zero "$M" check calls-zero.bin
# function_calls files: check validates them line by line.
printf 'ffffffff81000105,ffffffff81000200,5,7\nffffffff81000105,ffffffff81000200,5,2\nffffffff81000205,ffffffff81000300,0,3\n' > calls.txt
printf 'ffffffff81000105,ffffffff81000200,5,7\nffffffff81000105,ffffffff81000200,5,0\n' > calls-bad.txt
run check check-calls sh -c "\"$M\" check calls.txt; \"$M\" check calls-bad.txt"
# stack_frames files: fixtures/compartments.frames (see compartments
# below) has 7 cells of 3 frames (xas_store's, rb_erase's, call_rcu's) in
# pids 10, 12, 11 and 0: 8 writes, 9 reads. An empty file is valid, as an
# empty kmap. With -q, nothing.
: > empty.frames
run check check-frames sh -c "\"$M\" check fixtures/compartments.frames empty.frames; echo status \$?; \"$M\" check -q fixtures/compartments.frames; echo status \$?; \"$M\" check - < fixtures/compartments.frames"
# Each malformed kind, its exact message, refused by check, report and
# text alike; the first line tells the format by its shape, so what is
# wrong with it is said too (0x, negative pid, counts 0, 32 bits).
sf=ffffffffc0201230,ffffffffc0201290
frames_bad() {	# frames_bad NAME LINE...: a frames file of a good line, then LINE...
	printf '%s\n' "$sf,131,7,0" "${@:2}" > "frames-bad-$1"
}
frames_bad fields-4 "$sf,131,7"
frames_bad fields-6 "$sf,131,7,0,1"
frames_bad calls-line "ffffffff81757490,ffffffff817562d0,10,5"
frames_bad empty-line ""
frames_bad upper "ffffffffC0201230,ffffffffc0201290,131,7,0"
frames_bad not-hex "ffffffffc0201230,ffffffffc020129g,131,7,0"
frames_bad hex-65-bits "1ffffffffc0201230,ffffffffc0201290,131,7,0"
frames_bad leading-zero "0ffffffc0201230,ffffffffc0201290,131,7,0"
frames_bad ip-zero "ffffffffc0201230,0,131,7,0"
frames_bad pid-zero-padded "$sf,0131,7,0"
frames_bad pid-limit "$sf,4194304,7,0"
frames_bad reads-not-dec "$sf,131,7,1a"
frames_bad reads-65-bits "$sf,131,7,18446744073709551616"
frames_bad duplicate "$sf,132,1,1" "$sf,131,0,9"
printf '%s\n' "0x$sf,131,7,0" > frames-bad-1-0x
printf '%s\n' "$sf,-1,7,0" > frames-bad-1-negative-pid
printf '%s\n' "$sf,131,0,0" > frames-bad-1-counts-zero
printf '%s\n' "$sf,131,4294967296,0" > frames-bad-1-writes-32-bits
printf '%s\n%s' "$sf,131,7,0" "$sf,132,7,0" > frames-bad-no-newline
run check check-frames-bad sh -c "for f in frames-bad-*; do \"$M\" check \$f; \"$M\" report \$f; \"$M\" text \$f; echo status \$?; done 2>&1"
# What a global must be, refused by check, report and text alike.
g='alloc cpu=0 ns=2 id=1 addr=0xffffffff82a01000 call_site=0xffffffff82a01000 jiffies=5 size_req=64'
# mkrecords NAME RECORD...: a stream of sh's TASK record (pid 5, cpu 0),
# then RECORD...; its header $header, else the current version's.
mkrecords() {
	local name=$1
	shift
	printf '%s\n' "${header:-header}" 'task cpu=0 ns=1 pid=5 comm=sh' "$@" |
		"$MKSTREAM" > "$name"
}
refused() {	# refused FILE: what check, report and text say of it
	echo "\"$M\" check $1; \"$M\" report $1; \"$M\" text $1"
}
mkrecords found-pid.bin "$g pid=5 kind=5 context=3"
run check check-bad-global-found-pid sh -c "$(refused found-pid.bin)"
mkrecords global-task.bin "$g pid=5 kind=5 context=0"
run check check-bad-global-task-context sh -c "$(refused global-task.bin)"
# Version 2 finds globals only (version 3 slab objects, pages, stacks).
header='header version=2' mkrecords found-kmalloc.bin "$g kind=0 context=3"
run check check-bad-found-not-global sh -c "$(refused found-kmalloc.bin)"
mkrecords global-call-site.bin "${g/call_site=0xffffffff82a01000/call_site=0xffffffff81000000} kind=5 context=3"
run check check-bad-global-call-site sh -c "$(refused global-call-site.bin)"
# Before version 4, a global is never freed, whatever the api.
header='header version=3' mkrecords global-free.bin "$g kind=5 context=3" \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff81000200 jiffies=6 api=0'
run check check-bad-global-free sh -c "$(refused global-free.bin)"
# The FREE first (another CPU's, read earlier): refused at the ALLOC.
header='header version=3' mkrecords global-free-first.bin \
	'free cpu=1 ns=1 id=1 call_site=0xdeadbeef jiffies=6 api=4' "$g kind=5 context=3"
run check check-bad-global-free-first sh -c "$(refused global-free-first.bin)"
printf '%s\n' 'header version=1' "$g kind=5 context=3" | "$MKSTREAM" > v1-global.bin
run check check-bad-global-version-1 sh -c "$(refused v1-global.bin)"
# Version 4: a module's globals are freed when it is unloaded (api 6,
# module), its FREE read after its ALLOC or before; a global's record may
# be closed as missed (fixtures/modules.desc; its text and report below).
run check check-stream-module-globals "$M" check modules.bin
# The same FREE (api module) in a version 3 stream: refused, as api 6 is
# version 4's (and check adds that a global is not freed before it).
gm='alloc cpu=0 ns=2 id=1 addr=0xffffffffc0a02000 call_site=0xffffffffc0a02000 jiffies=5 size_req=128 kind=5 context=3'
unload='free cpu=0 ns=4 id=1 call_site=0xffffffff8115a2c4 jiffies=9 api=6 nr_access=1'
header='header version=3' mkrecords v3-module-free.bin "$gm" \
	'access cpu=0 ns=3 id=1 ip=0xffffffffc0a00140 pid=5 writes=1' "$unload"
run check check-bad-module-free-version-3 sh -c "$(refused v3-module-free.bin)"
# Api module frees globals only: a kmalloc object freed by it is refused,
# its FREE read after its ALLOC or before.
kfree_me='alloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=8 pid=5'
mkrecords module-free-kmalloc.bin "$kfree_me" "$unload"
mkrecords module-free-kmalloc-first.bin "${unload/cpu=0 ns=4/cpu=1 ns=1}" "$kfree_me"
run check check-bad-module-free-kmalloc sh -c "$(refused module-free-kmalloc.bin); $(refused module-free-kmalloc-first.bin)"
# From version 4 a global is freed by api module or missed, no other; a
# module free has its unload's caller as call_site.
mkrecords global-kfree-v4.bin "$g kind=5 context=3" \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff81000200 jiffies=6 api=0'
mkrecords module-free-call-site-0.bin "$gm" "${unload/call_site=0xffffffff8115a2c4/call_site=0}"
run check check-bad-global-free-version-4 sh -c "$(refused global-kfree-v4.bin); $(refused module-free-call-site-0.bin)"
# A text kmap's global: its own alloc_ip; it may be freed (a module's, at
# its unload, or its record closed as missed: a text kmap has no version).
printf '%s\n' \
	'ffffffffc0a02000,0,ffffffffc0a02000,128,100,120,ffffffff8115a2c4,global' \
	'  ffffffffc0a00140,151,1,0' \
	'ffffffff82a02000,0,ffffffff82a02000,16,100,110,deadbeef,global' \
	'ffffffffc0a02000,0,ffffffffc0a02000,128,130,0,0,global' > freed-global.kmap
run check check-global-freed-text sh -c "\"$M\" check freed-global.kmap && \"$M\" text freed-global.kmap | cmp - freed-global.kmap && echo text: identical && \"$M\" report --by kind --csv freed-global.kmap"
printf 'ffffffff81000000,0,ffffffff82a01000,64,100,0,0,global\n' > global-alloc-ip.kmap
printf 'ffffffff81000000,0,ffffffffc0a02000,128,100,120,ffffffff8115a2c4,global\n' > freed-global-alloc-ip.kmap
run check check-bad-global-text sh -c "$(refused global-alloc-ip.kmap); $(refused freed-global-alloc-ip.kmap)"
# Version 3: per-CPU objects (kind 6), stacks (kind 7), found slab
# objects, pages and stacks (fixtures/found.desc has one of each).
run check check-stream-found "$M" check found.bin
# Kinds 6 and 7 are version 3's.
pc='alloc cpu=0 ns=2 id=1 addr=0xffff88807fc1a040 call_site=0xffff88807fc1a040 jiffies=5 size_req=8'
header='header version=2' mkrecords v2-percpu.bin "$pc kind=6 context=3"
header='header version=2' mkrecords v2-stack.bin "$g kind=7 context=3"
run check check-bad-new-kinds-version-2 sh -c "$(refused v2-percpu.bin); $(refused v2-stack.bin)"
# kmalloc_large and vmalloc allocations are always seen, never found.
mkrecords found-kmalloc-large.bin "$g kind=2 context=3"
mkrecords found-vmalloc.bin "$g kind=3 context=3"
run check check-bad-found-kmalloc-large sh -c "$(refused found-kmalloc-large.bin); $(refused found-vmalloc.bin)"
# A per-CPU object is as a global: only found, its own address as
# call_site.
mkrecords percpu-call-site.bin "${pc/call_site=0xffff88807fc1a040/call_site=0xffffffff81000000} kind=6 context=3"
mkrecords percpu-task.bin "$pc pid=5 kind=6 context=0"
run check check-bad-percpu-call-site sh -c "$(refused percpu-call-site.bin); $(refused percpu-task.bin)"
# But it may be freed: an alloc_percpu() area, by free_percpu() (api 5),
# its FREE read after its ALLOC or before (missed); freed by another API,
# it is a mismatched free, no error.
mkrecords percpu-free.bin "$pc kind=6 context=3" \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff81000200 jiffies=6 api=5'
mkrecords percpu-free-first.bin \
	'free cpu=1 ns=1 id=1 call_site=0xdeadbeef jiffies=6 api=4' "$pc kind=6 context=3"
mkrecords percpu-free-pages.bin "$pc kind=6 context=3" \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff81000200 jiffies=6 api=3'
run check check-stream-percpu-freed sh -c "for f in percpu-free.bin percpu-free-first.bin percpu-free-pages.bin; do \"$M\" check \$f && \"$M\" text \$f && \"$M\" report --by kind --csv \$f; done"
# Free api 5 (free_percpu) is version 3's, 6 (module) version 4's; 7 is
# no api.
header='header version=2' mkrecords v2-free-percpu.bin "$kfree_me" \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff81000200 jiffies=6 api=5'
mkrecords free-api-7.bin "$kfree_me" \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff81000200 jiffies=6 api=7'
run check check-bad-free-api sh -c "$(refused v2-free-percpu.bin); $(refused free-api-7.bin)"
# A found object has pid 0, but for a task's stack.
mkrecords found-cache-pid.bin "$g pid=5 cache_id=0 kind=1 context=3"
run check check-bad-found-cache-pid sh -c "$(refused found-cache-pid.bin)"
# A task's stack, found: its task's pid, named by the TASK record before
# it on its CPU (without one: a warning, and ?), freed with its pages.
stack='alloc cpu=0 ns=2 id=1 addr=0xffffc90000340000 call_site=0xffffc90000340000 jiffies=5 size_req=16384 pid=5 kind=7 context=3'
mkrecords task-stack.bin "$stack" \
	'free cpu=0 ns=3 id=1 call_site=0xffffffff8108a123 jiffies=9 api=3'
printf '%s\n' header "$stack" | "$MKSTREAM" > task-stack-no-task.bin
run check check-stream-found-task-stack sh -c "\"$M\" check task-stack.bin && \"$M\" text task-stack.bin; \"$M\" check task-stack-no-task.bin && \"$M\" text task-stack-no-task.bin"
# Found objects in a text kmap: pid 0, alloc_ip their own address; unlike
# a global, a percpu one may be freed (an alloc_percpu() area), as unseen,
# page and irq_stack ones (which kind an unseen or page object is, its
# line does not say). A task called percpu is no per-CPU object.
printf '%s\n' \
	'ffff88807fc1a040,0,ffff88807fc1a040,8,1000,0,0,percpu' \
	'  ffffffff817331ce,0,3,1' \
	'ffff88807fa1c000,0,ffff88807fa1c000,64,1003,1008,ffffffff8125f0a0,percpu' \
	'  ffffffff811556b9,146,2,2' \
	'ffffc90000000000,0,ffffc90000000000,16384,1000,0,0,irq_stack' \
	'ffff888003c1e080,0,ffff888003c1e080,64,1001,1004,ffffffff812ab8a3,unseen' \
	'  ffffffff811556b9,146,0,2' \
	'ffff888005e00000,0,ffff888005e00000,4096,1002,1006,deadbeef,page' \
	'ffffc90000340000,146,ffffc90000340000,16384,1001,1010,ffffffff8108a123,tar' \
	'ffffffff812a4e74,7,ffff888003c1e100,40,1003,1005,ffffffff812ab8a3,percpu' > found.kmap
run check check-found-text sh -c "\"$M\" check found.kmap && \"$M\" text found.kmap | cmp - found.kmap && echo text: identical"
printf 'ffffffff81000000,0,ffff88807fc1a040,8,1000,0,0,percpu\n' > percpu-alloc-ip.kmap
printf 'ffffffff81000000,0,ffff888003c1e080,64,1001,0,0,unseen\n' > unseen-alloc-ip.kmap
printf 'ffffffff81000000,0,ffffc90000000000,16384,1000,0,0,irq_stack\n' > irq-stack-alloc-ip.kmap
printf 'ffffffff81000000,0,ffff888005e00000,4096,1002,0,0,page\n' > page-alloc-ip.kmap
run check check-bad-found-text sh -c "$(refused percpu-alloc-ip.kmap); $(refused unseen-alloc-ip.kmap); $(refused irq-stack-alloc-ip.kmap); $(refused page-alloc-ip.kmap)"
# zstd-compressed input, a text kmap or a stream, is read through the
# library by every command: check included; cut short, an error.
zstd -q -c fixtures/tar.kmap > tar.kmap.zst
zstd -q -c stream.bin > stream.bin.zst
head -c 300 tar.kmap.zst > cut.kmap.zst
run check check-zstd sh -c "\"$M\" check tar.kmap.zst stream.bin.zst; \"$M\" check - < tar.kmap.zst; \"$M\" report -n 1 tar.kmap.zst | head -n 1; \"$M\" text tar.kmap.zst | cmp - fixtures/tar.kmap && echo text: identical; \"$M\" check cut.kmap.zst; \"$M\" report cut.kmap.zst"
run check check-missing "$M" check no-such.kmap
run check check-directory "$M" check .
# Write errors are errors, from every command that writes.
run check check-write-error sh -c "\"$M\" check fixtures/tar.kmap > /dev/full"

# report: every view and format, text and binary input.
run report report-callsite "$M" report fixtures/tar.kmap
run report report-callsite-symbols "$M" report fixtures/tar.kmap --system-map fixtures/System.map -n 4
run report report-pid-csv "$M" report --by pid --csv fixtures/tar.kmap
run report report-function "$M" report fixtures/tar.kmap --by function --system-map fixtures/System.map --sort reads -n 5
run report report-object-json "$M" report fixtures/tar.kmap --by object --json -n 2
run report report-stream-cache "$M" report stream.bin --by cache --sort waste
run report report-stream-callsite-json "$M" report stream.bin --json --system-map fixtures/System.map
run report report-stream-object-csv "$M" report stream.bin --by object --csv
run report report-cache-text-kmap "$M" report fixtures/tar.kmap --by cache
# A kmap_offsets that names kinds and caches: --by cache and --by kind,
# and the cache column of --by object, from the text as from a stream;
# of a stream made text (text --offsets), the same rows as the stream's
# own (the columns only a stream has, bytes_alloc, waste, cross_cpu and
# mismatched_free, left out of the comparison).
run report report-kinds-text-kmap sh -c "\"$M\" report fixtures/kinds.kmap --by cache && \"$M\" report fixtures/kinds.kmap --by kind --csv && \"$M\" report fixtures/kinds.kmap --by object --csv -n 3"
run report report-kinds-text-as-stream sh -c "\"$M\" text --offsets stream.bin 2> /dev/null > st.kmap && for by in cache kind; do \"$M\" report --by \$by --csv stream.bin | cut -d, -f1-4,7-14 > a && \"$M\" report --by \$by --csv st.kmap | cmp - a && echo --by \$by: same rows && cat a; done; \"$M\" report --by object --csv stream.bin | cut -d, -f2-6,8- > a && \"$M\" report --by object --csv st.kmap | cut -d, -f2- | cmp - a && echo --by object: same rows"
# The fork's kmap, read as ours are: its kinds and caches, its indices
# where jiffies go, its repeated (ip, pid) merged.
run report report-fork-kmap sh -c "\"$M\" report fixtures/fork.kmap --by kind && \"$M\" report fixtures/fork.kmap --by cache --csv && \"$M\" report fixtures/fork.kmap --by object --csv"
run report report-function-no-symbols "$M" report fixtures/tar.kmap --by function
run report report-bad-sort "$M" report fixtures/tar.kmap --sort nosuch
run report report-bad-by "$M" report fixtures/tar.kmap --by nosuch
# --by kind: a stream's ALLOC says the kind; a text kmap says only which
# objects are globals (executable global, pid 0, alloc_ip its address):
# the others, a task called global among them, are unknown.
run report report-stream-kind "$M" report globals.bin --by kind
run report report-stream-kind-json "$M" report globals.bin --by kind --json
"$M" text globals.bin > globals.kmap 2> /dev/null
printf 'ffffffff81000000,7,ffff888000009000,16,1020,0,0,global\n' >> globals.kmap
run report report-kind-text-kmap "$M" report globals.kmap --by kind
run report report-kind-csv-tar "$M" report fixtures/tar.kmap --by kind --csv
# Version 3: percpu and stack; found objects of every kind (a stack freed
# with its pages, a per-CPU area by free_percpu, is no mismatched free). In
# a text kmap, an unseen or page object's kind is unknown.
run report report-stream-found-kind "$M" report found.bin --by kind
run report report-found-kind-text-kmap "$M" report found.kmap --by kind
# Version 4: globals freed (a module's, at its unload; one closed as
# missed) are no longer live, in a stream and in its text alike.
run report report-stream-module-kind "$M" report modules.bin --by kind
"$M" text modules.bin > modules.kmap 2> /dev/null
run report report-module-kind-text-kmap "$M" report modules.kmap --by kind
# Counts summed stop at 2^64-1 (saturated), they do not wrap: two
# access lines of 2^64-1 reads and writes on one call site, pid and ip.
sat=fixtures/saturate.kmap
run report report-saturated "$M" report $sat
run report report-saturated-views sh -c "\"$M\" report --by pid --csv $sat && \"$M\" report --by function --system-map fixtures/System.map --csv $sat && \"$M\" report --json -n 1 $sat"
run report report-saturated-html sh -c "\"$M\" report --html -o sat.html $sat && echo wrapped: \$(grep -o 18446744073709551614 sat.html | wc -l) && echo saturated: \$(grep -o 18446744073709551615 sat.html | wc -l)"
run report report-bad-input "$M" report fixtures/../golden.sh
# check's rules are every reader's: report and text refuse what check
# refuses, with its message.
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  ffffffff81000010,1,2,0\n  ffffffff81000020,1,0,1\n  ffffffff81000010,1,1,0\n' > dup2.kmap
run report report-refuses-dup sh -c "\"$M\" check dup2.kmap; \"$M\" report dup2.kmap"
run report report-refuses-stream-semantics "$M" report sem.bin
printf 'ffffffff81000000,1,ffff888000001000,64,100,0,0,sh\nffffffff81000000,1,ffff888000001020,8,101,0,0,sh\n' > overlap2.kmap
run text text-refuses-overlap sh -c "\"$M\" check overlap2.kmap; \"$M\" text overlap2.kmap"
# Nothing to report: an empty kmap, a stream with only its header.
: > empty.kmap
printf 'header\n' | "$MKSTREAM" > header-only.bin
run report report-empty-kmap "$M" report empty.kmap
run report report-header-only-stream "$M" report --json header-only.bin
# Names are bytes: a newline in a cache name stays on its table line;
# JSON keeps valid UTF-8 (ét\xc3\xa9) and escapes other bytes (\xe9, \xff).
printf '%s\n' header 'task cpu=0 ns=1 pid=5 comm=caf\xe9' 'task cpu=0 ns=2 pid=6 comm=\xc3\xa9t\xc3\xa9' \
	'cache cpu=0 ns=3 id=7 name=bad\x0aname\xff' \
	'alloc cpu=0 ns=4 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=64 size_alloc=64 pid=5 cache_id=7 kind=1' \
	'alloc cpu=0 ns=5 id=2 addr=0x2000 call_site=0xffffffff81000000 jiffies=5 size_req=64 size_alloc=64 pid=6 cache_id=7 kind=1' |
	"$MKSTREAM" > names.bin
run report report-names-bytes sh -c "\"$M\" report --by cache names.bin | tail -n 2 | cut -c1-40; \"$M\" report --by cache --json names.bin | tail -n 1 | cut -c1-40; \"$M\" report --by pid --json names.bin | tail -n 2 | cut -c1-40"
# Figures: CSV and JSON print them in full (a non-zero per-byte figure is
# never 0.00), a mean over no freed object has no value (empty, null, -).
run report report-figures-exact sh -c "\"$M\" report --by kind --csv globals.bin; \"$M\" report --by kind --json globals.bin | tail -n 3 | cut -c1-150"
# Usage: -n 0 and --csv with --json are refused; standard input is
# <stdin> in the summary, the JSON input key and messages alike.
run report report-usage sh -c "\"$M\" report -n 0 fixtures/tar.kmap; \"$M\" report --csv --json fixtures/tar.kmap; \"$M\" report -n 1 - < fixtures/tar.kmap | head -n 1; \"$M\" report --json - < stream.bin | cut -c1-60 | head -n 1; \"$M\" report --by cache - < fixtures/tar.kmap"
# Progress on a terminal (script gives one) for an input of 100 MB or
# more: a line rewritten in place from the start (a line's erasure ends
# each), and at the end the lines read, before the command's output (a
# check's too: the reader tells its end); none on a pipe, none for a
# smaller input.
awk 'BEGIN { for (i = 0; i < 1300000; i++) printf "ffffffff81000000,1,%x,8,100,101,ffffffff81000010,sh\n  ffffffff81000010,1,1,0\n", 4294967296 + i * 16 }' > big.kmap
progress() {	# progress CMD: its terminal's lines, times and figures masked
	script -qec "$1" /dev/null | tr '\r' '\n' | grep -v '^ *$' |
		sed -E 's/\x1b\[K$/<EL>/; s/[0-9]+% of/P% of/; s/(% of [0-9.]+ MB, )[0-9]+ lines?/\1N lines/; s/, [0-9]+ s(<EL>)?$/, S s\1/' |
		uniq
}
run report report-progress sh -c "$(declare -f progress); progress '\"$M\" report -n 1 big.kmap'; progress '\"$M\" check big.kmap'; progress '\"$M\" text big.kmap > /dev/null'; progress '\"$M\" check fixtures/tar.kmap'; \"$M\" check big.kmap 2>&1 | cat"
# Sorting: a figure descending, no value last, ties by the first column
# ascending; a hexadecimal name ascending.
run report report-sort sh -c "\"$M\" report --sort avg_lifetime --csv fixtures/tar.kmap; \"$M\" report --sort callsite --csv fixtures/tar.kmap; \"$M\" report --by object --sort never_read --csv fixtures/tar.kmap 2>&1; \"$M\" report --by object --sort writes --csv stream.bin; \"$M\" report --by pid --sort objects_accessed --csv fixtures/tar.kmap"
# -n N: the first N rows of the whole sorted table, whichever the column.
run report report-limit-is-head sh -c "for s in size reads writes sites free_jiffies addr object callsite; do \"$M\" report --by object --sort \$s --csv -n 3 fixtures/tar.kmap > a; \"$M\" report --by object --sort \$s --csv fixtures/tar.kmap | head -n 4 | cmp - a && echo \$s: same; done"
run report report-write-error sh -c "\"$M\" report fixtures/tar.kmap > /dev/full"
run report report-directory "$M" report .
# --html: the page's data (its meta and kinds sections) from a stream and
# a text kmap; misuse; a bad --stats file leaves the old page as it was.
# (tests/run's tools/html-* open the page in Chromium.)
run report report-html-kinds sh -c "\"$M\" report --html -o k.html fixtures/kinds.kmap && grep -o '\"kinds_named\":[a-z]*' k.html; grep -o '\"kinds\":{[^}]*}' k.html; grep -o '\"subject\":\"function\",\"group\":\"[a-z]*\"' k.html"
run report report-html-data sh -c "\"$M\" report --html --objects 1 -o s.html stream.bin && grep -c MEMORIZER_REPORT_DATA s.html; grep -o '\"meta\":{[^}]*}' s.html; grep -o '\"kinds\":{[^}]*}' s.html; \"$M\" report --html -o t.html --stats fixtures/stats --system-map fixtures/System.map fixtures/tar.kmap && grep -o '\"meta\":{[^}]*}' t.html; grep -o '\"stats\":\[\[[^]]*\]' t.html"
run report report-html-usage sh -c "\"$M\" report --html --csv fixtures/tar.kmap; \"$M\" report --html --by kind fixtures/tar.kmap; \"$M\" report --stats fixtures/stats fixtures/tar.kmap; \"$M\" report --html --objects 0 fixtures/tar.kmap; \"$M\" report --html --objects 20001 fixtures/tar.kmap; \"$M\" report --html --stats nosuch -o x.html fixtures/tar.kmap; ls x.html"
# More call sites than the page holds: the 5000 of most bytes, the three
# smallest summed.
awk 'BEGIN { for (i = 0; i < 5003; i++) printf "ffffffff81%06x,1,ffff8881%08x,%d,100,0,0,sh\n", i * 16, i * 8192, 8 + i }' > sites.kmap
run report report-html-sites-cap sh -c "\"$M\" report --html -o c.html sites.kmap && grep -o '\"sites_other\":{[^}]*}' c.html; grep -o '\"sites_[a-z]*\":[0-9]*' c.html; grep -o '\"ffffffff81000[0-9a-f]*\"' c.html | sort -u | head -n 1"
# The capability heatmap's section: the fixture's maps (function rows by
# call site and kind: no DWARF, no cache in a text kmap) whole; 70
# functions by 45 call sites cut to the 60 and 40 of most traffic, the
# rest summed.
capmap_section() {	# capmap_section PAGE: the section, a line per map, row or cell
	sed -n 's/.*"capmap":\(.*\),"compartments":.*/\1/p' "$1" |
		sed 's/{"subject"/\n&/g; s/\],\[/],\n[/g; s#\\/#/#g'
}
run report report-html-capmap sh -c "$(declare -f capmap_section); \"$M\" report --html -o t.html --system-map fixtures/System.map fixtures/tar.kmap && capmap_section t.html"
awk 'BEGIN { for (i = 0; i < 70; i++) printf "ffffffff81%06x,1,ffff8881%08x,64,100,0,0,sh\n  ffffffff82%06x,1,%d,%d\n", (i % 45) * 16, i * 8192, i * 16, i % 3, i + 1 }' > cm70.kmap
run report report-html-capmap-cut sh -c "$(declare -f capmap_section); \"$M\" report --html -o c.html cm70.kmap && capmap_section c.html > c.txt && grep -o '^{\"rows_max[^[]*' c.txt; grep -o '\"left_out\":{[^}]*}' c.txt; echo rows shipped in both maps: \$(grep -o '\[\"ffffffff82[0-9a-f]*\",' c.txt | wc -l), columns: \$(grep -o '\[\"ffffffff81[0-9a-f]*\",' c.txt | wc -l); grep -o '\"ffffffff82000[0-9a-f]*\",[0-9]*,[0-9]*,0\]\]' c.txt"
# The compartments section: memorizer compartments --sweep's design
# points over the compartments fixtures (see compartments below: the
# same figures), fewest compartments first, and per point its
# compartments; call edges from a function_calls file given after the
# kmap, or a stream's CALL records (stream.desc with the fixture's calls
# appended); without symbols the view is skipped; an input after the
# first must be a function_calls file.
compart_section() {	# compart_section PAGE: the section, a line per row
	sed -n 's/.*"compartments":\({"code".*\)}<\/script>.*/\1/p' "$1" |
		sed 's/"rows":/\n&/; s/"details":/\n&/; s/\]\],\[\[/]],\n[[/g; s/\],\[\([0-9]\)/],\n[\1/g'
}
run report report-html-compartments sh -c "$(declare -f compart_section); \"$M\" report --html -o c.html --system-map fixtures/System.map fixtures/compartments.kmap fixtures/compartments.calls && compart_section c.html"
{ grep -v '^#' "$fx/stream.desc"; awk -F, '{ printf "call cpu=0 ns=%d caller=0x%s callee=0x%s pid=%s count=%s\n", 900 + NR, $1, $2, $3, $4 }' "$fx/compartments.calls"; } |
	"$MKSTREAM" > stream-calls.bin
run report report-html-compartments-stream sh -c "\"$M\" report --html -o s.html --system-map fixtures/System.map stream-calls.bin && grep -o '\"call_edges\":[0-9]*,\"summary\":{[^}]*}' s.html; \"$M\" report --html -o t.html --system-map fixtures/System.map stream.bin fixtures/compartments.calls && grep -o '\"call_edges\":[0-9]*,\"summary\":{[^}]*}' t.html"
run report report-html-compartments-usage sh -c "\"$M\" report --html -o n.html fixtures/compartments.kmap fixtures/compartments.calls && grep -o '\"call_edges\":[0-9]*,\"skipped\":\"[^\"]*\"' n.html; \"$M\" report --html -o x.html fixtures/compartments.kmap fixtures/tar.kmap; echo exit \$?; \"$M\" report fixtures/compartments.kmap fixtures/compartments.calls; echo exit \$?"
printf 'kmalloc_tracked 4021\nkmalloc_live many\n' > bad.stats
run report report-html-bad-stats sh -c "echo old page > p.html; \"$M\" report --html --stats bad.stats -o p.html fixtures/tar.kmap; echo exit \$?; cat p.html; \"$M\" report --html -o p.html cut.kmap; echo exit \$?; cat p.html; ls -a | grep -c '^\.p\.html'"

# text: binary to kmap text, the result valid; zstd; a kmap back unchanged.
run text text-stream "$M" text stream.bin
# --offsets: kmap_offsets from a version 5 stream (ranges united over an
# (id, ip, pid)'s records, as offsets.desc works out), from a version 4
# one and from a kmap (0,0: not known); a kmap_offsets copied as it is, or
# back to a kmap without --offsets.
run text text-offsets-stream "$M" text --offsets offsets.bin
run text text-offsets-default "$M" text offsets.bin
run text text-offsets-v4 "$M" text --offsets offsets-v4.bin
run text text-offsets-from-kmap sh -c "\"$M\" text --offsets fixtures/capmap.kmap && \"$M\" text --offsets fixtures/tar.kmap | \"$M\" text - | cmp - fixtures/tar.kmap && echo back unchanged"
run text text-offsets-copy sh -c "\"$M\" text --offsets fixtures/offsets.kmap | cmp - fixtures/offsets.kmap && echo identical; \"$M\" text fixtures/offsets.kmap"
{ printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\nffffffff81000000,1,ffff888000002000,8,100,0,0,sh\n'; cat fixtures/offsets.kmap; } > offsets-late.kmap
# A kmap_offsets that names kinds and caches: copied as it is, or back to
# a kmap (8 fields) without --offsets.
run text text-kinds sh -c "\"$M\" text --offsets fixtures/kinds.kmap | cmp - fixtures/kinds.kmap && echo identical; \"$M\" text fixtures/kinds.kmap | head -n 4"
run text text-offsets-late sh -c "\"$M\" text offsets-late.kmap; \"$M\" text --offsets offsets-late.kmap | cmp - offsets-late.kmap && echo identical"
run text text-stream-globals sh -c "\"$M\" text globals.bin && \"$M\" text globals.bin | \"$M\" check -"
run text text-stream-found sh -c "\"$M\" text found.bin && \"$M\" text found.bin | \"$M\" check -"
run text text-stream-modules sh -c "\"$M\" text modules.bin && \"$M\" text modules.bin | \"$M\" check -"
run text text-check sh -c "\"$M\" text stream.bin 2>/dev/null | \"$M\" check -"
run text text-kmap-roundtrip sh -c "\"$M\" text fixtures/tar.kmap | cmp - fixtures/tar.kmap && echo identical"
run text text-bad-stream "$M" text short.bin
# -o: never the input; an existing FILE replaced only by a complete kmap.
cp fixtures/tar.kmap same.kmap
run text text-output-is-input sh -c "\"$M\" text -o same.kmap same.kmap; echo status \$?; cmp same.kmap fixtures/tar.kmap && echo unchanged"
cp fixtures/tar.kmap keep.kmap
run text text-bad-input-keeps-output sh -c "\"$M\" text -o keep.kmap cut.kmap; echo status \$?; cmp keep.kmap fixtures/tar.kmap && echo unchanged; ls -A | grep -c '^\.keep' || true"
run text text-output-new sh -c "\"$M\" text -o new.kmap stream.bin 2>/dev/null && \"$M\" text stream.bin 2>/dev/null | cmp - new.kmap && echo written"
# A text kmap is written as read; an object of more lines than fit the
# output buffer (20000 access lines) too.
awk 'BEGIN { print "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh"; for (i = 1; i <= 20000; i++) printf "  ffffffff%08x,1,0,1\n", i; print "ffffffff81000000,1,ffff888000002000,8,100,0,0,sh" }' > wide.kmap
run text text-kmap-wide-object sh -c "\"$M\" text wide.kmap | cmp - wide.kmap && echo identical; \"$M\" text -o wide-out.kmap wide.kmap && cmp wide-out.kmap wide.kmap && echo identical"
# Nothing to write: an empty kmap, an empty zstd frame (0 objects).
printf '' | zstd -q -c > empty.zst
run text text-empty sh -c "\"$M\" text empty.kmap; echo status \$?; \"$M\" text empty.zst; echo status \$?; \"$M\" check empty.zst"
# Write errors: every command's standard output and -o.
run text write-errors sh -c "\"$M\" symbolize --system-map fixtures/System.map 1 > /dev/full; echo status \$?; \"$M\" report -o /dev/full fixtures/tar.kmap; echo status \$?; \"$M\" --help > /dev/full; echo status \$?; \"$M\" text stream.bin > /dev/full; echo status \$?"
cp fixtures/tar.kmap same2.kmap
run text report-output-is-input sh -c "\"$M\" report -o same2.kmap same2.kmap; echo status \$?; cmp same2.kmap fixtures/tar.kmap && echo unchanged"
run text text-write-error "$M" text -o /dev/full fixtures/tar.kmap
# A live object's counters swept out on cpu 1 while it lived, read after
# its FREE on cpu 0 (which counts 3 ACCESS records): the counts add up,
# and an object after it comes out first.
printf '%s\n' header \
	'task cpu=0 ns=1 pid=5 comm=sh' \
	'alloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=64 size_alloc=64 pid=5' \
	'access cpu=0 ns=6 id=1 ip=0xffffffff81000100 pid=5 writes=2' \
	'free cpu=0 ns=7 id=1 call_site=0xffffffff81000200 jiffies=9 api=1 nr_access=3' \
	'alloc cpu=0 ns=8 id=2 addr=0x2000 call_site=0xffffffff81000000 jiffies=9 size_req=32 size_alloc=32 pid=5' \
	'free cpu=0 ns=9 id=2 call_site=0xffffffff81000200 jiffies=9 api=1' \
	'task cpu=1 ns=3 pid=6 comm=cat' \
	'access cpu=1 ns=4 id=1 ip=0xffffffff81000100 pid=5 writes=5' \
	'access cpu=1 ns=5 id=1 ip=0xffffffff81000300 pid=6 reads=1' |
	"$MKSTREAM" > swept.bin
run text text-stream-swept "$M" text swept.bin
# A counter's ACCESS records merge past the kernel's 32-bit counter (its
# sweeps reset it); a single record above it is refused everywhere.
acc32='access cpu=0 ns=3 id=1 ip=0xffffffff81000100 pid=5 writes=4294967295 reads=4294967295'
printf '%s\n' header 'task cpu=0 ns=1 pid=5 comm=sh' \
	'alloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=64 size_alloc=64 pid=5' \
	"$acc32" "${acc32/ns=3/ns=4}" | "$MKSTREAM" > big-counts.bin
run text text-merged-counts-past-32-bits sh -c "\"$M\" text big-counts.bin && \"$M\" text big-counts.bin | \"$M\" check -"
printf '%s\n' header 'task cpu=0 ns=1 pid=5 comm=sh' \
	'alloc cpu=0 ns=2 id=1 addr=0x1000 call_site=0xffffffff81000000 jiffies=5 size_req=64 size_alloc=64 pid=5' \
	"${acc32/writes=4294967295/writes=4294967296}" | "$MKSTREAM" > over-32.bin
run text text-refuses-count-over-32-bits sh -c "\"$M\" check over-32.bin; \"$M\" text over-32.bin"

# symbolize.
run symbolize symbolize-args "$M" symbolize --system-map fixtures/System.map ffffffff812a4e74 0xffffffff811556b9 1
run symbolize symbolize-stdin sh -c "printf 'ffffffff817331ce\nffffffff812ab8a3\n' | \"$M\" symbolize --system-map fixtures/System.map"
# --vmlinux with DWARF: a small program built with -g stands in for vmlinux.
cat > prog.c <<'PROG'
int target_fn(int x)
{
	return x * 3 + 1;
}
int main(void) { return target_fn(1); }
PROG
cc -g -O0 -no-pie -o prog prog.c
addr=$(nm prog | awk '$3 == "target_fn" { sub(/^0+/, "", $1); print $1 }')
run symbolize symbolize-vmlinux-dwarf sh -c "\"$M\" symbolize --vmlinux prog $addr | sed -E 's/^[0-9a-f]+ /ADDR /; s#/0x[0-9a-f]+##; s# at .*/# at #'"
# Code of line 0 (tests/lines-prog.c, built by clang as the kernel is):
# the line of the row before it (17: g *= 3), or no line when its
# sequence has none before it (h, all of line 0); export's line column
# empty there, capmap's file rows the file's.
lp=$(dirname "$MKSTREAM")/lines-prog
set -- $("$lp")
printf 'ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n  %s,1,1,0\n  %s,1,0,1\n' "$1" "$2" > lines.kmap
run symbolize symbolize-line-zero sh -c "\"$M\" symbolize --vmlinux \"$lp\" $1 $2 | sed -E 's/^[0-9a-f]+ /ADDR /; s#\+0x[0-9a-f]+/0x[0-9a-f]+##'; \"$M\" export lines.kmap -f csv -o exl --vmlinux \"$lp\" && cut -d, -f3-5 exl/accesses.csv; \"$M\" capmap lines.kmap --rows file --vmlinux \"$lp\" --csv"
run symbolize symbolize-bad-address "$M" symbolize --system-map fixtures/System.map xyz
run symbolize symbolize-bad-map "$M" symbolize --system-map fixtures/tar.kmap 1
run symbolize symbolize-bad-addresses "$M" symbolize --system-map fixtures/System.map -- -5 0x-1 0x0x1 0x 12345678901234567 0XFFFFFFFF812A4E74
run symbolize symbolize-nul-input sh -c "timeout 10 \"$M\" symbolize --system-map fixtures/System.map < /dev/zero"
printf 'ffffffff812a4e60 T kmem_cache_free\r\nffffffff812a5000 T next_fn\r\n' > crlf.map
run symbolize symbolize-crlf-map sh -c "\"$M\" symbolize --system-map crlf.map ffffffff812a4e74 | od -c | head -n 3"
run symbolize symbolize-empty-map "$M" symbolize --system-map /dev/null 1
run symbolize symbolize-directory-map "$M" symbolize --system-map . 1

# record, against a stand-in debugfs directory: the child must find
# tracing on in the mode asked when CMD runs, and everything off after.
mkdebugfs() {
	rm -rf dbg && mkdir dbg
	for f in memorizer_enabled memorizer_log_access clear_dead_objects; do
		echo 7 > dbg/$f
	done
	cp fixtures/tar.kmap dbg/kmap
	cp fixtures/stats dbg/stats
}
state() { echo "enabled=$(cat dbg/memorizer_enabled) log_access=$(cat dbg/memorizer_log_access) cleared=$(cat dbg/clear_dead_objects)"; }
mkdebugfs
run record record-default sh -c "\"$M\" record --debugfs dbg -o out.kmap -- sh -c 'echo during: \$(cat dbg/memorizer_enabled) \$(cat dbg/memorizer_log_access)' && cmp out.kmap fixtures/tar.kmap && echo after: \$(cat dbg/memorizer_enabled) \$(cat dbg/memorizer_log_access) \$(cat dbg/clear_dead_objects)"
# --offsets saves kmap_offsets (the stand-in's: fixtures/offsets.kmap).
mkdebugfs
cp fixtures/offsets.kmap dbg/kmap_offsets
run record record-offsets sh -c "\"$M\" record --debugfs dbg --offsets -o out.kmap -- true && cmp out.kmap fixtures/offsets.kmap && echo saved kmap_offsets"
mkdebugfs
run record record-mode-no-access sh -c "MEMORIZER_DEBUGFS=dbg \"$M\" record -m 2 --no-access -o out.kmap -- sh -c 'echo during: \$(cat dbg/memorizer_enabled) \$(cat dbg/memorizer_log_access); exit 3'; echo status \$?; echo after: \$(cat dbg/memorizer_enabled) \$(cat dbg/memorizer_log_access)"
mkdebugfs
run record record-exec-fails sh -c "\"$M\" record --debugfs dbg -o out.kmap -- ./no-such-command; echo status \$?; echo after: \$(cat dbg/memorizer_enabled) \$(cat dbg/memorizer_log_access)"
mkdebugfs
# SIGINT as at a terminal: a test runner without job control (a CI job in
# the background) starts us with it ignored, and CMD would inherit that.
run record record-interrupted sh -c "env --default-signal=INT \"$M\" record --debugfs dbg -o out.kmap -- sh -c 'kill -INT \$PPID; exec sleep 5'; echo status \$?; echo after: \$(cat dbg/memorizer_enabled) \$(cat dbg/memorizer_log_access)"
run record record-no-debugfs "$M" record --debugfs ./nonexistent -- true
# Drops: stats' objects_dropped and accesses_dropped after CMD less before,
# found by name wherever their lines are (a key they begin does not count).
mkdebugfs
run record record-drops "$M" record --debugfs dbg -o out.kmap -- sh -c '
	grep -v "^[a-z]*_dropped " dbg/stats > new
	printf "accesses_dropped 17\nobjects_dropped_early 1000\nobjects_dropped 5\n" >> new
	mv new dbg/stats'
# A kernel without stats (show_stats alone): drops unknown, the file named.
mkdebugfs
rm dbg/stats
printf 'objects dropped (no memory):  3\naccesses dropped (no memory): 10\n' > dbg/show_stats
run record record-no-stats "$M" record --debugfs dbg -o out.kmap -- true
# The output is opened before the workload runs: an unwritable one stops
# record before anything is traced or run.
mkdebugfs
run record record-unwritable-output sh -c "\"$M\" record --debugfs dbg -o no-such-dir/x.kmap -- echo ran; echo status \$?; echo after: \$(cat dbg/memorizer_enabled) \$(cat dbg/memorizer_log_access)"
# Tracing cannot be set up (clear_dead_objects cannot be written): FILE
# stays as it was, no temporary file is left.
mkdebugfs
rm dbg/clear_dead_objects && mkdir dbg/clear_dead_objects
cp fixtures/tar.kmap old.kmap
run record record-failed-keeps-output sh -c "\"$M\" record --debugfs dbg -o old.kmap -- echo ran; echo status \$?; cmp old.kmap fixtures/tar.kmap && echo unchanged; ls -A | grep -c '^\.old' || true"
run record record-output-stdout "$M" record -o - -- true
run record record-bad-mode "$M" record --mode 4 -- true
run record record-no-command "$M" record -o x.kmap

# stream: kmap_stream and the binary files as stand-in files (their end
# ends the collection) and as a FIFO stopped by SIGINT.
mkdebugfs
cp fixtures/tar.kmap dbg/kmap_stream
run stream stream-text sh -c "\"$M\" stream --debugfs dbg -o s.kmap && cmp s.kmap fixtures/tar.kmap && echo identical"
mv dbg/stats stats.away
run stream stream-text-no-stats sh -c "\"$M\" stream --debugfs dbg -o s.kmap && cmp s.kmap fixtures/tar.kmap && echo identical"
mv stats.away dbg/stats
mkdir -p dbg/binary
head -c 56 stream.bin > dbg/binary/header
tail -c +57 stream.bin > dbg/binary/cpu0
: > dbg/binary/cpu1
run stream stream-binary sh -c "\"$M\" stream --debugfs dbg --binary -o s.bin && cmp s.bin stream.bin && echo identical"
run stream stream-binary-zstd bash -c "\"$M\" stream --debugfs dbg --binary --zstd -o s.zst && \"$M\" text s.zst 2>/dev/null | cmp - <(\"$M\" text stream.bin 2>/dev/null) && echo same text"
run stream stream-zstd-cut sh -c "head -c 60 s.zst | \"$M\" text -"
head -c 40 stream.bin > dbg/binary/header
run stream stream-bad-header "$M" stream --debugfs dbg --binary -o s.bin
rm -f dbg/kmap_stream && mkfifo dbg/kmap_stream
run stream stream-fifo-sigint bash -c "
	exec 3<>dbg/kmap_stream	# a writer that stays: reads would block
	\"$M\" stream --debugfs dbg -o f.kmap & pid=\$!
	head -n 20 fixtures/tar.kmap >&3
	sleep 1; kill -INT \$pid; wait \$pid; echo status \$?
	head -n 20 fixtures/tar.kmap | cmp - f.kmap && echo nothing lost"
run stream stream-zstd-text "$M" stream --zstd -o x
# stream | head: the reader going away ends the collection, status 0.
rm -f dbg/kmap_stream
for i in $(seq 200); do cat fixtures/tar.kmap; done > dbg/kmap_stream
run stream stream-closed-pipe bash -c "\"$M\" stream --debugfs dbg 2> err | head -n 1; echo status \${PIPESTATUS[0]}; grep -v '^memorizer stream: [0-9]* bytes' err"

# capmap, over fixtures/capmap.kmap, whose matrix (--system-map
# fixtures/System.map, rows function, cols callsite) is, by hand:
#   object 1: getname_flags+0x10's, freed by kfree+0x20;
#     xas_load+0x6 reads 5, xas_store+0x10 writes 3 and reads 1
#   object 2: getname_flags+0x10's, live; xas_load+0x6 reads 2 (pid 10),
#     xas_load+0x20 reads 1 (pid 11)
#   object 3: alloc_vmap_area+0x8's, freed by call_rcu+0x30;
#     rb_erase+0x4 writes 1 and reads 4, xas_store+0x10 writes 2
#   object 4: alloc_vmap_area+0x8's, free missed (deadbeef);
#     rb_erase+0x4 reads 1, ffffffff81000010 (in no function) writes 1
# so, cell (reads, writes, frees, objects):
#   xas_load x getname_flags          8 0 0 2
#   rb_erase x alloc_vmap_area        5 1 0 2
#   xas_store x getname_flags         1 3 0 1
#   xas_store x alloc_vmap_area       0 2 0 1
#   call_rcu x alloc_vmap_area        0 0 1 1
#   ffffffff81000010 x alloc_vmap_area 0 1 0 1
#   kfree x getname_flags             0 0 1 1
# and 14 reads, 7 writes, 2 frees, 1 free without a free ip.
cm=fixtures/capmap.kmap
sm="--system-map fixtures/System.map"
run capmap capmap-function-callsite "$M" capmap $cm $sm
run capmap capmap-ip-object-csv "$M" capmap $cm --rows ip --cols object --csv
run capmap capmap-ip-symbols-json "$M" capmap $cm --rows ip --cols kind --json $sm
run capmap capmap-limit sh -c "\"$M\" capmap $cm $sm -n 2 -o out.txt && cat out.txt"
run capmap capmap-tar "$M" capmap fixtures/tar.kmap $sm
run capmap capmap-saturated "$M" capmap fixtures/saturate.kmap $sm --csv
run capmap capmap-stream-cache "$M" capmap stream.bin --cols cache $sm
run capmap capmap-stream-kind "$M" capmap globals.bin --rows ip --cols kind
# Found objects (no allocation seen; alloc_ip their own address) have no
# call site: they go under [KIND], in a text kmap [its executable word],
# and export names no alloc_function for them.
run capmap capmap-found-stream "$M" capmap found.bin --rows ip
run capmap capmap-found-text "$M" capmap globals.kmap --rows ip --csv
run capmap capmap-found-export sh -c "\"$M\" export globals.bin -f csv -o exg --system-map fixtures/System.map && cut -d, -f1,2,6,7 exg/objects.csv"
run capmap capmap-dot "$M" capmap $cm $sm --dot
run capmap capmap-dot-draws sh -c "\"$M\" capmap fixtures/tar.kmap $sm --dot | dot -Tsvg | grep -c '<g id=\"edge'"
# Files and directories from DWARF: a program built with -g from two
# directories stands in for vmlinux; a kmap of its functions' addresses.
mkdir -p src/fs src/mm
printf 'int fs_read(int x)\n{\n\treturn x + 1;\n}\n' > src/fs/read.c
printf 'int mm_alloc(int x)\n{\n\treturn x * 2;\n}\nint main(void) { return mm_alloc(1); }\n' > src/mm/alloc.c
(cd src && cc -g -O0 -no-pie -o ../dwprog fs/read.c mm/alloc.c)
(cd src && cc -O0 -no-pie -o ../nodwprog fs/read.c mm/alloc.c)
fs_read=$(nm dwprog | awk '$3 == "fs_read" { sub(/^0+/, "", $1); print $1 }')
mm_alloc=$(nm dwprog | awk '$3 == "mm_alloc" { sub(/^0+/, "", $1); print $1 }')
printf '%s,5,ffff888000001000,64,100,0,0,sh\n  %s,5,1,2\n  %s,5,3,0\n' \
	"$mm_alloc" "$fs_read" "$mm_alloc" > dw.kmap
run capmap capmap-dwarf-files "$M" capmap dw.kmap --vmlinux dwprog --rows file --csv
run capmap capmap-dwarf-dirs "$M" capmap dw.kmap --vmlinux dwprog --rows dir --csv
run capmap capmap-dwarf-file-functions "$M" capmap dw.kmap --vmlinux dwprog --rows file-function
run capmap capmap-no-dwarf "$M" capmap dw.kmap --vmlinux nodwprog --rows dir
# The same program from clang (as the kernel is built): its C units are
# in no .debug_aranges, and their lines are found all the same.
(cd src && clang-16 -g -O0 -no-pie -o ../clangprog fs/read.c mm/alloc.c)
printf '%s,5,ffff888000001000,64,100,0,0,sh\n  %s,5,1,2\n  %s,5,3,0\n' \
	"$(nm clangprog | awk '$3 == "mm_alloc" { sub(/^0+/, "", $1); print $1 }')" \
	"$(nm clangprog | awk '$3 == "fs_read" { sub(/^0+/, "", $1); print $1 }')" \
	"$(nm clangprog | awk '$3 == "mm_alloc" { sub(/^0+/, "", $1); print $1 }')" > clang.kmap
run capmap capmap-dwarf-files-clang "$M" capmap clang.kmap --vmlinux clangprog --rows file --csv
# report --html: with DWARF lines the heatmap has file and dir rows too.
run capmap capmap-html-dwarf sh -c "$(declare -f capmap_section); \"$M\" report --html -o dw.html --vmlinux dwprog dw.kmap && capmap_section dw.html"
# More files than the heatmap's 60 rows: directory a's 70 (f0.c reads
# once, f69.c 70 times), b's one (z.c, read once, a row of no top 60):
# the top 60 files, and z.c too (a child of b, for b's drill-down); so
# for the functions of those files.
mkdir -p many/a many/b
awk 'BEGIN { for (i = 0; i < 70; i++) printf "int f%d(int x) { return x + %d; }\n", i, i > "many/a/f" i ".c"; print "int z(int x) { return x; }\nint main(void) { return z(0); }" > "many/b/z.c" }'
(cd many && cc -g -O0 -no-pie -o ../manyprog a/*.c b/z.c)
nm manyprog | awk '$3 ~ /^(f[0-9]+|z)$/ { sub(/^0+/, "", $1); n = $3 == "z" ? 1 : substr($3, 2) + 1; printf "%s,5,ffff8880%08x,64,100,0,0,sh\n  %s,5,0,%d\n", $1, NR * 64, $1, n }' > many.kmap
run capmap capmap-html-dwarf-children sh -c "$(declare -f capmap_section); \"$M\" report --html -o many.html --vmlinux manyprog many.kmap && capmap_section many.html > many.txt && grep -o '^{\"subject\":\"[a-z-]*\",\"group\":\"[a-z]*\"\|\"top\":[0-9]*\|\"left_out\":{\"rows\":[0-9]*' many.txt | paste -d ' ' - - -; grep '\"b/z.c\|\"a/f1[01]\.c\|\"a/f0\.c' many.txt"
run capmap capmap-file-needs-vmlinux "$M" capmap $cm $sm --rows file
run capmap capmap-function-needs-symbols "$M" capmap $cm
run capmap capmap-cache-needs-stream "$M" capmap $cm --cols cache $sm
run capmap capmap-bad-rows "$M" capmap $cm --rows type $sm
run capmap capmap-bad-cols "$M" capmap $cm --cols colour $sm
run capmap capmap-bad-limit "$M" capmap $cm $sm -n 0
run capmap capmap-two-formats "$M" capmap $cm $sm --csv --dot
# One format given twice is that format.
run capmap capmap-format-twice "$M" capmap $cm $sm --csv --csv -n 2
run capmap capmap-two-files "$M" capmap $cm $cm $sm
printf 'ffffffff812e0540,10,ffff888000001000,64,100,110,ffffffff812a5010,tar\n  ffffffff817562d6,10,0\n' > bad-access.kmap
cp fixtures/tar.kmap kept.txt
run capmap capmap-bad-input sh -c "\"$M\" capmap bad-access.kmap $sm -o kept.txt; echo status \$?; cmp kept.txt fixtures/tar.kmap && echo output unchanged"
run capmap capmap-empty "$M" capmap empty.kmap --rows ip
# --fields, over fixtures/offsets.kmap (rows ip, cols callsite, no
# symbols), by hand:
#   object 1: ffffffff812a4e74's, freed by ffffffff812ab8a3;
#     ffffffff811486e2 reads 5 of +0..8, ffffffff811556b9 writes 2 and
#     reads 1 of +8..16
#   object 2: ffffffff812a4e74's, live; ffffffff811486e2 reads 3 of
#     +0..8, ffffffff811556b9 writes 1 of +16..24
#   object 3: ffffffff812e05ea's, freed by ffffffff812ab8a3;
#     ffffffff811486e2 reads 2 of +0..8, ffffffff811556b9 reads 1 of
#     bytes not known (0,0)
# so, cell (reads, writes, frees, objects), frees in range -:
#   ffffffff811486e2 x ffffffff812a4e74 +0..8    8 0 0 2
#   ffffffff811556b9 x ffffffff812a4e74 +8..16   1 2 0 1
#   ffffffff811486e2 x ffffffff812e05ea +0..8    2 0 0 1
#   ffffffff811556b9 x ffffffff812a4e74 +16..24  0 1 0 1
#   ffffffff811556b9 x ffffffff812e05ea -        1 0 0 1
#   ffffffff812ab8a3 x ffffffff812a4e74 -        0 0 1 1
#   ffffffff812ab8a3 x ffffffff812e05ea -        0 0 1 1
# and 12 reads, 3 writes, 2 frees.
om=fixtures/offsets.kmap
run capmap capmap-fields "$M" capmap $om --rows ip --fields
run capmap capmap-fields-csv "$M" capmap $om --rows ip --fields --csv
run capmap capmap-fields-json "$M" capmap $om --rows ip --fields --json -n 3
run capmap capmap-fields-dot "$M" capmap $om --rows ip --fields --dot
run capmap capmap-fields-stream "$M" capmap offsets.bin --rows ip --cols kind --fields
# Struct types from DWARF: types.desc's objects by their caches' structs
# in types-prog (tests/types-prog.c, built with -g by the tools' build),
# each cell's bytes named as a member (the cells are worked out by hand in
# types.desc); without DWARF, --cols type says what it needs.
"$MKSTREAM" < "$fx/types.desc" > types.bin || exit 1
tp=$(dirname "$MKSTREAM")/types-prog
run capmap capmap-types-fields "$M" capmap types.bin --rows ip --cols type --fields --vmlinux "$tp"
run capmap capmap-types-fields-csv "$M" capmap types.bin --rows ip --cols type --fields --vmlinux "$tp" --csv
run capmap capmap-cache-fields-csv "$M" capmap types.bin --rows ip --cols cache --fields --vmlinux "$tp" --csv
# kmalloc objects typed by call site (types-sites.desc has them by hand):
# types-prog's own call sites, from running it.
set -- $("$tp")
sed "s/@1@/$1/; s/@2@/$2/; s/@3@/$3/; s/@4@/$4/g" "$fx/types-sites.desc" |
	"$MKSTREAM" > types-sites.bin || exit 1
run capmap capmap-types-sites "$M" capmap types-sites.bin --rows ip --cols type --fields --vmlinux "$tp"
run capmap capmap-types-sites-callsite "$M" capmap types-sites.bin --rows ip --fields --vmlinux "$tp"
run capmap capmap-types-sites-object "$M" capmap types-sites.bin --rows ip --cols object --fields --vmlinux "$tp"
# Object 5 (struct file, by its cache) allocated at make_outer's call site
# too: that call site's objects no longer agree, so its cells name nothing.
sed "s/call_site=0xffffffff81000100/call_site=$1/; s/@1@/$1/; s/@2@/$2/; s/@3@/$3/; s/@4@/$4/g" \
	"$fx/types-sites.desc" | "$MKSTREAM" > types-mixed.bin || exit 1
run capmap capmap-types-sites-mixed "$M" capmap types-mixed.bin --rows ip --fields --vmlinux "$tp"
run capmap capmap-types-sites-json "$M" capmap types-sites.bin --rows ip --cols type --vmlinux "$tp" --json -n 1
# The same from the stream made a kmap_offsets (text --offsets: its kinds
# and caches, so "struct file" by cache filp, as from the stream itself).
run capmap capmap-types-sites-text sh -c "\"$M\" text --offsets types-sites.bin > ts.kmap && \"$M\" capmap ts.kmap --rows ip --cols type --fields --vmlinux \"$tp\" && \"$M\" capmap types-sites.bin --rows ip --cols type --fields --vmlinux \"$tp\" --csv > a && \"$M\" capmap ts.kmap --rows ip --cols type --fields --vmlinux \"$tp\" --csv | cmp - a && echo same cells as the stream"
run capmap capmap-kinds-cache sh -c "\"$M\" capmap fixtures/kinds.kmap --rows ip --cols cache && \"$M\" capmap fixtures/kinds.kmap --rows ip --cols callsite --csv"
run export export-types sh -c "\"$M\" export types-sites.bin -f csv -o ext --vmlinux \"$tp\" && cut -d, -f1,8,16,17 ext/objects.csv && cut -d, -f1,2,9- ext/accesses.csv"
# The same types from BTF (pahole's, of types-prog, made by the tools'
# build): types.bin's objects are typed by their caches, so the cells are
# DWARF's; of types-sites.bin's only the cache's (struct file) and none by
# call site or global, which BTF cannot say. A --btf that gives no types
# is an error.
tb=$(dirname "$MKSTREAM")/types-prog.btf
run capmap capmap-types-btf sh -c "\"$M\" capmap types.bin --rows ip --cols type --fields --btf \"$tb\" && \"$M\" capmap types.bin --rows ip --cols type --fields --btf \"$tb\" --csv > a && \"$M\" capmap types.bin --rows ip --cols type --fields --vmlinux \"$tp\" --csv | cmp - a && echo same cells as from DWARF"
run capmap capmap-types-btf-sites "$M" capmap types-sites.bin --rows ip --cols type --fields --btf "$tb"
head -c 30 "$tb" > cut.btf
run capmap capmap-btf-errors sh -c "\"$M\" capmap types.bin --rows ip --cols type --btf nonexistent.btf; echo status \$?; \"$M\" capmap types.bin --rows ip --fields --btf cut.btf; echo status \$?; \"$M\" capmap types.bin --rows ip --cols type --btf fixtures/kinds.kmap; echo status \$?; \"$M\" export types.bin -f csv -o ext-btf --btf cut.btf; echo status \$?; [ ! -e ext-btf ] && echo no ext-btf"
run capmap capmap-types-no-dwarf sh -c "\"$M\" capmap types.bin --rows ip --cols type; echo status \$?; \"$M\" capmap types.bin --rows ip --cols type --vmlinux nodwprog; echo status \$?"
run capmap capmap-fields-no-offsets sh -c "\"$M\" capmap $cm $sm --fields; echo status \$?; \"$M\" capmap offsets-v4.bin --rows ip --fields; echo status \$?"
run capmap capmap-write-error sh -c "\"$M\" capmap $cm $sm > /dev/full"

# compartments, over fixtures/compartments.kmap (a kmap_offsets) and
# fixtures/compartments.calls, named by fixtures/System.map. By hand:
#   object 1: getname_flags's, cache names_cache, 32 bytes, freed by kfree;
#     xas_load reads +0..8, xas_store writes +8..16
#   object 2: getname_flags's, names_cache, 64 bytes, live; xas_load
#     reads +0..8
#   object 3: alloc_vmap_area's, kmalloc-16, 16 bytes, freed by call_rcu;
#     rb_erase reads and writes +0..8, xas_store writes +8..16
#   calls: xas_store -> xas_load 5 + 1 (pids 10, 12), rb_erase ->
#     xas_store 2, kfree -> call_rcu 3, call_rcu -> getname_uflags 4:
#     15 in all, none within a function
# Code units (--code function), 6: call_rcu, getname_uflags (calls only,
# no data), kfree, rb_erase, xas_load, xas_store.
# --data callsite: G = getname_flags (64 bytes, its largest object),
#   V = alloc_vmap_area (16). A: xas_load {G r}, xas_store {G w, V w},
#   rb_erase {V rw}, kfree {G f}, call_rcu {V f}, getname_uflags {}.
#   least 1+2+1+1+1+0 = 6, bytes 64+80+16+64+16 = 240;
#   monolithic 6*2 = 12, bytes 6*80 = 480.
#   (--data kind: kmem_cache = G, kmalloc = V; --data type without
#   DWARF is by cache: names_cache = G, kmalloc-16 = V: the same figures.)
# --split fixtures/compartments.split: xa {xas_load, xas_store}, free
#   {kfree, call_rcu}, rest {rb_erase, getname_uflags}:
#   granted 2*2 + 2*2 + 2*1 = 10: reduction (12-10)/(12-6) = 1/3;
#   bytes 2*80 + 2*80 + 2*16 = 352: (480-352)/(480-240) = 8/15 = 0.533;
#   crossings rb_erase -> xas_store 2 + call_rcu -> getname_uflags 4 = 6,
#   6/15 = 0.4; shared: V (xa writes, rest reads and writes) = 1 (G is
#   read and written by xa alone: kfree only frees it).
# --sweep (affinity: Jaccard of the data + calls between / calls out):
#   6: all apart: reduction 1, 1; crossings 15, 1; shared G, V = 2
#   5: call_rcu+rb_erase (affinity 1, tied with kfree+xas_load at 1, and
#      call_rcu comes first by name): granted 2*1+0+1+1+2 = 6: 1, 1;
#      crossings 15, shared 2
#   4: kfree+xas_load (1): granted 2+0+2*1+2 = 6: 1, 1 (bytes
#      32+128+80 = 240); 15; 2
#   3: {kfree,xas_load}+xas_store (1/2 + 6/17 = 0.853, above
#      {call_rcu,rb_erase}+xas_store's 1/2 + 2/17): granted 2+0+3*2 = 8:
#      (12-8)/6 = 0.67; bytes 32+3*80 = 272: 208/240 = 0.87; crossings
#      15-6 = 9, 0.6; shared V = 1
#   2: the two of them (1/2 + 5/14): granted 5*2 = 10: 0.33; bytes 400:
#      0.33; crossings 9-5 = 4, 4/15 = 0.27; shared 0
#   1: reduction 0, 0; crossings 0; shared 0
# --data object: objects 1, 2, 3 (32, 64, 16 bytes): least 2+2+1+1+1 =
#   7, bytes 96+48+16+32+16 = 208; monolithic 6*3 = 18, bytes 6*112 =
#   672. Split: granted 2*3 + 2*2 + 2*1 = 12: (18-12)/(18-7) = 6/11 =
#   0.545; bytes 2*112 + 2*48 + 2*16 = 352: 320/464 = 0.690; shared:
#   object 3 = 1.
# --data field (type by cache, split by range; frees the whole type):
#   names_cache+0..8 (8 bytes) r by xas_load, names_cache+8..16 (8) w by
#   xas_store, names_cache (64) f by kfree, kmalloc-16+0..8 (8) rw by
#   rb_erase, kmalloc-16+8..16 (8) w by xas_store, kmalloc-16 (16) f by
#   call_rcu: least 6, bytes 8+16+8+64+16 = 112; monolithic 6*6 = 36,
#   bytes 6*112 = 672. Split: granted 2*3 + 2*2 + 2*1 = 12: 24/30 = 0.8;
#   bytes 2*24 + 2*80 + 2*8 = 224: 448/560 = 0.8; shared 0 (no unit is
#   written by one compartment and touched by another).
cx="fixtures/compartments.kmap fixtures/compartments.calls $sm"
csplit=fixtures/compartments.split
run compartments compartments-sweep "$M" compartments $cx
run compartments compartments-sweep-csv "$M" compartments $cx --sweep --csv
run compartments compartments-sweep-json "$M" compartments $cx --json --points 2
run compartments compartments-sweep-ends sh -c "for d in object callsite type field kind; do echo \$d; \"$M\" compartments $cx --data \$d --points 2 --csv | cut -d, -f1-6; done"
run compartments compartments-split "$M" compartments $cx --split $csplit
run compartments compartments-split-data sh -c "for d in object callsite type field kind; do echo \$d; \"$M\" compartments $cx --split $csplit --data \$d --csv; done"
run compartments compartments-split-field "$M" compartments $cx --split $csplit --data field
run compartments compartments-split-json "$M" compartments $cx --split $csplit --json
# The fork's function_calls (caller callee count, no pid): the same edges,
# the pids summed, the same crossings.
sed 's/^\([0-9a-f]*\),\([0-9a-f]*\),[0-9]*,\([0-9]*\)$/\1 \2 \3/' fixtures/compartments.calls > fork.calls
# A stream's CALL records are edges too: the fixture's calls as CALL
# records (one edge in two records) score as the function_calls file does.
awk -F, 'BEGIN { print "header"; print "task cpu=0 ns=1 pid=10 comm=sh" }
	{ c = $4; n = 2
	  if (NR == 1) { printf "call cpu=1 ns=%d caller=0x%s callee=0x%s pid=%s count=2\n", n++, $1, $2, $3; c -= 2 }
	  printf "call cpu=0 ns=%d caller=0x%s callee=0x%s pid=%s count=%s\n", NR + 10, $1, $2, $3, c }' \
	fixtures/compartments.calls | "$MKSTREAM" > compartments-calls.bin
run compartments compartments-stream-calls sh -c "\"$M\" compartments fixtures/compartments.kmap compartments-calls.bin $sm --split fixtures/compartments.split --csv > bin.csv &&
	\"$M\" compartments fixtures/compartments.kmap fixtures/compartments.calls $sm --split fixtures/compartments.split --csv > text.csv &&
	cmp bin.csv text.csv && cat bin.csv"
run compartments compartments-fork-calls sh -c "\"$M\" compartments fixtures/compartments.kmap fork.calls $sm --split $csplit --csv && \"$M\" check fork.calls; echo status \$?"
# Without calls: no crossings, share 0; a calls file alone: no data, so
# monolithic = least = 0 and reduction 1 throughout.
run compartments compartments-no-calls "$M" compartments fixtures/compartments.kmap $sm --points 3 --csv
run compartments compartments-calls-only "$M" compartments fixtures/compartments.calls $sm --points 3 --csv
# Files and directories (dw.kmap, dwprog from the capmap cases): fs/read.c
# reads and writes mm_alloc's object, mm/alloc.c writes it: least 2 =
# monolithic 2*1, so reduction is 1 at both ends.
run compartments compartments-dwarf-files "$M" compartments dw.kmap --vmlinux dwprog --code file --points 2 --csv
run compartments compartments-dwarf-dirs "$M" compartments dw.kmap --vmlinux dwprog --code dir --split /dev/null
# Stack frames: fixtures/compartments.frames beside the kmap and calls.
# Its cells (frame <- ip's function, pid: writes, reads):
#   xas_store's frame <- xas_store 10: 3, 2; <- xas_load 10: 1, 0 and
#     12: 2, 0 (a callee writing its caller's local)
#   rb_erase's frame <- xas_store 11: 0, 4; <- rb_erase 11: 1, 1
#   call_rcu's frame <- getname_uflags 0: 1, 0; <- call_rcu 0: 0, 2
# so, with Fs, Fr, Fc = frame:xas_store, frame:rb_erase, frame:call_rcu,
# 8 bytes each (a frame weighs one stack slot), by hand:
# --data callsite: 5 data units, G 64, V 16, Fs, Fr, Fc 8 (104 bytes).
#   A: xas_load {G r, Fs w}, xas_store {G w, V w, Fs rw, Fr r},
#   rb_erase {V rw, Fr rw}, kfree {G f}, call_rcu {V f, Fc r},
#   getname_uflags {Fc w} (no data without frames).
#   least 2+4+2+1+2+1 = 12, bytes 72+96+24+64+24+8 = 288;
#   monolithic 6*5 = 30, bytes 6*104 = 624.
#   Split: xa {G, V, Fs, Fr} 2*4 = 8 (bytes 2*96 = 192), free {G, V, Fc}
#   2*3 = 6 (2*88 = 176), rest {V, Fr, Fc} 2*3 = 6 (2*32 = 64): granted
#   20, reduction (30-20)/(30-12) = 10/18 = 0.556 (0.33 without frames);
#   bytes 432: (624-432)/(624-288) = 192/336 = 0.571; crossings 6, 0.4
#   as before; shared V, Fr (rest writes, xa reads), Fc (rest writes,
#   free reads) = 3, where it was V alone. Fs is xa's alone.
#   Sweep ends: 1: granted 30 (624), shared 0; 6: granted 12 (288),
#   shared G, V, Fs, Fr, Fc = 5 (each written by one function and used
#   by another).
# --data type (by cache without DWARF): the same units, the same figures.
# --data kind: kmem_cache = G, kmalloc = V, every frame the one unit
#   frame (8 bytes). A: xas_load {G r, frame w}, xas_store {G w, V w,
#   frame rw}, rb_erase {V rw, frame rw}, kfree {G f}, call_rcu {V f,
#   frame r}, getname_uflags {frame w}: least 2+3+2+1+2+1 = 11, bytes
#   72+88+24+64+24+8 = 280; monolithic 6*3 = 18, bytes 6*88 = 528.
#   Split: 2*3 + 2*3 + 2*2 = 16: (18-16)/(18-11) = 2/7 = 0.286; bytes
#   176+176+48 = 400: 128/248 = 0.516; shared V, frame = 2.
# --data object: objects 1, 2, 3 (32, 64, 16) and Fs, Fr, Fc: least
#   3+4+2+1+2+1 = 13, bytes 104+64+24+32+24+8 = 256; monolithic 6*6 =
#   36, bytes 6*136 = 816. Split: xa {1, 2, 3, Fs, Fr} 2*5, free {1, 3,
#   Fc} 2*3, rest {3, Fr, Fc} 2*3: granted 22, 14/23 = 0.609; bytes
#   2*128 + 2*56 + 2*32 = 432: 384/560 = 0.686; shared 3, Fr, Fc = 3.
# --data field: the six units of the field case and Fs, Fr, Fc (9 units,
#   136 bytes): least 2+4+2+1+2+1 = 12, bytes 16+32+16+64+24+8 = 160;
#   monolithic 54, bytes 816. Split: xa {names_cache+0..8, +8..16,
#   kmalloc-16+8..16, Fs, Fr} 2*5 (bytes 2*40), free {names_cache,
#   kmalloc-16, Fc} 2*3 (2*88), rest {kmalloc-16+0..8, Fr, Fc} 2*3
#   (2*24): granted 22, 32/42 = 0.762; bytes 304: 512/656 = 0.780;
#   shared Fr, Fc = 2 (0 without frames).
cxf="fixtures/compartments.kmap fixtures/compartments.calls fixtures/compartments.frames $sm"
run compartments compartments-frames-split "$M" compartments $cxf --split $csplit
run compartments compartments-frames-split-data sh -c "for d in object callsite type field kind; do echo \$d; \"$M\" compartments $cxf --split $csplit --data \$d --csv; done"
run compartments compartments-frames-kind "$M" compartments $cxf --split $csplit --data kind
run compartments compartments-frames-sweep-ends "$M" compartments $cxf --points 2 --csv
run compartments compartments-frames-json "$M" compartments $cxf --split $csplit --json
# Cells of several files add up: the same file twice grants the same.
run compartments compartments-frames-twice sh -c "\"$M\" compartments $cxf --split $csplit --csv > once.csv && \"$M\" compartments $cxf fixtures/compartments.frames --split $csplit --csv | cmp - once.csv && echo same"
# A frame in no known function is named by its address, as a call site
# is: xas_load writes the frame at ffffffff81000010 (before the first
# symbol). Alone: 1 function, 1 data unit of 8 bytes, least = monolithic
# = 1 (8 bytes), so reduction 1.
printf 'ffffffff81000010,ffffffff817562d6,10,1,0\n' > unknown.frames
run compartments compartments-frames-unknown "$M" compartments unknown.frames $sm --split $csplit
# Directories (dwprog): fs_read (fs) writes mm_alloc's frame and reads
# its own. fs {mm_alloc rw, frame:mm_alloc w, frame:fs_read r}, mm
# {mm_alloc w}: least 3+1 = 4, bytes 80+64 = 144; monolithic 2*3 = 6,
# bytes 2*80 = 160. One compartment: reduction 0 (it was 1, with
# monolithic = least); one a directory: 1, granted 4 (144), shared
# mm_alloc = 1 (the frames are fs's alone).
printf '%s,%s,5,1,0\n%s,%s,5,0,1\n' "$mm_alloc" "$fs_read" "$fs_read" "$fs_read" > dw.frames
run compartments compartments-frames-dwarf-dirs sh -c "\"$M\" compartments dw.kmap dw.frames --vmlinux dwprog --code dir --split /dev/null && \"$M\" compartments dw.kmap dw.frames --vmlinux dwprog --code dir --points 2 --csv"
printf 'ffffffff81757470,ffffffff81757480,10,3,2\nffffffff81757470,ffffffff81757480,10\n' > bad.frames
run compartments compartments-bad-frames "$M" compartments fixtures/compartments.kmap bad.frames $sm
# Errors: exact message, status not 0.
printf 'xa xas_*\nfree\n' > one-field.split
run compartments compartments-bad-split-one-field "$M" compartments $cx --split one-field.split
printf '# c\n\nxa xas_* extra\n' > three-fields.split
run compartments compartments-bad-split-three-fields "$M" compartments $cx --split three-fields.split
{ printf 'xa '; head -c 600 /dev/zero | tr '\0' x; echo; } > long.split
run compartments compartments-bad-split-long "$M" compartments $cx --split long.split
run compartments compartments-bad-split-missing "$M" compartments $cx --split no-such.split
printf 'ffffffff81757490,ffffffff817562d0,10,5\nffffffff81757490,ffffffff817562d0,10\n' > bad.calls
run compartments compartments-bad-calls "$M" compartments fixtures/compartments.kmap bad.calls $sm
printf 'ffffffff81757490,ffffffff817562d0,10,5\nffffffff81757490 ffffffff817562d0 5\n' > mixed.calls
run compartments compartments-bad-calls-mixed "$M" compartments mixed.calls $sm
run compartments compartments-bad-field-no-offsets "$M" compartments $cm $sm --data field
run compartments compartments-bad-code "$M" compartments $cx --code ip
run compartments compartments-bad-data "$M" compartments $cx --data cache
run compartments compartments-bad-points "$M" compartments $cx --points 1
run compartments compartments-split-and-sweep "$M" compartments $cx --split $csplit --sweep
run compartments compartments-no-files "$M" compartments $sm
run compartments compartments-function-needs-symbols "$M" compartments fixtures/compartments.kmap
run compartments compartments-file-needs-vmlinux "$M" compartments $cx --code file

# diff: capmap.kmap against capmap-b.kmap, which lacks object 4, has
# rb_erase+0x4 read object 3 three times (not four), and has
# call_rcu+0x8 write object 2 twice. By hand: new call_rcu x getname_flags
# (+2), vanished ffffffff81000010 x alloc_vmap_area (-1), changed rb_erase x
# alloc_vmap_area (r 5 -> 3: -2), and 5 unchanged.
run diff diff-function-callsite "$M" diff $cm fixtures/capmap-b.kmap $sm
run diff diff-all-json "$M" diff $cm fixtures/capmap-b.kmap $sm -a --json
run diff diff-reverse-csv "$M" diff fixtures/capmap-b.kmap $cm $sm --csv
run diff diff-kind-limit "$M" diff $cm fixtures/tar.kmap --rows ip --cols kind -n 1
run diff diff-saturated "$M" diff fixtures/saturate.kmap fixtures/saturate.kmap $sm -a --csv
run diff diff-same "$M" diff $cm $cm $sm
run diff diff-bad-cols "$M" diff $cm fixtures/capmap-b.kmap $sm --cols object
run diff diff-one-file "$M" diff $cm $sm
run diff diff-bad-input "$M" diff $cm bad-access.kmap $sm
run diff diff-needs-symbols "$M" diff $cm fixtures/capmap-b.kmap

# export: both tables of a text kmap and of a stream, both formats.
run export export-csv sh -c "\"$M\" export $cm --format csv -o ex $sm && ls ex && cat ex/objects.csv ex/accesses.csv"
run export export-jsonl sh -c "\"$M\" export $cm --format jsonl -o ex && ls ex && cat ex/objects.jsonl ex/accesses.jsonl"
run export export-stream-csv sh -c "\"$M\" export stream.bin -f csv -o exs && cat exs/objects.csv exs/accesses.csv"
run export export-offsets sh -c "\"$M\" export offsets.bin -f csv -o exo && cat exo/accesses.csv && \"$M\" export offsets.bin -f jsonl -o exo && cat exo/accesses.jsonl"
run export export-kinds sh -c "\"$M\" export fixtures/kinds.kmap -f csv -o exk && cut -d, -f1-5,8-10 exk/objects.csv"
run export export-offsets-unknown sh -c "\"$M\" export offsets-v4.bin -f jsonl -o exo4 && head -n 2 exo4/accesses.jsonl; \"$M\" export $om -f csv -o exok && cat exok/accesses.csv"
run export export-dwarf-lines sh -c "\"$M\" export dw.kmap -f csv -o exd --vmlinux dwprog && cut -d, -f1,3- exd/accesses.csv"
# A failure leaves the tables as they were, and no temporary file.
mkdir -p keep
echo old objects > keep/objects.csv
echo old accesses > keep/accesses.csv
run export export-bad-input-keeps-tables sh -c "\"$M\" export bad-access.kmap -f csv -o keep; echo status \$?; cat keep/*; ls -A keep"
run export export-bad-input-no-dir sh -c "\"$M\" export bad-access.kmap -f csv -o newdir; echo status \$?; ls -d newdir 2>&1 | sed 's/^ls: //'"
run export export-bad-format "$M" export $cm --format parquet -o ex
run export export-no-format "$M" export $cm -o ex
run export export-no-dir "$M" export $cm --format csv
run export export-dir-is-file "$M" export $cm --format csv -o kept.txt
run export export-missing-parent "$M" export $cm --format csv -o no/such/dir
run export export-input-is-output sh -c "cp $cm ex/objects.csv; \"$M\" export ex/objects.csv -f csv -o ex; echo status \$?; cmp ex/objects.csv $cm && echo input unchanged"
# mtrace: the QEMU plugin's log (tools/lib/mtrace_log.h), hand-made by
# mkmtrace: check, text and sharing read it, and every kind of bad log is
# refused with FILE: byte OFFSET: what is wrong.
MKMTRACE=$(dirname "$MKSTREAM")/mkmtrace
"$MKMTRACE" < "$fx/mtrace.desc" > m.log || exit 1
run mtrace mtrace-check "$M" check --system-map fixtures/mtrace.map m.log
run mtrace mtrace-text "$M" text m.log
run mtrace mtrace-sharing "$M" sharing --system-map fixtures/mtrace.map m.log
run mtrace mtrace-sharing-csv "$M" sharing --csv --system-map fixtures/mtrace.map m.log
run mtrace mtrace-sharing-json "$M" sharing --json -n 1 --system-map fixtures/mtrace.map m.log
run mtrace mtrace-sharing-bare "$M" sharing -n 1 m.log
# A log made at granularity=byte (header line_shift 0): the same records
# read, and sharing says at which granularity the plugin flagged them.
{ echo 'header nr_cpus=2 mode=1 line_shift=0'; grep 'flags=7' "$fx/mtrace.desc"; } |
	"$MKMTRACE" > byte.log || exit 1
run mtrace mtrace-sharing-byte "$M" sharing --json -n 1 --system-map fixtures/mtrace.map byte.log
run mtrace mtrace-sharing-byte-text "$M" sharing -n 1 byte.log
# Memorizer's records name the objects (a kmap of the same run).
printf 'ffffffffa0018110,100,ffffffffa0020480,64,100,0,0,insmod\n  ffffffffa0018098,100,3,0\n' > m.kmap
run mtrace mtrace-sharing-kmap "$M" sharing --kmap m.kmap --system-map fixtures/mtrace.map -n 1 m.log
run mtrace mtrace-sharing-refused sh -c "\"$M\" sharing stream.bin; echo status \$?; \"$M\" sharing - < m.log; echo status \$?; \"$M\" sharing --csv --json m.log; echo status \$?; \"$M\" report m.log; echo status \$?; \"$M\" sharing no-such.log"
acc='access vaddr=0xffff888000001000'
k=ip=0xffffffff81000010
for c in \
	"version|header version=2" \
	"nr-cpus|header nr_cpus=0" \
	"mode|header mode=7" \
	"line-shift|header line_shift=7" \
	"line-shift-5|header line_shift=5" \
	"rec-size|header rec_size.1=40" \
	"header-cut|header" \
	"cpu|header nr_cpus=2;$acc $k cpu=2" \
	"size|header;$acc $k size=3" \
	"flags|header;$acc $k flags=0x16" \
	"user-ip|header;$acc ip=0x400000" \
	"paddr|header;$acc $k flags=1 paddr=0x1000" \
	"shared-no-paddr|header;$acc $k flags=4" \
	"unflagged|header mode=1;$acc $k flags=2" \
	"time|header;$acc $k ns=9;$acc $k ns=8" \
	"short|header;$acc $k rsize=24" \
	"rsize|header;$acc $k rsize=56" \
	"odd|header;$acc $k rsize=44" \
	"cut|header;$acc $k;cut bytes=8" \
	"pid|header;switch pid=5000000"; do
	name=${c%%|*}
	IFS=';' read -r -a lines <<< "${c#*|}"
	printf '%s\n' "${lines[@]}" | "$MKMTRACE" > "$name.log"
	[ "$name" = header-cut ] && head -c 40 "$name.log" > x && mv x "$name.log"
	run mtrace "mtrace-bad-$name" sh -c "\"$M\" check $name.log; echo status \$?; \"$M\" text $name.log > /dev/null; echo status \$?"
done
# A record of a type this reader does not know is skipped by its size.
printf 'header\nraw type=9 size=32\n%s\n' "$acc $k" | "$MKMTRACE" > skip.log
run mtrace mtrace-skip "$M" check skip.log

# crosscheck: Memorizer's counts against an mtrace log of the same run
# (fixtures/crosscheck.desc says what each access is): the window of
# mtrace_task.ko's markers, a reused address compared as one group, each
# class of difference; --exact passes on the test module's objects and
# fails when one write is missing from the log.
"$MKMTRACE" < "$fx/crosscheck.desc" > x.log || exit 1
sed 's/^access cpu=0 ns=201 .*$/# one write to A, missing/' "$fx/crosscheck.desc" | "$MKMTRACE" > x-bad.log || exit 1
printf 'header mode=1\n' | "$MKMTRACE" > x-sharing.log || exit 1
xk=fixtures/crosscheck.kmap
xm="--system-map fixtures/crosscheck.map"
run crosscheck crosscheck-kind "$M" crosscheck $xm x.log $xk
run crosscheck crosscheck-ip "$M" crosscheck --by ip $xm x.log $xk
run crosscheck crosscheck-object-csv "$M" crosscheck --by object --csv $xm x.log $xk
run crosscheck crosscheck-callsite-json "$M" crosscheck --by callsite --json $xm x.log $xk
run crosscheck crosscheck-bare "$M" crosscheck --by ip x.log $xk
run crosscheck crosscheck-exact "$M" crosscheck --exact -c run_write --by ip --csv $xm x.log $xk
run crosscheck crosscheck-exact-hex "$M" crosscheck --exact -c ffffffffa0000010 -n 1 x.log $xk
run crosscheck crosscheck-mismatch "$M" crosscheck --exact -c 'run_*' --by ip $xm x-bad.log $xk
run crosscheck crosscheck-not-exact "$M" crosscheck --exact --by ip --csv $xm x.log $xk
run crosscheck crosscheck-all-tasks "$M" crosscheck --all-tasks --exact -c run_write --by ip $xm x.log $xk
run crosscheck crosscheck-whole-log "$M" crosscheck --whole-log --exact -c run_write --by object --csv $xm x.log $xk
run crosscheck crosscheck-refused sh -c "\"$M\" crosscheck x-sharing.log $xk; echo status \$?; \"$M\" crosscheck - $xk < x.log; echo status \$?; \"$M\" crosscheck $xk x.log; echo status \$?; \"$M\" crosscheck x.log x.log; echo status \$?; \"$M\" crosscheck x.log; echo status \$?; \"$M\" crosscheck --by cache x.log $xk; echo status \$?; \"$M\" crosscheck --exact -c nothing x.log $xk; echo status \$?"

# Progress while an input is read: kmap_src's readers tell it, whichever
# command reads and however; MEMORIZER_PROGRESS=1 shows it off a terminal
# too, a line each. The input's name, and at the end the records (lines
# of a text kmap) read: the file's own count, from wc or its .desc.
# progress_of COUNT CMD...: CMD's progress lines (its seconds as S, the
# first of the lines while reading only: a slow run may show more), then
# whether the last line's count is COUNT.
progress_of() {
	local want=$1 got
	shift
	MEMORIZER_PROGRESS=1 "$@" > /dev/null 2> progress.err
	echo "exit $?"
	sed -E 's/, [0-9]+ s$/, S s/' progress.err | awk '!/% of/ || !seen[$1]++'
	got=$(sed -nE 's/^.*: ([0-9]+) (records?|lines?), [0-9.]+ MB, [0-9]+ s$/\1/p' progress.err | tail -n 1)
	if [ "$got" = "$want" ]; then
		echo "last count $got: the input's"
	else
		echo "last count '$got', but the input has $want"
	fi
}
# desc_records FILE.desc: the records mkstream or mkmtrace writes of it.
desc_records() {
	grep -v '^#' "$1" | grep -v '^header' | grep -c .
}
run progress progress-report-text progress_of "$(wc -l < "$fx/tar.kmap")" "$M" report fixtures/tar.kmap
run progress progress-report-stream progress_of "$(desc_records "$fx/stream.desc")" "$M" report stream.bin
run progress progress-capmap progress_of "$(wc -l < "$fx/capmap.kmap")" "$M" capmap --rows ip fixtures/capmap.kmap
run progress progress-sharing progress_of "$(desc_records "$fx/mtrace.desc")" "$M" sharing m.log
run progress progress-export progress_of "$(wc -l < "$fx/tar.kmap")" "$M" export -f csv -o progress-x fixtures/tar.kmap
run progress progress-diff progress_of "$(wc -l < "$fx/capmap-b.kmap")" "$M" diff --rows ip fixtures/capmap.kmap fixtures/capmap-b.kmap
run progress progress-check-mtrace progress_of "$(desc_records "$fx/mtrace.desc")" "$M" check m.log
run progress progress-man sh -c "\"$M\" help --man memorizer | sed -n '/^.SH ENVIRONMENT/,/^.SH SEE/p'"
# Without it (or with 0), off a terminal: not a byte more on stderr.
run progress progress-off sh -c "\"$M\" report fixtures/tar.kmap 2>&1 > /dev/null | wc -c; MEMORIZER_PROGRESS=0 \"$M\" sharing m.log 2>&1 > /dev/null | wc -c"

# help, usage, man pages.
run help help-main "$M" --help
run help help-check "$M" help check
run help help-flag "$M" report --help
run help help-unknown "$M" frobnicate
run help help-bad-option "$M" check --frobnicate x
# Options go through getopt_long: --opt=ARG, -nARG, an unambiguous prefix,
# options after operands, "--"; a missing argument, an argument to a flag.
run help options-getopt sh -c "\"$M\" report --limit=1 fixtures/tar.kmap --csv | wc -l; \"$M\" report -n1 --cs fixtures/tar.kmap | wc -l; \"$M\" check -q -- fixtures/tar.kmap; echo status \$?; \"$M\" report fixtures/tar.kmap -n; \"$M\" check --quiet=yes fixtures/tar.kmap; \"$M\" check -x fixtures/tar.kmap"
# One place for every command's --help and usage errors: help exits 0 (1
# when it cannot be written), a usage error 2; -o is one option in all.
run help options-exit sh -c "\"$M\" record -h > /dev/null; echo status \$?; \"$M\" capmap --help > /dev/full; echo status \$?; \"$M\" text --output; echo status \$?; \"$M\" stream -o; echo status \$?"
run help completion-parses bash -c "\"$M\" help --completion > c.bash && bash -n c.bash && grep -c -- '--system-map' c.bash"
run help man-record sh -c "\"$M\" help --man record | head -n 12"
run help man-export-schema sh -c "\"$M\" help --man export | sed -n '/^objects: one row/,/^Sums over/p'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
