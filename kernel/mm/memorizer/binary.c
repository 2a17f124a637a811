// SPDX-License-Identifier: GPL-2.0
/*
 * The binary stream, binary/: per-CPU rings of the fixed records of
 * <uapi/linux/memorizer.h>, written while a reader has one of them open:
 * ALLOC as an object's record is made, its counters and FREE as it
 * closes, after which the record is freed at once (the channel sent it
 * whole). While a reader is attached, live records' counters are swept
 * out too, and so are call edges (CALL records). A full buffer drops records, counts them per CPU and, at its
 * next record, says how many in a LOST record.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <uapi/linux/memorizer.h>

#include "memorizer.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "memorizer."

static atomic_t binary_readers;		/* binary/cpuN files open */

/*
 * The binary channel: one ring per CPU. Only its CPU writes it, with IRQs
 * off (never in NMI); readers of its cpuN file take whole records from it
 * under read_lock. head and tail only grow: head - tail bytes are waiting.
 * The writer publishes a record by moving head after writing it, and a
 * reader frees room by moving tail after copying, so neither ever sees the
 * other's half-done work, and a reader's position is always at a record.
 */
struct binary_ring {
	char *data;			/* buf_size.bytes bytes, once opened */
	u64 head;			/* bytes written */
	u64 tail;			/* bytes read */
	struct mutex read_lock;
	wait_queue_head_t wait;
	struct irq_work wakeup;		/* wakes readers from any context */
};
static DEFINE_PER_CPU(struct binary_ring, binary_rings);
static DEFINE_MUTEX(binary_setup_lock);

/* Per CPU: 4M unless the boot command line says otherwise. */
static struct memorizer_size_param buf_size = {
	.bytes = 4UL << 20,
	.max = 1UL << 30,
};
module_param_cb(stream_buf_size, &memorizer_size_param_ops, &buf_size, 0400);
MODULE_PARM_DESC(stream_buf_size, "Bytes of binary stream buffer per CPU");

static struct memorizer_stream_header binary_header;
static struct debugfs_blob_wrapper header_blob;

/*
 * A session: from the first open of a cpuN file while none was open. Each
 * starts with empty rings, and what a CPU said or owes is of its session.
 */
static unsigned int binary_session;

/* What this CPU's buffer has said, and what it could not say. */
struct binary_cpu {
	unsigned int session;		/* that the fields below are of */
	pid_t task_pid;			/* TASK record last written */
	char task_comm[TASK_COMM_LEN];
	DECLARE_BITMAP(caches, MEMORIZER_CACHE_IDS + 1);	/* CACHE records written */
	struct memorizer_rec_lost lost;		/* since the last record */
};
static DEFINE_PER_CPU(struct binary_cpu, binary_cpus);

/* Where ring byte @pos is, and how many of @len bytes fit before the end. */
static void ring_span(u64 pos, size_t len, size_t *off, size_t *first)
{
	*off = pos % buf_size.bytes;
	*first = min_t(size_t, len, buf_size.bytes - *off);
}

/* Append one record to this CPU's ring, or false if it is full. */
static bool ring_put(const void *rec, size_t size)
{
	struct binary_ring *r = this_cpu_ptr(&binary_rings);
	/* Pairs with binary_open(): the ring's memory is there. */
	char *data = smp_load_acquire(&r->data);
	size_t off, first;
	u64 head = r->head, tail;

	/* Pairs with binary_read(): readers are done with what they freed. */
	tail = smp_load_acquire(&r->tail);
	if (!data || head + size - tail > buf_size.bytes)
		return false;
	ring_span(head, size, &off, &first);
	memcpy(data + off, rec, first);
	memcpy(data, rec + first, size - first);
	/* Pairs with ring_ready(), binary_read(): a reader sees it whole. */
	smp_store_release(&r->head, head + size);
	/*
	 * Pairs with the barrier of wait_event() and binary_poll(): either
	 * the reader sees the new head, or we see it waiting.
	 */
	smp_mb();
	/* Under the barrier above. */
	if (waitqueue_active(&r->wait))
		irq_work_queue(&r->wakeup);
	return true;
}

static void ring_wakeup(struct irq_work *work)
{
	struct binary_ring *r = container_of(work, struct binary_ring, wakeup);

	wake_up_interruptible(&r->wait);
}

static bool ring_ready(struct binary_ring *r)
{
	/* Pairs with ring_put(). */
	return smp_load_acquire(&r->head) != READ_ONCE(r->tail);
}

/* A new session: this CPU has said nothing in it, and owes nothing. */
static void binary_cpu_session(struct binary_cpu *bc)
{
	unsigned int session = READ_ONCE(binary_session);

	if (likely(bc->session == session))
		return;
	bc->session = session;
	bc->task_pid = -1;
	bitmap_zero(bc->caches, MEMORIZER_CACHE_IDS + 1);
	memset(&bc->lost, 0, sizeof(bc->lost));
}

static void rec_hdr(struct memorizer_rec_hdr *hdr, u16 type, u16 size)
{
	hdr->type = type;
	hdr->size = size;
	hdr->cpu = raw_smp_processor_id();
	hdr->reserved = 0;
}

/*
 * Write one record to this CPU's buffer; IRQs are off. A record that does
 * not fit is counted, and the TASK and CACHE records written so far are
 * forgotten, since the reader may have lost those too.
 */
static bool binary_write(void *rec, u16 type, size_t size)
{
	struct binary_cpu *bc = this_cpu_ptr(&binary_cpus);
	/* When written, with IRQs off: each CPU's records in time order. */
	u64 now = ktime_get_mono_fast_ns();

	binary_cpu_session(bc);
	memorizer_stat_inc(MEMORIZER_STAT_BINARY_MADE);
	if (bc->lost.records && ring_put(&bc->lost, sizeof(bc->lost)))
		memset(&bc->lost, 0, sizeof(bc->lost));
	((struct memorizer_rec_hdr *)rec)->ns = now;
	if (!bc->lost.records && ring_put(rec, size))
		return true;

	if (!bc->lost.records) {
		rec_hdr(&bc->lost.hdr, MEMORIZER_REC_LOST, sizeof(bc->lost));
		bc->lost.hdr.ns = now;
	}
	bc->lost.records++;
	memorizer_stat_inc(MEMORIZER_STAT_BINARY_LOST);
	if (type == MEMORIZER_REC_ALLOC)
		bc->lost.allocs++;
	else if (type == MEMORIZER_REC_FREE)
		bc->lost.frees++;
	else if (type == MEMORIZER_REC_ACCESS)
		bc->lost.accesses++;
	else
		bc->lost.other++;
	bc->task_pid = -1;
	bitmap_zero(bc->caches, MEMORIZER_CACHE_IDS + 1);
	return false;
}

static void write_task(const struct memorizer_record *rec)
{
	struct binary_cpu *bc = this_cpu_ptr(&binary_cpus);
	struct memorizer_rec_task wire = {};

	binary_cpu_session(bc);
	if (bc->task_pid == rec->pid &&
	    !memcmp(bc->task_comm, rec->comm, TASK_COMM_LEN))
		return;
	rec_hdr(&wire.hdr, MEMORIZER_REC_TASK, sizeof(wire));
	wire.pid = rec->pid;
	BUILD_BUG_ON(sizeof(wire.comm) != TASK_COMM_LEN);
	memcpy(wire.comm, rec->comm, TASK_COMM_LEN);
	if (binary_write(&wire, MEMORIZER_REC_TASK, sizeof(wire))) {
		bc->task_pid = rec->pid;
		memcpy(bc->task_comm, rec->comm, TASK_COMM_LEN);
	}
}

static void write_cache(u16 id)
{
	struct binary_cpu *bc = this_cpu_ptr(&binary_cpus);
	struct memorizer_rec_cache wire = {};
	const char *name = memorizer_cache_name(id);

	binary_cpu_session(bc);
	if (!id || id > MEMORIZER_CACHE_IDS || !name ||
	    test_bit(id, bc->caches))
		return;
	rec_hdr(&wire.hdr, MEMORIZER_REC_CACHE, sizeof(wire));
	wire.cache_id = id;
	strscpy(wire.name, name, sizeof(wire.name));
	if (binary_write(&wire, MEMORIZER_REC_CACHE, sizeof(wire)))
		__set_bit(id, bc->caches);
}

/* A record was made: its ALLOC. */
static void binary_record_made(struct memorizer_record *rec)
{
	struct memorizer_rec_alloc wire = {};
	unsigned long flags;

	if (!atomic_read(&binary_readers))
		return;
	rec_hdr(&wire.hdr, MEMORIZER_REC_ALLOC, sizeof(wire));
	wire.id = rec->id;
	wire.addr = rec->key.addr;
	wire.call_site = rec->alloc_ip;
	wire.jiffies = rec->alloc_jiffies;
	wire.size = rec->size;
	wire.size_alloc = rec->size_alloc;
	wire.pid = rec->pid;
	wire.cache_id = rec->cache_id;
	wire.kind = rec->kind;
	wire.context = rec->found ? MEMORIZER_CONTEXT_FOUND :
		       in_task() ? MEMORIZER_CONTEXT_TASK :
		       in_hardirq() ? MEMORIZER_CONTEXT_HARDIRQ :
				      MEMORIZER_CONTEXT_SOFTIRQ;

	local_irq_save(flags);
	/* A found task stack is its task's. */
	if (wire.context == MEMORIZER_CONTEXT_TASK || rec->pid)
		write_task(rec);
	write_cache(rec->cache_id);
	binary_write(&wire, MEMORIZER_REC_ALLOC, sizeof(wire));
	local_irq_restore(flags);
	/* Its ALLOC is out (or counted lost): its FREE must follow. */
	WRITE_ONCE(rec->in_binary_stream, true);
}

static u8 free_api(const struct memorizer_record *rec)
{
	if (rec->free_ip == MEMORIZER_FREE_IP_MISSED)
		return MEMORIZER_FREE_MISSED;
	switch (rec->kind) {
	case MEMORIZER_KIND_CACHE:
		return MEMORIZER_FREE_CACHE;
	case MEMORIZER_KIND_VMALLOC:
		return MEMORIZER_FREE_VFREE;
	case MEMORIZER_KIND_PAGES:
	case MEMORIZER_KIND_STACK:	/* a task's, freed as pages */
		return MEMORIZER_FREE_PAGES;
	case MEMORIZER_KIND_PERCPU:
		return MEMORIZER_FREE_PERCPU;
	case MEMORIZER_KIND_GLOBAL:	/* a module's, at its unload */
		return MEMORIZER_FREE_MODULE;
	default:
		return MEMORIZER_FREE_KFREE;
	}
}

/*
 * One counter's counts: an ACCESS record. IRQs are off; @rec cannot
 * change. Also what the sweep calls (memorizer_counts_fn).
 */
static void binary_counts(struct memorizer_record *rec,
			  const struct memorizer_counter *c,
			  u32 writes, u32 reads)
{
	struct memorizer_rec_access wire = {};

	/*
	 * A sweep runs on after the last reader left; binary_release()
	 * counts what is left in the rings once no record is being made.
	 */
	if (!atomic_read(&binary_readers))
		return;
	/* A found record made before the reader came: its ALLOC first. */
	if (!READ_ONCE(rec->in_binary_stream))
		binary_record_made(rec);

	rec_hdr(&wire.hdr, MEMORIZER_REC_ACCESS, sizeof(wire));
	wire.id = rec->id;
	wire.ip = memorizer_counter_ip(c);
	wire.pid = c->pid;
	wire.writes = writes;
	wire.reads = reads;
	memorizer_counter_span(c, rec->size_alloc, &wire.offset,
			       &wire.offset_end);
	if (binary_write(&wire, MEMORIZER_REC_ACCESS, sizeof(wire)))
		rec->nr_access_records++;
}

/*
 * A record was closed: its last counts and its FREE. True when they went
 * out here, so that the record can go.
 */
static bool binary_record_closed(struct memorizer_record *rec)
{
	struct memorizer_rec_free wire = {};
	struct memorizer_counter *c;
	unsigned long flags;

	if (!READ_ONCE(rec->in_binary_stream) || !atomic_read(&binary_readers))
		return false;

	local_irq_save(flags);
	for (c = memorizer_deref(rec->counters); c;
	     c = memorizer_deref(c->next)) {
		u32 writes = atomic_read(&c->writes);
		u32 reads = atomic_read(&c->reads);

		/* A sweep sent what it counted before. */
		if (writes || reads)
			binary_counts(rec, c, writes, reads);
	}
	rec_hdr(&wire.hdr, MEMORIZER_REC_FREE, sizeof(wire));
	wire.id = rec->id;
	wire.call_site = rec->free_ip;
	wire.jiffies = rec->free_jiffies;
	wire.api = free_api(rec);
	/* A reader has the object's counts once it has read as many. */
	wire.nr_access = rec->nr_access_records;
	binary_write(&wire, MEMORIZER_REC_FREE, sizeof(wire));
	local_irq_restore(flags);
	return true;
}

/*
 * While a reader is attached, live records' counters go out every
 * SWEEP_INTERVAL as ACCESS records of what they counted since (a reader
 * sums a counter's records), and counters left untouched for a whole
 * interval are freed: Memorizer's memory then holds the counters in use,
 * not every (ip, pid) a long-lived object ever saw.
 */
#define SWEEP_INTERVAL		HZ
/*
 * Between two records of a sweep (it may sleep): while this CPU's ring is
 * more than half full, give the reader time to drain it, up to about
 * 200 ms a sweep. A sweep writes every live object's counts at once into
 * its CPU's ring; with thousands of found objects (a new session sends
 * them all again) that alone filled a 1 MiB ring.
 */
static unsigned int sweep_waits;	/* this sweep's; only the sweep uses it */

static void sweep_pace(void)
{
	struct binary_ring *r = raw_cpu_ptr(&binary_rings);

	/* A hint only: the ring's own accesses order what they need. */
	while (sweep_waits < 200 && atomic_read(&binary_readers) &&
	       READ_ONCE(r->head) - READ_ONCE(r->tail) > buf_size.bytes / 2) {
		usleep_range(500, 1000);
		sweep_waits++;
	}
}

/* An edge's calls since the last sweep: a CALL record. IRQs are off. */
static void binary_calls(unsigned long caller, unsigned long callee,
			 pid_t pid, u64 count)
{
	struct memorizer_rec_call wire = {};

	if (!atomic_read(&binary_readers))
		return;
	rec_hdr(&wire.hdr, MEMORIZER_REC_CALL, sizeof(wire));
	wire.caller = caller;
	wire.callee = callee;
	wire.pid = pid;
	wire.count = count;
	binary_write(&wire, MEMORIZER_REC_CALL, sizeof(wire));
}

static void sweep_counters(struct work_struct *work);
static DECLARE_DELAYED_WORK(sweep_work, sweep_counters);

static void sweep_counters(struct work_struct *work)
{
	if (!atomic_read(&binary_readers))
		return;
	sweep_waits = 0;
	memorizer_records_sweep(binary_counts, sweep_pace);
	memorizer_calls_sweep(binary_calls, sweep_pace);
	queue_delayed_work(system_wq, &sweep_work, SWEEP_INTERVAL);
}

/* The whole records, other than LOST records, in [@tail, @head) of @r. */
static u64 ring_records(struct binary_ring *r, u64 tail, u64 head)
{
	struct memorizer_rec_hdr hdr;
	size_t off, first;
	u64 n = 0;

	while (tail < head) {
		ring_span(tail, sizeof(hdr), &off, &first);
		memcpy(&hdr, r->data + off, first);
		memcpy((char *)&hdr + first, r->data, sizeof(hdr) - first);
		if (WARN_ON_ONCE(hdr.size < sizeof(hdr) || hdr.size > head - tail))
			break;
		if (hdr.type != MEMORIZER_REC_LOST)
			n++;
		tail += hdr.size;
	}
	return n;
}

/*
 * read(): as many whole records as fit in the buffer (-EINVAL if not even
 * the next one does); blocks while there are none, unless O_NONBLOCK.
 */
static ssize_t binary_read(struct file *file, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	struct binary_ring *r = file->private_data;
	size_t len = 0, off, first;
	u64 head, tail;
	ssize_t ret;

	if (mutex_lock_interruptible(&r->read_lock))
		return -ERESTARTSYS;
	while (!ring_ready(r)) {
		mutex_unlock(&r->read_lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(r->wait, ring_ready(r)))
			return -ERESTARTSYS;
		if (mutex_lock_interruptible(&r->read_lock))
			return -ERESTARTSYS;
	}
	/* Pairs with ring_put(): the records up to head are written. */
	head = smp_load_acquire(&r->head);
	tail = r->tail;
	while (tail + len < head) {
		struct memorizer_rec_hdr hdr;

		ring_span(tail + len, sizeof(hdr), &off, &first);
		memcpy(&hdr, r->data + off, first);
		memcpy((char *)&hdr + first, r->data, sizeof(hdr) - first);
		if (WARN_ON_ONCE(hdr.size < sizeof(hdr) ||
				 hdr.size > head - tail - len)) {
			/* Cannot happen; if it did, drop what is there. */
			len = 0;
			tail = head;
			break;
		}
		if (len + hdr.size > count)
			break;
		len += hdr.size;
	}
	ret = len ? len : -EINVAL;
	ring_span(tail, len, &off, &first);
	if (copy_to_user(ubuf, r->data + off, first) ||
	    copy_to_user(ubuf + first, r->data, len - first))
		ret = -EFAULT;		/* the records stay for the next read */
	else	/* Pairs with ring_put(): copied before the room is reused. */
		smp_store_release(&r->tail, tail + len);
	mutex_unlock(&r->read_lock);
	return ret;
}

static __poll_t binary_poll(struct file *file, poll_table *wait)
{
	struct binary_ring *r = file->private_data;

	poll_wait(file, &r->wait, wait);
	/* Pairs with the barrier in ring_put(). */
	smp_mb();
	return ring_ready(r) ? EPOLLIN | EPOLLRDNORM : 0;
}

/*
 * The rings are made at the first open, and stay. An open while none is
 * open starts a session: what the last one left unread is dropped (its
 * reader is gone), so that a stream is whole from its first record.
 */
/*
 * A new session: found records (globals, ...) live on from before it; each
 * goes out again, its ALLOC at its next sweep, with what it counted from
 * now on. Without readers no sweep runs, so the counters stay listed.
 */
static void found_records_restart(void)
{
	struct memorizer_record *rec = NULL;
	struct memorizer_counter *c;
	int cpu = -1;

	memorizer_walk_begin();
	while ((rec = memorizer_walk_next(&cpu, rec))) {
		if (!rec->found)
			continue;
		WRITE_ONCE(rec->in_binary_stream, false);
		rcu_read_lock();
		/* Pairs with memorizer_counter_get(): listed counters are whole. */
		for (c = memorizer_counters_first(rec); c;
		     c = memorizer_counter_next(c)) {
			atomic_set(&c->writes, 0);
			atomic_set(&c->reads, 0);
		}
		rcu_read_unlock();
	}
	memorizer_walk_end();
}

static int binary_open(struct inode *inode, struct file *file)
{
	int cpu, err = 0;

	mutex_lock(&binary_setup_lock);
	for_each_possible_cpu(cpu) {
		struct binary_ring *r = per_cpu_ptr(&binary_rings, cpu);
		char *data;

		if (r->data)
			continue;
		data = vmalloc(buf_size.bytes);
		if (!data) {
			err = -ENOMEM;
			break;
		}
		/* Pairs with ring_put(). */
		smp_store_release(&r->data, data);
	}
	if (!err)
		err = memorizer_records_sweep_init();
	if (!err && !atomic_read(&binary_readers)) {
		found_records_restart();
		memorizer_calls_restart();
		WRITE_ONCE(binary_session, binary_session + 1);
		for_each_possible_cpu(cpu) {
			struct binary_ring *r = per_cpu_ptr(&binary_rings, cpu);

			mutex_lock(&r->read_lock);
			/* As binary_read() would, reading it all. */
			smp_store_release(&r->tail, smp_load_acquire(&r->head));
			mutex_unlock(&r->read_lock);
		}
	}
	if (!err && atomic_inc_return(&binary_readers) == 1)
		queue_delayed_work(system_wq, &sweep_work, SWEEP_INTERVAL);
	mutex_unlock(&binary_setup_lock);
	if (err)
		return err;
	file->private_data = inode->i_private;
	return nonseekable_open(inode, file);
}

static int binary_release(struct inode *inode, struct file *file)
{
	u64 head;
	int cpu;

	mutex_lock(&binary_setup_lock);
	if (atomic_dec_and_test(&binary_readers)) {
		/* Writers run with IRQs off: after this, none is writing. */
		synchronize_rcu();
		for_each_possible_cpu(cpu) {
			struct binary_ring *r = per_cpu_ptr(&binary_rings, cpu);

			mutex_lock(&r->read_lock);
			/* Pairs with ring_put(): records up to head are whole. */
			head = smp_load_acquire(&r->head);
			memorizer_stat_add(MEMORIZER_STAT_BINARY_UNREAD,
					   ring_records(r, r->tail, head));
			mutex_unlock(&r->read_lock);
		}
	}
	mutex_unlock(&binary_setup_lock);
	return 0;
}

static const struct file_operations binary_fops = {
	.owner = THIS_MODULE,
	.open = binary_open,
	.read = binary_read,
	.poll = binary_poll,
	.release = binary_release,
};

/* Each CPU writes the LOST record it still owes, if it has room now. */
static void flush_lost(void *unused)
{
	struct binary_cpu *bc = this_cpu_ptr(&binary_cpus);

	binary_cpu_session(bc);
	if (bc->lost.records && ring_put(&bc->lost, sizeof(bc->lost)))
		memset(&bc->lost, 0, sizeof(bc->lost));
}

/*
 * binary/flush: "1" makes the stream say now what it lost, which it
 * otherwise says at the CPU's next record. A collector writes it before
 * its last read, so that the stream and total_overruns agree.
 */
static ssize_t flush_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	int err = memorizer_write_one(ubuf, count, ppos);

	if (err)
		return err;
	on_each_cpu(flush_lost, NULL, 1);
	*ppos += count;
	return count;
}

static const struct file_operations flush_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = flush_write,
	.llseek = default_llseek,
};

static int total_overruns_show(struct seq_file *m, void *v)
{
	struct memorizer_stats sum;

	memorizer_stats_sum(&sum);
	seq_printf(m, "%lu\n", sum.counters[MEMORIZER_STAT_BINARY_LOST]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(total_overruns);

static void fill_header(struct memorizer_stream_header *h)
{
	static const u16 sizes[MEMORIZER_REC_NR_TYPES] = MEMORIZER_REC_SIZES;

	BUILD_BUG_ON(MEMORIZER_REC_NR_TYPES > MEMORIZER_REC_TYPES_MAX);
	memcpy(h->magic, MEMORIZER_STREAM_MAGIC, sizeof(h->magic));
	h->version = MEMORIZER_STREAM_VERSION;
	h->header_size = sizeof(*h);
	h->nr_types = MEMORIZER_REC_NR_TYPES;
	h->nr_cpus = nr_cpu_ids;
	h->hz = HZ;
	h->page_size = PAGE_SIZE;
	memcpy(h->rec_size, sizes, sizeof(sizes));
}

static const struct memorizer_channel_ops binary_ops = {
	.record_made = binary_record_made,
	.record_closed = binary_record_closed,
};

void __init memorizer_binary_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct binary_ring *r = per_cpu_ptr(&binary_rings, cpu);

		per_cpu_ptr(&binary_cpus, cpu)->task_pid = -1;
		mutex_init(&r->read_lock);
		init_waitqueue_head(&r->wait);
		init_irq_work(&r->wakeup, ring_wakeup);
	}
	fill_header(&binary_header);
	memorizer_channel_register(&binary_ops);
}

void __init memorizer_binary_debugfs_init(struct dentry *dir)
{
	struct dentry *bin = debugfs_create_dir("binary", dir);
	int cpu;

	debugfs_create_file("total_overruns", 0400, dir, NULL,
			    &total_overruns_fops);
	header_blob.data = &binary_header;
	header_blob.size = sizeof(binary_header);
	debugfs_create_blob("header", 0400, bin, &header_blob);
	debugfs_create_file("flush", 0200, bin, NULL, &flush_fops);

	for_each_possible_cpu(cpu) {
		char name[16];

		snprintf(name, sizeof(name), "cpu%d", cpu);
		debugfs_create_file(name, 0400, bin,
				    per_cpu_ptr(&binary_rings, cpu),
				    &binary_fops);
	}
}
