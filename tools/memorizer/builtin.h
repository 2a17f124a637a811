/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memorizer command: one file per subcommand (builtin-*.c), one
 * dispatcher (memorizer.c). A subcommand's struct cmd is the single source
 * of its usage text, its --help, its man page (memorizer help --man) and
 * its bash completion (memorizer help --completion).
 */
#ifndef MEMORIZER_BUILTIN_H
#define MEMORIZER_BUILTIN_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "kmap.h"

struct opt {
	const char *name;		/* long name, without -- */
	char short_name;		/* 0: none */
	const char *arg;		/* argument's name, NULL: a flag */
	const char *help;
};

struct cmd {
	const char *name;
	const char *summary;		/* one line, no period */
	const char *synopsis;		/* after "memorizer NAME " */
	const char *description;	/* paragraphs apart by blank lines */
	const struct opt *opts;		/* ended by a zeroed entry */
	const char *files_desc;		/* what FILE arguments complete to */
	const char *examples;		/* "$ command" lines and comments */
	int (*run)(int argc, char **argv);
};

extern const struct cmd cmd_record, cmd_stream, cmd_check, cmd_report,
	cmd_text, cmd_symbolize, cmd_capmap, cmd_diff, cmd_export, cmd_sharing,
	cmd_crosscheck;
extern const struct cmd *const commands[];

/*
 * Options (options.c): getopt_long over c->opts, whose help, man page and
 * completion come from the same table. -h and --help are every command's.
 */
struct option;
struct optparse {
	const struct cmd *cmd;
	int argc;
	char **argv;
	const char *arg;		/* the current option's argument */
	int stop_at_nonopt;		/* record: stop at CMD */
	char **ops;			/* operands, in order (NULL-ended) */
	int nops;
	struct option *longopts;	/* getopt_long's tables (static) */
	const char *shortopts;
};
/*
 * The next option: its index in opts (>= 0), -1 at the end (operands are
 * then in p->ops[0 .. p->nops - 1]; options and operands may mix, except
 * after the first operand when stop_at_nonopt is set, and after "--"), -2
 * after printing --help (the caller returns 0), -3 after a usage error
 * (the caller returns 2). One command line per process (getopt's state).
 */
int opt_next(struct optparse *p);
void optparse_init(struct optparse *p, const struct cmd *c, int argc,
		   char **argv);
int opt_is(const struct optparse *p, int idx, const char *name);

void cmd_usage(const struct cmd *c, FILE *f);
void cmd_help(const struct cmd *c, FILE *f);
void cmd_man(const struct cmd *c, FILE *f);
void print_completion(FILE *f);
const struct cmd *find_cmd(const char *name);
/* help.c: the main usage, and memorizer help [--man|--completion] [CMD]. */
void main_usage(FILE *f);
int cmd_help_main(int argc, char **argv);

#ifndef MEMORIZER_VERSION
#define MEMORIZER_VERSION "0.1"
#endif

/* Messages: "memorizer CMD: ..." on stderr. */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern const char *progname;
/* one when n is 1, else many: "1 error", "2 errors". */
const char *plural(uint64_t n, const char *one, const char *many);

/*
 * An output file (output.c): -o FILE, or standard output for NULL or "-".
 * A regular FILE is written as a temporary beside it, renamed over it by
 * output_close() with keep set and removed without; FILE being one of
 * inputs[0 .. ninputs - 1] is refused. Both return 0, or -1 with a message
 * (output_close(): a write error, errno's, or the rename's).
 */
struct output {
	FILE *f;
	int fd;			/* f's descriptor, for write(2) */
	const char *name;	/* for messages: as given, or <stdout> */
	char *path;		/* a regular file's real path */
	char *tmp;		/* the temporary file being written */
	int failed;		/* output_flush() failed */
};
int output_open(struct output *o, const char *path, char *const *inputs,
		int ninputs);
int output_close(struct output *o, int keep);
/*
 * Flush, sync and close o's file, its temporary one not renamed yet: a
 * command whose outputs go together (export's tables) flushes all of them
 * before output_close() renames any. 0, or -1 with a message (then
 * output_close() fails too, and removes the temporary file).
 */
int output_flush(struct output *o);

/*
 * Progress on a terminal (progress.c): stream's collection, and every
 * input of at least PROGRESS_MIN_BYTES read by check, report and text.
 */
#define PROGRESS_MIN_BYTES	(100ull * 1000 * 1000)
struct progress {
	int on, shown;
	const char *name;
	double t0, last;
};
double now(void);
void progress_init(struct progress *p, int on, const char *name);
/* "NAME: 12.3 MB, N WHAT, S s"; last ends the line. */
void progress_count(struct progress *p, uint64_t bytes, uint64_t n,
		    const char *what, int last);
/* "NAME: P% of M MB, S s" of src; last wipes the line. Cheap to call. */
void progress_input(struct progress *p, const struct kmap_src *src, int last);
/* Whether src is a regular file of PROGRESS_MIN_BYTES and stderr a tty. */
int progress_wanted(const struct kmap_src *src);

/*
 * Every object of src, in order, through each(ctx, object, its accesses),
 * with progress as progress_input() shows it: 0, or -1 after a message
 * (each's own when it returns non-zero, else src's error).
 */
typedef int (*read_object_fn)(void *ctx, const struct kmap_object *o,
			      const struct kmap_access *acc, size_t nacc);
int read_objects(struct kmap_src *src, read_object_fn each, void *ctx);

/* Numbers from the command line; -1 with a message when not one. */
int parse_u64_arg(const char *opt, const char *s, uint64_t *v);

/* Symbols from --vmlinux or --system-map (NULL, no error, when neither). */
struct kmap_sym *open_symbols(const char *vmlinux, const char *system_map,
			      int *failed);

/* debugfs: where Memorizer's files are (--debugfs, $MEMORIZER_DEBUGFS). */
const char *debugfs_dir(const char *opt);
/* Write s to DIR/name; -1 with a message on failure. */
int debugfs_write(const char *dir, const char *name, const char *s);
/* Open DIR/name to read (its path in path, for messages); -1 with a message. */
int debugfs_open(const char *dir, const char *name, char *path, size_t size);
/* read(2), again when a signal interrupted it. */
ssize_t read_retry(int fd, void *buf, size_t len);
/*
 * A figure from DIR/stats, whose lines are "key value" (like /proc/vmstat;
 * libkmap's kmap_stats_read() reads them): the value of key, found by
 * name; -1 when the file cannot be read, is not all "key value" lines or
 * has no such key.
 */
long long stat_value(const char *dir, const char *key);

#endif
