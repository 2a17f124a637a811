# make demo's host side (scripts/demo-report.sh) on the fixture kmap: the
# HTML report is made where the demo says, the summary names the call site
# of most objects first and the capability map's largest cell (xas_load's
# reads of xas_create's nodes), the next steps are there; no kmap: an
# error, no report. With a kmap_offsets beside the kmap and a vmlinux with
# DWARF (types-prog and its call sites' objects stand in), the report is of
# the kmap_offsets and the summary adds the map by struct member. tar's
# stack frames, when saved, are data units of the sweep and inputs of the
# next steps.
set -eu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
[ -x out/bin/memorizer ] || make -s -C tools all
# The stand-in vmlinux and the stream generator (make check builds them
# with the tools' tests, which may run after this one).
make -s -C tools "$PWD/out/tools/types-prog" "$PWD/out/tools/mkstream"
mkdir "$t/demo"
cp tools/tests/fixtures/tar.kmap tools/tests/fixtures/stats "$t/demo/"
cp tools/tests/fixtures/compartments.calls "$t/demo/tar.function_calls"
VMLINUX=/nonexistent SYSTEM_MAP=tools/tests/fixtures/System.map \
	scripts/demo-report.sh "$t/demo" > "$t/log"
cat "$t/log"
grep -q "^demo: the report: $t/demo/report.html (" "$t/log"
grep -A 2 '^  callsite ' "$t/log" | sed -n 2p | grep -q '^  kmem_cache_free+0x244/0x3c0  *11 '
grep -q "^demo: the capability map's largest cells" "$t/log"
grep -Eq '^  xas_load +xas_create +1410 +0 +0 +4$' "$t/log"
grep -q '^demo: what next:' "$t/log"
# The compartments' sweep, from one compartment (reduction 0) up.
grep -q '^demo: splitting that code into compartments' "$t/log"
grep -Eq '^ +1 +0\.00 +0\.00 +0 +0\.00 ' "$t/log"
grep -q 'compartments --split SPLIT' "$t/log"
grep -q '^  17 functions, 3 data units, 15 calls; least 15 ' "$t/log"
cp tools/tests/fixtures/compartments.frames "$t/demo/tar.stack_frames"
VMLINUX=/nonexistent SYSTEM_MAP=tools/tests/fixtures/System.map \
	scripts/demo-report.sh "$t/demo" > "$t/log-frames"
grep -q '^  17 functions, 6 data units, 15 calls; least 21 ' "$t/log-frames"
grep -q "compartments --split SPLIT .*tar.function_calls $t/demo/tar.stack_frames\$" "$t/log-frames"
rm "$t/demo/tar.stack_frames"
grep -q '"capmap":{"rows_max":60' "$t/demo/report.html"
# The report's compartments view has tar's calls.
grep -q '"compartments":{[^}]*"call_edges":5,' "$t/demo/report.html"
grep -q '"input":"[^"]*tar.kmap"' "$t/demo/report.html"
grep -q '"stats":\[\["kmalloc_tracked",4021\]' "$t/demo/report.html"
if grep -q MEMORIZER_REPORT_DATA "$t/demo/report.html"; then
	echo "report.html: the data placeholder was not filled in"; exit 1
fi
rm "$t/demo/tar.kmap" "$t/demo/report.html"
if scripts/demo-report.sh "$t/demo" 2> "$t/err"; then
	echo "no kmap, yet demo-report.sh succeeded"; exit 1
fi
grep -q 'tar.kmap missing' "$t/err"
[ ! -e "$t/demo/report.html" ]

set -- $(out/tools/types-prog)
mkdir "$t/dw"
cp tools/tests/fixtures/tar.kmap "$t/dw/"
sed "s/@1@/$1/; s/@2@/$2/; s/@3@/$3/; s/@4@/$4/g" tools/tests/fixtures/types-sites.desc |
	out/tools/mkstream > "$t/dw/tar.kmap_offsets"
VMLINUX=out/tools/types-prog scripts/demo-report.sh "$t/dw" > "$t/log"
cat "$t/log"
grep -q '"input":"[^"]*tar.kmap_offsets"' "$t/dw/report.html"
grep -q "^demo: which functions read and write which members of struct file (types from types-prog's DWARF):" "$t/log"
grep -q "^    struct types: 1 by cache, 1 by the call site's variable, 1 by size, 1 by global variable, 2 not known$" "$t/log"
grep -Eq '^  ffffffff81000040 +struct file +\+16\.\.24 +f_path\.dentry +4 +0 +0 +1$' "$t/log"
# struct file's cells only
if sed -n '/members of struct file/,/^demo: what next/p' "$t/log" |
	grep -q '^  ffffffff81000010 '; then
	echo "the struct file map has another type's cells"; exit 1
fi
grep -q "capmap --rows function --cols type --fields --vmlinux out/tools/types-prog $t/dw/tar.kmap_offsets" "$t/log"
echo ok
