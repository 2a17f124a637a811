# tests/lib/guest-lib.sh's records_out, which the soak, the stream
# collectors' test and the guest fuzzer's stream accounting rest on, on
# what `memorizer check` prints: every kind counted in the singular and
# in the plural, LOST records not. Run with busybox's sh, grep and awk,
# as in the guest. (Seed 1795919538 of vm/fuzz-faults-pool found it
# missing "1 task".)
set -u
. tests/lib/guest-lib.sh
command -v busybox > /dev/null || { echo "no busybox (apt-get install busybox-static)"; exit 1; }
f=$(mktemp)
trap 'rm -f "$f"' EXIT
# expect COUNT LINE
expect() {
	echo "$2" > "$f"
	check "records_out: $1 in \"$2\"" \
		[ "$(busybox sh -c '. tests/lib/guest-lib.sh; records_out "$1"' sh "$f")" = "$1" ]
}
expect 21 "/tmp/s.bin: valid stream (version 5, 2 CPUs, HZ 250): 12 allocs, 0 frees, 1 access, 1 task, 7 caches, 0 calls, 0 lost records"
expect 8 "/tmp/s.bin: valid stream (version 5, 1 CPU, HZ 250): 1 alloc, 1 free, 2 accesses, 2 tasks, 1 cache, 1 call, 3 lost records"
expect 9 "/tmp/s.bin: valid stream (version 5, 1 CPU, HZ 250): 1 alloc, 1 free, 2 accesses, 2 tasks, 1 cache, 2 calls, 3 lost records"
expect 0 "/tmp/s.bin: valid stream (version 5, 2 CPUs, HZ 250): 0 allocs, 0 frees, 0 accesses, 0 tasks, 0 caches, 0 calls, 1 lost record"
finish
