// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's figures: counted per CPU where they happen, summed when
 * read. show_stats gives them to people as a table; stats gives the same
 * figures as "key value" lines, like /proc/vmstat, for tools and tests.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "memorizer.h"
#include "pool.h"

DEFINE_PER_CPU(struct memorizer_stats, memorizer_stats);

/* The classes of unattributed memory (enum memorizer_memory_class). */
static const char *const class_names[MEMORIZER_MEM_NR] = {
	[MEMORIZER_MEM_SLAB] = "slab",
	[MEMORIZER_MEM_STACK] = "stack",
	[MEMORIZER_MEM_PERCPU] = "percpu",
	[MEMORIZER_MEM_KERNEL_DATA] = "kernel_data",
	[MEMORIZER_MEM_KERNEL_TEXT] = "kernel_text",
	[MEMORIZER_MEM_MODULE] = "module",
	[MEMORIZER_MEM_PAGE] = "page",
	[MEMORIZER_MEM_VMALLOC] = "vmalloc",
	[MEMORIZER_MEM_OTHER] = "other",
};

/* Every field of struct memorizer_stats is an unsigned long, summed. */
void memorizer_stats_sum(struct memorizer_stats *sum)
{
	unsigned long *total = (unsigned long *)sum;
	size_t n = sizeof(*sum) / sizeof(*total), i;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		unsigned long *s = (unsigned long *)per_cpu_ptr(&memorizer_stats,
								cpu);

		for (i = 0; i < n; i++)
			total[i] += READ_ONCE(s[i]);
	}
}

static unsigned long sum_of(const unsigned long *v, int n)
{
	unsigned long sum = 0;

	while (n--)
		sum += v[n];
	return sum;
}

/* The figures after the per-kind ones, in both files' order. */
enum figure {
	FIG_ACCESSES, FIG_UNTRACKED_ACCESSES, FIG_SLOW_ACCESSES,
	FIG_DROPPED_OBJECTS,
	FIG_DROPPED_ACCESSES, FIG_MISSED_FREES, FIG_RECORDS, FIG_COUNTERS,
	FIG_MEMORY_USED, FIG_MEMORY_BOUND, FIG_BINARY_MADE, FIG_BINARY_LOST,
	FIG_BINARY_UNREAD, FIG_CALLS, FIG_DROPPED_CALLS, FIG_CALL_EDGES,
	FIG_FRAME_ACCESSES, FIG_DROPPED_FRAME_ACCESSES, FIG_UNFRAMED_ACCESSES,
	FIG_FRAME_CELLS, FIG_SHADOW_STACKS, FIG_NR,
};

static const struct {
	const char *key;	/* stats */
	const char *label;	/* show_stats */
} figure_names[FIG_NR] = {
	[FIG_ACCESSES] = { "accesses_recorded", "accesses recorded" },
	[FIG_UNTRACKED_ACCESSES] = { "accesses_untracked",
				     "accesses to untracked memory" },
	[FIG_SLOW_ACCESSES] = { "accesses_slow_path",
				"accesses on the slow path" },
	[FIG_DROPPED_OBJECTS] = { "objects_dropped",
				  "objects dropped (no memory)" },
	[FIG_DROPPED_ACCESSES] = { "accesses_dropped",
				   "accesses dropped (no memory)" },
	[FIG_MISSED_FREES] = { "frees_missed", "frees missed (0xdeadbeef)" },
	[FIG_RECORDS] = { "records_in_memory", "records in memory" },
	[FIG_COUNTERS] = { "counters_in_memory", "access counters in memory" },
	[FIG_MEMORY_USED] = { "memory_used_bytes", "memory used (bytes)" },
	[FIG_MEMORY_BOUND] = { "memory_bound_bytes", "memory bound (bytes)" },
	[FIG_BINARY_MADE] = { "binary_records_made", "binary records made" },
	[FIG_BINARY_LOST] = { "binary_records_lost", "binary records lost" },
	[FIG_BINARY_UNREAD] = { "binary_records_unread",
				"binary records left unread" },
	[FIG_CALLS] = { "calls_recorded", "calls recorded" },
	[FIG_DROPPED_CALLS] = { "calls_dropped", "calls dropped (no memory)" },
	[FIG_CALL_EDGES] = { "call_edges_in_memory", "call edges in memory" },
	[FIG_FRAME_ACCESSES] = { "frame_accesses_recorded",
				 "stack accesses to frames" },
	[FIG_DROPPED_FRAME_ACCESSES] = { "frame_accesses_dropped",
					 "frame accesses dropped" },
	[FIG_UNFRAMED_ACCESSES] = { "frame_accesses_unframed",
				    "stack accesses in no frame" },
	[FIG_FRAME_CELLS] = { "frame_cells_in_memory",
			      "frame cells in memory" },
	[FIG_SHADOW_STACKS] = { "shadow_stacks_in_memory",
				"shadow stacks in memory" },
};

/* Both files' figures, from one reading. */
struct figures {
	struct memorizer_stats sum;
	unsigned long val[FIG_NR];
};

static void read_figures(struct figures *f)
{
	unsigned long chunks[MEMORIZER_POOL_NR];
	unsigned long *c = f->sum.counters;

	memorizer_stats_sum(&f->sum);
	memorizer_pool_usage(chunks, &f->val[FIG_MEMORY_USED],
			     &f->val[FIG_MEMORY_BOUND]);
	f->val[FIG_ACCESSES] = sum_of(f->sum.accesses, MEMORIZER_KIND_NR);
	f->val[FIG_UNTRACKED_ACCESSES] = sum_of(f->sum.untracked,
						MEMORIZER_MEM_NR);
	f->val[FIG_SLOW_ACCESSES] = c[MEMORIZER_STAT_SLOW_ACCESSES];
	f->val[FIG_DROPPED_OBJECTS] = c[MEMORIZER_STAT_DROPPED_OBJECTS];
	f->val[FIG_DROPPED_ACCESSES] = c[MEMORIZER_STAT_DROPPED_ACCESSES];
	f->val[FIG_MISSED_FREES] = c[MEMORIZER_STAT_MISSED_FREES];
	f->val[FIG_RECORDS] = chunks[MEMORIZER_POOL_OBJ];
	f->val[FIG_COUNTERS] = chunks[MEMORIZER_POOL_SMALL];
	f->val[FIG_BINARY_MADE] = c[MEMORIZER_STAT_BINARY_MADE];
	f->val[FIG_BINARY_LOST] = c[MEMORIZER_STAT_BINARY_LOST];
	f->val[FIG_BINARY_UNREAD] = c[MEMORIZER_STAT_BINARY_UNREAD];
	f->val[FIG_CALLS] = c[MEMORIZER_STAT_CALLS];
	f->val[FIG_DROPPED_CALLS] = c[MEMORIZER_STAT_DROPPED_CALLS];
	f->val[FIG_CALL_EDGES] = chunks[MEMORIZER_POOL_CALL];
	f->val[FIG_FRAME_ACCESSES] = c[MEMORIZER_STAT_FRAME_ACCESSES];
	f->val[FIG_DROPPED_FRAME_ACCESSES] =
		c[MEMORIZER_STAT_DROPPED_FRAME_ACCESSES];
	f->val[FIG_UNFRAMED_ACCESSES] = c[MEMORIZER_STAT_UNFRAMED_ACCESSES];
	f->val[FIG_FRAME_CELLS] = chunks[MEMORIZER_POOL_FRAME];
	f->val[FIG_SHADOW_STACKS] = chunks[MEMORIZER_POOL_SHADOW];
}

/*
 * Per kind: objects tracked, live, freed (records kept), cleared, and the
 * accesses recorded on them.
 */
#define NR_COLUMNS 5
static const char *const columns[NR_COLUMNS] = {
	"tracked", "live", "freed", "cleared", "accesses",
};

static void kind_columns(const struct memorizer_stats *sum, int k,
			 unsigned long col[NR_COLUMNS])
{
	col[0] = sum->allocs[k];
	col[1] = sum->allocs[k] - sum->frees[k];
	col[2] = sum->frees[k] - sum->freed_records[k];
	col[3] = sum->freed_records[k];
	col[4] = sum->accesses[k];
}

static int show_stats_show(struct seq_file *m, void *v)
{
	unsigned long col[NR_COLUMNS];
	struct figures f;
	int k, i;

	read_figures(&f);
	seq_printf(m, "%-16s", "objects");
	for (i = 0; i < NR_COLUMNS; i++)
		seq_printf(m, " %12s", columns[i]);
	seq_putc(m, '\n');
	for (k = 0; k < MEMORIZER_KIND_NR; k++) {
		kind_columns(&f.sum, k, col);
		seq_printf(m, "%-16s", memorizer_kind_names[k]);
		for (i = 0; i < NR_COLUMNS; i++)
			seq_printf(m, " %12lu", col[i]);
		seq_putc(m, '\n');
	}
	/* "label:", values aligned in column 30 as they always were. */
	for (i = 0; i < FIG_NR; i++)
		seq_printf(m, "%s:%*s%lu\n", figure_names[i].label,
			   (int)(29 - strlen(figure_names[i].label)), "",
			   f.val[i]);
	seq_puts(m, "accesses to untracked memory, by class:\n");
	for (i = 0; i < MEMORIZER_MEM_NR; i++)
		seq_printf(m, "  %-27s%lu\n", class_names[i],
			   f.sum.untracked[i]);
	seq_puts(m, "accesses left out, made for:\n");
	for (i = 0; i <= MEMORIZER_INSTR_NR; i++)
		seq_printf(m, "  %-27s%lu\n", memorizer_instr_names[i],
			   f.sum.excluded[i]);
	seq_printf(m, "bytes per record:             object %u, access counter %u, page key %u, call edge %u\n",
		   MEMORIZER_POOL_OBJ_SIZE, MEMORIZER_POOL_SMALL_SIZE,
		   MEMORIZER_POOL_KEY_SIZE, MEMORIZER_POOL_CALL_SIZE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(show_stats);

static int stats_show(struct seq_file *m, void *v)
{
	unsigned long col[NR_COLUMNS];
	struct figures f;
	int k, i;

	read_figures(&f);
	for (k = 0; k < MEMORIZER_KIND_NR; k++) {
		kind_columns(&f.sum, k, col);
		for (i = 0; i < NR_COLUMNS; i++)
			seq_printf(m, "%s_%s %lu\n", memorizer_kind_names[k], columns[i],
				   col[i]);
	}
	for (i = 0; i < FIG_NR; i++)
		seq_printf(m, "%s %lu\n", figure_names[i].key, f.val[i]);
	for (i = 0; i < MEMORIZER_MEM_NR; i++)
		seq_printf(m, "untracked_%s %lu\n", class_names[i],
			   f.sum.untracked[i]);
	for (i = 0; i <= MEMORIZER_INSTR_NR; i++)
		seq_printf(m, "excluded_%s %lu\n", memorizer_instr_names[i],
			   f.sum.excluded[i]);
	seq_printf(m, "record_bytes %u\n", MEMORIZER_POOL_OBJ_SIZE);
	seq_printf(m, "counter_bytes %u\n", MEMORIZER_POOL_SMALL_SIZE);
	seq_printf(m, "page_key_bytes %u\n", MEMORIZER_POOL_KEY_SIZE);
	seq_printf(m, "call_edge_bytes %u\n", MEMORIZER_POOL_CALL_SIZE);
	seq_printf(m, "frame_cell_bytes %u\n", MEMORIZER_POOL_FRAME_SIZE);
	seq_printf(m, "shadow_stack_bytes %u\n", MEMORIZER_POOL_SHADOW_SIZE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

void __init memorizer_stats_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("show_stats", 0400, dir, NULL, &show_stats_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &stats_fops);
}
