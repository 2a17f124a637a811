# A second `make kernel` with nothing changed does no build work.
set -eu
make -s kernel > /dev/null
before=$(stat -c '%n %Y' out/bzImage out/vmlinux out/System.map out/kernel.config)
output=$(make kernel 2>&1)
echo "$output"
after=$(stat -c '%n %Y' out/bzImage out/vmlinux out/System.map out/kernel.config)
[ "$before" = "$after" ]
echo "$output" | grep -q 'up to date, nothing to do'
! echo "$output" | grep -Eq '^ *(CC|LD|AR|CALL|GEN) '
