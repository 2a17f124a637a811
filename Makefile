# Memorizer: top-level build. See README.md.
# Every target first makes sure the Debian packages it needs are installed
# (scripts/deps.sh: installs them as root, names them otherwise).

.PHONY: all deps kernel demo-kernel initramfs-base initramfs stock tools patch check check-config demo bench soak fuzz clean distclean

all: kernel initramfs

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/build-kernel.sh

# The kernel make demo runs: kernel/demo.config over the fragment.
demo-kernel: kernel
	@scripts/build-kernel.sh demo

# The guest's programs, for any kernel (out/initramfs-base.cpio.gz), then
# with the project kernel's modules (out/initramfs.cpio.gz).
initramfs-base: tools
	@scripts/build-initramfs.sh --base

initramfs: kernel tools
	@scripts/build-initramfs.sh

# Debian's own kernel, unmodified, with the mtrace plugin's guest modules
# built against its headers and an initramfs for it, for vm/run --stock:
# scripts/build-stock.sh (downloads from Debian's archive into build/stock).
# No kernel is built.
stock: initramfs-base
	@scripts/build-stock.sh

tools: deps
	@$(MAKE) -s -C tools all static

patch:
	@scripts/make-patch.sh

check: kernel demo-kernel initramfs tools stock
	@tests/run

# The patch on a distribution-like configuration (x86_64_defconfig, or
# CONFIG=FILE), as a user applies it; not part of check (see README).
CONFIG ?= defconfig
check-config: initramfs
	@scripts/check-config.sh $(CONFIG)

demo: demo-kernel initramfs tools
	@rm -rf out/demo
	@vm/run --kernel out/demo-kernel/bzImage --smp 2 \
		--append memorizer_enabled_boot=no --out out/demo vm/demo.sh
	@echo "demo: results in out/demo/ (tar.kmap, tar.kmap_offsets, tar.function_calls, tar.stack_frames, show_stats, stats, uname)"
	@VMLINUX=out/demo-kernel/vmlinux SYSTEM_MAP=out/demo-kernel/System.map \
		scripts/demo-report.sh out/demo

# Ten minutes of whole-system tracing under mixed load, then ten of the
# guest fuzzer with its own load (make check runs one of each):
# tests/vm/soak.sh, tests/vm/fuzz-control.sh (SEED=N repeats a fuzzer run).
soak: kernel initramfs tools out/tests/stream-probe
	@mkdir -p out/soak out/soak-fuzz
	@vm/run --smp 2 --timeout 1500 --append memorizer_enabled_boot=no \
		--file tests/lib/guest-lib.sh --out out/soak tests/vm/soak.sh 600
	@vm/run --smp 2 --timeout 1500 --append memorizer_enabled_boot=no \
		--file tests/lib/guest-lib.sh --file out/tests/stream-probe \
		--out out/soak-fuzz tests/vm/fuzz-control.sh 600 $(SEED)

# The guest tests' stream reader (tests/run builds it too).
out/tests/stream-probe: tests/lib/stream-probe.c kernel/include/uapi/linux/memorizer.h
	@mkdir -p out/tests
	cc -std=c11 -Wall -Wextra -Werror -O2 -static -I kernel/include/uapi -o $@ $<

# Overhead, scaling, memory and stream figures: bench/README.md.
bench: initramfs
	@QUICK=$(QUICK) bench/run

# libkmap's parsers under libFuzzer, RUNS executions each from the
# committed corpora, which grow: bench/fuzz, bench/results/fuzz.md.
RUNS ?= 10000000
fuzz: deps
	@RUNS=$(RUNS) bench/fuzz $(HARNESSES)

clean:
	rm -rf out

distclean: clean
	rm -rf build
