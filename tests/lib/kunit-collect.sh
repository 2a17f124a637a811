#!/bin/sh
# Guest side of the KUnit run: built-in suites ran at boot; copy each
# suite's KTAP results out of debugfs.
set -e
dir=/sys/kernel/debug/kunit
[ -d "$dir" ] || { echo "no $dir: CONFIG_KUNIT_DEBUGFS off?"; exit 1; }
n=0
for suite in "$dir"/*/; do
	name=$(basename "$suite")
	cp "$suite/results" "/out/$name.ktap"
	n=$((n + 1))
done
echo "kunit: $n suites"
[ "$n" -gt 0 ]
