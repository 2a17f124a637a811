/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The labeling convention: how mtrace_label.ko tells the mtrace plugin's
 * mode kmap what the guest kernel allocates and frees. Shared by the
 * module (built out of tree, against any kernel's headers) and the plugin
 * (tools/qemu-plugin/kmap_counter.c); no types, so both can include it.
 *
 * As mtrace_task.ko's markers (tools/lib/mtrace_log.h), a marker is one
 * load, movb (%rcx),%al (8a 01), behind four segment-override prefixes
 * x86-64 ignores, whose order says which marker; its address, in a
 * page-aligned 4 KiB array of the labeling module's (lbase), carries 12
 * bits:
 *   LBASE    36 26 3e 2e 8a 01: from lbase + 0: lbase, learnt;
 *   VAL      26 36 2e 3e 8a 01: from lbase + c: 12 more bits of a value,
 *            the most significant first;
 *   VAL_LAST 26 36 3e 2e 8a 01: from lbase + c: the value's last 12 bits;
 *            the value, sign-extended from the bits sent, is the label's
 *            next argument (1 to 6 loads a value: a kernel address takes
 *            4, a text address 3, a small number 1);
 *   EVENT    36 26 2e 3e 8a 01: from lbase + e (enum mtrace_label_event).
 *
 * A BEGIN event opens a label on its vCPU with no argument; the next event
 * closes it with the arguments sent since. The module sends a label with
 * interrupts off, so nothing else runs on that vCPU meanwhile, and what it
 * does inside one (its own stack, a stack trace, reading a name) is not
 * the workload's: the plugin counts no access of a vCPU inside a label.
 */
#ifndef MTRACE_LABEL_H
#define MTRACE_LABEL_H

#define MTRACE_LABEL_PREFIX_LBASE	"0x36, 0x26, 0x3e, 0x2e"
#define MTRACE_LABEL_PREFIX_VAL		"0x26, 0x36, 0x2e, 0x3e"
#define MTRACE_LABEL_PREFIX_VAL_LAST	"0x26, 0x36, 0x3e, 0x2e"
#define MTRACE_LABEL_PREFIX_EVENT	"0x36, 0x26, 0x2e, 0x3e"

#define MTRACE_MARK_LBASE	"\x36\x26\x3e\x2e\x8a\x01"
#define MTRACE_MARK_VAL		"\x26\x36\x2e\x3e\x8a\x01"
#define MTRACE_MARK_VAL_LAST	"\x26\x36\x3e\x2e\x8a\x01"
#define MTRACE_MARK_EVENT	"\x36\x26\x2e\x3e\x8a\x01"

#define MTRACE_LABEL_VERSION	2
#define MTRACE_LABEL_MAX_ARGS	16
/* Return addresses a label carries, innermost first. */
#define MTRACE_LABEL_MAX_FRAMES	10

/*
 * Events and their arguments, in the order sent. context is Memorizer's
 * (enum memorizer_alloc_context): 0 task, 1 hardirq, 2 softirq.
 */
enum mtrace_label_event {
	MTRACE_LABEL_BEGIN = 1,
	/* nothing: the label ends, dropped */
	MTRACE_LABEL_NONE,
	/*
	 * version, HZ, nr_cpu_ids, PAGE_SIZE, the module's text and its
	 * size: the plugin takes labels from here
	 */
	MTRACE_LABEL_HELLO,
	/* none: the module is going; the plugin counts and takes no more */
	MTRACE_LABEL_BYE,
	/* cpu, its per-CPU offset: where its static per-CPU area is */
	MTRACE_LABEL_PERCPU_AREA,
	/* cache, object size, name (4 values of 8 bytes, NUL-padded) */
	MTRACE_LABEL_CACHE,
	/* context, object, call site, cache */
	MTRACE_LABEL_CACHE_ALLOC,
	/* context, object, call site, bytes requested, bytes allocated */
	MTRACE_LABEL_KMALLOC,
	/* context, object, call site, api (enum memorizer_free_api) */
	MTRACE_LABEL_SLAB_FREE,
	/* context, address, order, return addresses */
	MTRACE_LABEL_PAGES,
	/* context, address, return addresses */
	MTRACE_LABEL_PAGES_FREE,
	/* context, address, size (a guard page included), return addresses */
	MTRACE_LABEL_VMALLOC,
	/* context, address, return addresses */
	MTRACE_LABEL_VFREE,
	/* context, per-CPU pointer, size, call site */
	MTRACE_LABEL_PERCPU,
	/* context, per-CPU pointer, return addresses */
	MTRACE_LABEL_PERCPU_FREE,
	/* stack, size, pid, found (1: a task that ran before the module) */
	MTRACE_LABEL_STACK,
	/* stack, pid: the task is freed; its stack's object ends, if still its */
	MTRACE_LABEL_STACK_FREE,
	/* pid, comm (2 values of 8 bytes, NUL-padded) */
	MTRACE_LABEL_COMM,
	/* address, size: a module's data symbol, found (from its kallsyms) */
	MTRACE_LABEL_GLOBAL,
	/* start, size, return addresses: a module's data goes, and its globals */
	MTRACE_LABEL_MODULE_GONE,
	/*
	 * slab, its bytes, its cache, the cache's object stride: a slab made
	 * before the module loaded, whose objects are found at their first
	 * access (the cache comes first, in a CACHE label)
	 */
	MTRACE_LABEL_SLAB_PAGES,
	/*
	 * address, size, the offset in its caller, its caller's name (6
	 * values of 8 bytes, NUL-padded): a vmalloc area made before the
	 * module loaded, as /proc/vmallocinfo gives it
	 */
	MTRACE_LABEL_VMALLOC_EARLY,
	/*
	 * none: the module is set up; the plugin counts accesses from here
	 * (labels from HELLO), not the module's own setting up (kprobes'
	 * ftrace updates walk every traced function's record)
	 */
	MTRACE_LABEL_READY,
	MTRACE_LABEL_NR_EVENTS,
};

#endif /* MTRACE_LABEL_H */
