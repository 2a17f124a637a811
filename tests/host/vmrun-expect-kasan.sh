# vm/run --expect-kasan: a KASAN report between the guest's marks
# (expect_kasan_reports ... expected_kasan_reports_end) is counted and the
# run passes; the same report without the option, a report after the
# window closed, and a WARNING inside the window still fail the run and
# are named. LKDTM's SLAB_LINEAR_OVERFLOW makes the KASAN report, its
# WARNING the warning.
set -u
g=$(mktemp); e=$(mktemp); trap 'rm -f "$g" "$e"' EXIT
cat > "$g" <<'GUEST'
#!/bin/sh
# $1: what to provoke in the window; $2: what after it closed
. /vmrun/guest-lib.sh
modprobe lkdtm || exit 3
expect_kasan_reports
[ -z "$1" ] || echo "$1" > /sys/kernel/debug/provoke-crash/DIRECT
expected_kasan_reports_end
[ -z "${2:-}" ] || echo "$2" > /sys/kernel/debug/provoke-crash/DIRECT
exit 0
GUEST
failed=0
# expect NAME RC PATTERN [vm/run options] -- ARGS: one boot.
expect() {
	local name=$1 want=$2 pattern=$3 rc
	shift 3
	vm/run --timeout 300 --append kunit.enable=0 --file tests/lib/guest-lib.sh "$@" 2> "$e"
	rc=$?
	sed 's/^/    /' "$e"
	if [ $rc -eq "$want" ] && grep -q "$pattern" "$e"; then
		echo "ok - $name: exit $rc, '$pattern'"
	else
		echo "not ok - $name: exit $rc (want $want), '$pattern' $(grep -c "$pattern" "$e") times"
		failed=1
	fi
}
expect "report in the window, --expect-kasan" 0 \
	'^vm/run: 1 KASAN reports expected by the guest' \
	--expect-kasan "$g" SLAB_LINEAR_OVERFLOW
expect "report in the window, no --expect-kasan" 125 'KASAN report; console log' \
	"$g" SLAB_LINEAR_OVERFLOW
expect "report after the window" 125 'KASAN report; console log' \
	--expect-kasan "$g" "" SLAB_LINEAR_OVERFLOW
expect "WARNING in the window" 125 'kernel WARNING; console log' \
	--expect-kasan "$g" WARNING
exit $failed
