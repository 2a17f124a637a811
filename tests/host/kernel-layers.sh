# Memorizer's kernel files form layers: no file uses (calls or names a
# global function or variable of) a file that uses it, directly or not.
# Read off the built objects: what each defines and what it leaves
# undefined. Also: no global function exists only for the tests.
set -eu
make -s kernel > /dev/null
objs=build/obj/mm/memorizer
files=$(sed -n 's/^memorizer-core := //p; /^\t /p' kernel/mm/memorizer/Makefile |
	tr -d '\\' | tr ' \t' '\n\n' | sed -n 's/\.o$//p')
[ -n "$files" ]
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in $files; do
	nm "$objs/$f.o" | awk -v f="$f" '$1 ~ /^[0-9a-f]+$/ && $2 ~ /^[TDBR]$/ { print $3, f }'
done | sort > "$edges.defs"
for f in $files; do
	nm -u "$objs/$f.o" | awk -v f="$f" '{ print $2, f }'
done | sort | join - "$edges.defs" | awk '$2 != $3 { print $2, $3, $1 }' |
	sort -u > "$edges"
echo "file uses file (symbol):"
cat "$edges"
# tsort reports a cycle on stderr; a layered graph sorts cleanly.
if ! awk '{ print $1, $2 }' "$edges" | tsort > /dev/null 2> "$edges.err" ||
   [ -s "$edges.err" ]; then
	echo "cycle among Memorizer's files:"
	cat "$edges.err"
	rm -f "$edges.err" "$edges.defs"
	exit 1
fi
# Globals nothing but the KUnit tests use.
used=$(awk '{ print $3 }' "$edges" | sort -u)
only_tests=$(nm -u "$objs/records_kunit.o" | awk '{ print $2 }' | sort -u |
	join - "$edges.defs" | awk '{ print $1 }' | sort -u | comm -23 - <(echo "$used"))
rm -f "$edges.err" "$edges.defs"
for s in $only_tests; do
	# Hooks the rest of the kernel calls are production code.
	grep -qw "$s" kernel/include/linux/memorizer.h && continue
	# Used in its own file, not just defined there: production code too.
	uses=$(cat $(ls kernel/mm/memorizer/*.c | grep -v _kunit) |
		grep -ow "$s" | wc -l)
	[ "$uses" -gt 1 ] && continue
	echo "global used only by the tests: $s"
	exit 1
done
echo "layers: $(wc -l < "$edges") uses, no cycle"
