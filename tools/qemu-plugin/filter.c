// SPDX-License-Identifier: GPL-2.0
/*
 * The mtrace plugin's filter policies (mtrace-filter.h): the built-in one,
 * which decides what every mode sees when no filter= is given, and the
 * loading of one from a shared object. Apart from the plugin so that a
 * host unit test can call them (tools/tests/unit.c).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "mtrace-plugin.h"

const char *mtrace_default_init(const char *arg)
{
	return arg && *arg ? "the built-in policy takes no argument" : NULL;
}

/*
 * Kernel code's accesses: those of an instruction in the kernel half.
 * It decides on ip alone, so the plugin asks it once an instruction, at
 * translation, and gives the instruction's accesses no callback at all
 * when it drops them (the others are ignored).
 */
int mtrace_default_keep(uint64_t vaddr, unsigned int size, int write,
			unsigned int vcpu, uint32_t pid, uint64_t ip)
{
	(void)vaddr;
	(void)size;
	(void)write;
	(void)vcpu;
	(void)pid;
	return ip >= MTRACE_KERNEL_HALF;
}

int mtrace_filter_load(const char *path, const char *arg,
		       struct mtrace_filter *f, char *err, size_t len)
{
	const unsigned int *abi;
	const char *why;

	memset(f, 0, sizeof(*f));
	/* RTLD_LOCAL: its symbols stay its own, a second policy's too. */
	f->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!f->handle) {
		snprintf(err, len, "mtrace: filter=%s: does not load: %s",
			 path, dlerror());
		return -1;
	}
	abi = dlsym(f->handle, MTRACE_FILTER_ABI_SYM);
	f->init = (mtrace_filter_init_fn)dlsym(f->handle, MTRACE_FILTER_INIT_SYM);
	f->keep = (mtrace_filter_keep_fn)dlsym(f->handle, MTRACE_FILTER_KEEP_SYM);
	if (!abi || !f->init || !f->keep) {
		snprintf(err, len,
			 "mtrace: filter=%s: not a filter policy: it lacks %s (tools/qemu-plugin/mtrace-filter.h: %s, %s and %s)",
			 path, !abi ? MTRACE_FILTER_ABI_SYM :
			 !f->init ? MTRACE_FILTER_INIT_SYM : MTRACE_FILTER_KEEP_SYM,
			 MTRACE_FILTER_ABI_SYM, MTRACE_FILTER_INIT_SYM,
			 MTRACE_FILTER_KEEP_SYM);
		goto fail;
	}
	if (*abi != MTRACE_FILTER_ABI) {
		snprintf(err, len,
			 "mtrace: filter=%s: built for the filter ABI version %u; this plugin's is %u: rebuild it against this tools/qemu-plugin/mtrace-filter.h",
			 path, *abi, MTRACE_FILTER_ABI);
		goto fail;
	}
	why = f->init(arg ? arg : "");
	if (why) {
		snprintf(err, len, "mtrace: filter=%s: filter-arg=%s: %s", path,
			 arg ? arg : "", why);
		goto fail;
	}
	return 0;
fail:
	dlclose(f->handle);
	memset(f, 0, sizeof(*f));
	return -1;
}
