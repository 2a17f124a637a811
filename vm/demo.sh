#!/bin/sh
# make demo, guest side: trace a sample command (tar over /etc and /bin)
# with Memorizer, objects, accesses and calls, and copy out the kmap, its
# kmap_offsets, the call edges (function_calls), the accesses to tar's
# stacks by frame (stack_frames) and the figures:
# show_stats (a table, for people) and stats ("key value" lines).
set -e
m=/sys/kernel/debug/memorizer
cd /tmp
mkdir -p sample
cp -r /etc /bin sample/ 2>/dev/null

echo 0 > $m/memorizer_enabled
echo 1 > $m/clear_dead_objects
echo 1 > $m/memorizer_log_access
# Call edges, for memorizer compartments (a kernel without
# CONFIG_MEMORIZER_CALLS has no such file).
calls=
[ ! -e $m/log_calls_enabled ] || { echo 1 > $m/clear_function_calls; echo 1 > $m/log_calls_enabled; calls=1; }
sh -c 'echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled &&
	tar zcf /tmp/sample.tar.gz sample'
echo 0 > $m/memorizer_enabled
echo 0 > $m/memorizer_log_access
[ -z "$calls" ] || { echo 0 > $m/log_calls_enabled; cat $m/function_calls > /out/tar.function_calls
	cat $m/stack_frames > /out/tar.stack_frames; }

cat $m/kmap > /out/tar.kmap
# The same records with the bytes of the object each access touched
# (tracing is off: nothing changes between the two reads but frees).
cat $m/kmap_offsets > /out/tar.kmap_offsets
cat $m/show_stats > /out/show_stats
cat $m/stats > /out/stats
uname -a > /out/uname
objects=$(grep -c '^[0-9a-f]' /out/tar.kmap)
accesses=$(grep -c '^  ' /out/tar.kmap)
echo "demo: traced 'tar zcf sample.tar.gz sample' in mode 3: kmap of $objects objects and $accesses (ip, pid) access lines"
[ -z "$calls" ] || echo "demo: and $(wc -l < /out/tar.function_calls) call edges (caller, callee, pid) with $(awk -F, '{ n += $4 } END { print n + 0 }' /out/tar.function_calls) calls; $(awk -F, '{ n += $4 + $5 } !($1 in f) { f[$1]; k++ } END { print n + 0 " accesses to its stacks, on the frames of " k + 0 " functions" }' /out/tar.stack_frames)"
# Where the accesses went: on objects' records, or to memory that no
# record covers, by class (show_stats explains the classes).
awk '$1 == "accesses_recorded" { rec = $2 } $1 == "accesses_untracked" { un = $2 }
     /^untracked_/ && $2 > 0 { c[substr($1, 11)] = $2 }
     END {
	tot = rec + un
	printf "demo: %d accesses landed on objects, %d (%.0f%%) on memory no record covers", rec, un, tot ? 100 * un / tot : 0
	n = 0
	for (k in c) { keys[++n] = k }
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (c[keys[j]] > c[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
	for (i = 1; i <= n && i <= 4; i++)
		printf "%s %s %.0f%%", i == 1 ? ":" : ",", keys[i], 100 * c[keys[i]] / un
	print ""
     }' /out/stats
# What was left out: made for KASAN and lockdep, or by Memorizer itself
# (count_instruments in Documentation/dev-tools/memorizer.rst).
awk '$1 == "accesses_recorded" || $1 == "accesses_untracked" { seen += $2 }
     /^excluded_/ { x[substr($1, 10)] = $2; out += $2 }
     END {
	printf "demo: %d more accesses were made for the instruments, not by tar, and left out (%.0f%% of all): KASAN %d, lockdep %d, Memorizer %d\n", out, seen + out ? 100 * out / (seen + out) : 0, x["kasan"], x["lockdep"], x["memorizer"]
     }' /out/stats
