#!/bin/sh
# The host's half of vm/peer-suites: the same suites again in a second
# boot with Memorizer off (the guest script's "off" run, same vm/run
# options), then: no KUnit case fails in either run, a skip is one the
# suite makes for this configuration ("Test requires ..."), and the two
# runs agree case by case, in the number of KASAN reports kasan_test made
# and in test_vmalloc's and test_meminit's verdicts.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
script=tests/vm/peer-suites.sh
off=$out/off
opts=$(sed -n 's/^# vm\/run: //p' "$script")
eval "set -- $opts"
rm -rf "$off"
vm/run --smp 2 --file tests/lib/guest-lib.sh "$@" --out "$off" "$script" off
rc=$?
check "the run with Memorizer off exits 0" [ $rc = 0 ]

# verdicts DIR: every KUnit case's verdict, from DIR's KTAP files.
verdicts() {
	awk -f tests/lib/ktap.awk "$1/kasan.ktap" "$1/slub_test.ktap" 2>/dev/null
}
verdicts "$out" > "$out/verdicts"
verdicts "$off" > "$off/verdicts"
for run in "$out" "$off"; do
	echo "$run: $(grep -c '^ok' "$run/verdicts") cases passed," \
		"$(grep -c '^skip' "$run/verdicts") skipped, $(grep -c '^fail' "$run/verdicts") failed"
	check "$run: both suites reported cases" \
		[ "$(cut -f2 "$run/verdicts" | cut -d. -f1 | sort -u | wc -l)" = 2 ]
	check "$run: no case failed" not grep '^fail' "$run/verdicts"
	check "$run: every skip is the suite's own, for this configuration" \
		not grep -v -P '^(ok\t|skip\t.*\tTest requires )' "$run/verdicts"
done
grep '^skip' "$out/verdicts" | cut -f2,3 | sed 's/^/  skipped: /'
check "traced and off: the same cases, the same verdicts" \
	cmp "$out/verdicts" "$off/verdicts"
traced_reports=$(cat "$out/kasan.reports") off_reports=$(cat "$off/kasan.reports")
echo "KASAN reports during kasan_test: $traced_reports traced, $off_reports off"
same_reports() {
	[ "$traced_reports" -gt 0 ] && [ "$traced_reports" = "$off_reports" ]
}
check "traced and off: as many KASAN reports, and some" same_reports
check "traced and off: test_vmalloc's verdicts agree" \
	cmp "$out/vmalloc.summary" "$off/vmalloc.summary"
check "traced and off: test_meminit's verdict agrees" \
	cmp "$out/meminit.log" "$off/meminit.log"
finish
