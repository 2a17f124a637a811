#!/bin/sh
# The host's half of vm/mtrace-kmap: the plugin's stream is a valid one,
# and on the test module's objects its counts are Memorizer's, function by
# function and pid by pid: run_write()'s 20 objects, 140 writes by
# test_store() and 100 reads by test_load(), touch()'s 3 writes and 2
# reads on each api_*() object (and the module's global that api_kmemdup()
# copies); and the plugin finds an object for 99% or more of
# the kernel accesses of the run, and says how many it wrote.
. "$(dirname "$0")/../../lib/guest-lib.sh"
out=$1
memorizer=${MEMORIZER:-out/bin/memorizer}
bin=$out/kmap.bin
check "memorizer check accepts the plugin's stream" "$memorizer" check "$bin"
"$memorizer" text "$bin" > "$out/plugin.kmap"
check "memorizer text prints it" [ -s "$out/plugin.kmap" ]
# sums KMAP SITES [BUT]: per (function of the access, pid), the writes and
# reads on the objects allocated in a function matching SITES (an awk
# regex), but BUT, by the test module's functions; the functions from the
# guest's kallsyms.
sums() {
	awk -v sites="$2" -v but="${3:-^$}" '
	FNR == NR {
		if ($4 == "[memorizer_test_module]" && ($2 == "t" || $2 == "T"))
			{ fn[++n] = $3; at[n] = $1 }
		next
	}
	# Addresses as 16 hex digits: compared as strings.
	function name(a,   i, best, ba) {
		best = ""; ba = ""
		for (i = 1; i <= n; i++)
			if (at[i] "" <= a "" && at[i] "" > ba "") { ba = at[i]; best = fn[i] }
		return best
	}
	/^[^ ]/ {
		split($0, f, ","); site = name(f[1])
		mine = site ~ ("^(" sites ")$") && site !~ ("^(" but ")$")
		if (mine) objs++
		next
	}
	mine {
		split(substr($0, 3), f, ",")
		k = name(f[1]) "," f[2]
		w[k] += f[3]; r[k] += f[4]
	}
	END {
		print "objects", objs + 0
		for (k in w) if (k !~ /^,/) print k, w[k], r[k]
	}' "$out/kallsyms" "$1" | sort
}
sums "$out/test.kmap" run_write > "$out/run.memorizer"
sums "$out/plugin.kmap" run_write > "$out/run.plugin"
pid=$(cat "$out/pid")
echo "run_write's objects, Memorizer's:"; cat "$out/run.memorizer"
echo "the plugin's:"; cat "$out/run.plugin"
check "Memorizer: 20 objects, 140 writes by test_store, 100 reads by test_load" \
	[ "$(cat "$out/run.memorizer")" = "$(printf 'objects 20\ntest_load,%s 0 100\ntest_store,%s 140 0' "$pid" "$pid")" ]
check "the plugin's counts of run_write's objects are Memorizer's" \
	cmp -s "$out/run.memorizer" "$out/run.plugin"
# Not compared: kmem_cache_alloc_bulk()'s objects (the module labels them
# with kprobes, which the test kernel lacks). The module's globals are
# (api_kmemdup's source, found by both).
apis='api_.*'
bulk=api_kmem_cache_alloc_bulk
sums "$out/test.kmap" "$apis" $bulk > "$out/apis.memorizer"
sums "$out/plugin.kmap" "$apis" $bulk > "$out/apis.plugin"
echo "api_*()'s objects, Memorizer's:"; cat "$out/apis.memorizer"
echo "the plugin's:"; cat "$out/apis.plugin"
check "the plugin's counts of touch() on api_*()'s objects are Memorizer's" \
	cmp -s "$out/apis.memorizer" "$out/apis.plugin"
cat "$bin.summary"
# The plugin's line of what it wrote: its objects are the stream's ALLOC
# records, as memorizer check counts them.
written=$(sed -n 's/^mtrace: .*: kmap written: \([0-9]*\) objects, .*/\1/p' "$bin.summary")
allocs=$("$memorizer" check "$bin" 2>/dev/null | sed -n 's/.*valid stream .*: \([0-9]*\) allocs\{0,1\}, .*/\1/p')
echo "the plugin says it wrote ${written:-no} objects; the stream has ${allocs:-no} ALLOC records"
check "the plugin's kmap written line counts the stream's ALLOC records" \
	[ "${written:-none}" = "${allocs:-0}" ]
share=$(sed -n 's/.* on objects (\([0-9]*\)\.[0-9]*%).*/\1/p' "$bin.summary")
check "the plugin found an object for 99% of the kernel's accesses or more" \
	[ "${share:-0}" -ge 99 ]
finish
