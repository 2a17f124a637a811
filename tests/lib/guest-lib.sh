# Sourced by guest tests (tests/run copies it to /vmrun/guest-lib.sh).
# check DESCRIPTION COMMAND...: run one assertion, print ok/not ok.
# finish: print the tally; exit non-zero if any assertion failed.
checks_failed=0
checks_run=0
check() {
	desc=$1
	shift
	checks_run=$((checks_run + 1))
	if "$@"; then
		echo "ok - $desc"
	else
		echo "not ok - $desc"
		checks_failed=$((checks_failed + 1))
	fi
}
finish() {
	echo "$checks_run checks, $checks_failed failed"
	[ "$checks_failed" -eq 0 ]
}
