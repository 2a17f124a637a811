#!/bin/sh
# Lossless attribution: under whole-system tracing with access logging,
# tar and hackbench put at least 99% of the accesses Memorizer traced on
# an object's record (accesses_recorded against accesses_untracked, from
# stats; accesses dropped at the pool's bound are neither, and are said),
# and the kmap that results passes memorizer check.
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0" --timeout 1200
. /vmrun/guest-lib.sh
cd /tmp
mkdir -p sample
cp -r /etc /bin sample/ 2>/dev/null

# attributed NAME COMMAND...: run COMMAND traced system-wide; check that
# 99% or more of its traced accesses were attributed.
attributed() {
	name=$1
	shift
	cat $M/stats > /tmp/before
	echo 1 > $M/memorizer_enabled
	"$@" > /dev/null 2>&1
	status=$?
	echo 0 > $M/memorizer_enabled
	cat $M/stats > /tmp/after
	check "$name runs to the end" [ "$status" = 0 ]
	check "$name: stats sums agree" stats_sums_agree /tmp/after
	awk -v name="$name" '
	FILENAME == "/tmp/before" { b[$1] = $2; next }
	{ d[$1] = $2 - b[$1] }
	END {
		rec = d["accesses_recorded"]; un = d["accesses_untracked"]
		tot = rec + un
		if (!tot) { print name ": no access traced"; exit 1 }
		printf "%s: %d accesses attributed, %d untracked: %.2f%% attributed", name, rec, un, 100 * rec / tot
		printf " (%d dropped at the bound)\n", d["accesses_dropped"]
		exit 100 * rec < 99 * tot
	}' /tmp/before /tmp/after > /tmp/figure
	status=$?
	cat /tmp/figure
	check "$name: at least 99% of traced accesses attributed" [ "$status" = 0 ]
}

echo 1 > $M/memorizer_log_access
attributed tar tar zcf /tmp/sample.tgz sample
attributed hackbench hackbench -g 2 -f 10 -l 20
echo 0 > $M/memorizer_log_access
cat $M/show_stats
cat $M/kmap > /tmp/all.kmap
check "the kmap checks" memorizer check /tmp/all.kmap
finish
