#!/usr/bin/env bash
# The userspace tools' layers (tools/): libkmap (tools/lib/) is the one
# library for Memorizer's formats, the memorizer command (tools/memorizer/)
# is built on it, and never the other way round. Read off the compiler's
# and the built objects' own accounts, not the sources' text:
#
#  1. no libkmap file includes a header of tools/memorizer/ (the headers
#     the preprocessor opens, cc -MM, under the build's flags), and no
#     libkmap object uses a symbol a memorizer object defines (nm);
#  2. no memorizer object reads lines or scans text itself: none refers to
#     libc's line readers and scanners (fgets, getline, the scanf family,
#     strtok, strsep: what a parser of a format is made of). The formats'
#     readers are libkmap's; a tool calls them. (It says nothing of a tool
#     that parses bytes by hand, with getc() or over a buffer.)
#  3. libkmap's files form layers: no file uses (calls or names a global
#     of) a file that uses it, directly or not (nm's defined and undefined
#     symbols per object, sorted by tsort, as kernel-layers.sh does);
#  4. no global of libkmap is used by its own file alone: each has a
#     caller in another file of libkmap, in memorizer, in the unit tests
#     or in a fuzz harness (else it is static, or dead).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s -C tools all test-bin > /dev/null
out=out/tools
lib=$out/host/lib
cli=$out/host/memorizer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() {
	printf 'tools-layers: %s\n' "$*"
	failed=1
}
# The build's preprocessor flags and libkmap's sources, from its Makefile.
mkvar() {
	make -s -C tools --no-print-directory --eval "print-var: ; @echo \$($1)" print-var
}
cppflags="$(mkvar CPPFLAGS) $(mkvar DW_CPPFLAGS)"
lib_src=$(mkvar LIB_SRC)
[ -n "$lib_src" ]
libs=$(for f in $lib_src; do basename "$f" .c; done)

# defs OBJ...: "SYMBOL FILE" for each global an object defines.
defs() {
	local o
	for o in "$@"; do
		nm --defined-only "$o" |
			awk -v f="$(basename "$o" .o)" '$2 ~ /^[TDBRVWCG]$/ { print $3, f }'
	done | sort
}
# uses OBJ...: "SYMBOL FILE" for each symbol an object leaves undefined.
uses() {
	local o
	for o in "$@"; do
		nm -u "$o" | awk -v f="$(basename "$o" .o)" '{ print $2, f }'
	done | sort
}
lib_objs=$(for f in $libs; do echo "$lib/$f.o"; done)
cli_objs=$(ls "$cli"/*.o)

# 1. The library stands below the command.
for f in $lib_src $(cd tools && echo lib/*.h); do
	# shellcheck disable=SC2086 # the flags are words
	deps=$(cd tools && cc $cppflags -MM -MT x -x c "$f") ||
		{ fail "tools/$f: cc -MM failed"; continue; }
	for d in $deps; do
		case $d in
		x: | \\) continue ;;
		/*) ;;
		*) d=$(realpath -m "tools/$d") ;;
		esac
		case $d in
		"$top"/tools/memorizer/*)
			fail "tools/$f includes ${d#"$top"/}" ;;
		esac
	done
done
# shellcheck disable=SC2086
defs $cli_objs > "$tmp/cli.defs"
# shellcheck disable=SC2086
uses $lib_objs | join - "$tmp/cli.defs" > "$tmp/up" || true
while read -r sym user owner; do
	fail "libkmap's $user.o uses $sym of tools/memorizer/$owner.c"
done < "$tmp/up"

# 2. No format parsed in the command.
# shellcheck disable=SC2086
uses $cli_objs | awk '$1 ~ /^(__isoc(99|23)_)?v?[fs]?scanf$/ ||
	$1 ~ /^(fgets(_unlocked)?|getline|getdelim|__getdelim|strtok(_r)?|__strtok_r|strsep)$/' \
	> "$tmp/parse"
while read -r sym user; do
	fail "tools/memorizer/$user.c parses text itself ($sym): read the format through libkmap"
done < "$tmp/parse"

# 3. No cycle among libkmap's files.
# shellcheck disable=SC2086
defs $lib_objs > "$tmp/lib.defs"
# shellcheck disable=SC2086
uses $lib_objs | join - "$tmp/lib.defs" | awk '$2 != $3 { print $2, $3, $1 }' |
	sort -u > "$tmp/edges"
echo "libkmap: file uses file (symbol):"
cat "$tmp/edges"
# tsort reports a cycle on stderr; a layered graph sorts cleanly.
if ! awk '{ print $1, $2 }' "$tmp/edges" | tsort > /dev/null 2> "$tmp/cycle" ||
   [ -s "$tmp/cycle" ]; then
	fail "a cycle among libkmap's files (tsort's loops):"
	sed -n 's/^tsort: //p' "$tmp/cycle" | grep -v 'input contains a loop' |
		sort -u | sed 's/^/    /'

fi

# 4. No global of libkmap for its own file alone. The fuzz harnesses are
# built whole by clang; their references are read off an object of each.
for h in tools/tests/fuzz/fuzz-*.c; do
	# shellcheck disable=SC2086
	cc $cppflags -c -o "$tmp/$(basename "$h" .c).o" "$h"
done
# shellcheck disable=SC2086
uses $lib_objs $cli_objs "$out"/asan/tests/unit.o "$out"/asan/qemu-plugin/*.o \
	"$tmp"/fuzz-*.o | join - "$tmp/lib.defs" | awk '$2 != $3 { print $1 }' |
	sort -u > "$tmp/called"
awk '{ print $1, $2 }' "$tmp/lib.defs" | join -v 1 - "$tmp/called" > "$tmp/alone" || true
while read -r sym owner; do
	fail "$sym is global, but only tools/lib/$owner.c uses it: static, or delete it"
done < "$tmp/alone"

[ "$failed" = 0 ] || exit 1
echo "tools layers: $(wc -l < "$tmp/edges") uses among libkmap's files, no cycle;" \
	"libkmap includes nothing of memorizer; memorizer parses no text itself"
