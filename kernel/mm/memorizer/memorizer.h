/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memorizer internal interfaces, shared by its own files only.
 */
#ifndef _MM_MEMORIZER_MEMORIZER_H
#define _MM_MEMORIZER_MEMORIZER_H

#include <linux/types.h>

/*
 * What memorizer_enabled selects. The numbers 0..3 are the values users
 * write (ABI); MEMORIZER_PID stands for any larger number, a pid.
 */
enum memorizer_mode {
	MEMORIZER_OFF = 0,
	MEMORIZER_SYSTEM = 1,
	MEMORIZER_TREE_AND_IRQ = 2,
	MEMORIZER_TREE = 3,
	MEMORIZER_PID = 4,
};

struct memorizer_target {
	enum memorizer_mode mode;
	pid_t pid;		/* MEMORIZER_PID only, in the init namespace */
};

int memorizer_parse_enabled(const char *buf, struct memorizer_target *target);

#endif /* _MM_MEMORIZER_MEMORIZER_H */
