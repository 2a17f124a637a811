#!/usr/bin/env bash
# Write out/memorizer-6.12.patch: every file Memorizer adds to the kernel
# and the kernel/patches/ series, as one patch for `patch -p1` in a 6.12 tree.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
patch=$top/out/memorizer-6.12.patch
mkdir -p "$top/out"
cd "$top/kernel"
{
	echo "Memorizer for Linux 6.12: new files, then the hunks into upstream files."
	echo "Apply with: patch -p1 < $(basename "$patch")"
	echo
	find . -type f ! -path './patches/*' ! -name '*.config' \
		! -name '*.md' | sed 's|^\./||' | LC_ALL=C sort | while read -r f; do
		diff -u --label /dev/null --label "b/$f" /dev/null "$f" || true
	done
	for p in $(ls patches/*.patch | LC_ALL=C sort); do
		cat "$p"
	done
} > "$patch.tmp"
mv "$patch.tmp" "$patch"
echo "make-patch: ${patch#"$top"/}"

# What the patch adds to the kernel's interface to modules: one symbol a
# line, with how it is exported.
symbols=${patch%.patch}.symbols
sed -n 's/^+EXPORT_SYMBOL\(_GPL\)\{0,1\}(\([A-Za-z0-9_]*\));.*/\2 EXPORT_SYMBOL\1/p' \
	"$patch" | LC_ALL=C sort > "$symbols.tmp"
mv "$symbols.tmp" "$symbols"
echo "make-patch: ${symbols#"$top"/}: $(wc -l < "$symbols") exported symbols"
sed 's/^/  /' "$symbols"
