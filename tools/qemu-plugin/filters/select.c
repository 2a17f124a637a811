// SPDX-License-Identifier: GPL-2.0
/*
 * An mtrace filter policy (../mtrace-filter.h): only the accesses of some
 * tasks, of some code or to some addresses.
 *
 *   vm/run --mtrace LOG --mtrace-filter out/lib/mtrace-filters/select.so \
 *          --mtrace-filter-arg 'pid=PID;ip=START-END'
 *
 * filter-arg is one or more conditions, separated by ';', all of which an
 * access must meet to be kept:
 *   pid=N[/N...]   the vCPU runs one of these tasks (mtrace_task.ko's
 *                  markers; up to 16 pids)
 *   ip=START-END   the instruction is in [START, END): a function's, the
 *                  kernel image's text (_stext to _etext), a module's
 *   addr=START-END the access's first byte is in [START, END)
 * Numbers as C writes them (0x for hexadecimal). Read-only once
 * mtrace_filter_init() returns: the vCPU threads share it unlocked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mtrace-filter.h"

#define MAX_PIDS	16

const unsigned int mtrace_filter_abi = MTRACE_FILTER_ABI;

static struct {
	unsigned int npids;
	uint32_t pid[MAX_PIDS];
	int by_ip, by_addr;
	uint64_t ip_start, ip_end, addr_start, addr_end;
} sel;

/* A number at *s, *s moved past it: 0, else -1. */
static int number(const char **s, uint64_t *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	*v = strtoull(*s, &end, 0);
	if (errno)
		return -1;
	*s = end;
	return 0;
}

/* START-END into [*start, *end). */
static int range(const char **s, uint64_t *start, uint64_t *end)
{
	if (number(s, start) || **s != '-')
		return -1;
	(*s)++;
	return number(s, end) || *end <= *start ? -1 : 0;
}

const char *mtrace_filter_init(const char *arg)
{
	const char *s = arg;

	memset(&sel, 0, sizeof(sel));
	if (!*s)
		return "select.so: give pid=N[/N...], ip=START-END or addr=START-END (';' between them)";
	while (*s) {
		if (!strncmp(s, "pid=", 4)) {
			uint64_t pid;

			s += 4;
			do {
				if (*s == '/')
					s++;
				if (number(&s, &pid) || pid > UINT32_MAX)
					return "select.so: pid=N[/N...]: a pid is not a number";
				if (sel.npids == MAX_PIDS)
					return "select.so: pid=: more than 16 pids";
				sel.pid[sel.npids++] = (uint32_t)pid;
			} while (*s == '/');
		} else if (!strncmp(s, "ip=", 3)) {
			s += 3;
			if (range(&s, &sel.ip_start, &sel.ip_end))
				return "select.so: ip=START-END: two numbers, START below END";
			sel.by_ip = 1;
		} else if (!strncmp(s, "addr=", 5)) {
			s += 5;
			if (range(&s, &sel.addr_start, &sel.addr_end))
				return "select.so: addr=START-END: two numbers, START below END";
			sel.by_addr = 1;
		} else {
			return "select.so: a condition is not pid=, ip= or addr=";
		}
		if (*s == ';' && s[1])
			s++;
		else if (*s)
			return "select.so: conditions are separated by ';'";
	}
	return NULL;
}

int mtrace_filter_keep(uint64_t vaddr, unsigned int size, int write,
		       unsigned int vcpu, uint32_t pid, uint64_t ip)
{
	unsigned int i;

	(void)size;
	(void)write;
	(void)vcpu;
	if (sel.by_ip && (ip < sel.ip_start || ip >= sel.ip_end))
		return 0;
	if (sel.by_addr && (vaddr < sel.addr_start || vaddr >= sel.addr_end))
		return 0;
	if (!sel.npids)
		return 1;
	for (i = 0; i < sel.npids; i++)
		if (sel.pid[i] == pid)
			return 1;
	return 0;
}
