# A guest that outlives --timeout is stopped, and vm/run says so.
set -u
g=$(mktemp); e=$(mktemp); trap 'rm -f "$g" "$e"' EXIT
printf '#!/bin/sh\nsleep 1000\nexit 0\n' > "$g"
start=$SECONDS
vm/run --timeout 40 --append kunit.enable=0 "$g" 2> "$e"
rc=$?
cat "$e"
echo "vm/run exited $rc after $((SECONDS - start))s"
[ $rc -eq 124 ] && grep -q 'timed out after 40s' "$e" && [ $((SECONDS - start)) -lt 60 ]
