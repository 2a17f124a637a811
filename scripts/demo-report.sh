#!/usr/bin/env bash
# make demo, host side: the HTML report of the demo's kmap, a short text
# summary, and what to run next.
#
#   scripts/demo-report.sh [DIR]        DIR: the demo's results (out/demo)
#
# Reads DIR/tar.kmap, or DIR/tar.kmap_offsets (the same records with the
# bytes each access touched) when there, and DIR/stats (the collection's
# figures) when there; writes DIR/report.html. Symbols: out/vmlinux when it
# has DWARF (file:line, struct types and members), else out/System.map,
# else none. MEMORIZER, VMLINUX and
# SYSTEM_MAP override out/bin/memorizer, out/vmlinux and out/System.map.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-out/demo}
m=${MEMORIZER:-$top/out/bin/memorizer}
vmlinux=${VMLINUX:-$top/out/vmlinux}
system_map=${SYSTEM_MAP:-$top/out/System.map}
kmap=$dir/tar.kmap
[ -x "$m" ] || { echo "demo: $m missing: make tools" >&2; exit 1; }
[ -f "$kmap" ] || { echo "demo: $kmap missing: the guest wrote no kmap" >&2; exit 1; }
# The kmap with byte ranges, for the report's bytes view and capmap --fields.
[ -f "$dir/tar.kmap_offsets" ] && kmap=$dir/tar.kmap_offsets

sym=() dwarf=
# grep reads all of readelf's output: with -q, readelf could die of
# SIGPIPE and pipefail call the vmlinux DWARF-less.
if [ -f "$vmlinux" ] && readelf -S "$vmlinux" 2>/dev/null | grep '\.debug_info' > /dev/null; then
	sym=(--vmlinux "$vmlinux") dwarf=1
elif [ -f "$system_map" ]; then
	sym=(--system-map "$system_map")
fi
stats=()
[ -f "$dir/stats" ] && stats=(--stats "$dir/stats")

# tar's calls, when logged, are the compartments view's crossings.
calls=$dir/tar.function_calls
calls_in=()
[ -f "$calls" ] && calls_in=("$calls")
# And the accesses to its stacks by frame: frames are data units too.
frames_in=()
[ -f "$dir/tar.stack_frames" ] && frames_in=("$dir/tar.stack_frames")

"$m" report --html -o "$dir/report.html" ${sym[@]+"${sym[@]}"} \
	${stats[@]+"${stats[@]}"} "$kmap" ${calls_in[@]+"${calls_in[@]}"}
echo "demo: the report: $dir/report.html ($(($(stat -c %s "$dir/report.html") / 1024)) KiB; open it in a browser, no network needed: xdg-open $dir/report.html)"
# By objects: by bytes, the first rows are large globals and pages found at
# their first access, each its own "call site" (its address).
echo "demo: the call sites that allocated the most objects:"
"$m" report -n 5 --sort objects ${sym[@]+"${sym[@]}"} "$kmap" | sed 's/^/  /'
# The capability map: by function with symbols, else by instruction.
rows=(--rows ip)
[ ${#sym[@]} = 0 ] || rows=(--rows function)
echo "demo: the capability map's largest cells (which code reads, writes and frees which call site's objects):"
"$m" capmap -n 5 "${rows[@]}" ${sym[@]+"${sym[@]}"} "$kmap" | sed 's/^/  /'
# The same by struct member (needs offsets and DWARF), for one struct
# every newcomer knows: the summary, the header, struct file's busiest
# cells.
fields=
if [ -n "$dwarf" ] && [ "$kmap" = "$dir/tar.kmap_offsets" ]; then
	fields="--cols type --fields"
	echo "demo: which functions read and write which members of struct file (types from $(basename "$vmlinux")'s DWARF):"
	"$m" capmap --rows function $fields "${sym[@]}" "$kmap" |
		awk 'head && $2 == "struct" && $3 == "file" && n++ < 8; !head; /^function / { head = 1 }' |
		sed 's/^/  /'
fi
# Commands as a newcomer types them at the top of the tree.
# Compartments: how much less each piece of tar's kernel code could be
# allowed to touch, split apart, against the calls that would cross.
if [ ${#sym[@]} != 0 ] && [ -f "$calls" ]; then
	echo "demo: splitting that code into compartments (memorizer compartments: privilege reduction against the calls that cross):"
	"$m" compartments --points 6 "${sym[@]}" "$kmap" "$calls" \
		${frames_in[@]+"${frames_in[@]}"} | sed 's/^/  /'
fi
short() { local p=${1#"$top"/}; printf '%s' "${p#./}"; }
M=$(short "$m") K=$(short "$kmap") S=
[ ${#sym[@]} = 0 ] || S="${sym[0]} $(short "${sym[1]}") "
cat <<NEXT
demo: what next:
  # which functions read and write the most
  $M report --by function ${S}$K
  # the busiest objects; what each pid allocated and accessed
  $M report --by object --sort reads -n 20 ${S}$K
  $M report --by pid $K
  # the whole capability map (--rows file or dir with a DWARF vmlinux)
  $M capmap ${rows[*]} ${fields:+$fields }${S}$K
  # compartments by source file, and a split of your own (lines COMPARTMENT GLOB)
  $M compartments --code file ${S}$K $(short "$calls")${frames_in[0]:+ $(short "${frames_in[0]}")}
  $M compartments --split SPLIT ${S}$K $(short "$calls")${frames_in[0]:+ $(short "${frames_in[0]}")}
  # every view, column and option
  $M help report
NEXT
