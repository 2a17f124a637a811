#!/usr/bin/env bash
# make check-config [CONFIG=defconfig|FILE] [KERNEL_TARBALL=T]: Memorizer
# as a user gets it. Unpack a pristine 6.12 tree, apply make patch's output
# with patch -p1, configure CONFIG (x86_64_defconfig, or a .config of your
# own) plus KASAN and Memorizer, build bzImage and every module, and build
# the test module out of tree against it. Any compiler or modpost warning
# or error from Memorizer's files, the files the patch touches, or modpost
# fails the check. Then boot the kernel under vm/run and run the seed-000
# experiment and the module API test on it. Finally, with Memorizer off,
# the hunks must compile away: the objects of the files they touch are the
# same machine code as a pristine tree's.
#
# DEBIAN_VERSION=V checks Debian's linux-source-6.12 version V instead of
# the installed one (apt-get download; apt-cache madison linux-source-6.12
# lists them). With QUICK=1, only Memorizer's
# objects and those of the files the hunks touch are built, and nothing
# boots: the patch applies and compiles without warnings there.
#
# Results: out/check-config/NAME/{report,build.log}, the guests' logs
# beside them. Work trees: build/check-config/NAME/.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
config=${1:-defconfig}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
if [ -n "${DEBIAN_VERSION:-}" ]; then
	debs=$top/build/debs
	deb=$debs/linux-source-6.12_${DEBIAN_VERSION//:/%3a}_all.deb
	mkdir -p "$debs"
	[ -f "$deb" ] || (cd "$debs" && apt-get download -q \
		"linux-source-6.12=$DEBIAN_VERSION") ||
		{ echo "check-config: no linux-source-6.12 $DEBIAN_VERSION in the archive" >&2; exit 1; }
	tarball=$debs/$DEBIAN_VERSION/usr/src/linux-source-6.12.tar.xz
	[ -f "$tarball" ] || dpkg-deb -x "$deb" "$debs/$DEBIAN_VERSION"
fi
jobs=${JOBS:-$(($(nproc) + 1))}
quick=${QUICK:-}
name=$(basename "$config" .config)${DEBIAN_VERSION:+-$DEBIAN_VERSION}${quick:+-quick}
work=$top/build/check-config/$name
results=$top/out/check-config/$name
start=$SECONDS

log() { printf 'check-config: %s\n' "$*"; }
die() { printf 'check-config: error: %s\n' "$*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball missing (apt-get install linux-source-6.12)"
[ "$config" = defconfig ] || [ -r "$config" ] ||
	die "CONFIG=$config: neither defconfig nor a readable .config"
[ -f "$top/out/initramfs.cpio.gz" ] || die "out/initramfs.cpio.gz missing: run 'make initramfs'"
rm -rf "$results"
mkdir -p "$work" "$results"
report=$results/report
: > "$report"
say() { printf '%s\n' "$*" | tee -a "$report"; }
failures=0
failed() { say "FAIL: $*"; failures=$((failures + 1)); }

kmake() {	# kmake SRC OBJ ARGS...
	local src=$1 obj=$2
	shift 2
	make -C "$src" O="$obj" ARCH=x86_64 LLVM=-16 CC="ccache clang-16" \
		HOSTCC="ccache clang-16" \
		KBUILD_BUILD_USER=memorizer KBUILD_BUILD_HOST=build \
		KBUILD_BUILD_TIMESTAMP=2024-01-01 -j"$jobs" "$@"
}

# unpack DIR: a pristine tree of the tarball in DIR.
unpack() {
	rm -rf "$1" "$1.tmp"
	mkdir -p "$1.tmp"
	tar -xf "$tarball" -C "$1.tmp"
	mv "$1.tmp"/* "$1"
	rmdir "$1.tmp"
}

# configure SRC OBJ FRAGMENT: CONFIG, then FRAGMENT over it; every option
# FRAGMENT sets must survive olddefconfig.
configure() {
	local src=$1 obj=$2 frag=$3
	rm -rf "$obj"
	mkdir -p "$obj"
	if [ "$config" = defconfig ]; then
		kmake "$src" "$obj" -s x86_64_defconfig >/dev/null
	else
		cp "$config" "$obj/.config"
	fi
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		.config "$frag" >/dev/null)
	kmake "$src" "$obj" -s olddefconfig >/dev/null
	"$top/scripts/config-takes.sh" "$frag" "$obj/.config" ||
		die "$name: the configuration does not take the fragment"
}

"$top/scripts/make-patch.sh" >/dev/null
patch_file=$top/out/memorizer-6.12.patch
# 1. The tree a user has, patched as they would patch it.
src=$work/linux
log "unpacking a pristine tree"
unpack "$src"
say "check-config: $name on Linux $(make -s -C "$src" kernelversion) ($tarball)"
if ! patch -d "$src" -p1 -s -N --no-backup-if-mismatch < "$patch_file" \
	> "$results/patch.log" 2>&1; then
	cat "$results/patch.log"
	die "make patch's output does not apply to $(basename "$tarball")"
fi
say "patch: out/memorizer-6.12.patch applies with patch -p1"

# 2. CONFIG + KASAN + Memorizer, every module, the test module out of tree.
frag=$work/memorizer.fragment
cat > "$frag" <<'EOF'
CONFIG_LOCALVERSION="-memorizer-check"
CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
CONFIG_DEBUG_FS=y
CONFIG_KASAN=y
CONFIG_KASAN_GENERIC=y
CONFIG_KASAN_OUTLINE=y
CONFIG_MEMORIZER=y
CONFIG_MEMORIZER_TEST_MODULE=m
EOF
obj=$work/obj
log "configuring $name + KASAN + Memorizer"
configure "$src" "$obj" "$frag"
# Memorizer's objects and the hunked files': what QUICK=1 builds.
hunked_objs=$(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$top"/kernel/patches/*.patch |
	grep -v '^tools/' | LC_ALL=C sort -u)
build_start=$SECONDS
set +e
if [ -n "$quick" ]; then
	log "make prepare, mm/memorizer/ and the hunked files (log: ${results#"$top"/}/build.log)"
	# shellcheck disable=SC2086
	kmake "$src" "$obj" prepare > "$results/build.log" 2>&1 &&
		kmake "$src" "$obj" mm/memorizer/ fs/proc/memorizer.o $hunked_objs \
			>> "$results/build.log" 2>&1
else
	log "make bzImage modules (log: ${results#"$top"/}/build.log)"
	kmake "$src" "$obj" bzImage modules > "$results/build.log" 2>&1
fi
build_status=$?
set -e
ext=$work/oot-module
rm -rf "$ext"
mkdir -p "$ext"
cp "$src/mm/memorizer/memorizer_test_module.c" "$ext/"
printf 'obj-m := memorizer_oot.o\nmemorizer_oot-y := memorizer_test_module.o\n' > "$ext/Kbuild"
if [ $build_status = 0 ] && [ -z "$quick" ]; then
	set +e
	kmake "$src" "$obj" M="$ext" modules >> "$results/build.log" 2>&1
	build_status=$?
	set -e
fi
build_time=$((SECONDS - build_start))
nr_modules=$(find "$obj" -name '*.ko' | wc -l)
[ $build_status = 0 ] || failed "the build failed (exit $build_status)"

# Warnings and errors: from Memorizer's files, the files the hunks touch,
# and modpost.
ours=$( (cd "$top/kernel" && find . -type f -name '*.[ch]' | sed 's|^\./||';
	sed -n 's|^+++ b/||p' patches/*.patch) | LC_ALL=C sort -u |
	sed 's/[.]/\\./g' | paste -sd'|')
grep -E "(^|/)($ours):[0-9]+:[0-9]+: (warning|error)|(WARNING|ERROR): modpost" \
	"$results/build.log" > "$results/warnings" || true
nr_warnings=$(wc -l < "$results/warnings")
if [ -n "$quick" ]; then
	what="mm/memorizer/, fs/proc/memorizer.o and $(echo $hunked_objs)"
else
	what="bzImage and $nr_modules modules (the test module out of tree among them)"
fi
say "build: $name + KASAN + Memorizer, $what: $nr_warnings warnings or errors from Memorizer's files, the hunks' files and modpost, in $build_time s with -j$jobs"
if [ "$nr_warnings" != 0 ]; then
	sed 's/^/  /' "$results/warnings" | tee -a "$report"
	failed "warnings from Memorizer's files, the hunks' files or modpost"
fi

# 3. Boot it: the seed-000 experiment and the module API test, with this
# kernel's own modules over the project's guest image.
if [ $build_status = 0 ] && [ -z "$quick" ]; then
	release=$(cat "$obj/include/config/kernel.release")
	mods=$work/modules
	rm -rf "$mods"
	kmake "$src" "$obj" -s modules_install INSTALL_MOD_PATH="$mods" \
		INSTALL_MOD_STRIP=1 >/dev/null
	kmake "$src" "$obj" -s M="$ext" modules_install INSTALL_MOD_PATH="$mods" \
		INSTALL_MOD_STRIP=1 >/dev/null
	(cd "$mods" && find lib | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$work/modules.cpio.gz"
	cat "$top/out/initramfs.cpio.gz" "$work/modules.cpio.gz" > "$work/initramfs.cpio.gz"
	for t in seed-000 module-apis; do
		opts=$(sed -n 's/^# vm\/run: //p' "$top/tests/vm/$t.sh")
		extra=()
		[ -z "$opts" ] || eval "extra=($opts)"
		# no5lvl: with 5-level paging (QEMU's -cpu max has LA57),
		# identify_cpu() clears boot_cpu_data's capabilities with IRQs
		# on, and an interrupt in that window sees pgtable_l5_enabled()
		# false, so KASAN_SHADOW_START moves and KASAN reports a
		# wild-memory-access on any direct-map address (seen here in
		# handle_edge_irq, early in boot). Upstream's, not Memorizer's.
		extra+=(--append no5lvl)
		boot_start=$SECONDS
		if VMRUN_INITRAMFS=$work/initramfs.cpio.gz VMRUN_LOG_DIR=$results \
			"$top/vm/run" --kernel "$obj/arch/x86/boot/bzImage" \
			--timeout 900 --file "$top/tests/lib/guest-lib.sh" \
			${extra[@]+"${extra[@]}"} --out "$results/vm-$t" \
			"$top/tests/vm/$t.sh" > "$results/vm-$t.log" 2>&1; then
			say "boot: $release, tests/vm/$t.sh passed in $((SECONDS - boot_start)) s"
		else
			tail -n 20 "$results/vm-$t.log" | sed 's/^/  /' | tee -a "$report"
			failed "tests/vm/$t.sh on $release (log: ${results#"$top"/}/vm-$t.log)"
		fi
	done
fi

# 4. Memorizer off: the files the hunks touch compile to the machine code
# of a pristine tree. KASAN stays on, so that its hunk is compiled too.
log "Memorizer off: comparing objects with a pristine tree"
pristine=$work/pristine
unpack "$pristine"
offfrag=$work/off.fragment
printf 'CONFIG_KASAN=y\nCONFIG_KASAN_GENERIC=y\n# CONFIG_MEMORIZER is not set\n' > "$offfrag"
objs=$hunked_objs
# Every file of these that includes <linux/gfp.h> or <linux/sched.h> sees
# the hunked headers; a few that allocate pages stand in for all of them.
objs="$objs mm/page_alloc.o kernel/fork.o mm/filemap.o"
for tree in "$src" "$pristine"; do
	o=$tree.off-obj
	configure "$tree" "$o" "$offfrag"
	kmake "$tree" "$o" -s prepare >/dev/null 2>&1
	# shellcheck disable=SC2086
	kmake "$tree" "$o" -s $objs > "$o.log" 2>&1 ||
		{ cat "$o.log"; die "building $objs in $tree"; }
done
differ=
for f in $objs; do
	if ! cmp -s <(objdump -d --no-show-raw-insn "$src.off-obj/$f" | tail -n +3) \
		    <(objdump -d --no-show-raw-insn "$pristine.off-obj/$f" | tail -n +3); then
		differ="$differ $f"
	fi
done
if [ -n "$differ" ]; then
	failed "with CONFIG_MEMORIZER=n these differ from a pristine tree's:$differ"
else
	say "off: with CONFIG_MEMORIZER=n, $(echo $objs | wc -w) objects ($(echo $objs)) are the same machine code as a pristine tree's"
fi

say "check-config: $name: $failures failures, $((SECONDS - start)) s in all"
[ $failures = 0 ]
