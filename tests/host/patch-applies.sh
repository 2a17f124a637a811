# out/memorizer-6.12.patch applies cleanly (no fuzz, no rejects) to a
# pristine linux-source-6.12 tree and adds exactly the project's files.
set -eu
make -s patch > /dev/null
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
tar -xf /usr/src/linux-source-6.12.tar.xz -C "$t"
out=$(patch -d "$t/linux-source-6.12" -p1 --fuzz=0 --no-backup-if-mismatch < out/memorizer-6.12.patch)
echo "$out"
if echo "$out" | grep -Eq 'FAILED|fuzz|reject'; then
	echo "the patch did not apply cleanly"; exit 1
fi
cd kernel
for f in $(find . -type f ! -path './patches/*' ! -name '*.config' ! -name '*.md'); do
	cmp "$f" "$t/linux-source-6.12/$f"
done
grep -q 'source "mm/memorizer/Kconfig"' "$t/linux-source-6.12/mm/Kconfig"
