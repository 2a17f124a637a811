/* SPDX-License-Identifier: GPL-2.0 */
/* The mtrace plugin's checks and arguments (version.c), for its unit test. */
#ifndef MTRACE_PLUGIN_H
#define MTRACE_PLUGIN_H

#include <stddef.h>

#include "qemu-plugin-api.h"
#include "mtrace_log.h"

/* vCPUs supported: the sharing rule keeps a 64-bit mask per line. */
#define MTRACE_MAX_VCPUS	64

/*
 * 0 when the plugin can run in the QEMU info describes: API version
 * MTRACE_QEMU_PLUGIN_VERSION exactly, x86_64 system emulation, at most
 * MTRACE_MAX_VCPUS vCPUs. Else -1 with the reason in err[len].
 */
int mtrace_check_qemu(const qemu_info_t *info, char *err, size_t len);

struct mtrace_args {
	const char *file;		/* log=PATH: the log (QEMU keeps file= for the plugin itself) */
	int mode;			/* mode=all|sharing (enum mtrace_mode) */
	/*
	 * window=task: nothing is done (logged, or counted by the sharing
	 * rule) outside mtrace_task.ko's lifetime, its BASE marker to its
	 * END marker; window=all (the default): from boot to exit.
	 */
	int window_task;
};
/* -plugin's arguments; -1 with the reason in err[len]. */
int mtrace_parse_args(int argc, char **argv, struct mtrace_args *a,
		      char *err, size_t len);

#endif
