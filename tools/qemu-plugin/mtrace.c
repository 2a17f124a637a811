// SPDX-License-Identifier: GPL-2.0
/*
 * mtrace, as a QEMU TCG plugin: log a guest kernel's memory accesses from
 * the emulator (no kernel hooks), to a file libkmap reads (mtrace_log.h).
 *
 *   qemu-system-x86_64 ... -plugin out/lib/mtrace.so,log=LOG,mode=sharing
 *
 * Every load and store by an instruction in the kernel half (its address
 * 0xffff800000000000 and up) is seen by a memory callback registered at
 * translation. mode=all logs each one; mode=sharing (the default) only
 * those mtrace's cache-line rule flags (MTRACE_F_SHARED in mtrace_log.h):
 * a read when another vCPU wrote its 64-byte line since this vCPU last
 * read it, a write when another vCPU read or wrote the line since this
 * vCPU last wrote it. The rule runs here, in execution order, over
 * physical lines (two masks of vCPUs per line in one word, updated
 * atomically: vCPUs run in parallel threads), and is applied in both
 * modes: a record in mode all says whether it would have been logged in
 * mode sharing.
 *
 * Records go to a per-vCPU buffer; full buffers go to one writer thread,
 * which writes them out. Nothing is lost: a vCPU whose buffers are all
 * waiting for the writer waits too.
 *
 * Task identity comes from the guest module's markers (mtrace_log.h,
 * tools/qemu-plugin/guest/mtrace_task.c): loads recognised here by their
 * bytes at translation, whose addresses carry the pid.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kmap_counter.h"
#include "mtrace-plugin.h"
#include "mtrace_label.h"

MTRACE_PLUGIN_EXPORT int qemu_plugin_version = MTRACE_QEMU_PLUGIN_VERSION;

#define BUF_SIZE	(1u << 20)	/* bytes per buffer */
#define BUFS_PER_VCPU	4

/*
 * Line state, by physical line (mtrace_line_next()): chunks of 1 GiB of
 * guest memory, mapped when first used, of words as narrow as the vCPUs
 * allow: a byte a line for up to 4, so that the state of a 2-vCPU
 * guest's 1 GiB is 16 MiB, which the host's caches hold better than 256.
 * All clear at first. At granularity=byte a "line" is a byte: a chunk is
 * 64 times as large, mapped with MAP_NORESERVE, so that the host commits
 * only the pages of state the guest's accesses touch, at most the word
 * width times the guest memory the kernel touched.
 */
#define CHUNK_SHIFT	30
#define NR_CHUNKS	1024		/* 1 TiB of guest physical memory */

/*
 * Each vCPU's physical pages of the virtual pages it accessed last, by
 * page number modulo PAGE_CACHE_SIZE: QEMU's lookup (its TLB, then the
 * RAM block of the host address) is costly on every access. An
 * entry stays valid until the vCPU runs an instruction that changes how
 * it translates (mtrace_insn_changes_translation()): x86 lets a CPU use
 * a translation it has until then, and the guest makes one of those run
 * on every vCPU that may hold a mapping it changed.
 *
 * An entry also points at the state of the page's first line (a page's
 * lines are consecutive in a chunk), so that an access finds its line's
 * state in one load after the entry's: a profile of the plugin under
 * hackbench put much of its time on the chain of loads from page to
 * chunk to state before.
 */
#define PAGE_CACHE_SIZE	64

struct page_entry {
	uint64_t vpage, ppage;
	unsigned char *lines;	/* NULL: the page's lines have no state */
	uint64_t unused;	/* 32 bytes: two entries a cache line */
};

struct buf {
	unsigned char *data;
	size_t len;
	struct buf *next;
};

struct vcpu {
	struct buf *buf;
	uint32_t pid;
	uint32_t pid_lo;		/* a PID marker's first load */
	int have_lo;
	uint64_t accesses, logged, switches, page_misses, page_flushes;
	uint64_t dropped;		/* by filter= */
	struct page_entry pages[PAGE_CACHE_SIZE];
} __attribute__((aligned(64)));

static struct {
	int mode, nvcpus, fd;
	int window_task;		/* window=task: only while base is set */
	qemu_plugin_vcpu_mem_cb_t access_cb;	/* for line_bytes */
	uint32_t store_bit;		/* store_bit_of() */
	uint32_t size_mask;		/* size_mask_of() */
	const char *file;
	uint64_t others_mask;		/* every vCPU's bit */
	unsigned int line_bytes;	/* a line's state: 1, 2, 4 or 8 bytes */
	unsigned int gran_shift;	/* a line: MTRACE_LINE_SHIFT or _BYTE_ */
	/* filter=: the policy, and the callback for what it keeps. */
	struct mtrace_filter filter;
	const char *filter_path, *filter_arg;
	qemu_plugin_vcpu_mem_cb_t kept_cb;
	struct vcpu *vcpu;
	_Atomic(unsigned char *) chunk[NR_CHUNKS];
	_Atomic uint64_t base;		/* the markers' array; 0: none */
	/*
	 * Why accesses are ignored now, if they are (IDLE_*): one word, so
	 * that the hot path tests one load.
	 */
	_Atomic int idle;
	_Atomic uint64_t bad_markers, no_paddr, high_paddr;
	_Atomic uint64_t markers_seen, marks_run;
	/* Buffers: free ones, and full ones in order for the writer. */
	pthread_mutex_t lock;
	pthread_cond_t full_cv, free_cv;
	struct buf *free, *full_head, *full_tail;
	int writer_stop, write_failed;
	int write_errno;
	pthread_t writer;
	uint64_t bytes;
	struct kmap_counter *kmap;	/* mode kmap: instead of a log */
} g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.full_cv = PTHREAD_COND_INITIALIZER,
	.free_cv = PTHREAD_COND_INITIALIZER,
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int write_all(int fd, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * 0 once fd's data are on disk, or when fd is a pipe, a FIFO, a socket or
 * a device such as /dev/null, which have nothing to sync (fsync(2): EINVAL
 * or EROFS): a log read as it is written, through a FIFO, is a log too.
 */
static int sync_log(int fd)
{
	return fsync(fd) && errno != EINVAL && errno != EROFS ? -1 : 0;
}

static void *writer_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&g.lock);
	for (;;) {
		struct buf *b;

		while (!g.full_head && !g.writer_stop)
			pthread_cond_wait(&g.full_cv, &g.lock);
		b = g.full_head;
		if (!b)
			break;
		g.full_head = b->next;
		if (!g.full_head)
			g.full_tail = NULL;
		pthread_mutex_unlock(&g.lock);
		if (!g.write_failed && write_all(g.fd, b->data, b->len)) {
			g.write_failed = 1;
			g.write_errno = errno;
		}
		g.bytes += b->len;
		b->len = 0;
		pthread_mutex_lock(&g.lock);
		b->next = g.free;
		g.free = b;
		pthread_cond_broadcast(&g.free_cv);
	}
	pthread_mutex_unlock(&g.lock);
	return NULL;
}

/* Hand b to the writer (g.lock held). */
static void queue_full(struct buf *b)
{
	b->next = NULL;
	if (g.full_tail)
		g.full_tail->next = b;
	else
		g.full_head = b;
	g.full_tail = b;
	pthread_cond_signal(&g.full_cv);
}

/* v's buffer is full: to the writer, and a free one back (waits if none). */
static void swap_buf(struct vcpu *v)
{
	pthread_mutex_lock(&g.lock);
	queue_full(v->buf);
	while (!g.free)
		pthread_cond_wait(&g.free_cv, &g.lock);
	v->buf = g.free;
	g.free = v->buf->next;
	pthread_mutex_unlock(&g.lock);
}

static inline void *reserve(struct vcpu *v, size_t n)
{
	if (v->buf->len + n > BUF_SIZE)
		swap_buf(v);
	return v->buf->data + v->buf->len;
}

/* Chunk c of the line state, mapped now; NULL when it cannot be. */
static __attribute__((noinline)) unsigned char *map_chunk(uint64_t c)
{
	size_t size = ((size_t)1 << (CHUNK_SHIFT - g.gran_shift)) * g.line_bytes;
	unsigned char *l = NULL;
	void *m;

	if (c >= NR_CHUNKS) {
		atomic_fetch_add_explicit(&g.high_paddr, 1, memory_order_relaxed);
		return NULL;
	}
	m = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (atomic_compare_exchange_strong(&g.chunk[c], &l, m))
		return m;
	munmap(m, size);	/* another vCPU mapped it first */
	return l;
}

/* The state of paddr's line; NULL when it has none. */
static unsigned char *line_of(uint64_t paddr)
{
	uint64_t c = paddr >> CHUNK_SHIFT;
	unsigned char *l = NULL;

	if (c < NR_CHUNKS)
		l = atomic_load_explicit(&g.chunk[c], memory_order_acquire);
	if (!l && !(l = map_chunk(c)))
		return NULL;
	return l + ((paddr & ((1ull << CHUNK_SHIFT) - 1)) >> g.gran_shift) *
		   g.line_bytes;
}

#define RELAXED	memory_order_relaxed

static inline uint64_t line_load(void *l, unsigned int lb)
{
	switch (lb) {
	case 1:
		return atomic_load_explicit((_Atomic uint8_t *)l, RELAXED);
	case 2:
		return atomic_load_explicit((_Atomic uint16_t *)l, RELAXED);
	case 4:
		return atomic_load_explicit((_Atomic uint32_t *)l, RELAXED);
	}
	return atomic_load_explicit((_Atomic uint64_t *)l, RELAXED);
}

/* Compare and exchange; on failure *old is what the line holds. */
static inline int line_cas(void *l, uint64_t *old, uint64_t new,
			   unsigned int lb)
{
	int ok;

	switch (lb) {
	case 1: {
		uint8_t o = (uint8_t)*old;

		ok = atomic_compare_exchange_weak_explicit((_Atomic uint8_t *)l,
				&o, (uint8_t)new, RELAXED, RELAXED);
		*old = o;
		return ok;
	}
	case 2: {
		uint16_t o = (uint16_t)*old;

		ok = atomic_compare_exchange_weak_explicit((_Atomic uint16_t *)l,
				&o, (uint16_t)new, RELAXED, RELAXED);
		*old = o;
		return ok;
	}
	case 4: {
		uint32_t o = (uint32_t)*old;

		ok = atomic_compare_exchange_weak_explicit((_Atomic uint32_t *)l,
				&o, (uint32_t)new, RELAXED, RELAXED);
		*old = o;
		return ok;
	}
	}
	return atomic_compare_exchange_weak_explicit((_Atomic uint64_t *)l,
			old, new, RELAXED, RELAXED);
}

/*
 * mtrace's rule for an access by vCPU c: 1 when it may move the line.
 * Most accesses leave the state as it was (a vCPU's own lines): a load,
 * no locked instruction, which would take the host's cache line from
 * the other vCPU threads that read it.
 */
static inline int sharing_rule(void *l, unsigned int c, int write,
			       unsigned int lb)
{
	uint64_t old = line_load(l, lb), new;
	int shared;

	for (;;) {
		new = mtrace_line_next(old, c, write, lb * 4, g.others_mask,
				       &shared);
		if (new == old || line_cas(l, &old, new, lb))
			return shared;
	}
}

#define GUEST_PAGE_SHIFT 12
#define GUEST_PAGE_MASK	(~0xfffull)
#define NO_PAGE		(~0ull)		/* matches no page */

/*
 * vaddr's page, looked up in QEMU and cached; NULL for I/O or no
 * translation.
 */
static __attribute__((noinline)) const struct page_entry *
page_lookup(struct vcpu *v, qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	struct page_entry *e =
		&v->pages[(vaddr >> GUEST_PAGE_SHIFT) % PAGE_CACHE_SIZE];
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);

	v->page_misses++;
	if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
		atomic_fetch_add_explicit(&g.no_paddr, 1, memory_order_relaxed);
		return NULL;
	}
	e->vpage = vaddr & GUEST_PAGE_MASK;
	e->ppage = qemu_plugin_hwaddr_phys_addr(hw) & GUEST_PAGE_MASK;
	e->lines = line_of(e->ppage);
	return e;
}

/*
 * vaddr's page: its physical page and line states, from the vCPU's page
 * cache (PAGE_CACHE_SIZE), else from QEMU; NULL for I/O or no
 * translation.
 */
static inline const struct page_entry *page_of(struct vcpu *v,
		qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	const struct page_entry *e =
		&v->pages[(vaddr >> GUEST_PAGE_SHIFT) % PAGE_CACHE_SIZE];

	if (e->vpage == (vaddr & GUEST_PAGE_MASK))
		return e;
	return page_lookup(v, info, vaddr);
}

static void forget_pages(struct vcpu *v)
{
	int i;

	for (i = 0; i < PAGE_CACHE_SIZE; i++)
		v->pages[i].vpage = NO_PAGE;
}

/* Before an instruction that changes translation: see PAGE_CACHE_SIZE. */
static void translation_cb(unsigned int cpu, void *udata)
{
	(void)udata;
	forget_pages(&g.vcpu[cpu]);
	g.vcpu[cpu].page_flushes++;
}

/* Why g.idle ignores accesses. */
enum { IDLE_STOPPING = 1, IDLE_OUTSIDE_WINDOW = 2 };

/* Whether an access is a store, and its size's shift: see store_bit_of(). */
static inline int is_store(qemu_plugin_meminfo_t info)
{
	return g.store_bit ? (info & g.store_bit) != 0 :
			     qemu_plugin_mem_is_store(info);
}

static inline unsigned int size_shift(qemu_plugin_meminfo_t info)
{
	return g.size_mask ? info & g.size_mask :
			     qemu_plugin_mem_size_shift(info);
}

/*
 * The lines an access at @off in its page, of 1 << @size_shift bytes,
 * touches: one at line granularity (its first byte's, as mtrace did); at
 * byte granularity each of its bytes up to the page's end (the page entry
 * knows this page's states only: an access across two pages, rare, is
 * ruled on the first page's bytes).
 */
static inline unsigned int lines_touched(unsigned int off,
					 unsigned int size_shift,
					 unsigned int gran_shift)
{
	unsigned int n = 1u << size_shift;

	if (gran_shift)
		return 1;
	return off + n > (1u << GUEST_PAGE_SHIFT) ?
		(1u << GUEST_PAGE_SHIFT) - off : n;
}

/*
 * Whether the @n one-byte states at @l are all ones an access leaves as
 * they are, unflagged (mtrace_line_quiet()'s @clear and @set, each byte's
 * repeated in every byte of a word): eight states a load. A plain read,
 * as a first look: any state to change is changed by sharing_rule()'s
 * compare and exchange.
 */
static inline int bytes_quiet(const unsigned char *l, unsigned int n,
			      uint64_t clear, uint64_t set)
{
	uint64_t x;

	for (; n >= 8; n -= 8, l += 8) {
		memcpy(&x, l, 8);
		if ((x & clear) | ((x & set) ^ set))
			return 0;
	}
	for (; n; n--, l++)
		if ((*l & clear & 0xff) | ((*l & set & 0xff) ^ (set & 0xff)))
			return 0;
	return 1;
}

/* An access logged: flags say how (MTRACE_F_*). */
static __attribute__((noinline)) void log_access(struct vcpu *v,
		unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		uint64_t ip, uint64_t paddr, uint8_t flags)
{
	struct mtrace_rec_access *r = reserve(v, sizeof(*r));

	r->hdr.type = MTRACE_REC_ACCESS;
	r->hdr.size = sizeof(*r);
	r->hdr.cpu = (uint16_t)cpu;
	r->hdr.reserved = 0;
	r->hdr.ns = now_ns();
	r->vaddr = vaddr;
	r->ip = ip;
	r->paddr = paddr;
	r->pid = v->pid;
	r->size = (uint8_t)(1u << size_shift(info));
	r->flags = flags;
	r->reserved = 0;
	v->buf->len += sizeof(*r);
	v->logged++;
}

/*
 * What on_access() leaves to do, for an access at @ip: the page to look
 * up, the line's state to change, or the record to write. Not inlined,
 * so that the hot path saves no registers for it.
 */
static __attribute__((noinline)) void access_slow(struct vcpu *v,
		unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		uint64_t ip, int write)
{
	const struct page_entry *e = page_of(v, info, vaddr);
	uint64_t paddr = 0;
	uint8_t flags = write ? MTRACE_F_WRITE : 0;
	int shared = 0;

	if (e) {
		unsigned int off = vaddr & ~GUEST_PAGE_MASK;

		paddr = e->ppage | off;
		flags |= MTRACE_F_PADDR;
	}
	if (e && e->lines) {
		unsigned int off = vaddr & ~GUEST_PAGE_MASK, i;
		unsigned int n = lines_touched(off, size_shift(info), g.gran_shift);
		unsigned char *l = e->lines + (off >> g.gran_shift) * g.line_bytes;

		for (i = 0; i < n; i++, l += g.line_bytes)
			shared |= sharing_rule(l, cpu, write, g.line_bytes);
	}
	if (shared)
		flags |= MTRACE_F_SHARED;
	else if (g.mode == MTRACE_MODE_SHARING)
		return;
	log_access(v, cpu, info, vaddr, ip, paddr, flags);
}

/*
 * One load or store by a kernel instruction at @ip (not a marker): the
 * plugin's hot path, run for every such access, made (ACCESS_CB) for
 * each line-state width @lb and granularity @gs so that both are
 * constants, and used when store_bit_of() found the bit (and, at byte
 * granularity, size_mask_of() the size's). Most accesses end here: their
 * page cached, their lines' states unchanged and unshared, in mode
 * sharing. The rest go on to access_slow(), a tail call: the path here
 * calls nothing, and so saves no registers.
 */
static inline __attribute__((always_inline)) void
on_access(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
	  void *ip, unsigned int lb, unsigned int gs)
{
	struct vcpu *v = &g.vcpu[cpu];
	const struct page_entry *e =
		&v->pages[(vaddr >> GUEST_PAGE_SHIFT) % PAGE_CACHE_SIZE];
	int write = (info & g.store_bit) != 0;

	/* Stopping, or window=task outside mtrace_task.ko's markers. */
	if (__builtin_expect(atomic_load_explicit(&g.idle, RELAXED), 0))
		return;
	v->accesses++;
	if (__builtin_expect(e->vpage == (vaddr & GUEST_PAGE_MASK) &&
			     e->lines && g.mode == MTRACE_MODE_SHARING, 1)) {
		unsigned int off = vaddr & ~GUEST_PAGE_MASK;
		const unsigned char *l = e->lines + (off >> gs) * lb;
		unsigned int n, i;
		uint64_t old, clear, set;
		int shared;

		if (gs) {	/* a line: the one of the first byte */
			old = line_load((void *)l, lb);
			if (mtrace_line_next(old, cpu, write, lb * 4,
					     g.others_mask, &shared) == old &&
			    !shared)
				return;
		} else if (lb == 1) {
			n = lines_touched(off, info & g.size_mask, gs);
			mtrace_line_quiet(cpu, write, 4, g.others_mask, &clear,
					  &set);
			if (bytes_quiet(l, n, clear * 0x0101010101010101ull,
					set * 0x0101010101010101ull))
				return;
		} else {
			n = lines_touched(off, info & g.size_mask, gs);
			for (i = 0; i < n; i++, l += lb) {
				old = line_load((void *)l, lb);
				if (mtrace_line_next(old, cpu, write, lb * 4,
						     g.others_mask, &shared) != old ||
				    shared)
					break;
			}
			if (i == n)
				return;
		}
	}
	access_slow(v, cpu, info, vaddr, (uint64_t)(uintptr_t)ip, write);
}

/*
 * One callback for loads and stores, which asks which one it has: QEMU
 * 7.2 does not keep them apart. In a boot of Debian's 7.2 (-smp 1), a
 * callback registered for QEMU_PLUGIN_MEM_R ran for 83.0 million stores
 * and 0.16 million loads, one for QEMU_PLUGIN_MEM_W for 145.5 million
 * loads and the same stores.
 */
#define ACCESS_CB(lb, gran, gs)						\
static void access_cb_##gran##lb(unsigned int cpu,			\
		qemu_plugin_meminfo_t info, uint64_t vaddr, void *ip)	\
{									\
	on_access(cpu, info, vaddr, ip, lb, gs);			\
}
ACCESS_CB(1, line, MTRACE_LINE_SHIFT)
ACCESS_CB(2, line, MTRACE_LINE_SHIFT)
ACCESS_CB(4, line, MTRACE_LINE_SHIFT)
ACCESS_CB(8, line, MTRACE_LINE_SHIFT)
ACCESS_CB(1, byte, MTRACE_BYTE_SHIFT)
ACCESS_CB(2, byte, MTRACE_BYTE_SHIFT)
ACCESS_CB(4, byte, MTRACE_BYTE_SHIFT)
ACCESS_CB(8, byte, MTRACE_BYTE_SHIFT)

/* The hot path's callback for a width and a granularity. */
static qemu_plugin_vcpu_mem_cb_t access_cb_for(unsigned int lb,
					       unsigned int gs)
{
	static const qemu_plugin_vcpu_mem_cb_t line[] = {
		access_cb_line1, access_cb_line2, access_cb_line4, access_cb_line8,
	}, byte[] = {
		access_cb_byte1, access_cb_byte2, access_cb_byte4, access_cb_byte8,
	};
	unsigned int i = lb == 1 ? 0 : lb == 2 ? 1 : lb == 4 ? 2 : 3;

	return gs ? line[i] : byte[i];
}

/* Every access, when QEMU must say whether it is a store. */
static void access_cb_asking(unsigned int cpu, qemu_plugin_meminfo_t info,
			     uint64_t vaddr, void *ip)
{
	if (atomic_load_explicit(&g.idle, RELAXED))
		return;
	g.vcpu[cpu].accesses++;
	access_slow(&g.vcpu[cpu], cpu, info, vaddr, (uint64_t)(uintptr_t)ip,
		    qemu_plugin_mem_is_store(info));
}

static void log_switch(struct vcpu *v, unsigned int cpu, uint32_t pid)
{
	struct mtrace_rec_switch *r;

	if (g.kmap) {		/* no log: the pid is the accesses' */
		v->pid = pid;
		v->switches++;
		return;
	}
	r = reserve(v, sizeof(*r));

	r->hdr.type = MTRACE_REC_SWITCH;
	r->hdr.size = sizeof(*r);
	r->hdr.cpu = (uint16_t)cpu;
	r->hdr.reserved = 0;
	r->hdr.ns = now_ns();
	r->pid = pid;
	r->reserved = 0;
	v->buf->len += sizeof(*r);
	v->switches++;
	v->pid = pid;
}

/*
 * The bit of a meminfo that says "store", if one does; else 0, and the
 * hot path asks QEMU each time. The API keeps meminfo opaque and answers
 * with a call (qemu_plugin_mem_is_store(), a function of its argument
 * alone); QEMU 7.2 answers from one bit. So the bit is found here, and
 * kept only if the call agrees with it on every bit alone and on 65,536
 * other values: the call and its return showed in a profile of the hot
 * path, and a path with a call saves registers.
 */
static uint32_t store_bit_of(void)
{
	uint32_t bit = 0, x = 1;
	int i;

	for (i = 0; i < 32; i++) {
		if (!qemu_plugin_mem_is_store(1u << i))
			continue;
		if (bit)
			return 0;
		bit = 1u << i;
	}
	for (i = 0; bit && i < 65536; i++) {
		x = x * 1103515245u + 12345u;
		if (qemu_plugin_mem_is_store(x) != ((x & bit) != 0))
			return 0;
	}
	return bit;
}

/*
 * The bits of a meminfo that are its size's shift, if the low ones are:
 * else 0, and mode kmap asks QEMU each time. As store_bit_of() does, kept
 * only if qemu_plugin_mem_size_shift() agrees with them on every value
 * below 256 and on 65,536 others (QEMU 7.2 keeps the shift in the low
 * bits of the MemOp); the call showed in a profile of mode kmap.
 */
static uint32_t size_mask_of(void)
{
	uint32_t mask, x = 7;
	int i;

	for (mask = 1; mask <= 7; mask = mask << 1 | 1) {
		for (i = 0; i < 256; i++)
			if (qemu_plugin_mem_size_shift((uint32_t)i) != ((uint32_t)i & mask))
				break;
		if (i == 256)
			break;
	}
	if (mask > 7)
		return 0;
	for (i = 0; i < 65536; i++) {
		x = x * 1103515245u + 12345u;
		if (qemu_plugin_mem_size_shift(x) != (x & mask))
			return 0;
	}
	return mask;
}

/* What a marker's load means (its callback's userdata). */
enum {
	MARK_BASE = 1, MARK_PID_LO, MARK_PID_HI, MARK_END,
	MARK_LBASE, MARK_VAL, MARK_VAL_LAST, MARK_EVENT,	/* mtrace_label.ko's */
};

/*
 * Mode kmap: every kernel access to kmap_counter.c, which counts it on its
 * object. One thread runs every vCPU (vm/run --mtrace-kmap asks QEMU for
 * one), so nothing is locked.
 */
static void kmap_access_cb(unsigned int cpu, qemu_plugin_meminfo_t info,
			   uint64_t vaddr, void *ip)
{
	kmap_counter_access(g.kmap, cpu, vaddr, 1u << size_shift(info),
			    (uint64_t)(uintptr_t)ip, g.vcpu[cpu].pid,
			    is_store(info));
}

/*
 * filter=: every access (but while idle) to the policy first, and what it
 * keeps to the callback the plugin would have had without it (kept_cb).
 * Without filter= this callback is not registered: the others call no
 * policy.
 */
static void filter_access_cb(unsigned int cpu, qemu_plugin_meminfo_t info,
			     uint64_t vaddr, void *ip)
{
	struct vcpu *v = &g.vcpu[cpu];

	if (atomic_load_explicit(&g.idle, RELAXED))
		return;
	if (!g.filter.keep(vaddr, 1u << size_shift(info), is_store(info), cpu,
			   v->pid, (uint64_t)(uintptr_t)ip)) {
		v->dropped++;
		return;
	}
	g.kept_cb(cpu, info, vaddr, ip);
}

/* What filter= dropped, for the summary ("" without filter=). */
static void filter_summary(char *out, size_t len)
{
	uint64_t dropped = 0;
	int i;

	*out = 0;
	if (!g.filter_path)
		return;
	for (i = 0; i < g.nvcpus; i++)
		dropped += g.vcpu[i].dropped;
	snprintf(out, len,
		 "mtrace: filter %s (filter-arg=%s): %llu kernel accesses dropped, not seen by the %s\n",
		 g.filter_path, g.filter_arg ? g.filter_arg : "",
		 (unsigned long long)dropped,
		 g.kmap ? "counters" : "sharing rule nor logged");
}

/* A marker's load (tb_trans() gives these their own callback). */
static void mark_cb(unsigned int cpu, qemu_plugin_meminfo_t info,
		    uint64_t vaddr, void *udata)
{
	struct vcpu *v = &g.vcpu[cpu];
	uint64_t base = atomic_load(&g.base), off = vaddr - base;
	int i;

	(void)info;
	if (atomic_load_explicit(&g.idle, RELAXED) & IDLE_STOPPING)
		return;
	atomic_fetch_add_explicit(&g.marks_run, 1, memory_order_relaxed);
	switch ((int)(uintptr_t)udata) {
	case MARK_LBASE:
		if (g.kmap)
			kmap_counter_lbase(g.kmap, vaddr);
		return;
	case MARK_VAL:
	case MARK_VAL_LAST:
	case MARK_EVENT:
		if (g.kmap)
			kmap_counter_mark(g.kmap, cpu,
				(uintptr_t)udata == MARK_VAL ? KMAP_MARK_VAL :
				(uintptr_t)udata == MARK_VAL_LAST ?
				KMAP_MARK_VAL_LAST : KMAP_MARK_EVENT,
				vaddr, v->pid);
		return;
	case MARK_BASE:
		atomic_store(&g.base, vaddr);
		atomic_fetch_and(&g.idle, ~IDLE_OUTSIDE_WINDOW);
		return;
	case MARK_END:
		atomic_store(&g.base, 0);
		if (g.window_task)
			atomic_fetch_or(&g.idle, IDLE_OUTSIDE_WINDOW);
		/* Every vCPU's task is unknown from here: told on this one. */
		for (i = 0; i < g.nvcpus; i++)
			g.vcpu[i].pid = MTRACE_PID_UNKNOWN;
		log_switch(v, cpu, MTRACE_PID_UNKNOWN);
		return;
	}
	if (!base || off >= 4096) {
		atomic_fetch_add(&g.bad_markers, 1);
		v->have_lo = 0;
		return;
	}
	if ((uintptr_t)udata == MARK_PID_LO) {
		v->pid_lo = (uint32_t)off;
		v->have_lo = 1;
		return;
	}
	if (!v->have_lo) {
		atomic_fetch_add(&g.bad_markers, 1);
		return;
	}
	v->have_lo = 0;
	log_switch(v, cpu, (uint32_t)off << 12 | v->pid_lo);
}

/* The markers' bytes (mtrace_log.h, mtrace_label.h), by MARK_*. */
static const struct {
	const char *bytes;
	int mark;
} markers[] = {
	{ MTRACE_MARK_BASE, MARK_BASE },
	{ MTRACE_MARK_PID_LO, MARK_PID_LO },
	{ MTRACE_MARK_PID_HI, MARK_PID_HI },
	{ MTRACE_MARK_END, MARK_END },
	{ MTRACE_MARK_LBASE, MARK_LBASE },
	{ MTRACE_MARK_VAL, MARK_VAL },
	{ MTRACE_MARK_VAL_LAST, MARK_VAL_LAST },
	{ MTRACE_MARK_EVENT, MARK_EVENT },
};

/* The marker an instruction is (MARK_*), if it is one; else 0. */
static int marker_of(const struct qemu_plugin_insn *insn)
{
	const void *d;
	size_t i;

	if (qemu_plugin_insn_size(insn) != MTRACE_MARK_LEN)
		return 0;
	d = qemu_plugin_insn_data(insn);
	for (i = 0; i < sizeof(markers) / sizeof(markers[0]); i++)
		if (!memcmp(d, markers[i].bytes, MTRACE_MARK_LEN))
			return markers[i].mark;
	return 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		int mark;

		/* The built-in policy: on ip alone, so once here. */
		if (!mtrace_default_keep(0, 0, 0, 0, MTRACE_PID_UNKNOWN, pc))
			continue;
		if (mtrace_insn_changes_translation(qemu_plugin_insn_data(insn),
						    qemu_plugin_insn_size(insn)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn,
				translation_cb, QEMU_PLUGIN_CB_NO_REGS, NULL);
		mark = marker_of(insn);
		if (mark) {
			atomic_fetch_add_explicit(&g.markers_seen, 1,
						  memory_order_relaxed);
			qemu_plugin_register_vcpu_mem_cb(insn, mark_cb,
				QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
				(void *)(uintptr_t)mark);
			continue;
		}
		qemu_plugin_register_vcpu_mem_cb(insn, g.access_cb,
			QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
			(void *)(uintptr_t)pc);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	uint64_t accesses = 0, logged = 0, switches = 0, page_misses = 0;
	uint64_t page_flushes = 0;
	char msg[2048], filtered[1024];
	int i;

	(void)id;
	(void)udata;
	atomic_fetch_or(&g.idle, IDLE_STOPPING);
	filter_summary(filtered, sizeof(filtered));
	if (g.kmap) {
		kmap_counter_close(g.kmap, msg, sizeof(msg));
		g.kmap = NULL;
		fprintf(stderr, "%s\n%s", msg, filtered);
		return;
	}
	pthread_mutex_lock(&g.lock);
	for (i = 0; i < g.nvcpus; i++) {
		struct vcpu *v = &g.vcpu[i];

		accesses += v->accesses;
		logged += v->logged;
		switches += v->switches;
		page_misses += v->page_misses;
		page_flushes += v->page_flushes;
		if (v->buf && v->buf->len) {
			queue_full(v->buf);
			v->buf = NULL;
		}
	}
	g.writer_stop = 1;
	pthread_cond_signal(&g.full_cv);
	pthread_mutex_unlock(&g.lock);
	pthread_join(g.writer, NULL);
	if (g.write_failed || sync_log(g.fd) || close(g.fd)) {
		snprintf(msg, sizeof(msg), "mtrace: %s: write error: %s\n",
			 g.file, strerror(g.write_failed ? g.write_errno : errno));
		fputs(msg, stderr);
		return;
	}
	snprintf(msg, sizeof(msg),
		 "mtrace: %s: %llu kernel accesses seen%s, %llu logged (mode %s, granularity %s), %llu task switches, %llu bytes; %llu without a physical address, %llu with the physical page cached (flushed %llu times), markers: %llu translated, %llu run, %llu bad\n",
		 g.file, (unsigned long long)accesses,
		 g.window_task ? " while mtrace_task.ko was loaded" : "",
		 (unsigned long long)logged,
		 g.mode == MTRACE_MODE_ALL ? "all" : "sharing",
		 g.gran_shift ? "line" : "byte",
		 (unsigned long long)switches,
		 (unsigned long long)(g.bytes + sizeof(struct mtrace_log_header)),
		 (unsigned long long)atomic_load(&g.no_paddr),
		 (unsigned long long)(accesses - page_misses),
		 (unsigned long long)page_flushes,
		 (unsigned long long)atomic_load(&g.markers_seen),
		 (unsigned long long)atomic_load(&g.marks_run),
		 (unsigned long long)atomic_load(&g.bad_markers));
	/* On QEMU's standard error: its log (qemu_plugin_outs) needs -d plugin. */
	fputs(msg, stderr);
	fputs(filtered, stderr);
}

MTRACE_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					     const qemu_info_t *info,
					     int argc, char **argv)
{
	static const uint16_t sizes[MTRACE_REC_NR_TYPES] = MTRACE_REC_SIZES;
	struct mtrace_log_header h;
	struct mtrace_args a;
	char err[512];
	int i, nbufs;

	if (mtrace_check_qemu(info, err, sizeof(err)) ||
	    mtrace_parse_args(argc, argv, &a, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	g.mode = a.mode;
	g.window_task = a.window_task;
	g.gran_shift = a.gran_shift;
	if (a.filter) {
		if (mtrace_filter_load(a.filter, a.filter_arg, &g.filter, err,
				       sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return -1;
		}
		g.filter_path = strdup(a.filter);
		g.filter_arg = a.filter_arg ? strdup(a.filter_arg) : NULL;
	}
	g.file = strdup(a.file);
	g.nvcpus = info->system.max_vcpus;
	g.others_mask = (1ull << g.nvcpus) - 1;	/* nvcpus <= 32 */
	for (g.line_bytes = 1; g.line_bytes * 4 < (unsigned int)g.nvcpus;)
		g.line_bytes *= 2;
	g.store_bit = store_bit_of();
	g.size_mask = size_mask_of();
	/* The hot path knows the store bit, and at byte granularity the size. */
	g.access_cb = !g.store_bit || (!g.gran_shift && !g.size_mask) ?
		      access_cb_asking : access_cb_for(g.line_bytes, g.gran_shift);
	if (g.window_task)
		g.idle = IDLE_OUTSIDE_WINDOW;
	g.vcpu = aligned_alloc(64, sizeof(*g.vcpu) * (size_t)g.nvcpus);
	nbufs = BUFS_PER_VCPU * g.nvcpus;
	if (!g.file || !g.vcpu) {
		fprintf(stderr, "mtrace: out of memory\n");
		return -1;
	}
	memset(g.vcpu, 0, sizeof(*g.vcpu) * (size_t)g.nvcpus);
	if (a.kmap) {
		struct kmap_counter_config c = {
			.stream = a.file, .system_map = a.symbols,
			.nr_vcpus = (unsigned int)g.nvcpus,
			.max_cells = a.max_cells,
		};

		for (i = 0; i < g.nvcpus; i++)
			g.vcpu[i].pid = MTRACE_PID_UNKNOWN;
		g.kmap = kmap_counter_open(&c, err, sizeof(err));
		if (!g.kmap) {
			fprintf(stderr, "%s\n", err);
			return -1;
		}
		g.access_cb = kmap_access_cb;
		g.idle = 0;
		if (g.filter_path) {
			g.kept_cb = g.access_cb;
			g.access_cb = filter_access_cb;
		}
		qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
		qemu_plugin_register_atexit_cb(id, at_exit, NULL);
		return 0;
	}
	for (i = 0; i < nbufs; i++) {
		struct buf *b = calloc(1, sizeof(*b));

		if (!b || !(b->data = malloc(BUF_SIZE))) {
			fprintf(stderr, "mtrace: out of memory\n");
			return -1;
		}
		if (i < g.nvcpus) {
			g.vcpu[i].buf = b;
			g.vcpu[i].pid = MTRACE_PID_UNKNOWN;
			forget_pages(&g.vcpu[i]);
		} else {
			b->next = g.free;
			g.free = b;
		}
	}
	g.fd = open(g.file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (g.fd < 0) {
		fprintf(stderr, "mtrace: %s: %s\n", g.file, strerror(errno));
		return -1;
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MTRACE_LOG_MAGIC, 8);
	h.version = MTRACE_LOG_VERSION;
	h.header_size = sizeof(h);
	h.nr_types = MTRACE_REC_NR_TYPES;
	h.nr_cpus = (uint16_t)g.nvcpus;
	h.mode = (uint8_t)g.mode;
	h.line_shift = (uint8_t)g.gran_shift;
	for (i = 0; i < MTRACE_REC_NR_TYPES; i++)
		h.rec_size[i] = sizes[i];
	if (write_all(g.fd, &h, sizeof(h))) {
		fprintf(stderr, "mtrace: %s: write error: %s\n", g.file,
			strerror(errno));
		return -1;
	}
	if (pthread_create(&g.writer, NULL, writer_main, NULL)) {
		fprintf(stderr, "mtrace: cannot start the writer thread\n");
		return -1;
	}
	if (g.filter_path) {
		g.kept_cb = g.access_cb;
		g.access_cb = filter_access_cb;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
