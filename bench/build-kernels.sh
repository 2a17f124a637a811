#!/usr/bin/env bash
# bench/build-kernels.sh: build the three bench kernels out of tree from the
# patched source tree build/linux-source-6.12 (scripts/build-kernel.sh makes
# it), each in build/bench/<variant>, from one bench configuration that
# differs only in
#   nokasan       CONFIG_KASAN=n (so CONFIG_MEMORIZER=n)
#   kasan         KASAN on, CONFIG_MEMORIZER=n
#   memorizer     KASAN + MEMORIZER
#   kasan-jl      kasan with CONFIG_JUMP_LABEL=y
#   memorizer-jl  memorizer with CONFIG_JUMP_LABEL=y
# (the -jl pair measures Memorizer compiled in but off as distributions
# build kernels: static keys patched, a nop while off).
# The bench configuration is kernel/memorizer.config over tinyconfig without
# KUnit (the suites run at boot), without lockdep and atomic-sleep
# debugging (they distort every ratio) and without DWARF (three kernels'
# worth of debug information, which no bench reads). Outputs: out/bench/<variant>/
# {bzImage,kernel.config,kernel.release}. With no input changed, nothing runs.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/linux-source-6.12
jobs=${JOBS:-2}
variants="nokasan kasan memorizer kasan-jl memorizer-jl"

log() { printf 'bench-kernels: %s\n' "$*"; }
die() { printf 'bench-kernels: error: %s\n' "$*" >&2; exit 1; }

# The source tree is the lead's: make it only when it is missing.
if [ ! -f "$src/.memorizer-unpacked" ]; then
	log "build/linux-source-6.12 missing: running scripts/build-kernel.sh"
	"$top/scripts/build-kernel.sh"
fi
[ -f "$src/mm/memorizer/Kconfig" ] || die "$src has no Memorizer overlay"

# The bench fragment: the project's fragment with the debugging that
# distorts ratios and the boot-time KUnit suites switched off.
off_opts="CONFIG_PROVE_LOCKING CONFIG_DEBUG_ATOMIC_SLEEP CONFIG_KUNIT
CONFIG_KUNIT_DEBUGFS CONFIG_MEMORIZER_KUNIT_TEST CONFIG_DEBUG_INFO_DWARF5
CONFIG_FAULT_INJECTION CONFIG_FAILSLAB CONFIG_FAIL_PAGE_ALLOC
CONFIG_FAULT_INJECTION_DEBUG_FS CONFIG_FAULT_INJECTION_STACKTRACE_FILTER
CONFIG_KASAN_KUNIT_TEST CONFIG_SLUB_KUNIT_TEST CONFIG_TEST_VMALLOC
CONFIG_TEST_MEMINIT"
common_fragment() {
	local pat
	pat=$(echo $off_opts | sed 's/ /|/g')
	grep -Ev "^(# )?($pat)[= ]" "$top/kernel/memorizer.config" |
		grep -Ev '^(# )?CONFIG_(KASAN|KASAN_GENERIC|KASAN_OUTLINE|MEMORIZER[A-Z_]*)[= ]'
	echo "# bench: off in every variant"
	for o in $off_opts; do echo "# $o is not set"; done
	# KASAN selects SLUB_DEBUG; have it in every variant so that the
	# nokasan kernel differs in KASAN alone.
	echo "CONFIG_SLUB_DEBUG=y"
	# MEMORIZER selects TRACEPOINTS, whose trace events need the tracing
	# core (EVENT_TRACING): the fragment's FUNCTION_TRACER (call logging)
	# brings it, in every variant, so tracepoints are no difference.
}
variant_fragment() {
	common_fragment
	echo "# bench variant: $1"
	case $1 in
	*-jl) echo "CONFIG_JUMP_LABEL=y" ;;
	*) echo "# CONFIG_JUMP_LABEL is not set" ;;
	esac
	case ${1%-jl} in
	nokasan)
		echo "# CONFIG_KASAN is not set"
		echo "# CONFIG_MEMORIZER is not set" ;;
	kasan)
		printf 'CONFIG_KASAN=y\nCONFIG_KASAN_GENERIC=y\nCONFIG_KASAN_OUTLINE=y\n'
		echo "# CONFIG_MEMORIZER is not set" ;;
	memorizer)
		printf 'CONFIG_KASAN=y\nCONFIG_KASAN_GENERIC=y\nCONFIG_KASAN_OUTLINE=y\n'
		echo "CONFIG_MEMORIZER=y" ;;
	esac
}

# Hidden options a variant's switch selects (not settable in a fragment).
# The kasan -> memorizer difference may hold CONFIG_MEMORIZER, what it
# selects and its own options (CONFIG_MEMORIZER_ACCESS_STAGES, 0 here, and
# CONFIG_MEMORIZER_CALLS, call logging);
# nokasan -> kasan the KASAN options and what KASAN selects.
selects_of() {	# selects_of KCONFIG_FILE SYMBOL...
	local f=$1; shift
	local s
	for s in "$@"; do
		awk -v sym="$s" '
			/^(menu)?config / { on = ($2 == sym); next }
			on && $1 == "select" { print "CONFIG_" $2 }' "$f"
	done
}

kmake() {	# kmake VARIANT ARGS...
	local v=$1; shift
	make -C "$src" O="$top/build/bench/$v" ARCH=x86_64 LLVM=-16 \
		CC="ccache clang-16" HOSTCC="ccache clang-16" \
		KBUILD_BUILD_USER=memorizer KBUILD_BUILD_HOST=build \
		-j"$jobs" "$@"
}

# What a bench kernel is built from, as one hash: this script, the project
# fragment, the Debian source version and the Memorizer files and patch
# series as they are in the source tree.
src_hash=$( {
	cat "$0" "$top/kernel/memorizer.config" "$src/.memorizer-unpacked"
	(cd "$src" && find mm/memorizer include/linux/memorizer.h \
		.memorizer-patches -type f -print0 2>/dev/null |
		LC_ALL=C sort -z | xargs -0 sha256sum)
} | sha256sum | cut -d' ' -f1)

# The plugin's mode kmap boots the no-KASAN kernel with its System.map
# beside it and the guest modules built against it (modules_prepare
# gives the tree what an out-of-tree module needs). Their sources are not
# in src_hash: they are rebuilt on every run (seconds), kernels or not,
# so that a bench never boots a module older than the plugin.
build_mtrace_modules() {
	kmake nokasan -s modules_prepare
	install -m 644 "$top/build/bench/nokasan/System.map" \
		"$top/out/bench/nokasan/System.map"
	"$top/scripts/build-mtrace-modules.sh" "$top/build/bench/nokasan" \
		"$top/out/bench/nokasan/mtrace-modules" >&2
}

all_up=1
for v in $variants; do
	o=$top/out/bench/$v
	[ -f "$o/bzImage" ] && [ "$(cat "$o/.inputs" 2>/dev/null)" = "$src_hash" ] ||
		all_up=0
done
# The guest modules are built in nokasan's tree: without it, build it all.
[ -f "$top/build/bench/nokasan/.config" ] || all_up=0
if [ $all_up = 1 ]; then
	log "kernels up to date"
	build_mtrace_modules
	exit 0
fi

# 1. Configure every variant, then check the differences before building.
for v in $variants; do
	b=$top/build/bench/$v
	mkdir -p "$b"
	frag=$b/bench.config
	variant_fragment "$v" > "$frag.new"
	# From scratch when the fragment or the sources (their Kconfig
	# selects) changed: olddefconfig keeps what nothing selects any more.
	if ! cmp -s "$frag.new" "$frag" || [ ! -f "$b/.config" ] ||
	   [ "$(cat "$b/.config-inputs" 2>/dev/null)" != "$src_hash" ]; then
		log "$v: configuring: tinyconfig + bench fragment"
		mv "$frag.new" "$frag"
		kmake "$v" -s tinyconfig >/dev/null
		(cd "$b" && "$src/scripts/kconfig/merge_config.sh" -m -O "$b" \
			.config "$frag" >/dev/null)
		kmake "$v" -s olddefconfig >/dev/null
		echo "$src_hash" > "$b/.config-inputs"
	else
		rm -f "$frag.new"
		kmake "$v" -s olddefconfig >/dev/null
	fi
	if ! dropped=$("$top/scripts/config-takes.sh" "$frag" "$b/.config"); then
		while IFS= read -r line; do log "$v: $line"; done <<< "$dropped"
		die "$v: configuration does not match its fragment"
	fi
done

# The options set in one .config and not the other, or set differently.
config_diff() {	# config_diff A B -> CONFIG_X lines
	{ diff <(grep '^CONFIG_' "$1" | LC_ALL=C sort) \
	       <(grep '^CONFIG_' "$2" | LC_ALL=C sort) || true; } |
		sed -n 's/^[<>] \(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' | LC_ALL=C sort -u
}
check_diff() {	# check_diff A B ALLOWED_REGEX WHAT
	local d unexpected
	d=$(config_diff "$top/build/bench/$1/.config" "$top/build/bench/$2/.config")
	unexpected=$(echo "$d" | grep -Ev "^($3)$" | grep . || true)
	if [ -n "$unexpected" ]; then
		log "$1 -> $2: unexpected configuration differences:"
		echo "$unexpected" | sed 's/^/  /' >&2
		die "bench kernels $1 and $2 differ in more than $4"
	fi
	echo "$d" | grep -q "^$5$" || die "$1 -> $2: $5 does not differ"
	log "$1 -> $2 differ in: $(echo $d)"
}
kasan_sel=$(selects_of "$src/lib/Kconfig.kasan" KASAN KASAN_GENERIC | paste -sd'|')
mem_sel=$(selects_of "$src/mm/memorizer/Kconfig" MEMORIZER | paste -sd'|')
# Options that exist or change only because KASAN is on: compiler probes
# under "depends on KASAN", x86's GENERIC_CSUM (depends on KASAN || KMSAN),
# SLUB_RCU_DEBUG (default KASAN_GENERIC), stack depot bits KASAN selects.
kasan_derived="CONFIG_KASAN[A-Z0-9_]*|CONFIG_CC_HAS_KASAN[A-Z0-9_]*|CONFIG_CC_HAS_NAMED_AS_FIXED_SANITIZERS|CONFIG_CONSTRUCTORS|CONFIG_GENERIC_CSUM|CONFIG_SLUB_RCU_DEBUG|CONFIG_STACKDEPOT[A-Z0-9_]*"
check_diff nokasan kasan "$kasan_derived${kasan_sel:+|$kasan_sel}" \
	"KASAN" CONFIG_KASAN
check_diff kasan memorizer "CONFIG_MEMORIZER|CONFIG_MEMORIZER_ACCESS_STAGES|CONFIG_MEMORIZER_CALLS${mem_sel:+|$mem_sel}" \
	"MEMORIZER" CONFIG_MEMORIZER
check_diff kasan kasan-jl "CONFIG_JUMP_LABEL" "JUMP_LABEL" CONFIG_JUMP_LABEL
check_diff kasan-jl memorizer-jl "CONFIG_MEMORIZER|CONFIG_MEMORIZER_ACCESS_STAGES|CONFIG_MEMORIZER_CALLS${mem_sel:+|$mem_sel}" \
	"MEMORIZER" CONFIG_MEMORIZER
[ "${1:-}" = --config-only ] && exit 0

# 2. Build, one variant after the other (-j$jobs: the machine is shared).
kversion=$(make -s -C "$src" kernelversion)
for v in memorizer kasan nokasan memorizer-jl kasan-jl; do
	b=$top/build/bench/$v
	o=$top/out/bench/$v
	log "$v: make -j$jobs bzImage (Linux $kversion)"
	kmake "$v" bzImage
	mkdir -p "$o"
	install -m 644 "$b/arch/x86/boot/bzImage" "$o/bzImage"
	install -m 644 "$b/.config" "$o/kernel.config"
	echo "$kversion" > "$o/kernel.release"
	echo "$src_hash" > "$o/.inputs"
done
build_mtrace_modules
log "built: $(for v in $variants; do printf 'out/bench/%s/bzImage ' "$v"; done)"
