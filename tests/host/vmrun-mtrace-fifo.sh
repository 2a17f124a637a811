# vm/run --mtrace writes the plugin's log to a FIFO as to a file: a reader
# gets every byte the plugin says it wrote (its summary's "N bytes"), and
# no write error is reported (fsync(2) of a FIFO is EINVAL, which is not
# one); /dev/null too.
set -eu
t=$(mktemp -d) reader=
trap '[ -z "$reader" ] || kill $reader 2>/dev/null; rm -rf "$t"' EXIT
g=$t/guest.sh
printf '#!/bin/sh\necho guest ran\n' > "$g"
# run LOG: the guest under the plugin (sharing: what two vCPUs share),
# its stderr in $t/err; fails on a write error.
run() {
	vm/run --timeout 600 --append "kunit.enable=0 memorizer_enabled_boot=no" \
		--mtrace "$1" --mtrace-mode sharing "$g" 2> "$t/err" ||
		{ cat "$t/err"; exit 1; }
	cat "$t/err"
	if grep -q 'write error' "$t/err"; then
		echo "vmrun-mtrace-fifo: $1: the plugin says it failed"
		exit 1
	fi
}
mkfifo "$t/log"
wc -c < "$t/log" > "$t/count" &
reader=$!
run "$t/log"
wait $reader
reader=
said=$(sed -n 's/^vm\/run: mtrace: .* task switches, \([0-9]*\) bytes;.*/\1/p' "$t/err")
got=$(cat "$t/count")
echo "the plugin wrote ${said:-?} bytes, the reader got $got"
if [ -z "$said" ] || [ "$said" -le 56 ] || [ "$said" != "$got" ]; then
	echo "vmrun-mtrace-fifo: want the same count, more than the header's 56"
	exit 1
fi
run /dev/null
grep -q '^vm/run: mtrace: /dev/null: .* bytes;' "$t/err"
