// SPDX-License-Identifier: GPL-2.0
/*
 * mtrace_label: tell the mtrace QEMU plugin's mode kmap what the kernel
 * allocates and frees, so that it can count each load and store on the
 * object it falls in, as Memorizer does inside the kernel.
 *
 * It uses nothing of Memorizer or KASAN, only tracepoints and exported
 * functions, so it builds against a distribution's headers and loads into
 * its unmodified kernel. The plugin sees instruction bytes and load
 * addresses, never registers or memory: every fact goes out as marker
 * loads whose addresses carry 12 bits each (mtrace_label.h).
 *
 * What it labels, from the kernel's tracepoints (found with
 * for_each_kernel_tracepoint(), as mtrace_task.ko does, since the
 * tracepoints are not exported): slab objects (kmalloc, kmem_cache_alloc,
 * kfree, kmem_cache_free), pages (mm_page_alloc, mm_page_free,
 * mm_page_free_batched), vmalloc areas (alloc_vmap_area,
 * free_vmap_area_noflush), alloc_percpu() areas, task stacks (at fork,
 * and those of the tasks that ran before the module), commands (fork,
 * exec, rename) and where each CPU's per-CPU area is. Pages and vmalloc
 * areas come with return addresses, from which the plugin picks the call
 * site (the tracepoints carry none) and recognises the pages that a slab,
 * a large kmalloc or a vmalloc area takes, which are not objects of their
 * own. Globals are the plugin's, from System.map.
 *
 * A cache's name is not in any exported interface: at load the module
 * makes a cache of a known name and finds the offset of the name pointer
 * in struct kmem_cache, then reads names there, without faulting.
 *
 * What the kernel allocated before the module loaded has no label: the
 * module walks the page frames for the slabs (their cache and object
 * stride found at load as the name is: the cache pointer that struct
 * slab keeps over struct page, the stride that struct kmem_cache keeps
 * before the object size), whose objects the plugin finds at their first
 * access, and reads /proc/vmallocinfo for the vmalloc areas.
 */
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "mtrace_label.h"

static u8 label_array[4096] __aligned(4096);

/* A marker: movb (%rcx),%al behind the four prefixes given. */
#define LABEL_MARK(prefixes)	".byte " prefixes ", 0x8a, 0x01\n\t"

static __always_inline void mark_lbase(void)
{
	asm volatile(LABEL_MARK(MTRACE_LABEL_PREFIX_LBASE)
		     : : "c" (label_array) : "rax", "memory");
}

static __always_inline void mark_val(unsigned int chunk)
{
	asm volatile(LABEL_MARK(MTRACE_LABEL_PREFIX_VAL)
		     : : "c" (label_array + chunk) : "rax", "memory");
}

static __always_inline void mark_val_last(unsigned int chunk)
{
	asm volatile(LABEL_MARK(MTRACE_LABEL_PREFIX_VAL_LAST)
		     : : "c" (label_array + chunk) : "rax", "memory");
}

static __always_inline void mark_event(unsigned int event)
{
	asm volatile(LABEL_MARK(MTRACE_LABEL_PREFIX_EVENT)
		     : : "c" (label_array + event) : "rax", "memory");
}

/* value in the fewest 12-bit chunks that hold it, sign-extended. */
static void send(s64 value)
{
	int n = 1, i;

	while (n < 6 && (value >> (12 * n - 1) != 0 &&
			 value >> (12 * n - 1) != -1))
		n++;
	for (i = n - 1; i > 0; i--)
		mark_val((value >> (12 * i)) & 0xfff);
	mark_val_last(value & 0xfff);
}

/* len bytes of s as values of 8, NUL-padded. */
static void send_string(const char *s, size_t len)
{
	bool end = false;
	size_t i, j;

	for (i = 0; i < len; i += 8) {
		u64 v = 0;

		for (j = 0; j < 8 && i + j < len && !end; j++) {
			end = !s[i + j];
			v |= (u64)(u8)s[i + j] << (8 * j);
		}
		send(v);
	}
}

static void send_frames(void)
{
	unsigned long entries[MTRACE_LABEL_MAX_FRAMES];
	unsigned int n, i;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++)
		send(entries[i]);
}

static unsigned int context(void)
{
	if (in_task())
		return 0;
	return in_hardirq() ? 1 : 2;
}

/*
 * A label: BEGIN, the arguments, the event. Interrupts stay off between,
 * so that no other label starts on this CPU; none is sent from an NMI.
 */
#define LABEL(event, args)						\
	do {								\
		unsigned long flags;					\
									\
		if (in_nmi())						\
			break;						\
		local_irq_save(flags);					\
		mark_event(MTRACE_LABEL_BEGIN);				\
		args;							\
		mark_event(event);					\
		local_irq_restore(flags);				\
	} while (0)

/* Where struct kmem_cache keeps its name; -1: not found. */
static int name_offset = -1;

static const char *cache_name(const struct kmem_cache *s)
{
	const char *name;

	if (name_offset < 0 ||
	    copy_from_kernel_nofault(&name, (const char *)s + name_offset,
				     sizeof(name)))
		return NULL;
	return name;
}

/*
 * Caches announced, by address and name pointer (a cache destroyed and
 * another made at its address has another name): announced again when
 * the slot holds another cache.
 */
#define CACHE_SLOTS	1024
static struct {
	const struct kmem_cache *s;
	const char *name;
} caches[CACHE_SLOTS];
static DEFINE_SPINLOCK(caches_lock);

static void announce_cache(struct kmem_cache *s)
{
	unsigned int slot = hash_ptr(s, ilog2(CACHE_SLOTS));
	const char *name = cache_name(s);
	char buf[32] = "";

	if (READ_ONCE(caches[slot].s) == s &&
	    READ_ONCE(caches[slot].name) == name)
		return;
	if (name && copy_from_kernel_nofault(buf, name, sizeof(buf) - 1))
		buf[0] = 0;
	LABEL(MTRACE_LABEL_CACHE,
	      send((long)s); send(kmem_cache_size(s));
	      send_string(buf, sizeof(buf)));
	spin_lock(&caches_lock);
	caches[slot].s = s;
	caches[slot].name = name;
	spin_unlock(&caches_lock);
}

static void probe_kmem_cache_alloc(void *data, unsigned long call_site,
				   const void *ptr, struct kmem_cache *s,
				   gfp_t gfp, int node)
{
	if (ZERO_OR_NULL_PTR(ptr))
		return;
	announce_cache(s);
	LABEL(MTRACE_LABEL_CACHE_ALLOC,
	      send(context()); send((long)ptr); send(call_site);
	      send((long)s));
}

static void probe_kmalloc(void *data, unsigned long call_site,
			  const void *ptr, size_t bytes_req,
			  size_t bytes_alloc, gfp_t gfp, int node)
{
	if (ZERO_OR_NULL_PTR(ptr))
		return;
	LABEL(MTRACE_LABEL_KMALLOC,
	      send(context()); send((long)ptr); send(call_site);
	      send(bytes_req); send(bytes_alloc));
}

/* enum memorizer_free_api */
#define FREE_KFREE	0
#define FREE_CACHE	1

static void probe_kfree(void *data, unsigned long call_site, const void *ptr)
{
	if (ZERO_OR_NULL_PTR(ptr))
		return;
	LABEL(MTRACE_LABEL_SLAB_FREE,
	      send(context()); send((long)ptr); send(call_site);
	      send(FREE_KFREE));
}

static void probe_kmem_cache_free(void *data, unsigned long call_site,
				  const void *ptr, const struct kmem_cache *s)
{
	if (ZERO_OR_NULL_PTR(ptr))
		return;
	LABEL(MTRACE_LABEL_SLAB_FREE,
	      send(context()); send((long)ptr); send(call_site);
	      send(FREE_CACHE));
}

/*
 * Bulk allocations and frees have no tracepoint: a kretprobe on the one,
 * a kprobe on the other, by the names 6.12 and earlier kernels give them
 * (on a kernel without kprobes, they go unlabeled).
 */
#ifdef CONFIG_KRETPROBES
struct bulk_alloc {
	struct kmem_cache *s;
	void **p;
};

static int bulk_alloc_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct bulk_alloc *b = (struct bulk_alloc *)ri->data;

	b->s = (struct kmem_cache *)regs_get_kernel_argument(regs, 0);
	b->p = (void **)regs_get_kernel_argument(regs, 3);
	return 0;
}

static int bulk_alloc_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct bulk_alloc *b = (struct bulk_alloc *)ri->data;
	long i, n = (long)regs_return_value(regs);
	unsigned long site = get_kretprobe_retaddr(ri);

	if (n > 0)
		announce_cache(b->s);
	for (i = 0; i < n; i++)
		LABEL(MTRACE_LABEL_CACHE_ALLOC,
		      send(context()); send((long)b->p[i]); send(site);
		      send((long)b->s));
	return 0;
}

static struct kretprobe bulk_alloc_probe = {
	.entry_handler = bulk_alloc_entry,
	.handler = bulk_alloc_return,
	.data_size = sizeof(struct bulk_alloc),
	.maxactive = 64,
};

static int bulk_free_entry(struct kprobe *kp, struct pt_regs *regs)
{
	size_t i, n = regs_get_kernel_argument(regs, 1);
	void **p = (void **)regs_get_kernel_argument(regs, 2);
	unsigned long site = *(unsigned long *)kernel_stack_pointer(regs);

	for (i = 0; i < n; i++)
		if (!ZERO_OR_NULL_PTR(p[i]))
			LABEL(MTRACE_LABEL_SLAB_FREE,
			      send(context()); send((long)p[i]); send(site);
			      send(FREE_CACHE));
	return 0;
}

static struct kprobe bulk_free_probe = {
	.symbol_name = "kmem_cache_free_bulk",
	.pre_handler = bulk_free_entry,
};

static int probe_bulk(void)
{
	static const char *const names[] = {
		"kmem_cache_alloc_bulk_noprof", "kmem_cache_alloc_bulk",
	};
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(names) && ret; i++) {
		bulk_alloc_probe.kp.symbol_name = names[i];
		bulk_alloc_probe.kp.addr = NULL;
		ret = register_kretprobe(&bulk_alloc_probe);
	}
	if (ret)
		return ret;
	ret = register_kprobe(&bulk_free_probe);
	if (ret)
		unregister_kretprobe(&bulk_alloc_probe);
	return ret;
}

static void unprobe_bulk(void)
{
	unregister_kprobe(&bulk_free_probe);
	unregister_kretprobe(&bulk_alloc_probe);
}
#else
static int probe_bulk(void)
{
	return -EOPNOTSUPP;
}

static void unprobe_bulk(void)
{
}
#endif

static bool bulk_probed;

static void probe_mm_page_alloc(void *data, struct page *page,
				unsigned int order, gfp_t gfp,
				int migratetype)
{
	if (!page || PageHighMem(page))
		return;
	LABEL(MTRACE_LABEL_PAGES,
	      send(context()); send((long)page_address(page)); send(order);
	      send_frames());
}

static void page_free(struct page *page)
{
	if (PageHighMem(page))
		return;
	LABEL(MTRACE_LABEL_PAGES_FREE,
	      send(context()); send((long)page_address(page)); send_frames());
}

static void probe_mm_page_free(void *data, struct page *page,
			       unsigned int order)
{
	page_free(page);
}

static void probe_mm_page_free_batched(void *data, struct page *page)
{
	page_free(page);
}

static bool in_vmalloc_range(unsigned long addr)
{
	return addr >= VMALLOC_START && addr < VMALLOC_END;
}

static void probe_alloc_vmap_area(void *data, unsigned long addr,
				  unsigned long size, unsigned long align,
				  unsigned long vstart, unsigned long vend,
				  int failed)
{
	if (failed || !in_vmalloc_range(addr))
		return;
	LABEL(MTRACE_LABEL_VMALLOC,
	      send(context()); send(addr); send(size); send_frames());
}

static void probe_free_vmap_area_noflush(void *data, unsigned long va_start,
					 unsigned long nr_lazy,
					 unsigned long nr_lazy_max)
{
	if (!in_vmalloc_range(va_start))
		return;
	LABEL(MTRACE_LABEL_VFREE,
	      send(context()); send(va_start); send_frames());
}

static void probe_percpu_alloc(void *data, unsigned long call_site,
			       bool reserved, bool is_atomic, size_t size,
			       size_t align, void *base_addr, int off,
			       void __percpu *ptr, size_t bytes_alloc,
			       gfp_t gfp)
{
	LABEL(MTRACE_LABEL_PERCPU,
	      send(context()); send((long)ptr); send(size); send(call_site));
}

static void probe_percpu_free(void *data, void *base_addr, int off,
			      void __percpu *ptr)
{
	LABEL(MTRACE_LABEL_PERCPU_FREE,
	      send(context()); send((long)ptr); send_frames());
}

static void send_comm(const struct task_struct *t, const char *comm)
{
	LABEL(MTRACE_LABEL_COMM,
	      send(t->pid); send_string(comm, TASK_COMM_LEN));
}

static void send_stack(struct task_struct *t, bool found)
{
	LABEL(MTRACE_LABEL_STACK,
	      send((long)task_stack_page(t)); send(THREAD_SIZE);
	      send(t->pid); send(found));
}

static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	send_stack(child, false);
	send_comm(child, child->comm);
}

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	send_comm(p, p->comm);
}

static void probe_rename(void *data, struct task_struct *task,
			 const char *comm)
{
	send_comm(task, comm);
}

static void probe_free(void *data, struct task_struct *p)
{
	LABEL(MTRACE_LABEL_STACK_FREE,
	      send((long)task_stack_page(p)); send(p->pid));
}

/*
 * A module's globals: its data symbols with their sizes, from its
 * kallsyms, as it comes (the modules loaded before this one go
 * unlabeled); its data sections as it goes, with their globals.
 */
static const enum mod_mem_type data_mems[] = {
	MOD_DATA, MOD_RODATA, MOD_RO_AFTER_INIT,
};

static void module_coming(struct module *mod)
{
#ifdef CONFIG_KALLSYMS
	struct mod_kallsyms *ks;
	unsigned int i;

	rcu_read_lock_sched();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++) {
		const Elf_Sym *sym = &ks->symtab[i];

		if (!sym->st_size || !strchr("dDbBrR", ks->typetab[i]))
			continue;
		LABEL(MTRACE_LABEL_GLOBAL,
		      send(sym->st_value); send(sym->st_size));
	}
	rcu_read_unlock_sched();
#endif
}

static void module_going(struct module *mod)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(data_mems); i++) {
		const struct module_memory *m = &mod->mem[data_mems[i]];

		if (m->size)
			LABEL(MTRACE_LABEL_MODULE_GONE,
			      send((long)m->base); send(m->size);
			      send_frames());
	}
}

static int module_event(struct notifier_block *nb, unsigned long action,
			void *data)
{
	if (action == MODULE_STATE_COMING)
		module_coming(data);
	else if (action == MODULE_STATE_GOING)
		module_going(data);
	return NOTIFY_DONE;
}

static struct notifier_block module_nb = {
	.notifier_call = module_event,
};

static struct label_probe {
	const char *name;
	void *probe;
	struct tracepoint *tp;
} probes[] = {
	{ "kmem_cache_alloc", probe_kmem_cache_alloc },
	{ "kmalloc", probe_kmalloc },
	{ "kfree", probe_kfree },
	{ "kmem_cache_free", probe_kmem_cache_free },
	{ "mm_page_alloc", probe_mm_page_alloc },
	{ "mm_page_free", probe_mm_page_free },
	{ "mm_page_free_batched", probe_mm_page_free_batched },
	{ "alloc_vmap_area", probe_alloc_vmap_area },
	{ "free_vmap_area_noflush", probe_free_vmap_area_noflush },
	{ "percpu_alloc_percpu", probe_percpu_alloc },
	{ "percpu_free_percpu", probe_percpu_free },
	{ "sched_process_fork", probe_fork },
	{ "sched_process_exec", probe_exec },
	{ "task_rename", probe_rename },
	{ "sched_process_free", probe_free },
};

static void find_tracepoint(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(tp->name, probes[i].name))
			probes[i].tp = tp;
}

static void no_ctor(void *object)
{
}

/* Where struct slab (over struct page) keeps its cache; -1: not found. */
static int slab_cache_offset = -1;
/* Where struct kmem_cache keeps its object stride; -1: not found. */
static int stride_offset = -1;

static const char *const probe_names[] = {
	"mtrace_label_a", "mtrace_label_bb",
};
/* Object sizes unlike any other field's value near a cache's start. */
static const unsigned int probe_sizes[] = { 200, 328 };

/* An offset at which each probe cache's is(cache, offset) holds. */
static int probe_offset(struct kmem_cache **s, int limit, int step,
			bool (*is)(struct kmem_cache *s, unsigned int i,
				   int off))
{
	unsigned int i;
	int off;

	for (off = 0; off < limit; off += step) {
		for (i = 0; i < ARRAY_SIZE(probe_names) && is(s[i], i, off); i++)
			;
		if (i == ARRAY_SIZE(probe_names))
			return off;
	}
	return -1;
}

static bool is_name(struct kmem_cache *s, unsigned int i, int off)
{
	const char *p;
	char buf[16];

	return !copy_from_kernel_nofault(&p, (char *)s + off, sizeof(p)) &&
	       (unsigned long)p >= PAGE_OFFSET &&
	       !copy_from_kernel_nofault(buf, p, sizeof(buf)) &&
	       !strncmp(buf, probe_names[i], sizeof(buf));
}

/* struct kmem_cache's size (the stride) comes just before object_size. */
static bool is_stride(struct kmem_cache *s, unsigned int i, int off)
{
	u32 v[2];

	return !copy_from_kernel_nofault(v, (char *)s + off, sizeof(v)) &&
	       v[1] == probe_sizes[i] && v[0] >= v[1] && v[0] % 8 == 0 &&
	       v[0] <= 4 * v[1];
}

static bool is_slab_cache(struct kmem_cache *s, unsigned int i, int off)
{
	void *obj = kmem_cache_alloc(s, GFP_KERNEL);
	bool is;

	if (!obj)
		return false;
	is = *(struct kmem_cache **)((char *)virt_to_folio(obj) + off) == s;
	kmem_cache_free(s, obj);
	return is;
}

/*
 * The offsets of a cache's name and stride, and of a slab's cache, from
 * caches of known names and sizes.
 */
static void find_cache_layout(void)
{
	struct kmem_cache *s[ARRAY_SIZE(probe_names)];
	unsigned int made;

	for (made = 0; made < ARRAY_SIZE(probe_names); made++) {
		/* A constructor keeps it from merging with another cache. */
		s[made] = kmem_cache_create(probe_names[made],
					    probe_sizes[made], 0, 0, no_ctor);
		if (!s[made])
			goto out;
	}
	/* Near the start; past 512 bytes is another object. */
	name_offset = probe_offset(s, 512, sizeof(long), is_name);
	stride_offset = probe_offset(s, 256, sizeof(u32), is_stride);
	slab_cache_offset = probe_offset(s, sizeof(struct page),
					 sizeof(long), is_slab_cache);
out:
	while (made-- > 0)
		kmem_cache_destroy(s[made]);
}

/* The slabs made before the module: their objects are found in them. */
static void label_slabs(void)
{
	unsigned long pfn, end = PHYS_PFN(__pa(high_memory - 1)) + 1;

	if (slab_cache_offset < 0 || stride_offset < 0) {
		pr_warn("mtrace_label: no slab cache or stride found: the slabs made before the module go unlabeled\n");
		return;
	}
	for (pfn = 0; pfn < end; pfn++) {
		struct page *page = pfn_to_online_page(pfn);
		struct kmem_cache *s;
		struct folio *folio;
		u32 stride;

		if (!(pfn % 4096))
			cond_resched();
		if (!page)
			continue;
		folio = page_folio(page);
		if (&folio->page != page || !folio_test_slab(folio))
			continue;
		s = READ_ONCE(*(struct kmem_cache **)((char *)page +
						      slab_cache_offset));
		if (!s || copy_from_kernel_nofault(&stride,
						   (char *)s + stride_offset,
						   sizeof(stride)) ||
		    !folio_test_slab(folio))
			continue;
		announce_cache(s);
		LABEL(MTRACE_LABEL_SLAB_PAGES,
		      send((long)folio_address(folio)); send(folio_size(folio));
		      send((long)s); send(stride));
		pfn += folio_nr_pages(folio) - 1;
	}
}

/*
 * Callers whose vmalloc areas are tasks' stacks, labeled as such (gcc
 * inlines the first three into kernel_clone).
 */
static const char *const stack_callers[] = {
	"alloc_thread_stack_node", "dup_task_struct", "copy_process",
	"kernel_clone",
};

/* A caller's name as the label carries it (6 values of 8 bytes). */
#define VMALLOC_CALLER_LEN	48

/* false: the line's start is no kernel address (%pK hashed it). */
static bool label_vmalloc_line(char *line)
{
	unsigned long start, end, size, offset;
	char caller[64] = "", *plus;
	unsigned int i;

	if (sscanf(line, "0x%lx-0x%lx %lu %63s", &start, &end, &size,
		   caller) < 3)
		return true;
	if (start < PAGE_OFFSET)
		return false;
	if (!in_vmalloc_range(start) || !strcmp(caller, "unpurged") ||
	    !strcmp(caller, "vm_map_ram"))
		return true;
	for (i = 0; i < ARRAY_SIZE(stack_callers); i++)
		if (str_has_prefix(caller, stack_callers[i]))
			return true;
	/* The caller, "name+0xoffset/0xsize": a module's is not taken. */
	plus = strchr(caller, '+');
	if (!plus || strchr(line, '[') || sscanf(plus, "+0x%lx", &offset) != 1)
		return true;
	*plus = 0;
	LABEL(MTRACE_LABEL_VMALLOC_EARLY,
	      send(start); send(size); send(offset);
	      send_string(caller, VMALLOC_CALLER_LEN));
	return true;
}

#define VMALLOCINFO_MAX	(4 << 20)

/* The vmalloc areas made before the module, from /proc/vmallocinfo. */
static void label_vmalloc_areas(void)
{
	struct file *f = filp_open("/proc/vmallocinfo", O_RDONLY, 0);
	unsigned int hidden = 0;
	size_t len = 0;
	loff_t pos = 0;
	char *buf, *line, *next;
	ssize_t n;

	if (IS_ERR(f)) {
		pr_warn("mtrace_label: no /proc/vmallocinfo (%ld): the vmalloc areas made before the module go unlabeled\n",
			PTR_ERR(f));
		return;
	}
	buf = kvmalloc(VMALLOCINFO_MAX, GFP_KERNEL);
	while (buf && len < VMALLOCINFO_MAX - 1 &&
	       (n = kernel_read(f, buf + len, VMALLOCINFO_MAX - 1 - len,
				&pos)) > 0)
		len += n;
	filp_close(f, NULL);
	if (!buf)
		return;
	buf[len] = 0;
	/* A last line cut short is not taken. */
	for (line = buf; (next = strchr(line, '\n')); line = next + 1) {
		*next = 0;
		hidden += !label_vmalloc_line(line);
	}
	kvfree(buf);
	if (hidden)
		pr_warn("mtrace_label: %u areas of /proc/vmallocinfo at no kernel address (hashed by %%pK: load with kernel.kptr_restrict=1): they go unlabeled\n",
			hidden);
}

static int __init mtrace_label_init(void)
{
	struct task_struct *g, *t;
	unsigned int i;
	int cpu, ret;

	find_cache_layout();
	if (name_offset < 0)
		pr_warn("mtrace_label: no cache name found in struct kmem_cache: caches go unnamed\n");
	for_each_kernel_tracepoint(find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (!probes[i].tp) {
			pr_err("mtrace_label: no %s tracepoint\n", probes[i].name);
			return -ENODEV;
		}

	mark_lbase();
	LABEL(MTRACE_LABEL_HELLO,
	      send(MTRACE_LABEL_VERSION); send(HZ); send(nr_cpu_ids);
	      send(PAGE_SIZE); send((long)THIS_MODULE->mem[MOD_TEXT].base);
	      send(THIS_MODULE->mem[MOD_TEXT].size));
	for_each_possible_cpu(cpu)
		LABEL(MTRACE_LABEL_PERCPU_AREA,
		      send(cpu); send(per_cpu_offset(cpu)));

	/*
	 * The tasks that ran before: their stacks and commands, found, and
	 * before the probes, so that every allocation's pid has a command.
	 * The plugin takes labels from HELLO on, and counts accesses from
	 * READY, when the probes are set.
	 */
	send_comm(&init_task, init_task.comm);	/* pid 0: the idle tasks */
	rcu_read_lock();
	for_each_process_thread(g, t) {
		send_stack(t, true);
		send_comm(t, t->comm);
	}
	rcu_read_unlock();
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		ret = tracepoint_probe_register(probes[i].tp, probes[i].probe,
						NULL);
		if (ret) {
			while (i-- > 0)
				tracepoint_probe_unregister(probes[i].tp,
							    probes[i].probe,
							    NULL);
			tracepoint_synchronize_unregister();
			return ret;
		}
	}
	ret = register_module_notifier(&module_nb);
	if (ret) {
		for (i = 0; i < ARRAY_SIZE(probes); i++)
			tracepoint_probe_unregister(probes[i].tp,
						    probes[i].probe, NULL);
		tracepoint_synchronize_unregister();
		return ret;
	}
	/* Without kprobes, bulk allocations go unlabeled: said, not fatal. */
	bulk_probed = !probe_bulk();
	if (!bulk_probed)
		pr_warn("mtrace_label: no kprobes on the slab's bulk functions: bulk allocations go unlabeled\n");
	/* After the probes: what is made from here on is labeled anyway. */
	label_slabs();
	label_vmalloc_areas();
	LABEL(MTRACE_LABEL_READY, {});
	pr_info("mtrace_label: labeling allocations for the mtrace plugin\n");
	return 0;
}

static void __exit mtrace_label_exit(void)
{
	unsigned int i;

	/* First: the plugin counts none of the unhooking. */
	LABEL(MTRACE_LABEL_BYE, {});
	unregister_module_notifier(&module_nb);
	if (bulk_probed)
		unprobe_bulk();
	for (i = 0; i < ARRAY_SIZE(probes); i++)
		tracepoint_probe_unregister(probes[i].tp, probes[i].probe, NULL);
	tracepoint_synchronize_unregister();
}

module_init(mtrace_label_init);
module_exit(mtrace_label_exit);
MODULE_DESCRIPTION("Allocation labels for the mtrace QEMU plugin");
MODULE_LICENSE("GPL");
