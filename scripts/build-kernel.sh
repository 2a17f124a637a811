#!/usr/bin/env bash
# Build the Memorizer kernel: Debian's linux-source-6.12, the kernel/ overlay
# and patch series, kernel/memorizer.config over x86_64 tinyconfig, out of
# tree with ccache. Outputs land in out/. With no input changed since the
# last build, nothing is run at all.
#
#   scripts/build-kernel.sh [demo]
#
# demo: the kernel make demo runs, from the same tree, in build/obj-demo, to
# out/demo-kernel/ (no modules): kernel/demo.config over the fragment, the
# kernel a researcher builds from make patch, without the debugging the
# tests want (lockdep, atomic-sleep checks, KUnit at boot), whose inline
# checks in every lock and RCU section would be much of a kmap.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
variant=${1:-test}
case $variant in test|demo) ;; *) echo "usage: $0 [demo]" >&2; exit 2 ;; esac
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
build=$top/build
src=$build/linux-source-6.12
obj=$build/obj
out=$top/out
if [ "$variant" = demo ]; then
	obj=$build/obj-demo
	out=$top/out/demo-kernel
fi
applied=$src/.memorizer-patches
jobs=${JOBS:-$(($(nproc) + 1))}

log() { printf 'build-kernel: %s\n' "$*"; }
die() { printf 'build-kernel: error: %s\n' "$*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball missing (apt-get install linux-source-6.12)"
deb_version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	deb_version=unknown
mkdir -p "$build" "$out"

# 1. Unpack, once per Debian package version; new sources mean new objects.
if [ "$(cat "$src/.memorizer-unpacked" 2>/dev/null)" != "$tarball $deb_version" ]; then
	log "unpacking $tarball"
	rm -rf "$src" "$obj"
	tar -xf "$tarball" -C "$build"
	echo "$tarball $deb_version" > "$src/.memorizer-unpacked"
fi
kversion=$(make -s -C "$src" kernelversion)
log "Linux $kversion (Debian linux-source-6.12 $deb_version)"

# Everything the kernel build depends on, as one hash.
inputs=$( {
	echo "$deb_version $variant"
	cat "$0"
	(cd "$top/kernel" && find . -type f -print0 | LC_ALL=C sort -z |
		xargs -0 sha256sum)
} | sha256sum | cut -d' ' -f1)
outputs="bzImage vmlinux System.map kernel.config"
up_to_date=1
for f in $outputs; do [ -e "$out/$f" ] || up_to_date=0; done
if [ $up_to_date = 1 ] && [ "$(cat "$out/.kernel-inputs" 2>/dev/null)" = "$inputs" ]; then
	log "up to date, nothing to do"
	exit 0
fi

# 2. Overlay the project's new files. --checksum leaves unchanged files
# (and so their objects) alone; a changed file gets a new mtime.
(cd "$top/kernel" && find . -type f ! -path './patches/*' \
	! -name '*.config' ! -name '*.md' -print0) |
	rsync -r --checksum --from0 --files-from=- "$top/kernel/" "$src/"
# Memorizer's files the project no longer has leave the tree too.
(cd "$src/mm/memorizer" && find . -type f) | while read -r f; do
	[ -e "$top/kernel/mm/memorizer/$f" ] || rm -f "$src/mm/memorizer/$f"
done

# 3. Patch series: undo the series applied last time if it differs.
mkdir -p "$applied"
series_differs() {
	[ "$(cd "$applied" && ls *.patch 2>/dev/null)" != \
	  "$(cd "$top/kernel/patches" && ls *.patch)" ] && return 0
	for p in "$top"/kernel/patches/*.patch; do
		cmp -s "$p" "$applied/$(basename "$p")" || return 0
	done
	return 1
}
if series_differs; then
	# Files whose content comes out the same keep their mtime, so that
	# changing one patch does not rebuild what the others touch.
	saved=$(mktemp -d)
	touched=$(find "$applied" "$top/kernel/patches" -name '*.patch' \
		-exec sed -n 's|^+++ b/||p' {} + | LC_ALL=C sort -u)
	for f in $touched; do
		[ -f "$src/$f" ] || continue
		mkdir -p "$saved/$(dirname "$f")"
		cp -p "$src/$f" "$saved/$f"
	done
	for p in $(ls "$applied"/*.patch 2>/dev/null | LC_ALL=C sort -r); do
		log "reverting $(basename "$p")"
		patch -d "$src" -p1 -R -s --no-backup-if-mismatch < "$p"
		rm "$p"
	done
	for p in $(ls "$top"/kernel/patches/*.patch | LC_ALL=C sort); do
		log "applying $(basename "$p")"
		patch -d "$src" -p1 -s -N --no-backup-if-mismatch < "$p"
		cp "$p" "$applied/"
	done
	for f in $touched; do
		if [ -f "$saved/$f" ] && cmp -s "$saved/$f" "$src/$f"; then
			touch -r "$saved/$f" "$src/$f"
		fi
	done
	rm -rf "$saved"
fi

# Clang, because GCC 12 cannot make KASAN see memset()/memcpy()/memmove()
# on x86 (that takes asan-kernel-mem-intrinsic-prefix, GCC 13 or LLVM 16),
# and Memorizer must count those ranges. The DWARF names sources relative
# to the tree (fs/read_write.c), as an in-tree build's does, not by this
# machine's path to it.
kmake() {
	make -C "$src" O="$obj" ARCH=x86_64 LLVM=-16 CC="ccache clang-16" \
		HOSTCC="ccache clang-16" \
		KCFLAGS="-fdebug-prefix-map=$src/=" \
		KAFLAGS="-fdebug-prefix-map=$src/=" \
		KBUILD_BUILD_USER=memorizer KBUILD_BUILD_HOST=build \
		-j"$jobs" "$@"
}

# 4. Configuration: tinyconfig plus the fragment, then check that Kconfig
# kept every option the fragment asks for.
fragment=$top/kernel/memorizer.config
if [ "$variant" = demo ]; then
	# kernel/demo.config's options replace the fragment's own lines.
	mkdir -p "$obj"
	opts=$(sed -nE 's/^(# )?(CONFIG_[A-Z0-9_]+)[= ].*/\2/p' "$top/kernel/demo.config" |
		paste -sd'|')
	{ grep -Ev "^(# )?($opts)[= ]" "$fragment"; cat "$top/kernel/demo.config"; } \
		> "$obj/demo-fragment.config"
	fragment=$obj/demo-fragment.config
fi
config_inputs=$(cat "$fragment" "$0" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$obj/.memorizer-config" 2>/dev/null)" != "$config_inputs" ]; then
	log "configuring: tinyconfig + kernel/memorizer.config"
	mkdir -p "$obj"
	kmake -s tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		.config "$fragment" >/dev/null)
	kmake -s olddefconfig >/dev/null
	"$top/scripts/config-takes.sh" "$fragment" "$obj/.config" ||
		die "configuration does not match kernel/memorizer.config"
	echo "$config_inputs" > "$obj/.memorizer-config"
fi

# 5. Build.
if [ "$variant" = demo ]; then
	log "make -j$jobs bzImage (demo kernel)"
	kmake bzImage
	mkdir -p "$out"
	for f in arch/x86/boot/bzImage vmlinux System.map; do
		install -m 644 "$obj/$f" "$out/$(basename "$f")"
	done
	install -m 644 "$obj/.config" "$out/kernel.config"
	echo "$kversion" > "$out/kernel.release"
	echo "$inputs" > "$out/.kernel-inputs"
	log "built the demo kernel, Linux $kversion: ${out#"$top"/}/{bzImage,vmlinux,System.map,kernel.config}"
	exit 0
fi
log "make -j$jobs bzImage modules"
kmake bzImage modules
rm -rf "$out/modules"
kmake -s modules_install INSTALL_MOD_PATH="$out/modules" INSTALL_MOD_STRIP=1 >/dev/null

# The test module again, out of tree, as memorizer_oot: built as users
# build their own modules against this kernel, it links only if every
# symbol the inline hooks use is exported (tests/vm/module-apis.sh).
ext=$build/oot-module
rm -rf "$ext"
mkdir -p "$ext"
cp "$top/kernel/mm/memorizer/memorizer_test_module.c" "$ext/"
printf 'obj-m := memorizer_oot.o\nmemorizer_oot-y := memorizer_test_module.o\n' \
	> "$ext/Kbuild"
log "make M=build/oot-module modules (out of tree)"
kmake M="$ext" modules
kmake -s M="$ext" modules_install INSTALL_MOD_PATH="$out/modules" \
	INSTALL_MOD_STRIP=1 >/dev/null

install -m 644 "$obj/arch/x86/boot/bzImage" "$out/bzImage"
install -m 644 "$obj/vmlinux" "$out/vmlinux"
install -m 644 "$obj/System.map" "$out/System.map"
install -m 644 "$obj/.config" "$out/kernel.config"
echo "$kversion" > "$out/kernel.release"
echo "$inputs" > "$out/.kernel-inputs"
log "built Linux $kversion: out/bzImage out/vmlinux out/System.map out/kernel.config"
