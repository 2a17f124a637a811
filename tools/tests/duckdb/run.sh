#!/usr/bin/env bash
# The DuckDB round trip (tests/run tools/duckdb): memorizer export's tables
# of a text kmap and of a stream, in both formats, loaded into DuckDB
# (npm @duckdb/node-api, its engine inside the package; the top's
# package-lock.json, installed by make tools' npm ci), must give
# memorizer report's figures under SQL GROUP BY (roundtrip.mjs). Then the
# same check over a table with one read too many must fail.
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
done

# One read more in one accesses row: the totals differ, the check fails.
mkdir "$tmp/tampered"
cp "$tmp/tar-csv/objects.csv" "$tmp/tampered/"
awk -F, -v OFS=, 'NR == 2 { $7 += 1 } { print }' "$tmp/tar-csv/accesses.csv" \
	> "$tmp/tampered/accesses.csv"
cmp -s "$tmp/tar-csv/accesses.csv" "$tmp/tampered/accesses.csv" &&
	{ echo "tampering changed nothing"; exit 1; }
node "$here/roundtrip.mjs" "$M" "$fx/tar.kmap" "$tmp/tampered" csv "$fx/System.map" \
	> "$tmp/tampered.log"
status=$?
sed 's/^/    /' "$tmp/tampered.log"
[ $status = 1 ] && grep -q '^--by callsite .* reads: report ' "$tmp/tampered.log"
ok $? "a read too many is found (exit $status)"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
