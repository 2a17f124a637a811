#!/bin/sh
# make demo, guest side: trace a sample command with Memorizer and copy out
# everything Memorizer offers about it.
set -e
m=/sys/kernel/debug/memorizer
cd /tmp
mkdir -p sample
cp -r /etc /bin sample/ 2>/dev/null

echo 3 > $m/memorizer_enabled
echo "demo: memorizer_enabled=$(cat $m/memorizer_enabled) (this shell and its children)"
tar zcf /tmp/sample.tar.gz sample
echo 0 > $m/memorizer_enabled
echo "demo: ran 'tar zcf sample.tar.gz sample' under memorizer_enabled=3 ($(wc -c < /tmp/sample.tar.gz) bytes)"

for f in $m/*; do
	[ -f "$f" ] && cat "$f" > "/out/$(basename "$f")"
done
uname -a > /out/uname
echo "demo: collected: $(cd /out && echo *)"
