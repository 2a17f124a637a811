#!/usr/bin/env bash
# run.sh FUZZDIR SECONDS [text|bin|mtrace|stats|calls] [MEMORIZER]: run the libFuzzer
# harnesses for a bounded time each, from a copy of the committed seed
# corpus (make fuzz grows it: bench/fuzz). Exits non-zero when a harness finds a crash,
# leak or abort. With MEMORIZER, every input the fuzzer kept is then read
# by memorizer check, report and text, which must agree on whether it is
# valid (one set of rules, libkmap's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 secs=$2
which=${3:-text bin mtrace stats calls}
memorizer=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# verdicts MEMORIZER FILE: check's, report's and text's (ok or bad), a
# tab, FILE.
verdicts() {
	local cmd verdict=
	for cmd in "check -q" report text; do
		# shellcheck disable=SC2086
		if "$1" $cmd "$2" > /dev/null 2>&1; then
			verdict="$verdict ok"
		else
			verdict="$verdict bad"
		fi
	done
	printf '%s\t%s\n' "$verdict" "$2"
}
export -f verdicts
for h in $which; do
	[ -x "$dir/fuzz-$h" ] || { echo "$dir/fuzz-$h: not built" >&2; exit 1; }
	mkdir -p "$work/$h"
	cp "$here/corpus-$h"/* "$work/$h/"
	echo "fuzz-$h: $secs s from $(ls "$here/corpus-$h" | wc -l) seeds"
	status=0
	"$dir/fuzz-$h" -max_total_time="$secs" -max_len=4096 -timeout=10 \
		-rss_limit_mb=1024 -artifact_prefix="$work/" -print_final_stats=1 \
		"$work/$h" > "$work/$h.log" 2>&1 || status=$?
	grep -E '^(stat::number_of_executed_units|#[0-9]+ *DONE)|ERROR|SUMMARY|Done' "$work/$h.log" || :
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h.log")
	found=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o \
		-name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))
	if [ -n "$found" ]; then
		echo "fuzz-$h: found a failing input:" >&2
		for f in $found; do
			od -A d -t x1 "$f" | head -20 >&2
		done
		exit 1
	fi
	if [ "$status" != 0 ] || [ "${runs:-0}" -le 0 ]; then
		echo "fuzz-$h: the harness exited $status after ${runs:-no} executions:" >&2
		tail -n 20 "$work/$h.log" >&2
		exit 1
	fi
	[ -n "$memorizer" ] || continue
	# Two inputs at a time (the machine's two cores), each line of
	# verdicts written whole.
	disagree=0 inputs=0
	total=$(find "$work/$h" -type f | wc -l)
	while IFS=$'\t' read -r verdict f; do
		inputs=$((inputs + 1))
		case $verdict in
		" ok ok ok"|" bad bad bad") ;;
		*)	disagree=$((disagree + 1))
			# Kept beside the harnesses, for a test to be made of it.
			cp "$f" "$dir/disagree-$h-$disagree"
			echo "fuzz-$h: check, report, text disagree ($verdict) on $dir/disagree-$h-$disagree:" >&2
			"$memorizer" check "$f" 2>&1 | head -3 >&2
			for cmd in report text; do
				"$memorizer" $cmd "$f" 2>&1 >/dev/null | head -3 >&2
			done ;;
		esac
	done < <(find "$work/$h" -type f -print0 | LC_ALL=C sort -z |
		xargs -0 -n 32 -P 2 bash -c 'for f; do verdicts "$0" "$f"; done' "$memorizer")
	if [ "$inputs" != "$total" ]; then
		echo "fuzz-$h: verdicts on $inputs of $total inputs" >&2
		exit 1
	fi
	echo "fuzz-$h: check, report and text agree on $((inputs - disagree)) of $inputs inputs"
	[ "$disagree" = 0 ] || exit 1
done
