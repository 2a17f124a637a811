#!/usr/bin/env bash
# Build the guest's initramfs, in two archives the kernel unpacks one over
# the other:
#   out/initramfs-base.cpio.gz  busybox-static, vm/init, the static
#       memorizer command (out/bin/memorizer-static, make tools) and the
#       dynamically linked programs of vm/programs.txt with their shared
#       libraries: what every kernel boots with (make stock adds Debian's
#       modules to it);
#   out/initramfs.cpio.gz       the base, then the project kernel's
#       modules (out/modules, make kernel).
# The archives are written by the kernel's own gen_init_cpio, so device
# nodes need no root; it is built from usr/gen_init_cpio.c of the kernel
# source (Debian's linux-source-6.12 tarball), so the base needs no
# kernel build.
#
#   scripts/build-initramfs.sh [--base]
#
# --base: the base archive only.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/out
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
gen_init_cpio=$top/build/host/gen_init_cpio
busybox=/bin/busybox
spec=$(mktemp)
trap 'rm -f "$spec"' EXIT

die() { printf 'build-initramfs: error: %s\n' "$*" >&2; exit 1; }

[ $# = 0 ] || [ "$*" = --base ] || die "usage: build-initramfs.sh [--base]"
[ -x "$busybox" ] || die "$busybox missing (apt-get install busybox-static)"

# gen_init_cpio, from the patched source tree if make kernel unpacked it,
# else from the tarball (one file out of it).
if [ ! -x "$gen_init_cpio" ]; then
	mkdir -p "$top/build/host"
	src=$top/build/linux-source-6.12/usr/gen_init_cpio.c
	if [ ! -f "$src" ]; then
		[ -f "$tarball" ] ||
			die "$tarball missing (apt-get install linux-source-6.12)"
		tar -xJf "$tarball" -C "$top/build/host" --strip-components=2 \
			--occurrence=1 linux-source-6.12/usr/gen_init_cpio.c ||
			die "no usr/gen_init_cpio.c in $tarball"
		src=$top/build/host/gen_init_cpio.c
	fi
	cc -O2 -o "$gen_init_cpio.tmp" "$src" ||
		die "gen_init_cpio did not build from ${src#"$top"/}"
	mv "$gen_init_cpio.tmp" "$gen_init_cpio"
fi

declare -A seen=()
emit_dir() {
	local d=$1
	[ -n "$d" ] && [ "$d" != / ] && [ -z "${seen[$d]:-}" ] || return 0
	emit_dir "$(dirname "$d")"
	seen[$d]=1
	echo "dir $d 0755 0 0" >> "$spec"
}
emit_file() {	# emit_file GUEST_PATH HOST_PATH MODE
	emit_dir "$(dirname "$1")"
	[ -z "${seen[$1]:-}" ] || return 0
	seen[$1]=1
	echo "file $1 $2 $3 0 0" >> "$spec"
}

for d in /bin /sbin /usr/bin /usr/sbin /usr/local/bin /etc /proc /sys /dev \
	/tmp /root /out /vmrun /lib /lib64; do
	emit_dir "$d"
done
echo "nod /dev/console 0600 0 0 c 5 1" >> "$spec"
echo "nod /dev/null 0666 0 0 c 1 3" >> "$spec"
emit_file /init "$top/vm/init" 0755
emit_file /bin/busybox "$busybox" 0755
for applet in $("$busybox" --list-full); do
	[ "/$applet" = /bin/busybox ] && continue
	emit_dir "$(dirname "/$applet")"
	echo "slink /$applet /bin/busybox 0777 0 0" >> "$spec"
done

etc=$(mktemp -d)
trap 'rm -rf "$spec" "$etc"' EXIT
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/tmp:/bin/sh\n' > "$etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$etc/group"
emit_file /etc/passwd "$etc/passwd" 0644
emit_file /etc/group "$etc/group" 0644

# Dynamically linked programs and every library the loader will want.
while read -r prog; do
	case $prog in ''|'#'*) continue ;; esac
	[ -x "$prog" ] || die "$prog (vm/programs.txt) is not installed"
	emit_file "$prog" "$prog" 0755
	for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
		emit_file "$lib" "$(readlink -f "$lib")" 0755
	done
done < "$top/vm/programs.txt"

# The memorizer command (make tools), static, on the guest's PATH.
memorizer=$out/bin/memorizer-static
[ -x "$memorizer" ] || die "$memorizer missing: run 'make tools' first"
emit_file /usr/bin/memorizer "$memorizer" 0755

"$gen_init_cpio" "$spec" | gzip -9n > "$out/initramfs-base.cpio.gz.tmp"
mv "$out/initramfs-base.cpio.gz.tmp" "$out/initramfs-base.cpio.gz"
echo "build-initramfs: out/initramfs-base.cpio.gz ($(du -h "$out/initramfs-base.cpio.gz" | cut -f1))"
[ $# = 0 ] || exit 0

# The project kernel's modules (make kernel), as modules_install laid
# them out, in an archive of their own after the base.
: > "$spec"
seen=()
if [ -d "$out/modules/lib/modules" ]; then
	while read -r f; do
		emit_file "/$f" "$out/modules/$f" 0644
	done < <(cd "$out/modules" && find lib/modules -type f | LC_ALL=C sort)
fi
{ cat "$out/initramfs-base.cpio.gz"
  "$gen_init_cpio" "$spec" | gzip -9n; } > "$out/initramfs.cpio.gz.tmp"
mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
echo "build-initramfs: out/initramfs.cpio.gz ($(du -h "$out/initramfs.cpio.gz" | cut -f1)): the base, then the kernel's modules"
