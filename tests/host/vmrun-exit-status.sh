# vm/run passes the guest script's exit status through, and hands it its
# arguments intact (spaces, quotes).
set -u
g=$(mktemp); trap 'rm -f "$g"' EXIT
cat > "$g" <<'GUEST'
#!/bin/sh
[ $# -eq 3 ] && [ "$1" = "a b" ] && [ "$2" = "it's" ] && [ "$3" = '$HOME' ] || exit 1
[ "$(id -u)" = 0 ] || exit 1
exit 3
GUEST
vm/run --timeout 300 --append kunit.enable=0 "$g" "a b" "it's" '$HOME'
rc=$?
echo "vm/run exited $rc"
[ $rc -eq 3 ]
