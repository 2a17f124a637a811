/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mtrace plugin's mode kmap, apart from QEMU (kmap_counter.c): objects from
 * mtrace_label.ko's labels and System.map, every kernel access counted on
 * the object it falls in, per (object, ip, pid), written as Memorizer's
 * binary stream (<linux/memorizer.h>). The plugin feeds it markers and
 * accesses in execution order, from one thread (vm/run runs the vCPUs in
 * one: nothing here is locked); the unit tests feed it by hand.
 */
#ifndef MTRACE_KMAP_COUNTER_H
#define MTRACE_KMAP_COUNTER_H

#include <stddef.h>
#include <stdint.h>

struct kmap_counter;

struct kmap_counter_config {
	const char *stream;		/* where the binary stream goes */
	const char *system_map;		/* the kernel's System.map */
	unsigned int nr_vcpus;
	uint64_t max_cells;		/* (object, ip, pid) counters at once */
};

/* NULL with the reason in err[len]. */
struct kmap_counter *kmap_counter_open(const struct kmap_counter_config *c,
				       char *err, size_t len);

/* Markers of mtrace_label.ko (guest/mtrace_label.h) on @cpu, running @pid. */
void kmap_counter_lbase(struct kmap_counter *k, uint64_t vaddr);
void kmap_counter_mark(struct kmap_counter *k, unsigned int cpu,
		       int marker, uint64_t vaddr, uint32_t pid);
enum { KMAP_MARK_VAL = 1, KMAP_MARK_VAL_LAST, KMAP_MARK_EVENT };

/* One kernel load or store of @size bytes by the instruction at @ip. */
void kmap_counter_access(struct kmap_counter *k, unsigned int cpu,
			 uint64_t vaddr, unsigned int size, uint64_t ip,
			 uint32_t pid, int write);

/*
 * Write what is left (live objects' counters), close the stream, free
 * everything; a summary line (or the error) in msg[len]. 0, or -1 on a
 * write error.
 */
int kmap_counter_close(struct kmap_counter *k, char *msg, size_t len);

#endif
