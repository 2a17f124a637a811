/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mtrace plugin's filter policies: which kernel accesses it sees.
 * A policy is a shared object named in the plugin's arguments,
 *
 *   -plugin out/lib/mtrace.so,log=LOG,filter=PATH.so,filter-arg=STRING
 *
 * (vm/run --mtrace-filter PATH.so --mtrace-filter-arg STRING), that
 * defines, with default visibility, these three symbols:
 *
 *   const unsigned int mtrace_filter_abi = MTRACE_FILTER_ABI;
 *   const char *mtrace_filter_init(const char *arg);
 *   int mtrace_filter_keep(uint64_t vaddr, unsigned int size, int write,
 *                          unsigned int vcpu, uint32_t pid, uint64_t ip);
 *
 * The plugin refuses to load (QEMU exits, saying why) when the object
 * does not load, lacks one of them, or its mtrace_filter_abi is not the
 * plugin's MTRACE_FILTER_ABI.
 *
 * mtrace_filter_init() runs once, when the plugin loads, with filter-arg's
 * STRING ("" when none; QEMU splits the plugin's arguments at commas, so
 * STRING has none unless doubled: ",,"). It returns NULL when the policy
 * is ready, else the reason it is not (kept by the policy: the plugin
 * prints it and refuses to load).
 *
 * mtrace_filter_keep() decides on one load or store, before the plugin
 * does anything with it (the sharing rule, the log, mode kmap's
 * counters): 1 keeps it, 0 drops it, and a dropped access is counted in
 * the plugin's summary, nothing else. It is given what the plugin knows
 * there: the access's virtual address and size (1 to 32 bytes), whether
 * it is a store, the vCPU, the task mtrace_task.ko's markers said that
 * vCPU runs (MTRACE_PID_UNKNOWN, 0xffffffff, when none), and the
 * instruction's address. vCPUs run in parallel threads (but in mode
 * kmap): it is called from several at once, and must not change
 * shared state without its own locking. It is called on every access
 * the built-in policy keeps (mtrace_default_keep()), that is, only after
 * it.
 */
#ifndef MTRACE_FILTER_H
#define MTRACE_FILTER_H

#include <stdint.h>

#define MTRACE_FILTER_ABI	1

typedef const char *(*mtrace_filter_init_fn)(const char *arg);
typedef int (*mtrace_filter_keep_fn)(uint64_t vaddr, unsigned int size,
				     int write, unsigned int vcpu,
				     uint32_t pid, uint64_t ip);

/* A policy's symbols, by name. */
#define MTRACE_FILTER_ABI_SYM	"mtrace_filter_abi"
#define MTRACE_FILTER_INIT_SYM	"mtrace_filter_init"
#define MTRACE_FILTER_KEEP_SYM	"mtrace_filter_keep"

#endif /* MTRACE_FILTER_H */
