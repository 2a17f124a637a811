#!/bin/sh
# The host's half of vm/exact-counts (tests/run runs it after the guest's,
# with the guest's --out directory): every test object the guest made is in
# one of its kmaps, with exactly 7 writes and 5 reads. Counted here, not in
# the guest, where awk over the batches took minutes under TCG. The
# batches are deleted when every check passes.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
made=$(cat "$out/test-objects-made") || exit 1
exact=0 all=0
for f in "$out"/batch.*; do
	exact=$((exact + $(test_objects "$f" 7 5)))
	all=$((all + $(test_objects_any "$f")))
done
echo "test objects: $made made, $all in the kmaps, $exact with exact counts"
check "every test object in a kmap" [ "$all" = "$made" ]
check "every test object's counts exact" [ "$exact" = "$made" ]
[ $checks_failed != 0 ] || rm -f "$out"/batch.*
finish
