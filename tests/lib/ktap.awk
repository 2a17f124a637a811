# Reduce KUnit KTAP results (one suite per file, as debugfs gives them) to
# one line per test case: VERDICT<TAB>SUITE.CASE<TAB>DETAIL, VERDICT being
# ok, skip (DETAIL: its reason) or fail. Parameterised cases count once;
# their failing parameters are named in DETAIL. A suite that reports no
# case is a failure.

function indent(s) { match(s, /^ */); return RLENGTH }

FNR == 1 {
	finish_suite()
	suite = FILENAME; sub(/.*\//, "", suite); sub(/\.ktap$/, "", suite)
	ncases = 0; bad_params = ""
}

/^ *# Subtest: / && indent($0) == 0 { next }

/^ *(not )?ok [0-9]+/ {
	d = indent($0)
	line = $0; sub(/^ */, "", line)
	notok = (line ~ /^not ok/)
	name = line; sub(/^(not )?ok [0-9]+ /, "", name)
	skip = (name ~ /# SKIP/); sub(/ *# .*/, "", name)
	if (d >= 8) {			# a parameter of a case
		if (notok) bad_params = bad_params " [" name "]"
		next
	}
	if (d == 4) {			# a test case
		ncases++
		verdict = skip ? "skip" : (notok ? "fail" : "ok")
		detail = notok ? ("failed" bad_params) : ""
		if (skip && !notok) {		# the reason, after "# SKIP"
			detail = line; sub(/^.*# SKIP */, "", detail)
		}
		printf "%s\t%s.%s\t%s\n", verdict, suite, name, detail
		bad_params = ""
		next
	}
	if (d == 0 && notok && ncases == 0)	# suite failed before any case
		printf "fail\t%s\tsuite failed: %s\n", suite, name
	suite_done = 1
}

function finish_suite() {
	if (suite != "" && ncases == 0 && !suite_done)
		printf "fail\t%s\tno test case reported\n", suite
	suite_done = 0
}

END { finish_suite() }
