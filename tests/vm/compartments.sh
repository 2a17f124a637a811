#!/bin/sh
# The whole chain of a compartment analysis, in the guest: a binary
# stream collected while two processes, each traced alone with access and
# call logging on, run the test module's call chain ("7 3": test_call_a
# calls test_call_b 7 times, the first 3 of which call test_call_c) and
# tar. memorizer compartments then reads the stream: split one
# compartment per function of the chain, the crossings between them are
# the chain's calls exactly (calls_write -> a 2, a -> b 14, b -> c 6), the
# same as function_calls gives; the sweep's ends have reduction 0 (one
# compartment) and 1 (one per function). stack_frames, read beside them,
# makes test_call_a's frame a data unit: b may write it (b writes a's
# local through a pointer), and a and b in different compartments share it.
# vm/run: --one-thread --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
modprobe memorizer_test_module || echo "modprobe failed"
T=/sys/kernel/debug/memorizer_test

echo 1 > $M/clear_object_list
echo 1 > $M/clear_function_calls
memorizer stream --binary -o /tmp/s.bin 2> /tmp/stream.err & c=$!
# The collector's session has begun once its files are open.
waited=0
until [ -s /tmp/s.bin ] || [ $waited -ge 20 ]; do sleep 1; waited=$((waited + 1)); done
echo 1 > $M/log_calls_enabled
echo 1 > $M/memorizer_log_access
for i in 1 2; do
	sh -c "echo \$\$ > $M/memorizer_enabled; echo '7 3' > $T/calls
	       tar cf /tmp/etc.tar /etc; echo 0 > $M/memorizer_enabled"
done
echo 0 > $M/memorizer_log_access
echo 0 > $M/log_calls_enabled
# Two sweeps (one a second) send the edges' last calls.
sleep 3
kill -INT $c
wait $c
check "the collector stopped cleanly" [ $? = 0 ]
cat $M/function_calls > /tmp/function_calls
cat $M/stack_frames > /tmp/stack_frames
memorizer check /tmp/s.bin > /tmp/check.out 2>&1
cat /tmp/check.out
check "the stream is valid" grep -q 'valid stream' /tmp/check.out
check "it has CALL records" not grep -q ' 0 calls,' /tmp/check.out

printf '%s\n' 'w calls_write' 'a test_call_a' 'b test_call_b' 'c test_call_c' > /tmp/split
sm="--system-map /proc/kallsyms"
memorizer compartments /tmp/s.bin $sm --split /tmp/split > /tmp/split.out
cp /tmp/split.out /out/
# crossings FILE: the crossing rows between the chain's compartments.
crossings() {
	sed -n '/^crossings:/,$p' "$1" |
		awk '($1 == "w" || $1 == "a" || $1 == "b") && $3 != "rest" { print $1, $2, $3, $4, $5 }'
}
crossings /tmp/split.out | sort > /tmp/chain
cat /tmp/chain
check "crossings: calls_write->a 2, a->b 14, b->c 6" [ "$(cat /tmp/chain)" = \
	"$(printf '%s\n' 'w calls_write a test_call_a 2' 'a test_call_a b test_call_b 14' \
		'b test_call_b c test_call_c 6' | sort)" ]
memorizer compartments /tmp/function_calls $sm --split /tmp/split > /tmp/split-text.out
memorizer check /tmp/stack_frames > /tmp/check-frames.out 2>&1
cat /tmp/check-frames.out
check "stack_frames is valid" grep -q 'valid stack_frames file' /tmp/check-frames.out
memorizer compartments /tmp/s.bin /tmp/stack_frames $sm --split /tmp/split > /tmp/split-frames.out
cp /tmp/split-frames.out /out/
# rights COMPARTMENT DATA FILE: the compartment's rights on a data unit.
rights() { awk -v c="$1" -v d="$2" '$1 == c && $2 == d { print $3 }' "$3"; }
check "without frames, no compartment has a frame" not grep -q ' frame:' /tmp/split.out
check "b may write a's frame, and only write it" \
	[ "$(rights b frame:test_call_a /tmp/split-frames.out)" = -w- ]
check "a may read and write its own frame" \
	[ "$(rights a frame:test_call_a /tmp/split-frames.out)" = rw- ]
check "c has no right on a's frame" \
	[ -z "$(rights c frame:test_call_a /tmp/split-frames.out)" ]
check "frames leave the crossings as they were" \
	[ "$(sed -n '/^crossings:/,$p' /tmp/split.out)" = \
	  "$(sed -n '/^crossings:/,$p' /tmp/split-frames.out)" ]
check "function_calls gives the stream's crossings, all of them" \
	[ "$(sed -n '/^crossings:/,$p' /tmp/split.out)" = \
	  "$(sed -n '/^crossings:/,$p' /tmp/split-text.out)" ]

memorizer compartments /tmp/s.bin $sm --sweep --points 2 --csv > /tmp/sweep.csv
cat /tmp/sweep.csv
check "the sweep's ends: one compartment, reduction 0" \
	awk -F, 'NR == 2 { exit !($1 == 1 && $2 == 0) }' /tmp/sweep.csv
check "and one per function, reduction 1" \
	awk -F, 'NR == 3 { exit !($1 > 100 && $2 == 1) }' /tmp/sweep.csv
check "no call dropped" [ "$(stat_value calls_dropped)" = 0 ]
finish
