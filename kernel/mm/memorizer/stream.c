// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's streams: records leave the kernel as objects die, instead of
 * piling up until someone reads kmap.
 *
 * kmap_stream: the text of closed records, each delivered once to one
 * reader and then dropped. Closing a record may happen in any context, so
 * the closer only puts it on a per-CPU lock-free list and, when a reader
 * may be waiting, raises an irq_work that wakes it.
 *
 * binary/: per-CPU rings of the fixed records of <uapi/linux/memorizer.h>,
 * written while a reader has one of them open:
 * ALLOC as an object is made, its counters and FREE as it dies, after
 * which its record is dropped. A full buffer drops records, counts them per
 * CPU and, at its next record, says how many in a LOST record.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <uapi/linux/memorizer.h>

#include "memorizer.h"
#include "pool.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "memorizer."

static atomic_t stream_readers;		/* kmap_stream files open */
static atomic_t binary_readers;		/* binary/cpuN files open */
static DECLARE_WAIT_QUEUE_HEAD(stream_wait);

/* From any context: wake kmap_stream readers, retire what binary took. */
static void kick(struct irq_work *work)
{
	wake_up_interruptible(&stream_wait);
	memorizer_retire_gone();
}
static DEFINE_IRQ_WORK(kick_work, kick);

void memorizer_stream_kick(void)
{
	if (atomic_read(&stream_readers) || atomic_read(&binary_readers))
		irq_work_queue(&kick_work);
}

/*
 * kmap_stream. Records taken from the per-CPU lists wait in one queue,
 * under stream_lock, until a reader has copied them whole; a record too
 * big for a reader's buffer goes out over several reads of that reader.
 */
static DEFINE_MUTEX(stream_lock);
static struct llist_node *queue_head;	/* under stream_lock */

struct stream_file {
	struct memorizer_obj *partial;	/* being delivered to this file */
	size_t partial_off;		/* bytes of it delivered */
};

static struct memorizer_obj *queue_peek(void)
{
	lockdep_assert_held(&stream_lock);
	if (!queue_head)
		queue_head = memorizer_take_done();
	if (!queue_head)
		return NULL;
	return llist_entry(queue_head, struct memorizer_obj, done);
}

/* Unlink the queue's first record onto @gone, for retiring. */
static void queue_pop(struct llist_node **gone)
{
	struct llist_node *node = queue_head;

	queue_head = node->next;
	node->next = *gone;
	*gone = node;
}

struct llist_node *memorizer_stream_drop_queue(void)
{
	struct llist_node *chain;

	mutex_lock(&stream_lock);
	chain = queue_head;
	queue_head = NULL;
	mutex_unlock(&stream_lock);
	return chain;
}

/*
 * Copy bytes [@skip, @skip + @len) of @obj's text to @ubuf, or with @ubuf
 * NULL only count them. Returns the bytes of the whole text when @len is
 * SIZE_MAX, else the bytes copied, or -EFAULT.
 */
static ssize_t record_text(const struct memorizer_obj *obj, char __user *ubuf,
			   size_t skip, size_t len)
{
	const struct memorizer_access *a = NULL;
	char line[MEMORIZER_LINE_MAX];
	size_t pos = 0, copied = 0;
	bool first = true;

	while (first || a) {
		size_t n = first ? memorizer_format_object(line, obj) :
				   memorizer_format_access(line, a);
		size_t from, to;

		a = first ? obj->accesses : a->next;
		first = false;
		from = max(pos, skip);
		to = min(pos + n, skip + len);
		pos += n;
		if (!ubuf || from >= to)
			continue;
		if (copy_to_user(ubuf + copied, line + (from - (pos - n)),
				 to - from))
			return -EFAULT;
		copied += to - from;
	}
	return ubuf ? copied : pos;
}

static bool stream_ready(struct stream_file *sf)
{
	int cpu;

	if (sf->partial || READ_ONCE(queue_head))
		return true;
	for_each_possible_cpu(cpu)
		if (memorizer_done_pending(cpu))
			return true;
	return false;
}

static ssize_t kmap_stream_read(struct file *file, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	struct stream_file *sf = file->private_data;
	struct llist_node *gone = NULL;
	struct memorizer_obj *obj;
	ssize_t done = 0, ret = 0, n;
	size_t len;

	if (!count)
		return 0;
	if (mutex_lock_interruptible(&stream_lock))
		return -ERESTARTSYS;
	for (;;) {
		if (sf->partial) {
			obj = sf->partial;
			len = record_text(obj, NULL, 0, SIZE_MAX);
			n = record_text(obj, ubuf, sf->partial_off, count);
			if (n < 0) {
				ret = n;
				break;
			}
			sf->partial_off += n;
			done = n;
			if (sf->partial_off == len) {
				obj->done.next = gone;
				gone = &obj->done;
				sf->partial = NULL;
			}
			break;
		}
		obj = queue_peek();
		if (!obj) {
			if (done)
				break;
			if (file->f_flags & O_NONBLOCK) {
				ret = -EAGAIN;
				break;
			}
			mutex_unlock(&stream_lock);
			if (wait_event_interruptible(stream_wait,
						     stream_ready(sf)))
				return -ERESTARTSYS;
			if (mutex_lock_interruptible(&stream_lock))
				return -ERESTARTSYS;
			continue;
		}
		len = record_text(obj, NULL, 0, SIZE_MAX);
		if (len <= count - done) {
			n = record_text(obj, ubuf + done, 0, len);
			if (n < 0) {
				ret = n;
				break;
			}
			done += n;
			queue_pop(&gone);
			continue;
		}
		if (done)
			break;
		/* Bigger than the whole buffer: this reader gets it in parts. */
		queue_head = queue_head->next;
		sf->partial = obj;
		sf->partial_off = 0;
	}
	mutex_unlock(&stream_lock);
	memorizer_retire(gone);
	return done ? done : ret;
}

static __poll_t kmap_stream_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &stream_wait, wait);
	return stream_ready(file->private_data) ? EPOLLIN | EPOLLRDNORM : 0;
}

static int kmap_stream_open(struct inode *inode, struct file *file)
{
	struct stream_file *sf = kzalloc(sizeof(*sf), GFP_KERNEL);

	if (!sf)
		return -ENOMEM;
	file->private_data = sf;
	atomic_inc(&stream_readers);
	return nonseekable_open(inode, file);
}

static int kmap_stream_release(struct inode *inode, struct file *file)
{
	struct stream_file *sf = file->private_data;

	/* Its reader got part of it: the rest goes with the reader. */
	if (sf->partial) {
		sf->partial->done.next = NULL;
		memorizer_retire(&sf->partial->done);
	}
	atomic_dec(&stream_readers);
	kfree(sf);
	return 0;
}

static const struct file_operations stream_fops = {
	.owner = THIS_MODULE,
	.open = kmap_stream_open,
	.read = kmap_stream_read,
	.poll = kmap_stream_poll,
	.release = kmap_stream_release,
};

/*
 * The binary channel: one ring per CPU. Only its CPU writes it, with IRQs
 * off (never in NMI); readers of its cpuN file take whole records from it
 * under read_lock. head and tail only grow: head - tail bytes are waiting.
 * The writer publishes a record by moving head after writing it, and a
 * reader frees room by moving tail after copying, so neither ever sees the
 * other's half-done work, and a reader's position is always at a record.
 */
struct binary_ring {
	char *data;			/* binary_buf_size bytes, once opened */
	u64 head;			/* bytes written */
	u64 tail;			/* bytes read */
	struct mutex read_lock;
	wait_queue_head_t wait;
	struct irq_work wakeup;		/* wakes readers from any context */
};
static DEFINE_PER_CPU(struct binary_ring, binary_rings);
static DEFINE_MUTEX(binary_setup_lock);

static unsigned long binary_buf_size = 4UL << 20;	/* per CPU */

static int param_set_buf_size(const char *val, const struct kernel_param *kp)
{
	unsigned long size;
	char *end;

	size = memparse(val, &end);
	if (end == val || (*end && *end != '\n') || size < PAGE_SIZE ||
	    size > (1UL << 30))
		return -EINVAL;
	*(unsigned long *)kp->arg = round_up(size, PAGE_SIZE);
	return 0;
}

static const struct kernel_param_ops buf_size_ops = {
	.set = param_set_buf_size,
	.get = param_get_ulong,
};
module_param_cb(stream_buf_size, &buf_size_ops, &binary_buf_size, 0400);
MODULE_PARM_DESC(stream_buf_size, "Bytes of binary stream buffer per CPU");

static struct memorizer_stream_header binary_header;
static struct debugfs_blob_wrapper header_blob;

#define CACHE_IDS	1024	/* as caches.c interns at most */

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
	DECLARE_BITMAP(caches, CACHE_IDS + 1);	/* CACHE records written */
	struct memorizer_rec_lost lost;		/* since the last record */
	u64 lost_total;
	u64 made;			/* records asked of binary_write() */
};
static DEFINE_PER_CPU(struct binary_cpu, binary_cpus);

/* Where ring byte @pos is, and how many of @len bytes fit before the end. */
static void ring_span(u64 pos, size_t len, size_t *off, size_t *first)
{
	*off = pos % binary_buf_size;
	*first = min_t(size_t, len, binary_buf_size - *off);
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
	if (!data || head + size - tail > binary_buf_size)
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
	bitmap_zero(bc->caches, CACHE_IDS + 1);
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
	bc->made++;
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
	bc->lost_total++;
	if (type == MEMORIZER_REC_ALLOC)
		bc->lost.allocs++;
	else if (type == MEMORIZER_REC_FREE)
		bc->lost.frees++;
	else if (type == MEMORIZER_REC_ACCESS)
		bc->lost.accesses++;
	else
		bc->lost.other++;
	bc->task_pid = -1;
	bitmap_zero(bc->caches, CACHE_IDS + 1);
	return false;
}

static void write_task(struct memorizer_obj *obj)
{
	struct binary_cpu *bc = this_cpu_ptr(&binary_cpus);
	struct memorizer_rec_task rec = {};

	binary_cpu_session(bc);
	if (bc->task_pid == obj->pid &&
	    !memcmp(bc->task_comm, obj->comm, TASK_COMM_LEN))
		return;
	rec_hdr(&rec.hdr, MEMORIZER_REC_TASK, sizeof(rec));
	rec.pid = obj->pid;
	BUILD_BUG_ON(sizeof(rec.comm) != TASK_COMM_LEN);
	memcpy(rec.comm, obj->comm, TASK_COMM_LEN);
	if (binary_write(&rec, MEMORIZER_REC_TASK, sizeof(rec))) {
		bc->task_pid = obj->pid;
		memcpy(bc->task_comm, obj->comm, TASK_COMM_LEN);
	}
}

static void write_cache(u16 id)
{
	struct binary_cpu *bc = this_cpu_ptr(&binary_cpus);
	struct memorizer_rec_cache rec = {};
	const char *name = memorizer_cache_name(id);

	binary_cpu_session(bc);
	if (!id || id > CACHE_IDS || !name || test_bit(id, bc->caches))
		return;
	rec_hdr(&rec.hdr, MEMORIZER_REC_CACHE, sizeof(rec));
	rec.cache_id = id;
	strscpy(rec.name, name, sizeof(rec.name));
	if (binary_write(&rec, MEMORIZER_REC_CACHE, sizeof(rec)))
		__set_bit(id, bc->caches);
}

/* A new record, in track_alloc_locked(). */
void memorizer_binary_alloc(struct memorizer_obj *obj)
{
	struct memorizer_rec_alloc rec = {};
	unsigned long flags;

	if (!atomic_read(&binary_readers))
		return;
	rec_hdr(&rec.hdr, MEMORIZER_REC_ALLOC, sizeof(rec));
	rec.id = obj->id;
	rec.addr = obj->key.addr;
	rec.call_site = obj->alloc_ip;
	rec.jiffies = obj->alloc_jiffies;
	rec.size = obj->size;
	rec.size_alloc = obj->size_alloc;
	rec.pid = obj->pid;
	rec.cache_id = obj->cache_id;
	rec.kind = obj->kind;
	rec.context = in_task() ? MEMORIZER_CONTEXT_TASK :
		      in_hardirq() ? MEMORIZER_CONTEXT_HARDIRQ :
				     MEMORIZER_CONTEXT_SOFTIRQ;

	local_irq_save(flags);
	if (rec.context == MEMORIZER_CONTEXT_TASK)
		write_task(obj);
	write_cache(obj->cache_id);
	binary_write(&rec, MEMORIZER_REC_ALLOC, sizeof(rec));
	local_irq_restore(flags);
	/* Its ALLOC is out (or counted lost): its FREE must follow. */
	set_bit(MEMORIZER_OBJ_BINARY, &obj->lock);
}

static u8 free_api(const struct memorizer_obj *obj)
{
	if (obj->free_ip == MEMORIZER_FREE_IP_MISSED)
		return MEMORIZER_FREE_MISSED;
	switch (obj->kind) {
	case MEMORIZER_KIND_CACHE:
		return MEMORIZER_FREE_CACHE;
	case MEMORIZER_KIND_VMALLOC:
		return MEMORIZER_FREE_VFREE;
	case MEMORIZER_KIND_PAGES:
		return MEMORIZER_FREE_PAGES;
	default:
		return MEMORIZER_FREE_KFREE;
	}
}

/*
 * A closed record, from close_record(): true when its counters and FREE
 * went out here, so that the record can go.
 */
bool memorizer_binary_free(struct memorizer_obj *obj)
{
	struct memorizer_rec_free rec = {};
	struct memorizer_access *a;
	unsigned long flags;

	if (!test_bit(MEMORIZER_OBJ_BINARY, &obj->lock) ||
	    !atomic_read(&binary_readers))
		return false;

	local_irq_save(flags);
	for (a = obj->accesses; a; a = a->next) {
		u32 writes = atomic_read(&a->writes);
		u32 reads = atomic_read(&a->reads);

		/* A sweep sent what it counted before. */
		if (writes || reads)
			memorizer_binary_access(obj, a, writes, reads);
	}
	rec_hdr(&rec.hdr, MEMORIZER_REC_FREE, sizeof(rec));
	rec.id = obj->id;
	rec.call_site = obj->free_ip;
	rec.jiffies = obj->free_jiffies;
	rec.api = free_api(obj);
	/* A reader has the object's counts once it has read as many. */
	rec.nr_access = obj->nr_access;
	binary_write(&rec, MEMORIZER_REC_FREE, sizeof(rec));
	local_irq_restore(flags);
	return true;
}

/* One counter's counts, of @obj. IRQs are off; @obj cannot change. */
void memorizer_binary_access(struct memorizer_obj *obj,
			     const struct memorizer_access *a,
			     u32 writes, u32 reads)
{
	struct memorizer_rec_access rec = {};

	/*
	 * A sweep runs on after the last reader left; binary_release()
	 * counts what is left in the rings once no record is being made.
	 */
	if (!atomic_read(&binary_readers))
		return;

	rec_hdr(&rec.hdr, MEMORIZER_REC_ACCESS, sizeof(rec));
	rec.id = obj->id;
	rec.ip = a->ip;
	rec.pid = a->pid;
	rec.writes = writes;
	rec.reads = reads;
	if (binary_write(&rec, MEMORIZER_REC_ACCESS, sizeof(rec)))
		obj->nr_access++;
}

/*
 * While a reader is attached, live objects' counters go out every
 * SWEEP_INTERVAL as ACCESS records of what they counted since (a reader
 * sums a counter's records), and counters left untouched for a whole
 * interval are freed: Memorizer's memory then holds the counters in use,
 * not every (ip, pid) a long-lived object ever saw.
 */
#define SWEEP_INTERVAL		HZ
#define SWEEP_IDLE_MAX		16384	/* counters freed per sweep */
static struct memorizer_access **sweep_idle;

static void sweep_counters(struct work_struct *work);
static DECLARE_DELAYED_WORK(sweep_work, sweep_counters);

static void sweep_counters(struct work_struct *work)
{
	unsigned int i, n;

	if (!atomic_read(&binary_readers))
		return;
	n = memorizer_sweep_live(sweep_idle, SWEEP_IDLE_MAX);
	/*
	 * After this, no access holds a counter the sweep took out of the
	 * hash (the next sweep sends its last counts and unlinks it), and
	 * no kmap reader one it unlinked.
	 */
	synchronize_rcu();
	for (i = 0; i < n; i++)
		memorizer_pool_free(MEMORIZER_POOL_SMALL, sweep_idle[i]);
	queue_delayed_work(system_wq, &sweep_work, SWEEP_INTERVAL);
}

/* Records left in the rings when the last reader closed, since boot. */
static u64 binary_unread;	/* under binary_setup_lock */

/*
 * Since boot: records made, records lost to full buffers, records no
 * reader took. Every record made was read, lost, or left unread.
 */
void memorizer_binary_counts(u64 *made, u64 *lost, u64 *unread)
{
	int cpu;

	*made = *lost = 0;
	for_each_possible_cpu(cpu) {
		struct binary_cpu *bc = per_cpu_ptr(&binary_cpus, cpu);

		*made += READ_ONCE(bc->made);
		*lost += READ_ONCE(bc->lost_total);
	}
	*unread = READ_ONCE(binary_unread);
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
static int binary_open(struct inode *inode, struct file *file)
{
	int cpu, err = 0;

	mutex_lock(&binary_setup_lock);
	for_each_possible_cpu(cpu) {
		struct binary_ring *r = per_cpu_ptr(&binary_rings, cpu);
		char *data;

		if (r->data)
			continue;
		data = vmalloc(binary_buf_size);
		if (!data) {
			err = -ENOMEM;
			break;
		}
		/* Pairs with ring_put(). */
		smp_store_release(&r->data, data);
	}
	if (!err && !sweep_idle) {
		sweep_idle = vmalloc(array_size(SWEEP_IDLE_MAX,
						sizeof(*sweep_idle)));
		if (!sweep_idle)
			err = -ENOMEM;
	}
	if (!err && !atomic_read(&binary_readers)) {
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
			binary_unread += ring_records(r, r->tail, head);
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
	char buf[3] = {};

	if (*ppos || count > 2 || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	if (strcmp(buf, "1") && strcmp(buf, "1\n"))
		return -EINVAL;
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
	u64 made, lost, unread;

	memorizer_binary_counts(&made, &lost, &unread);
	seq_printf(m, "%llu\n", lost);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(total_overruns);

static void fill_header(struct memorizer_stream_header *h)
{
	static const u16 sizes[MEMORIZER_REC_NR_TYPES] = {
		[MEMORIZER_REC_ALLOC] = sizeof(struct memorizer_rec_alloc),
		[MEMORIZER_REC_FREE] = sizeof(struct memorizer_rec_free),
		[MEMORIZER_REC_ACCESS] = sizeof(struct memorizer_rec_access),
		[MEMORIZER_REC_TASK] = sizeof(struct memorizer_rec_task),
		[MEMORIZER_REC_CACHE] = sizeof(struct memorizer_rec_cache),
		[MEMORIZER_REC_LOST] = sizeof(struct memorizer_rec_lost),
	};

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

void __init memorizer_stream_debugfs_init(struct dentry *dir)
{
	struct dentry *bin = debugfs_create_dir("binary", dir);
	int cpu;

	debugfs_create_file("kmap_stream", 0400, dir, NULL, &stream_fops);
	debugfs_create_file("total_overruns", 0400, dir, NULL,
			    &total_overruns_fops);

	fill_header(&binary_header);
	header_blob.data = &binary_header;
	header_blob.size = sizeof(binary_header);
	debugfs_create_blob("header", 0400, bin, &header_blob);
	debugfs_create_file("flush", 0200, bin, NULL, &flush_fops);

	for_each_possible_cpu(cpu) {
		struct binary_ring *r = per_cpu_ptr(&binary_rings, cpu);
		char name[16];

		per_cpu_ptr(&binary_cpus, cpu)->task_pid = -1;
		mutex_init(&r->read_lock);
		init_waitqueue_head(&r->wait);
		init_irq_work(&r->wakeup, ring_wakeup);
		snprintf(name, sizeof(name), "cpu%d", cpu);
		debugfs_create_file(name, 0400, bin, r, &binary_fops);
	}
}
