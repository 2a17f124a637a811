# A guest kernel that panics makes vm/run fail and say why.
set -u
g=$(mktemp); e=$(mktemp); trap 'rm -f "$g" "$e"' EXIT
printf '#!/bin/sh\necho c > /proc/sysrq-trigger\nsleep 60\nexit 0\n' > "$g"
vm/run --timeout 300 --append kunit.enable=0 "$g" 2> "$e"
rc=$?
cat "$e"
[ $rc -ne 0 ] && grep -q 'kernel panic' "$e" && grep -q 'console log: ' "$e"
