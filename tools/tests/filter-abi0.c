// SPDX-License-Identifier: GPL-2.0
/*
 * A filter policy of another ABI version than the plugin's, for the unit
 * test of mtrace_filter_load(): it must be refused before it is called.
 */
#include "mtrace-filter.h"

#define UNUSED __attribute__((unused))

const unsigned int mtrace_filter_abi = MTRACE_FILTER_ABI + 1;

const char *mtrace_filter_init(const char *arg UNUSED)
{
	return "not to be called";
}

int mtrace_filter_keep(uint64_t vaddr UNUSED, unsigned int size UNUSED,
		       int write UNUSED, unsigned int vcpu UNUSED,
		       uint32_t pid UNUSED, uint64_t ip UNUSED)
{
	return 0;
}
