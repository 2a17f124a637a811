// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a record, as kmap and kmap_stream give it: its object line,
 * then a line per counter. The format is ABI
 * (Documentation/dev-tools/memorizer.rst).
 */

#include <linux/kernel.h>
#include <linux/sched.h>

#include "memorizer.h"

/* comm is the last field: only a newline or a comma could break a line. */
static void safe_comm(char *safe, const char *comm)
{
	int i;

	for (i = 0; i < TASK_COMM_LEN - 1 && comm[i]; i++)
		safe[i] = (comm[i] < 0x20 || comm[i] == 0x7f ||
			   comm[i] == ',') ? '?' : comm[i];
	safe[i] = '\0';
}

/*
 * The object line of @rec into @buf (MEMORIZER_LINE_MAX bytes), newline
 * included; returns its length.
 */
int memorizer_format_record(char *buf, const struct memorizer_record *rec)
{
	/* Pairs with memorizer_counters_close(): how it ended is filled in. */
	bool closed = smp_load_acquire(&rec->state) == MEMORIZER_RECORD_CLOSED;
	char comm[TASK_COMM_LEN];

	safe_comm(comm, rec->comm);
	return scnprintf(buf, MEMORIZER_LINE_MAX, "%lx,%d,%lx,%u,%lu,%lu,%lx,%s\n",
			 rec->alloc_ip, rec->pid, rec->key.addr,
			 READ_ONCE(rec->size), rec->alloc_jiffies,
			 closed ? rec->free_jiffies : 0,
			 closed ? rec->free_ip : 0, comm);
}

/*
 * The access line of @c, as memorizer_format_record(); maybe empty. With
 * @offsets_of, @c's record, two more fields: the bytes of the object it
 * touched, first and one past the last (kmap_offsets).
 */
int memorizer_format_counter(char *buf, const struct memorizer_counter *c,
			     const struct memorizer_record *offsets_of)
{
	u32 writes = atomic_read(&c->writes), reads = atomic_read(&c->reads);
	u32 offset, end;

	/*
	 * Nothing for a counter a sweep is freeing (out of the hash, so its
	 * (ip, pid) may have a new counter) that counted nothing since.
	 */
	if (!READ_ONCE(c->rec) && !writes && !reads) {
		buf[0] = '\0';
		return 0;
	}
	if (!offsets_of)
		return scnprintf(buf, MEMORIZER_LINE_MAX, "  %lx,%d,%u,%u\n",
				 memorizer_counter_ip(c), c->pid, writes, reads);
	memorizer_counter_span(c, offsets_of->size_alloc, &offset, &end);
	return scnprintf(buf, MEMORIZER_LINE_MAX, "  %lx,%d,%u,%u,%u,%u\n",
			 memorizer_counter_ip(c), c->pid, writes, reads, offset,
			 end);
}
