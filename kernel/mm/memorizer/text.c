// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a record, as kmap and kmap_stream give it: its object line,
 * then a line per counter; kmap_offsets' lines carry more fields. The
 * format is ABI (Documentation/dev-tools/memorizer.rst).
 */

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/sched.h>

#include "memorizer.h"

/*
 * The longest object line of kmap_offsets, NUL included: every field at
 * its widest (the longest kind name is "kmalloc_large"). kmap's are the
 * same less the last two fields.
 */
#define OBJECT_LINE_MAX							\
	(sizeof("ffffffffffffffff,-2147483648,ffffffffffffffff,4294967295,"	\
		"18446744073709551615,18446744073709551615,ffffffffffffffff,") - 1 + \
	 TASK_COMM_LEN - 1 + sizeof(",kmalloc_large,") - 1 +		\
	 MEMORIZER_CACHE_NAME_LEN - 1 + sizeof("\n"))
static_assert(OBJECT_LINE_MAX <= MEMORIZER_LINE_MAX);

/*
 * A name in a comma-separated line, at most @len - 1 bytes of @name into
 * @safe: a comma or a control character could break the line, so each is
 * a '?'.
 */
static void safe_field(char *safe, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len - 1 && name[i]; i++)
		safe[i] = (name[i] < 0x20 || name[i] == 0x7f ||
			   name[i] == ',') ? '?' : name[i];
	safe[i] = '\0';
}

/*
 * The object line of @rec into @buf (MEMORIZER_LINE_MAX bytes), newline
 * included; returns its length. With @offsets (kmap_offsets), two more
 * fields after the command: the allocator kind and the slab cache's name,
 * empty for an object in no cache.
 */
static int format_record(char *buf, const struct memorizer_record *rec,
			 bool offsets)
{
	/* Pairs with memorizer_counters_close(): how it ended is filled in. */
	bool closed = smp_load_acquire(&rec->state) == MEMORIZER_RECORD_CLOSED;
	char comm[TASK_COMM_LEN], cache[MEMORIZER_CACHE_NAME_LEN] = "";
	const char *name;
	int n;

	safe_field(comm, rec->comm, sizeof(comm));
	n = scnprintf(buf, MEMORIZER_LINE_MAX, "%lx,%d,%lx,%u,%lu,%lu,%lx,%s",
		      rec->alloc_ip, rec->pid, rec->key.addr,
		      READ_ONCE(rec->size), rec->alloc_jiffies,
		      closed ? rec->free_jiffies : 0,
		      closed ? rec->free_ip : 0, comm);
	if (offsets) {
		name = memorizer_cache_name(rec->cache_id);
		if (name)
			safe_field(cache, name, sizeof(cache));
		n += scnprintf(buf + n, MEMORIZER_LINE_MAX - n, ",%s,%s",
			       memorizer_kind_names[rec->kind], cache);
	}
	return n + scnprintf(buf + n, MEMORIZER_LINE_MAX - n, "\n");
}

/* kmap's object line of @rec, as format_record() writes it. */
int memorizer_format_record(char *buf, const struct memorizer_record *rec)
{
	return format_record(buf, rec, false);
}

/* kmap_offsets' object line of @rec, as format_record() writes it. */
int memorizer_format_record_offsets(char *buf,
				    const struct memorizer_record *rec)
{
	return format_record(buf, rec, true);
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
	 * Nothing for a counter that counted nothing since a sweep sent its
	 * counts to the binary stream (kept in the hash for the next ones),
	 * or that a sweep is freeing.
	 */
	if (!writes && !reads) {
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
