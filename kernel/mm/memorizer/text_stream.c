// SPDX-License-Identifier: GPL-2.0
/*
 * kmap_stream: the text of closed records (text.c), each delivered once to
 * one reader and then freed, instead of piling up until someone reads
 * kmap. A record may close in any context, so the record store only puts
 * it on a per-CPU lock-free list and tells this channel, which, when a
 * reader may be waiting, raises an irq_work that wakes it.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "memorizer.h"

static atomic_t stream_readers;		/* kmap_stream files open */
static DECLARE_WAIT_QUEUE_HEAD(stream_wait);

static void wake_readers(struct irq_work *work)
{
	wake_up_interruptible(&stream_wait);
}
static DEFINE_IRQ_WORK(wake_work, wake_readers);

/* A record was closed: from any context. */
static void text_stream_record_waiting(void)
{
	if (atomic_read(&stream_readers))
		irq_work_queue(&wake_work);
}

/*
 * Records taken from the closed lists wait in one queue, under
 * stream_lock, until a reader has copied them whole; a record too big for
 * a reader's buffer goes out over several reads of that reader.
 */
static DEFINE_MUTEX(stream_lock);
static struct llist_node *queue_head;	/* under stream_lock */

struct stream_file {
	struct memorizer_record *partial;	/* being delivered to this file */
	size_t partial_off;			/* bytes of it delivered */
};

static struct memorizer_record *queue_peek(void)
{
	lockdep_assert_held(&stream_lock);
	if (!queue_head)
		queue_head = memorizer_records_take_closed();
	if (!queue_head)
		return NULL;
	return llist_entry(queue_head, struct memorizer_record, closed);
}

/* Unlink the queue's first record onto @done, to be freed. */
static void queue_pop(struct llist_node **done)
{
	struct llist_node *node = queue_head;

	queue_head = node->next;
	node->next = *done;
	*done = node;
}

/* The records queued for readers, for clear_dead_objects to free. */
struct llist_node *memorizer_text_stream_take(void)
{
	struct llist_node *chain;

	mutex_lock(&stream_lock);
	chain = queue_head;
	queue_head = NULL;
	mutex_unlock(&stream_lock);
	return chain;
}

/*
 * Copy bytes [@skip, @skip + @len) of @rec's text to @ubuf, or with @ubuf
 * NULL only count them. Returns the bytes of the whole text when @len is
 * SIZE_MAX, else the bytes copied, or -EFAULT.
 */
static ssize_t record_text(const struct memorizer_record *rec,
			   char __user *ubuf, size_t skip, size_t len)
{
	const struct memorizer_counter *c = NULL;
	char line[MEMORIZER_LINE_MAX];
	size_t pos = 0, copied = 0;
	bool first = true;

	while (first || c) {
		size_t n = first ? memorizer_format_record(line, rec) :
				   memorizer_format_counter(line, c, NULL);
		size_t from, to;

		c = first ? memorizer_deref(rec->counters) :
			    memorizer_deref(c->next);
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
		if (memorizer_records_closed_waiting(cpu))
			return true;
	return false;
}

static ssize_t text_stream_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct stream_file *sf = file->private_data;
	struct llist_node *delivered = NULL;
	struct memorizer_record *rec;
	ssize_t done = 0, ret = 0, n;
	size_t len;

	if (!count)
		return 0;
	if (mutex_lock_interruptible(&stream_lock))
		return -ERESTARTSYS;
	for (;;) {
		if (sf->partial) {
			rec = sf->partial;
			len = record_text(rec, NULL, 0, SIZE_MAX);
			n = record_text(rec, ubuf, sf->partial_off, count);
			if (n < 0) {
				ret = n;
				break;
			}
			sf->partial_off += n;
			done = n;
			if (sf->partial_off == len) {
				rec->closed.next = delivered;
				delivered = &rec->closed;
				sf->partial = NULL;
			}
			break;
		}
		rec = queue_peek();
		if (!rec) {
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
		len = record_text(rec, NULL, 0, SIZE_MAX);
		if (len <= count - done) {
			n = record_text(rec, ubuf + done, 0, len);
			if (n < 0) {
				ret = n;
				break;
			}
			done += n;
			queue_pop(&delivered);
			continue;
		}
		if (done)
			break;
		/* Bigger than the whole buffer: this reader gets it in parts. */
		queue_head = queue_head->next;
		sf->partial = rec;
		sf->partial_off = 0;
	}
	mutex_unlock(&stream_lock);
	memorizer_records_free(delivered);
	return done ? done : ret;
}

static __poll_t text_stream_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &stream_wait, wait);
	return stream_ready(file->private_data) ? EPOLLIN | EPOLLRDNORM : 0;
}

static int text_stream_open(struct inode *inode, struct file *file)
{
	struct stream_file *sf = kzalloc(sizeof(*sf), GFP_KERNEL);

	if (!sf)
		return -ENOMEM;
	file->private_data = sf;
	atomic_inc(&stream_readers);
	return nonseekable_open(inode, file);
}

static int text_stream_release(struct inode *inode, struct file *file)
{
	struct stream_file *sf = file->private_data;

	/* Its reader got part of it: the rest goes with the reader. */
	if (sf->partial) {
		sf->partial->closed.next = NULL;
		memorizer_records_free(&sf->partial->closed);
	}
	atomic_dec(&stream_readers);
	kfree(sf);
	return 0;
}

static const struct file_operations text_stream_fops = {
	.owner = THIS_MODULE,
	.open = text_stream_open,
	.read = text_stream_read,
	.poll = text_stream_poll,
	.release = text_stream_release,
};

static const struct memorizer_channel_ops text_stream_ops = {
	.record_waiting = text_stream_record_waiting,
};

void __init memorizer_text_stream_init(void)
{
	memorizer_channel_register(&text_stream_ops);
}

void __init memorizer_text_stream_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("kmap_stream", 0400, dir, NULL, &text_stream_fops);
}
