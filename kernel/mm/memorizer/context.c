// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of Memorizer asks of the code running now: is it traced
 * (memorizer_active_mode, for memorizer_context_selected()), does an
 * object of this kind get a record (memorizer_kinds), is Memorizer
 * already running at this CPU's context level (memorizer_busy, for
 * memorizer_enter()), and is an instrument running for it (the marks
 * memorizer_instr_enter() sets) and counted all the same. The helpers are
 * inline, in memorizer.h: the access path asks them for every load and
 * store.
 */

#include <linux/memorizer.h>
#include <linux/percpu.h>

#include "memorizer.h"

enum memorizer_mode memorizer_active_mode;	/* read locklessly */
unsigned int memorizer_kinds __read_mostly = MEMORIZER_KINDS_ALL;
DEFINE_PER_CPU(struct memorizer_busy, memorizer_busy);
DEFINE_PER_CPU(struct memorizer_instr_cpu, memorizer_instr_cpu);
unsigned int memorizer_instr_counted __read_mostly;

/*
 * The marks of the context running now: a task's own, since a section
 * may sleep (KASAN's may allocate); an interrupt level's per CPU, which
 * cannot be preempted (raw: noinstr calls nothing).
 */
static __always_inline u8 *instr_marks(void)
{
	unsigned int level = interrupt_context_level();

	if (!level)
		return &current->memorizer_instr;
	return &raw_cpu_ptr(&memorizer_instr_cpu)->level[level];
}

noinstr unsigned int memorizer_instr_enter(enum memorizer_instr instr)
{
	u8 *marks = instr_marks();
	unsigned int old = *marks;

	WRITE_ONCE(*marks, old | BIT(instr));
	return old;
}

noinstr void memorizer_instr_exit(enum memorizer_instr instr, unsigned int old)
{
	u8 *marks = instr_marks();

	WRITE_ONCE(*marks, (*marks & ~BIT(instr)) | (old & BIT(instr)));
}
