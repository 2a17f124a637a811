#!/usr/bin/env bash
# The DuckDB round trip (tests/run tools/duckdb): memorizer export's tables
# of a text kmap and of a stream, in both formats, loaded into DuckDB
# (npm @duckdb/node-api, its engine inside the package; the top's
# package-lock.json, installed by make tools' npm ci), must give
# memorizer report's figures under SQL GROUP BY (roundtrip.mjs). Then the
# same check over a table with one read too many, and over one with an
# offset_end a byte off, must fail.
#
#   run.sh MEMORIZER MKSTREAM
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# = 2 ] || { echo "usage: $0 MEMORIZER MKSTREAM" >&2; exit 2; }
M=$1
top=$(cd "$here/../../.." && pwd)
if [ ! -d "$top/node_modules/@duckdb/node-api" ]; then
	echo "$top/node_modules: no @duckdb/node-api: run 'npm ci' there (make tools does)"
	exit 1
fi
fx=$here/../fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$2" < "$fx/stream.desc" > "$tmp/stream.bin" || exit 1
"$2" < "$fx/offsets.desc" > "$tmp/offsets.bin" || exit 1
passed=0
failed=0

# roundtrip NAME INPUT FORMAT [SYSTEM_MAP]: export INPUT, compare.
roundtrip() {
	local name=$1 input=$2 format=$3 map=${4:-}
	"$M" export "$input" --format "$format" -o "$tmp/$name" \
		${map:+--system-map "$map"} &&
		node "$here/roundtrip.mjs" "$M" "$input" "$tmp/$name" "$format" $map
}
ok() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); echo "ok - $2"
	else
		failed=$((failed + 1)); echo "not ok - $2"
	fi
}

for format in csv jsonl; do
	roundtrip tar-$format "$fx/tar.kmap" $format "$fx/System.map"
	ok $? "tar.kmap, $format"
	roundtrip capmap-$format "$fx/capmap.kmap" $format "$fx/System.map"
	ok $? "capmap.kmap, $format"
	roundtrip stream-$format "$tmp/stream.bin" $format "$fx/System.map"
	ok $? "stream.bin, $format"
	roundtrip offsets-$format "$tmp/offsets.bin" $format "$fx/System.map"
	ok $? "offsets.bin (offsets), $format"
	roundtrip offsets-kmap-$format "$fx/offsets.kmap" $format "$fx/System.map"
	ok $? "offsets.kmap, $format"
done

# tampered NAME INPUT COLUMN PATTERN DESC: NAME-csv's tables with one more
# in COLUMN of the first accesses row: the check of INPUT must fail, saying
# PATTERN.
tampered() {
	local name=$1 input=$2 col=$3 pattern=$4 desc=$5 t=$tmp/tampered-$1 status
	mkdir "$t"
	cp "$tmp/$name-csv/objects.csv" "$t/"
	awk -F, -v OFS=, -v c="$col" 'NR == 2 { $c += 1 } { print }' \
		"$tmp/$name-csv/accesses.csv" > "$t/accesses.csv"
	cmp -s "$tmp/$name-csv/accesses.csv" "$t/accesses.csv" &&
		{ echo "tampering changed nothing"; exit 1; }
	node "$here/roundtrip.mjs" "$M" "$input" "$t" csv "$fx/System.map" > "$t.log"
	status=$?
	sed 's/^/    /' "$t.log"
	[ $status = 1 ] && grep -q "$pattern" "$t.log"
	ok $? "$desc (exit $status)"
}
# One read more in one accesses row: the totals differ, the check fails.
tampered tar "$fx/tar.kmap" 7 '^--by callsite .* reads: report ' "a read too many is found"
# One offset_end a byte further: no longer text --offsets' range.
tampered offsets "$tmp/offsets.bin" 10 '^offsets: .*: text --offsets 1, SQL 0' \
	"an offset_end a byte off is found"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
