#!/bin/sh
# vm/run: --append "memorizer_enabled_boot=no kunit.enable=0"
# The memorizer command in the guest (the static build on PATH): record
# traces tar's process tree against the real kernel, memorizer check
# accepts the kmap, Memorizer is left off, even when record is
# interrupted, and report and symbolize (/proc/kallsyms) work on it.
. /vmrun/guest-lib.sh
cd /tmp
mkdir -p sample
cp -r /etc /bin sample/ 2>/dev/null

comm_present() { awk -F, -v c="$2" '/^[0-9a-f]/ && $8 == c { n++ } END { exit !n }' "$1"; }
enabled_is() { [ "$(cat $M/memorizer_enabled)" = "$1" ]; }
log_access_is() { [ "$(cat $M/memorizer_log_access)" = "$1" ]; }

check "memorizer is on PATH" command -v memorizer
check "record runs tar zcf" \
	sh -c 'memorizer record -o /out/x.kmap -- tar zcf /tmp/s.tgz sample > /out/record.txt'
cat /out/record.txt
check "the summary names the kmap" grep -q '^memorizer record: /out/x.kmap: [1-9][0-9]* objects' /out/record.txt
check "the summary gives the drops (from stats)" grep -q ', dropped [0-9]* objects and [0-9]* accesses; ' /out/record.txt
check "memorizer check accepts the kmap" memorizer check /out/x.kmap
check "so does the guest's awk checker" kmap_valid /out/x.kmap
check "tar's objects are in it" comm_present /out/x.kmap tar
check "with access lines" grep -q '^  ' /out/x.kmap
check "memorizer_enabled left 0" enabled_is 0
check "memorizer_log_access left 0" log_access_is 0
check "report by pid" sh -c 'memorizer report /out/x.kmap --by pid --csv > /out/pids.csv'
check "tar in the report" grep -q ',tar,' /out/pids.csv
# An allocation's call site: a found object's is its own address.
site=$(awk -F, '/^[0-9a-f]/ && $1 != $3 { print $1; exit }' /out/x.kmap)
check "symbolize names a call site from /proc/kallsyms" \
	sh -c "memorizer symbolize $site | grep -q '^$site [A-Za-z_].*+0x'"
check "report by function with /proc/kallsyms" \
	sh -c 'memorizer report /out/x.kmap --by function --system-map /proc/kallsyms -n 5 > /out/functions.txt'

# Interrupted: SIGINT reaches record while CMD runs; all is still off.
check "record interrupted exits 130" sh -c \
	'memorizer record -o /out/y.kmap -- sh -c "kill -INT \$PPID; exec sleep 2"; [ $? = 130 ]'
check "memorizer_enabled off after the interrupt" enabled_is 0
check "memorizer_log_access off after the interrupt" log_access_is 0
check "the interrupted kmap is valid" memorizer check /out/y.kmap
# A command that fails: its status, and still off.
check "record passes on CMD's status" sh -c 'memorizer record -o /out/z.kmap -- sh -c "exit 7"; [ $? = 7 ]'
check "memorizer_enabled off after a failing command" enabled_is 0
finish
