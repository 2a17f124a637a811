#!/bin/sh
# The host's half of vm/mtrace-crosscheck (tests/run runs it after the
# guest's, with the guest's --out directory): Memorizer's counts on the
# test module's objects are the emulator's, ip by ip (memorizer
# crosscheck --exact): run_write()'s 20 objects, 7 writes by test_store()
# and 5 reads by test_load() each, and the apis file's objects (one per
# allocation API, allocated in the api_*() functions), 3 writes and 2 reads
# by touch() each. Then the whole kmap's agreement, per kind, for the
# record. The log (GBs) is deleted when every check passes.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
log=$out/mtrace.log
kmap=$out/test.kmap
syms="--system-map $out/kallsyms"
echo "log: $(wc -c < "$log") bytes"
# run_write()'s objects, one row per (object group, ip).
"$memorizer" crosscheck --by ip --csv -c run_write --exact $syms "$log" "$kmap" > "$out/run.csv"
rc=$?
cat "$out/run.csv"
check "Memorizer's counts of run_write's objects are the log's (--exact)" [ $rc = 0 ]
# Sums over the rows of one function's ip: objects, then a column's sum.
sums() {	# sums CSV FUNCTION COLUMN
	awk -F, -v f="$2" -v c="$3" 'NR > 1 && index($4, f "+") == 1 {
		n += $2; s += $c } END { print n + 0, s + 0 }' "$1"
}
set -- $(sums "$out/run.csv" test_store 6) $(sums "$out/run.csv" test_store 8) \
	$(sums "$out/run.csv" test_load 5) $(sums "$out/run.csv" test_load 7)
echo "test_store: $1 objects, Memorizer $2 writes, the log $4; test_load: $5 objects, Memorizer $6 reads, the log $8"
check "20 objects written by test_store" [ "$1" = 20 ]
check "140 writes in Memorizer's counts" [ "$2" = 140 ]
check "140 writes in the log's" [ "$4" = 140 ]
check "20 objects read by test_load" [ "$5" = 20 ]
check "100 reads by test_load in Memorizer's counts" [ "$6" = 100 ]
check "100 reads by test_load in the log's" [ "$8" = 100 ]
check "no test object read by test_store or written by test_load" \
	awk -F, 'NR > 1 && ((index($4, "test_store+") == 1 && $5 + $7 > 0) ||
		(index($4, "test_load+") == 1 && $6 + $8 > 0)) { bad = 1 }
		END { exit bad }' "$out/run.csv"
# The apis objects: touch()'s accesses (test_store and test_load) agree on
# every one; other ips are the allocators' (classified, not required).
"$memorizer" crosscheck --by ip --csv -c 'api_*' $syms "$log" "$kmap" > "$out/apis.csv"
check "memorizer crosscheck runs on the apis objects" [ $? = 0 ]
touched=$(awk -F, 'NR > 1 && (index($4, "test_store+") == 1 || index($4, "test_load+") == 1)' "$out/apis.csv")
echo "$touched"
check "touch() reached the apis objects" [ -n "$touched" ]
check "and every count of touch()'s is the log's" \
	sh -c '! echo "$1" | grep -v ",agree$"' - "$touched"
# The whole kmap, per kind and per class, for the record.
"$memorizer" crosscheck $syms "$log" "$kmap"
check "memorizer crosscheck reads the whole kmap" [ $? = 0 ]
finish && rm -f "$log"
