/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mtrace log: what the QEMU plugin (tools/qemu-plugin/mtrace.c)
 * writes, the guest kernel's memory accesses seen from the emulator. A
 * sibling of Memorizer's binary stream (<linux/memorizer.h>) with the same
 * rules: one header (its own magic, a version, rec_size[] per type), then
 * records that each start with struct memorizer_rec_hdr (type, size, cpu,
 * ns), sizes multiples of 8, little-endian, naturally aligned. A reader
 * refuses a version it does not know, skips records of types it does not
 * know by hdr.size, ignores bytes past the fields it knows and rejects a
 * record shorter than its layout. Here hdr.cpu is the vCPU and hdr.ns the
 * host's CLOCK_MONOTONIC when the access ran: in order per vCPU, and
 * comparable across vCPUs.
 *
 * Written by the plugin, read by libkmap (kmap_mtrace_*), printed by
 * memorizer text, validated by memorizer check, analysed by memorizer
 * sharing. Documented in tools/qemu-plugin/README.md.
 */
#ifndef MTRACE_LOG_H
#define MTRACE_LOG_H

#include <linux/memorizer.h>

#define MTRACE_LOG_MAGIC	"MEMZMTRC"	/* 8 bytes, no NUL */
#define MTRACE_LOG_VERSION	1

/*
 * The unit the sharing rule works on (header line_shift): the 64-byte
 * cache line (the default, and every log before granularity=byte), or the
 * byte, each byte an access touches (granularity=byte: only accesses to
 * the same bytes move data between vCPUs, true sharing).
 */
#define MTRACE_LINE_SHIFT	6
#define MTRACE_BYTE_SHIFT	0

enum mtrace_rec_type {
	MTRACE_REC_ACCESS = 1,
	MTRACE_REC_SWITCH = 2,
	MTRACE_REC_NR_TYPES,		/* one past the largest type */
};

/* What the plugin logged (header mode). */
enum mtrace_mode {
	MTRACE_MODE_ALL = 0,		/* every kernel-mode access */
	MTRACE_MODE_SHARING = 1,	/* those the sharing rule flags */
};

struct mtrace_log_header {
	char magic[8];			/* MTRACE_LOG_MAGIC */
	__u16 version;			/* MTRACE_LOG_VERSION */
	__u16 header_size;		/* sizeof(this), for later growth */
	__u16 nr_types;			/* entries of rec_size[] in use */
	__u16 nr_cpus;			/* vCPUs the machine may have */
	__u8 mode;			/* enum mtrace_mode */
	__u8 line_shift;		/* MTRACE_LINE_SHIFT or MTRACE_BYTE_SHIFT */
	__u16 reserved;
	__u32 reserved2;
	__u16 rec_size[MEMORIZER_REC_TYPES_MAX];  /* by type; 0: none */
};

/* flags of struct mtrace_rec_access */
enum {
	MTRACE_F_WRITE = 1 << 0,	/* a store (else a load) */
	MTRACE_F_PADDR = 1 << 1,	/* paddr is known */
	/*
	 * The sharing rule (mtrace's): a read is flagged when its line was
	 * written by another vCPU since this vCPU last read it; a write when
	 * its line was read or written by another vCPU since this vCPU last
	 * wrote it. Lines are 64-byte ones of physical memory, or single
	 * bytes (header line_shift MTRACE_BYTE_SHIFT: flagged when any byte
	 * the access touches is, by the rule on that byte). In mode
	 * sharing every record has it; in mode all, those that would have.
	 */
	MTRACE_F_SHARED = 1 << 2,
	MTRACE_F_KNOWN = MTRACE_F_WRITE | MTRACE_F_PADDR | MTRACE_F_SHARED,
};

/* pid when the plugin has not yet seen the vCPU's task (no marker yet). */
#define MTRACE_PID_UNKNOWN	0xffffffffu

/*
 * One load or store by kernel code (the instruction at ip is in the
 * kernel half, 0xffff800000000000 and up) of size bytes at vaddr, by the
 * task pid (the guest's sched_switch markers say which) on vCPU hdr.cpu.
 */
struct mtrace_rec_access {
	struct memorizer_rec_hdr hdr;
	__u64 vaddr;
	__u64 ip;
	__u64 paddr;			/* 0 unless MTRACE_F_PADDR */
	__u32 pid;			/* MTRACE_PID_UNKNOWN: not known */
	__u8 size;			/* 1, 2, 4, 8, 16 or 32 */
	__u8 flags;
	__u16 reserved;
};

/* From here on, vCPU hdr.cpu runs pid (a sched_switch marker). */
struct mtrace_rec_switch {
	struct memorizer_rec_hdr hdr;
	__u32 pid;			/* MTRACE_PID_UNKNOWN: tracking ended */
	__u32 reserved;
};

#define MTRACE_REC_SIZES {						\
	[MTRACE_REC_ACCESS] = sizeof(struct mtrace_rec_access),		\
	[MTRACE_REC_SWITCH] = sizeof(struct mtrace_rec_switch),		\
}

/*
 * The guest convention for task identity (tools/qemu-plugin/guest/
 * mtrace_task.c does it; the plugin decodes it). The plugin cannot read
 * guest registers or memory; it sees instruction bytes at translation and
 * the addresses of loads. A marker is one load, movb (%rcx),%al (8a 01),
 * behind four segment-override prefixes that x86-64 ignores (2e cs,
 * 3e ds, 26 es, 36 ss), whose order says which marker: a 6-byte sequence
 * no compiler emits. Its address, in a page-aligned 4 KiB array of the
 * module's (the base), carries the value:
 *   BASE   2e 3e 26 36 8a 01: a load from base + 0: the base, learnt;
 *   PID_LO 2e 3e 36 26 8a 01: from base + (pid & 0xfff);
 *   PID_HI 3e 2e 36 26 8a 01: from base + (pid >> 12): with the PID_LO
 *          just before on the same vCPU, the vCPU now runs pid (the next
 *          task, in sched_switch);
 *   END    3e 2e 26 36 8a 01: from base: the base forgotten and every
 *          vCPU's pid unknown again (the module is going).
 */
#define MTRACE_MARK_LEN		6
#define MTRACE_MARK_BASE	"\x2e\x3e\x26\x36\x8a\x01"
#define MTRACE_MARK_PID_LO	"\x2e\x3e\x36\x26\x8a\x01"
#define MTRACE_MARK_PID_HI	"\x3e\x2e\x36\x26\x8a\x01"
#define MTRACE_MARK_END		"\x3e\x2e\x26\x36\x8a\x01"

#endif /* MTRACE_LOG_H */
