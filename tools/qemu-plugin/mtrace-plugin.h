/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mtrace plugin's checks and arguments (version.c), and its decisions
 * on instructions (insn.c) and cache lines (below), apart from the plugin
 * for its unit test.
 */
#ifndef MTRACE_PLUGIN_H
#define MTRACE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "qemu-plugin-api.h"
#include "mtrace-filter.h"
#include "mtrace_log.h"

/* The kernel half: instructions from here up are the kernel's. */
#define MTRACE_KERNEL_HALF	0xffff800000000000ull

/* vCPUs supported: a line's state is two masks of vCPUs in 64 bits. */
#define MTRACE_MAX_VCPUS	32

/*
 * 0 when the plugin can run in the QEMU info describes: API version
 * MTRACE_QEMU_PLUGIN_VERSION exactly, x86_64 system emulation, at most
 * MTRACE_MAX_VCPUS vCPUs. Else -1 with the reason in err[len].
 */
int mtrace_check_qemu(const qemu_info_t *info, char *err, size_t len);

/*
 * Mode kmap's counters held at once by default: 32 bytes each, in tables
 * at most three quarters full, some 360 MB.
 */
#define MTRACE_KMAP_DEFAULT_CELLS	(1ull << 23)

struct mtrace_args {
	const char *file;		/* log=PATH: the log (QEMU keeps file= for the plugin itself) */
	int mode;			/* mode=all|sharing (enum mtrace_mode) */
	/*
	 * window=task: nothing is done (logged, or counted by the sharing
	 * rule) outside mtrace_task.ko's lifetime, its BASE marker to its
	 * END marker; window=all (the default): from boot to exit.
	 */
	int window_task;
	/*
	 * mode=kmap: no log; objects from mtrace_label.ko and symbols=PATH
	 * (System.map), accesses counted per object, ip and pid, and file
	 * written as Memorizer's binary stream (kmap_counter.c); cells=N bounds the
	 * counters held at once.
	 */
	int kmap;
	const char *symbols;
	unsigned long long max_cells;
	/*
	 * granularity=line|byte: the sharing rule's unit, as a shift (the
	 * log header's line_shift): MTRACE_LINE_SHIFT (the default) or
	 * MTRACE_BYTE_SHIFT, the bytes each access touches.
	 */
	unsigned int gran_shift;
	/* filter=PATH.so, filter-arg=STRING: a policy (mtrace-filter.h). */
	const char *filter;
	const char *filter_arg;
};
/* -plugin's arguments; -1 with the reason in err[len]. */
int mtrace_parse_args(int argc, char **argv, struct mtrace_args *a,
		      char *err, size_t len);

/*
 * The built-in filter policy (filter.c), a policy like those filter=
 * loads (mtrace-filter.h): the kernel's code's accesses, all of them.
 */
const char *mtrace_default_init(const char *arg);
int mtrace_default_keep(uint64_t vaddr, unsigned int size, int write,
			unsigned int vcpu, uint32_t pid, uint64_t ip);

/* A policy loaded from a shared object. */
struct mtrace_filter {
	void *handle;
	mtrace_filter_init_fn init;
	mtrace_filter_keep_fn keep;
};
/*
 * Load the policy at @path and initialise it with @arg: 0, or -1 with the
 * reason in err[len] (does not load, lacks a symbol, another ABI version,
 * its init refused @arg).
 */
int mtrace_filter_load(const char *path, const char *arg,
		       struct mtrace_filter *f, char *err, size_t len);

/*
 * 1 when the x86_64 instruction of @len bytes at @insn may change how
 * this vCPU translates addresses, so that physical pages cached for it
 * must be looked up again: a write to a control register (CR3, CR4's
 * PGE, CR0), invlpg, invpcid, invlpgb, tlbsync, lmsw, wrmsr (EFER) and
 * rsm. The guest makes one of these run on a vCPU before it uses a
 * changed mapping there: x86 may use a cached translation until then.
 */
int mtrace_insn_changes_translation(const unsigned char *insn, size_t len);

/*
 * mtrace's sharing rule on one 64-byte line, whose state is a word of two
 * masks of @w bits each: bit c (read stale) is set when another vCPU wrote
 * the line since vCPU c last read it; bit w + c (write stale) when another
 * read or wrote it since c last wrote it. An access by vCPU @cpu, one of
 * @all: returns the new state, and in *@shared whether the access may
 * move the line between caches (mode sharing logs it): a read whose read
 * is stale, a write whose write is.
 */
static inline uint64_t mtrace_line_next(uint64_t old, unsigned int cpu,
					int write, unsigned int w,
					uint64_t all, int *shared)
{
	uint64_t me = 1ull << cpu, others = all & ~me;

	if (write) {
		/* Others' reads and writes are stale now; this vCPU's not. */
		*shared = (old >> w & me) != 0;
		return (old & ~(me << w)) | others << w | others;
	}
	/* Others must write anew; this vCPU's read is fresh. */
	*shared = (old & me) != 0;
	return (old & ~me) | others << w;
}

/*
 * The states mtrace_line_next() leaves as they are, for an access by vCPU
 * @cpu, one of @all, that it does not flag: those with every bit of
 * *@clear clear and every bit of *@set set. Byte granularity checks many
 * states at once with them (mtrace.c, bytes_quiet()).
 */
static inline void mtrace_line_quiet(unsigned int cpu, int write,
				     unsigned int w, uint64_t all,
				     uint64_t *clear, uint64_t *set)
{
	uint64_t me = 1ull << cpu, others = all & ~me;

	*clear = write ? me << w : me;
	*set = write ? others << w | others : others << w;
}

#endif
