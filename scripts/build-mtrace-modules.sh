#!/usr/bin/env bash
# Build the mtrace plugin's guest modules (tools/qemu-plugin/guest/:
# mtrace_task.ko, the task-switch markers, and mtrace_share_test.ko, the
# sharing test's) out of tree against a kernel build tree, as users build
# their own modules. Nothing of the kernel is rebuilt.
#
#   scripts/build-mtrace-modules.sh [OBJ [OUTDIR]]
#
# OBJ: the kernel's build tree (default build/obj, the test kernel's; for
# the bench's unmodified kernel, build/bench/nokasan). OUTDIR: where the
# .ko files go (default out/mtrace/modules/$(basename OBJ)).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/linux-source-6.12
obj=$(cd "${1:-$top/build/obj}" && pwd)
outdir=${2:-$top/out/mtrace/modules/$(basename "$obj")}

die() { printf 'build-mtrace-modules: error: %s\n' "$*" >&2; exit 1; }
[ -f "$obj/.config" ] || die "$obj is not a kernel build tree (run 'make kernel')"
grep -q '^CONFIG_MODULES=y' "$obj/.config" || die "$obj: a kernel without modules"
grep -q '^CONFIG_TRACEPOINTS=y' "$obj/.config" ||
	die "$obj: a kernel without tracepoints (mtrace_task probes sched_switch)"

ext=$(mktemp -d "${TMPDIR:-/tmp}/mtrace-modules.XXXXXX")
trap 'rm -rf "$ext"' EXIT
cp "$top"/tools/qemu-plugin/guest/{Kbuild,*.c,*.h} "$ext/"
# A tree built without modules has no Module.symvers: modpost cannot see
# the kernel's exports there, the kernel checks them at load instead.
warn=
[ -f "$obj/Module.symvers" ] || warn=KBUILD_MODPOST_WARN=1
make -s -C "$src" O="$obj" ARCH=x86_64 LLVM=-16 CC=clang-16 M="$ext" $warn \
	modules >&2
mkdir -p "$outdir"
install -m 644 "$ext"/*.ko "$outdir/"
echo "build-mtrace-modules: $(cd "$outdir" && ls *.ko | tr '\n' ' ')in ${outdir#"$top"/}"
