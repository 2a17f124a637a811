# Files written under /out in the guest come back to --out DIR; --file
# copies host files in, to a default or an explicit guest path.
set -eu
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
head -c 100000 /dev/urandom > "$t/blob"
echo "hello from the host" > "$t/note"
cat > "$t/guest.sh" <<'GUEST'
#!/bin/sh
set -e
mkdir -p /out/sub/dir
cp /vmrun/blob /out/blob
cp /etc/elsewhere/note.txt /out/sub/dir/note
uname -r > /out/release
GUEST
vm/run --timeout 300 --append kunit.enable=0 --file "$t/blob" --file "$t/note:/etc/elsewhere/note.txt" \
	--out "$t/back" "$t/guest.sh"
cmp "$t/blob" "$t/back/blob"
cmp "$t/note" "$t/back/sub/dir/note"
grep -qx "$(cat out/kernel.release)" "$t/back/release"
