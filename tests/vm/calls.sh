#!/bin/sh
# Call edges, exactly: the test module's chain (test_call_a calls
# test_call_b 7 times, the first 3 of which call test_call_c), run by two
# processes each traced alone (pid mode), gives in function_calls, per pid,
# calls_write -> a once, a -> b 7 times, b -> c 3 times, each from one
# call site in its caller, and no other edge into a, b or c. Off, nothing
# more is counted; the control file refuses what it does not accept and
# keeps its value; clear_function_calls forgets every edge. ftrace's own
# code is not the workload's: with accesses logged too, none is counted
# from ftrace_ops_assist_func() or ftrace_ops_list_func() (the recursion
# guard the callback once asked for was most of the demo's kmap).
# Stack frames, exactly: in stack_frames, per pid, test_call_b writes
# test_call_a's frame 7 times (a's local, through the pointer a gives it),
# from one instruction, and reads it never; a itself stores its local once
# and reads it once; c never touches a's frame.
# vm/run: --one-thread --append "memorizer_enabled_boot=no kunit.enable=0"
. /vmrun/guest-lib.sh
cd /tmp
modprobe memorizer_test_module || echo "modprobe failed"
T=/sys/kernel/debug/memorizer_test

check "log_calls_enabled is 0 at boot" [ "$(cat $M/log_calls_enabled)" = 0 ]
check "log_calls_enabled 0600" [ "$(stat -c %a $M/log_calls_enabled)" = 600 ]
check "function_calls 0400" [ "$(stat -c %a $M/function_calls)" = 400 ]
check "stack_frames 0400" [ "$(stat -c %a $M/stack_frames)" = 400 ]
check "clear_function_calls 0200" \
	[ "$(stat -c %a $M/clear_function_calls)" = 200 ]
echo 1 > $M/log_calls_enabled
check "log_calls_enabled takes 1" [ "$(cat $M/log_calls_enabled)" = 1 ]
for bad in 2 x -1 "1 1" " " yes2; do
	check "log_calls_enabled refuses '$bad' and stays 1" \
		sh -c "! printf '%s' '$bad' > $M/log_calls_enabled 2> /dev/null &&
		       [ \"\$(cat $M/log_calls_enabled)\" = 1 ]"
done

# Two processes, one after the other, each traced alone.
echo 1 > $M/clear_object_list
echo 1 > $M/memorizer_log_access
for i in 1 2; do
	sh -c "echo \$\$ > /tmp/pid$i; echo \$\$ > $M/memorizer_enabled
	       echo '7 3' > $T/calls; echo 0 > $M/memorizer_enabled"
done
echo 0 > $M/memorizer_log_access
cat $M/function_calls > /tmp/calls.1
cat $M/stack_frames > /tmp/frames.1
cat $M/kmap > /tmp/kmap
echo 0 > $M/log_calls_enabled
echo 1 > $M/memorizer_log_access
sh -c "echo \$\$ > $M/memorizer_enabled; echo '7 3' > $T/calls
       echo 0 > $M/memorizer_enabled"
echo 0 > $M/memorizer_log_access
cat $M/function_calls > /tmp/calls.2
cat $M/stack_frames > /tmp/frames.2
cp /tmp/calls.1 /out/function_calls
cp /tmp/frames.1 /out/stack_frames

# Each function's [start, end) from kallsyms: the next text symbol's start.
# Addresses are 16 hex digits, compared as strings (busybox awk's numbers
# lose the top bits).
awk '$2 ~ /^[tT]$/ { print $1, $3 }' /proc/kallsyms | sort > /tmp/text.syms
range() {
	awk -v f="$1" '$2 == f { found = 1; print $1; next }
		       found { print $1; exit }' /tmp/text.syms | tr '\n' ' '
}
set -- $(range calls_write); w0=$1 w1=$2
set -- $(range test_call_a); a0=$1 a1=$2
set -- $(range test_call_b); b0=$1 b1=$2
set -- $(range test_call_c); c0=$1 c1=$2
echo "calls_write $w0-$w1 test_call_a $a0-$a1 test_call_b $b0-$b1 test_call_c $c0-$c1"
p1=$(cat /tmp/pid1) p2=$(cat /tmp/pid2)
set -- $(range ftrace_ops_assist_func); f0=$1 f1=$2
set -- $(range ftrace_ops_list_func); l0=$1 l1=$2
check "ftrace's functions are in kallsyms" [ -n "$f1" ] && [ -n "$l1" ]
check "the kmap has access lines" grep -q '^  ' /tmp/kmap
check "no access counted from ftrace's own functions" \
	awk -F, -v f0="$f0" -v f1="$f1" -v l0="$l0" -v l1="$l1" '
	/^  / { ip = substr($1, 3) ""
		if ((ip >= f0 "" && ip < f1 "") || (ip >= l0 "" && ip < l1 "")) { print; bad = 1 } }
	END { exit bad }' /tmp/kmap

# chain_awk PROGRAM FILE: awk over FILE's comma fields, with fn(ip): the
# chain function (w, a, b, c) an ip is in, or "other".
chain_awk() {
	awk -F, -v w0="$w0" -v w1="$w1" -v a0="$a0" -v a1="$a1" \
		-v b0="$b0" -v b1="$b1" -v c0="$c0" -v c1="$c1" '
	function fn(ip) {
		ip = ip ""
		if (ip >= w0 "" && ip < w1 "") return "w"
		if (ip >= a0 "" && ip < a1 "") return "a"
		if (ip >= b0 "" && ip < b1 "") return "b"
		if (ip >= c0 "" && ip < c1 "") return "c"
		return "other"
	}
	'"$1" "$2"
}
# edges FILE: "FROM->TO PID COUNT CALLERS" for each edge into a, b or c,
# FROM the caller's function, CALLERS its distinct call sites.
edges() {
	chain_awk '
	{
		to = $2 == a0 ? "a" : $2 == b0 ? "b" : $2 == c0 ? "c" : ""
		if (to == "") next
		k = fn($1) "->" to " " $3
		n[k] += $4
		if (!((k, $1) in site)) { site[k, $1] = 1; sites[k]++ }
	}
	END { for (k in n) print k, n[k], sites[k] }' "$1" | sort
}
edges /tmp/calls.1 > /tmp/edges.1
cat /tmp/edges.1
expect=$(for p in $p1 $p2; do
	echo "w->a $p 1 1"
	echo "a->b $p 7 1"
	echo "b->c $p 3 1"
done | sort)
check "per pid: calls_write->a 1, a->b 7, b->c 3, one call site each" \
	[ "$(cat /tmp/edges.1)" = "$expect" ]
check "off: no call counted" cmp -s /tmp/calls.1 /tmp/calls.2
check "every line is caller,callee,pid,count" \
	awk -F, 'NF != 4 || $1 !~ /^[0-9a-f]+$/ || $2 !~ /^[0-9a-f]+$/ ||
		 $3 !~ /^[0-9]+$/ || $4 !~ /^[1-9][0-9]*$/ { bad = 1 }
		 END { exit bad }' /tmp/calls.1
check "calls_recorded covers the edges" \
	[ "$(stat_value calls_recorded)" -ge \
	  "$(awk -F, '{ n += $4 } END { print n + 0 }' /tmp/calls.1)" ]
check "no call dropped" [ "$(stat_value calls_dropped)" = 0 ]
check "edges in memory as function_calls has lines" \
	[ "$(stat_value call_edges_in_memory)" = "$(wc -l < /tmp/calls.1)" ]

# frames FILE: "FRAME IP-FUNCTION PID WRITES READS IPS" for each cell on
# the frame of a, b or c, IPS the distinct accessing instructions.
frames() {
	chain_awk '
	{
		f = $1 == a0 ? "a" : $1 == b0 ? "b" : $1 == c0 ? "c" : ""
		if (f == "") next
		k = f " " fn($2) " " $3
		w[k] += $4; r[k] += $5
		if (!((k, $2) in site)) { site[k, $2] = 1; sites[k]++ }
	}
	END { for (k in w) print k, w[k], r[k], sites[k] }' "$1" | sort
}
frames /tmp/frames.1 > /tmp/cells.1
cat /tmp/cells.1
for p in $p1 $p2; do
	check "pid $p: b writes a's frame 7 times from one ip, reads it never" \
		[ "$(grep "^a b $p " /tmp/cells.1)" = "a b $p 7 0 1" ]
	check "pid $p: a writes its own local once and reads it once" \
		[ "$(grep "^a a $p " /tmp/cells.1)" = "a a $p 1 1 2" ]
	check "pid $p: c does not touch a's frame" \
		[ -z "$(grep "^a c $p " /tmp/cells.1)" ]
done
check "off: no frame access counted" cmp -s /tmp/frames.1 /tmp/frames.2
check "every line is frame,ip,pid,writes,reads" \
	awk -F, 'NF != 5 || $1 !~ /^[0-9a-f]+$/ || $2 !~ /^[0-9a-f]+$/ ||
		 $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/ ||
		 $4 + $5 == 0 { bad = 1 } END { exit bad }' /tmp/frames.1
check "frame_accesses_recorded is the cells' sum" \
	[ "$(stat_value frame_accesses_recorded)" = \
	  "$(awk -F, '{ n += $4 + $5 } END { print n + 0 }' /tmp/frames.1)" ]
check "no frame access dropped" [ "$(stat_value frame_accesses_dropped)" = 0 ]
check "frame cells in memory as stack_frames has lines" \
	[ "$(stat_value frame_cells_in_memory)" = "$(wc -l < /tmp/frames.1)" ]
echo 1 > $M/clear_function_calls
check "clear_function_calls forgets every edge" \
	[ -z "$(cat $M/function_calls)" ]
check "and every frame cell" [ -z "$(cat $M/stack_frames)" ]
check "and gives their memory back" \
	[ "$(stat_value call_edges_in_memory)" = 0 ] &&
	[ "$(stat_value frame_cells_in_memory)" = 0 ]
check "clear_function_calls refuses 2" \
	sh -c "! echo 2 > $M/clear_function_calls 2> /dev/null"
finish
