# make demo's host side (scripts/demo-report.sh) on the fixture kmap: the
# HTML report is made where the demo says, the summary names the call site
# of most objects first and the capability map's largest cell (xas_load's
# reads of xas_create's nodes), the next steps are there; no kmap: an
# error, no report.
set -eu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
[ -x out/bin/memorizer ] || make -s -C tools all
mkdir "$t/demo"
cp tools/tests/fixtures/tar.kmap tools/tests/fixtures/stats "$t/demo/"
VMLINUX=/nonexistent SYSTEM_MAP=tools/tests/fixtures/System.map \
	scripts/demo-report.sh "$t/demo" > "$t/log"
cat "$t/log"
grep -q "^demo: the report: $t/demo/report.html (" "$t/log"
grep -A 2 '^  callsite ' "$t/log" | sed -n 2p | grep -q '^  kmem_cache_free+0x244/0x3c0  *11 '
grep -q "^demo: the capability map's largest cells" "$t/log"
grep -Eq '^  xas_load +xas_create +1410 +0 +0 +4$' "$t/log"
grep -q '^demo: what next:' "$t/log"
grep -q '"capmap":{"rows_max":60' "$t/demo/report.html"
grep -q '"input":"[^"]*tar.kmap"' "$t/demo/report.html"
grep -q '"stats":\[\["kmalloc_tracked",4021\]' "$t/demo/report.html"
! grep -q MEMORIZER_REPORT_DATA "$t/demo/report.html"
rm "$t/demo/tar.kmap" "$t/demo/report.html"
if scripts/demo-report.sh "$t/demo" 2> "$t/err"; then
	echo "no kmap, yet demo-report.sh succeeded"; exit 1
fi
grep -q 'tar.kmap missing' "$t/err"
[ ! -e "$t/demo/report.html" ]
echo ok
