# A guest kernel that WARNs (LKDTM's WARNING) makes vm/run fail and name
# the report, though the guest's script goes on and exits 0: whole-system
# tests rely on this detection alone.
set -u
g=$(mktemp); e=$(mktemp); trap 'rm -f "$g" "$e"' EXIT
cat > "$g" <<'GUEST'
#!/bin/sh
modprobe lkdtm || exit 3
echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT || exit 4
exit 0
GUEST
vm/run --timeout 300 --append kunit.enable=0 "$g" 2> "$e"
rc=$?
cat "$e"
echo "vm/run exited $rc"
[ $rc -ne 0 ] && grep -q 'kernel WARNING' "$e" && grep -q 'console log: ' "$e"
