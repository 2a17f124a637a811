#!/bin/sh
# inline.sh TEMPLATE OUT LIB...: the HTML report's page as one file, for
# report-page.S to embed: TEMPLATE's "@include FILE" lines replaced by
# FILE (beside TEMPLATE), its "@libs" line by the LIBs (d3's modules from
# node_modules, in order), each without its source map comment. Fails when
# a LIB is missing, when a script would end its <script> element early,
# or when the data mark is not there once.
set -eu
tpl=$1 out=$2
shift 2
dir=$(dirname "$tpl")
for f in "$@"; do
	[ -f "$f" ] || { echo "inline.sh: $f: missing: run npm ci at the top of the tree" >&2; exit 1; }
done
if grep -il '</script' "$dir/page.js" "$@"; then
	echo "inline.sh: these scripts hold '</script', which would end the page's <script>" >&2
	exit 1
fi
while IFS= read -r line; do
	case $line in
	"@include "*) cat "$dir/${line#@include }" ;;
	"@libs")
		for f in "$@"; do
			grep -v '^//# sourceMappingURL=' "$f"
			echo
		done ;;
	*) printf '%s\n' "$line" ;;
	esac
done < "$tpl" > "$out.tmp"
n=$(grep -c '@@MEMORIZER_REPORT_DATA@@' "$out.tmp" || true)
if [ "$n" != 1 ]; then
	echo "inline.sh: $tpl: the data mark @@MEMORIZER_REPORT_DATA@@ is there $n times, not once" >&2
	rm -f "$out.tmp"
	exit 1
fi
mv "$out.tmp" "$out"
