// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of Memorizer asks of the code running now: is it traced
 * (memorizer_active_mode, for memorizer_context_selected()), does an
 * object of this kind get a record (memorizer_kinds), and is
 * Memorizer already running at this CPU's context level (memorizer_busy,
 * for memorizer_enter()). The helpers are inline, in memorizer.h: the
 * access path asks both for every load and store.
 */

#include <linux/percpu.h>

#include "memorizer.h"

enum memorizer_mode memorizer_active_mode;	/* read locklessly */
unsigned int memorizer_kinds __read_mostly = MEMORIZER_KINDS_ALL;
DEFINE_PER_CPU(struct memorizer_busy, memorizer_busy);
