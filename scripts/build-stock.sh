#!/usr/bin/env bash
# Build what tracing Debian's own, unmodified kernel takes (make stock,
# vm/run --stock): the kernel image from Debian's archive, the mtrace
# plugin's guest modules (tools/qemu-plugin/guest/, whatever its Kbuild
# lists) built out of tree against Debian's headers for that kernel, with
# the compiler Debian built it with, and an initramfs: the project's base
# (make initramfs-base: no kernel of the project's is built) plus the
# modules of that kernel vm/init needs and the guest modules.
#
#   scripts/build-stock.sh
#
# The packages are fetched by apt-get download into build/stock/debs/ (one
# already there is not fetched again) and unpacked by dpkg-deb -x into
# build/stock/root/, never installed. Outputs, in out/stock/: vmlinuz,
# kernel.config (the image's /boot/config-*, which vm/run reads beside the
# kernel), System.map (the package's is a placeholder: one boot's
# /proc/kallsyms, step 6), vmlinux.btf (the kernel's raw BTF, its struct
# types for memorizer --btf: /sys/kernel/btf/vmlinux of the same boot),
# initramfs.cpio.gz, modules/*.ko. Each step runs only when its inputs
# changed.
set -euo pipefail

# Debian's kernel ABI name: the one place the version is pinned.
abi=6.12.107+deb12
flavour=amd64
kver=$abi-$flavour
packages=(
	"linux-image-$kver-unsigned"	# the kernel and its modules
	"linux-headers-$kver"		# .config, Module.symvers, generated headers
	"linux-headers-$abi-common"	# the headers' Makefile and include/
	"linux-kbuild-$abi"		# kbuild's scripts and host programs
)
# The kernel's modules vm/run needs, their dependencies found by
# modules.dep: the virtio disk vm/init writes /out to (q35: virtio-pci).
# One built in (Debian's virtio_pci is) needs nothing.
boot_modules=(virtio_pci virtio_blk)

top=$(cd "$(dirname "$0")/.." && pwd)
stock=$top/build/stock
debs=$stock/debs
root=$stock/root
out=$top/out/stock
guest=$top/tools/qemu-plugin/guest
hdr=$root/usr/src/linux-headers-$kver

log() { printf 'build-stock: %s\n' "$*"; }
die() { printf 'build-stock: error: %s\n' "$*" >&2; exit 1; }

for cmd in apt-get dpkg-deb depmod xz cpio gzip gcc-12 pahole make; do
	command -v "$cmd" >/dev/null ||
		die "$cmd missing (make deps installs scripts/packages.txt)"
done
mkdir -p "$debs" "$out"
worked=0

# 1. Download. Into a scratch directory first, so that a failed fetch
# leaves no partial .deb to be taken for a whole one next time. As root,
# apt fetches as its _apt user, who may not write here: fetch as root.
for pkg in "${packages[@]}"; do
	compgen -G "$debs/${pkg}_*.deb" >/dev/null && continue
	log "apt-get download $pkg"
	worked=1
	rm -rf "$debs/.partial"
	mkdir -p "$debs/.partial"
	(cd "$debs/.partial" && apt-get download -q -o APT::Sandbox::User=root \
		"$pkg") || { rm -rf "$debs/.partial"
		die "apt-get download $pkg failed (apt-get update first?)"; }
	compgen -G "$debs/.partial/${pkg}_*.deb" >/dev/null ||
		die "apt-get download $pkg left no .deb"
	mv "$debs/.partial/${pkg}_"*.deb "$debs/"
	rm -rf "$debs/.partial"
done
deb_files=()
for pkg in "${packages[@]}"; do
	found=("$debs/${pkg}_"*.deb)
	[ ${#found[@]} = 1 ] || die "more than one $pkg in ${debs#"$top"/}: remove the stale ones"
	deb_files+=("${found[0]}")
done

# 2. Unpack, again only when the set of packages changed.
unpacked=$(for f in "${deb_files[@]}"; do basename "$f"; done)
if [ "$(cat "$root/.stock-unpacked" 2>/dev/null)" != "$unpacked" ]; then
	rm -rf "$root"
	mkdir -p "$root"
	worked=1
	for f in "${deb_files[@]}"; do
		log "unpacking $(basename "$f")"
		dpkg-deb -x "$f" "$root" || die "dpkg-deb -x $(basename "$f") failed"
	done
	# The headers' Makefile includes the common headers' by their
	# installed path, /usr/src/...: here they are beside it.
	[ -f "$hdr/Makefile" ] || die "no $hdr/Makefile in linux-headers-$kver"
	echo "include ../linux-headers-$abi-common/Makefile" > "$hdr/Makefile"
	# modules.dep is the package's postinst's (depmod) to make.
	depmod -b "$root" "$kver" || die "depmod -b build/stock/root $kver failed"
	printf '%s\n' "$unpacked" > "$root/.stock-unpacked"
fi
for f in "boot/vmlinuz-$kver" "boot/System.map-$kver" "boot/config-$kver" \
	"lib/modules/$kver/modules.dep"; do
	[ -f "$root/$f" ] || die "no /$f in build/stock/root (linux-image-$kver-unsigned)"
done

# 3. The kernel and its configuration (its symbols: step 6).
for pair in "vmlinuz-$kver vmlinuz" "config-$kver kernel.config"; do
	set -- $pair
	cmp -s "$root/boot/$1" "$out/$2" && continue
	install -m 644 "$root/boot/$1" "$out/$2"
	worked=1
done
[ "$(cat "$out/kernel.release" 2>/dev/null)" = "$kver" ] ||
	echo "$kver" > "$out/kernel.release"

# 4. The guest modules, out of tree: the headers' .kernelvariables set
# CC to Debian's compiler for this kernel (its CONFIG_CC_VERSION_TEXT),
# x86_64-linux-gnu-gcc-12.
grep -q '^CONFIG_CC_VERSION_TEXT=.*gcc-12 ' "$hdr/.config" ||
	die "linux-headers-$kver: not built with gcc-12 ($(grep '^CONFIG_CC_VERSION_TEXT=' "$hdr/.config"))"
sources=$(cd "$guest" && shopt -s nullglob && echo Kbuild *.c *.h)
mod_inputs=$( {
	echo "$unpacked"
	cat "$0"
	(cd "$guest" && sha256sum $sources)
} | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/modules/.inputs" 2>/dev/null)" != "$mod_inputs" ]; then
	worked=1
	ext=$stock/guest
	rm -rf "$ext" "$out/modules"
	mkdir -p "$ext" "$out/modules"
	(cd "$guest" && cp $sources "$ext/")
	log "make M=build/stock/guest modules (against linux-headers-$kver)"
	make -s -C "$hdr" M="$ext" modules >&2 ||
		die "the guest modules did not build against linux-headers-$kver"
	compgen -G "$ext/*.ko" >/dev/null || die "the guest modules' build made no .ko"
	install -m 644 "$ext"/*.ko "$out/modules/"
	echo "$mod_inputs" > "$out/modules/.inputs"
	log "built $(cd "$out/modules" && ls *.ko | tr '\n' ' ')in out/stock/modules"
fi

# 5. The initramfs: the project's base, and over it an archive of
# /lib/modules/boot/ (boot_modules and their dependencies, decompressed:
# busybox insmod reads plain ELF; "order" lists them as vm/init loads
# them) and /lib/modules/mtrace/ (the guest modules).
base=$top/out/initramfs-base.cpio.gz
[ -f "$base" ] ||
	die "out/initramfs-base.cpio.gz missing (run 'make initramfs-base')"
moddir=$root/lib/modules/$kver
declare -A queued=()
order=()
# queue NAME: NAME's dependencies, then NAME, each once.
queue() {
	local path deps d
	path=$(awk -v m="$1" -F: '{ n = $1; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n)
		gsub(/-/, "_", n) } n == m { print $1; exit }' "$moddir/modules.dep")
	if [ -z "$path" ]; then
		grep -qE "^kernel/.*/$1\.ko$|/$1\.ko$" "$moddir/modules.builtin" 2>/dev/null ||
			die "$1: neither a module nor built in (lib/modules/$kver/modules.dep)"
		return 0
	fi
	[ -z "${queued[$path]:-}" ] || return 0
	deps=$(awk -v p="$path" -F': *' '$1 == p { print $2; exit }' "$moddir/modules.dep")
	for d in $deps; do
		d=${d##*/}
		d=${d%%.ko*}
		queue "${d//-/_}"
	done
	queued[$path]=1
	order+=("$path")
}
for m in "${boot_modules[@]}"; do queue "$m"; done
overlay=$stock/modules.cpio.gz
ovl_inputs=$( {
	sha256sum "$out"/modules/*.ko
	printf '%s\n' "$unpacked" ${order[@]+"${order[@]}"}
	cat "$0"
} | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stock/.modules-cpio-inputs" 2>/dev/null)" != "$ovl_inputs" ] ||
   [ ! -f "$overlay" ]; then
	worked=1
	stage=$stock/initramfs
	rm -rf "$stage"
	mkdir -p "$stage/lib/modules/boot" "$stage/lib/modules/mtrace"
	for path in ${order[@]+"${order[@]}"}; do
		name=${path##*/}
		case $name in
		*.ko.xz) xz -dc "$moddir/$path" > "$stage/lib/modules/boot/${name%.xz}" ;;
		*.ko) cp "$moddir/$path" "$stage/lib/modules/boot/" ;;
		*) die "$path: a module compressed other than by xz" ;;
		esac
		echo "${name%.xz}" >> "$stage/lib/modules/boot/order"
	done
	install -m 644 "$out"/modules/*.ko "$stage/lib/modules/mtrace/"
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -9n > "$overlay.tmp"
	mv "$overlay.tmp" "$overlay"
	echo "$ovl_inputs" > "$stock/.modules-cpio-inputs"
	log "build/stock/modules.cpio.gz:" \
		"$(cd "$stage" && find lib -name '*.ko' | LC_ALL=C sort | sed 's|^lib/modules/|/lib/modules/|' | tr '\n' ' ')"
fi
# make initramfs-base writes a new archive each time (its entries'
# times), so a new one costs only the joining.
ird_inputs=$(sha256sum "$base" "$overlay" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/.initramfs-inputs" 2>/dev/null)" != "$ird_inputs" ] ||
   [ ! -f "$out/initramfs.cpio.gz" ]; then
	worked=1
	cat "$base" "$overlay" > "$out/initramfs.cpio.gz.tmp"
	mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
	echo "$ird_inputs" > "$out/.initramfs-inputs"
	log "out/stock/initramfs.cpio.gz ($(du -h "$out/initramfs.cpio.gz" | cut -f1)):" \
		"out/initramfs-base.cpio.gz, then build/stock/modules.cpio.gz"
fi
# 6. System.map and the kernel's BTF, from one boot. Debian's System.map
# is a placeholder (the real one is in the linux-image-$kver-dbg package,
# the whole kernel's debugging information, a download of over a
# gigabyte). Booted with nokaslr, as vm/run boots it, the kernel sits at
# its link address and /proc/kallsyms names its symbols where System.map
# would: its lines but the modules', in address order. The struct types
# (memorizer --btf) are the BTF the kernel serves at /sys/kernel/btf/vmlinux
# (CONFIG_DEBUG_INFO_BTF): the .BTF section of the vmlinux inside
# vmlinuz, without decompressing the image here. One boot, once per kernel.
map=$root/boot/System.map-$kver
kernel_sum=$(sha256sum < "$out/vmlinuz")
map_placeholder=0
if ! grep -q 'The real System.map is in' "$map"; then
	cmp -s "$map" "$out/System.map" || { install -m 644 "$map" "$out/System.map"; worked=1; }
elif [ "$(cat "$out/.system-map-inputs" 2>/dev/null)" != "$kernel_sum" ] ||
     [ ! -s "$out/System.map" ]; then
	map_placeholder=1
fi
need_btf=0
if [ "$(cat "$out/.btf-inputs" 2>/dev/null)" != "$kernel_sum" ] ||
   [ ! -s "$out/vmlinux.btf" ]; then
	need_btf=1
fi
if [ $map_placeholder = 1 ] || [ $need_btf = 1 ]; then
	worked=1
	log "vm/run --stock: the kernel's symbols from /proc/kallsyms and its BTF from /sys/kernel/btf/vmlinux"
	printf '#!/bin/sh
cat /proc/sys/kernel/kptr_restrict /proc/kallsyms > /out/kallsyms
cat /sys/kernel/btf/vmlinux > /out/vmlinux.btf
' \
		> "$stock/kallsyms.sh"
	rm -rf "$stock/kallsyms"
	"$top/vm/run" --stock --timeout 300 --out "$stock/kallsyms" "$stock/kallsyms.sh" >&2 ||
		die "vm/run --stock failed: no symbols for out/stock/System.map, no out/stock/vmlinux.btf"
fi
if [ $map_placeholder = 1 ]; then
	awk 'NR > 1 && NF == 3' "$stock/kallsyms/kallsyms" 2>/dev/null |
		LC_ALL=C sort -s -k1,1 > "$out/System.map.tmp"
	grep -q '^ffffffff81000000 T _text$' "$out/System.map.tmp" ||
		die "the guest's /proc/kallsyms has no _text at the link address (build/stock/kallsyms/kallsyms)"
	mv "$out/System.map.tmp" "$out/System.map"
	echo "$kernel_sum" > "$out/.system-map-inputs"
	log "out/stock/System.map: $(wc -l < "$out/System.map") symbols"
fi
if [ $need_btf = 1 ]; then
	btf=$stock/kallsyms/vmlinux.btf
	# Raw BTF starts with its magic, 0xeB9F, little-endian here.
	[ "$(head -c 2 "$btf" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 9feb ] ||
		die "the guest's /sys/kernel/btf/vmlinux is not BTF (build/stock/kallsyms/vmlinux.btf)"
	install -m 644 "$btf" "$out/vmlinux.btf"
	echo "$kernel_sum" > "$out/.btf-inputs"
	log "out/stock/vmlinux.btf: $(wc -c < "$out/vmlinux.btf") bytes of BTF"
fi

if [ $worked = 0 ]; then
	log "up to date, nothing to do"
else
	log "Debian's Linux $kver: out/stock/{vmlinuz,System.map,vmlinux.btf,kernel.config,initramfs.cpio.gz,modules/}"
fi
