// SPDX-License-Identifier: GPL-2.0
/*
 * The mtrace plugin's load-time checks, apart from the plugin so that a
 * host unit test can call them (tools/tests/unit.c): the QEMU plugin API
 * version is pinned to the one the declarations in qemu-plugin-api.h were
 * written from, and the emulator must be x86_64 system emulation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtrace-plugin.h"

int mtrace_check_qemu(const qemu_info_t *info, char *err, size_t len)
{
	if (info->version.cur != MTRACE_QEMU_PLUGIN_VERSION ||
	    info->version.min > MTRACE_QEMU_PLUGIN_VERSION) {
		snprintf(err, len,
			 "mtrace: this plugin is built for QEMU's TCG plugin API version %d (QEMU 7.2); this QEMU implements version %d (and supports %d to %d): refusing to load, as its declarations (tools/qemu-plugin/qemu-plugin-api.h) may not match; update them for this QEMU",
			 MTRACE_QEMU_PLUGIN_VERSION, info->version.cur,
			 info->version.min, info->version.cur);
		return -1;
	}
	if (!info->system_emulation) {
		snprintf(err, len,
			 "mtrace: traces a guest kernel: load it into qemu-system-x86_64, not user-mode QEMU");
		return -1;
	}
	if (!info->target_name || strcmp(info->target_name, "x86_64")) {
		snprintf(err, len,
			 "mtrace: the target is %s; only x86_64 is supported (the kernel half and the markers are x86_64's)",
			 info->target_name ? info->target_name : "(none)");
		return -1;
	}
	if (info->system.max_vcpus < 1 || info->system.max_vcpus > MTRACE_MAX_VCPUS) {
		snprintf(err, len,
			 "mtrace: %d vCPUs; from 1 to %d are supported",
			 info->system.max_vcpus, MTRACE_MAX_VCPUS);
		return -1;
	}
	return 0;
}

int mtrace_parse_args(int argc, char **argv, struct mtrace_args *a,
		      char *err, size_t len)
{
	int i;

	a->file = NULL;
	a->mode = MTRACE_MODE_SHARING;
	a->window_task = 0;
	a->kmap = 0;
	a->symbols = NULL;
	a->max_cells = MTRACE_KMAP_DEFAULT_CELLS;
	a->gran_shift = MTRACE_LINE_SHIFT;
	a->filter = NULL;
	a->filter_arg = NULL;
	for (i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (!strncmp(s, "log=", 4) && s[4]) {
			a->file = s + 4;
		} else if (!strcmp(s, "mode=all")) {
			a->mode = MTRACE_MODE_ALL;
		} else if (!strcmp(s, "mode=sharing")) {
			a->mode = MTRACE_MODE_SHARING;
			a->kmap = 0;
		} else if (!strcmp(s, "mode=kmap")) {
			a->kmap = 1;
		} else if (!strncmp(s, "symbols=", 8) && s[8]) {
			a->symbols = s + 8;
		} else if (!strncmp(s, "cells=", 6)) {
			char *end;

			errno = 0;
			a->max_cells = strtoull(s + 6, &end, 10);
			if (errno || end == s + 6 || *end || !a->max_cells ||
			    s[6] == '-') {
				snprintf(err, len,
					 "mtrace: cells=%s: not a positive number of counters",
					 s + 6);
				return -1;
			}
		} else if (!strcmp(s, "granularity=line")) {
			a->gran_shift = MTRACE_LINE_SHIFT;
		} else if (!strcmp(s, "granularity=byte")) {
			a->gran_shift = MTRACE_BYTE_SHIFT;
		} else if (!strncmp(s, "filter=", 7) && s[7]) {
			a->filter = s + 7;
		} else if (!strncmp(s, "filter-arg=", 11)) {
			a->filter_arg = s + 11;
		} else if (!strcmp(s, "window=all")) {
			a->window_task = 0;
		} else if (!strcmp(s, "window=task")) {
			a->window_task = 1;
		} else {
			snprintf(err, len,
				 "mtrace: unknown argument '%s' (log=PATH, mode=all|sharing|kmap, window=all|task, granularity=line|byte, filter=PATH.so, filter-arg=STRING, symbols=PATH, cells=N)",
				 s);
			return -1;
		}
	}
	if (!a->file) {
		snprintf(err, len, "mtrace: no log=PATH argument: where to write the log");
		return -1;
	}
	if (a->filter_arg && !a->filter) {
		snprintf(err, len,
			 "mtrace: filter-arg=%s without filter=PATH.so: the policy it is for",
			 a->filter_arg);
		return -1;
	}
	if (a->kmap && a->gran_shift != MTRACE_LINE_SHIFT) {
		snprintf(err, len,
			 "mtrace: granularity=byte is the sharing rule's: mode kmap applies no rule");
		return -1;
	}
	if (a->kmap && !a->symbols) {
		snprintf(err, len,
			 "mtrace: mode=kmap needs symbols=PATH: the kernel's System.map");
		return -1;
	}
	return 0;
}
