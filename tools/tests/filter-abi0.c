// SPDX-License-Identifier: GPL-2.0
/*
 * A filter policy of another ABI version than the plugin's, for the unit
 * test of mtrace_filter_load(): it must be refused.
 */
#include "mtrace-filter.h"

const unsigned int mtrace_filter_abi = MTRACE_FILTER_ABI + 1;

const char *mtrace_filter_init(const char *arg)
{
	(void)arg;
	return 0;
}

int mtrace_filter_keep(uint64_t vaddr, unsigned int size, int write,
		       unsigned int vcpu, uint32_t pid, uint64_t ip)
{
	(void)vaddr;
	(void)size;
	(void)write;
	(void)vcpu;
	(void)pid;
	(void)ip;
	return 1;
}
