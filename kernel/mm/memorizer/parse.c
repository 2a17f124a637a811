// SPDX-License-Identifier: GPL-2.0
/*
 * The values Memorizer accepts: what users write to its control files and
 * give as boot parameters. Each parser either fills in its result or
 * returns -EINVAL and leaves it alone, so a rejected write changes nothing.
 */

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/uaccess.h>

#include "memorizer.h"

/**
 * memorizer_parse_enabled - parse a value written to memorizer_enabled
 * @buf: NUL-terminated text, optionally ending in one newline
 * @target: filled in on success, untouched on failure
 *
 * Accepts a decimal number: 0..3 select a mode, anything larger names a
 * pid. Whether that pid exists is for the caller to check.
 *
 * Return: 0 or -EINVAL.
 */
int memorizer_parse_enabled(const char *buf, struct memorizer_target *target)
{
	unsigned int val;

	/* kstrtouint() would take a leading '+'; only digits are ABI. */
	if (!isdigit(buf[0]))
		return -EINVAL;
	if (kstrtouint(buf, 10, &val) || val >= PID_MAX_LIMIT)
		return -EINVAL;

	if (val < MEMORIZER_PID) {
		target->mode = val;
		target->pid = 0;
	} else {
		target->mode = MEMORIZER_PID;
		target->pid = val;
	}
	return 0;
}

/**
 * memorizer_parse_bool - parse an on/off value
 * @buf: NUL-terminated text, optionally ending in one newline
 * @val: set on success, untouched on failure
 *
 * Accepts, in any case, 1/0, y/n, yes/no, on/off and true/false.
 *
 * Return: 0 or -EINVAL.
 */
int memorizer_parse_bool(const char *buf, bool *val)
{
	static const char *const words[][2] = {
		{ "0", "1" }, { "n", "y" }, { "no", "yes" },
		{ "off", "on" }, { "false", "true" },
	};
	size_t len = strlen(buf);
	int i, v;

	if (len && buf[len - 1] == '\n')
		len--;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		for (v = 0; v < 2; v++) {
			if (strlen(words[i][v]) == len &&
			    !strncasecmp(buf, words[i][v], len)) {
				*val = v;
				return 0;
			}
		}
	}
	return -EINVAL;
}

/* The kinds' names, as the kinds file, memorizer.kinds= and stats say them. */
const char *const memorizer_kind_names[MEMORIZER_KIND_NR] = {
	[MEMORIZER_KIND_KMALLOC] = "kmalloc",
	[MEMORIZER_KIND_CACHE] = "kmem_cache",
	[MEMORIZER_KIND_KMALLOC_LARGE] = "kmalloc_large",
	[MEMORIZER_KIND_VMALLOC] = "vmalloc",
	[MEMORIZER_KIND_PAGES] = "pages",
	[MEMORIZER_KIND_GLOBAL] = "global",
	[MEMORIZER_KIND_PERCPU] = "percpu",
	[MEMORIZER_KIND_STACK] = "stack",
};

/*
 * The instruments' names, as count_instruments, memorizer.count_instruments=
 * and stats say them; Memorizer's own accesses last (stats only).
 */
const char *const memorizer_instr_names[MEMORIZER_INSTR_NR + 1] = {
	[MEMORIZER_INSTR_KASAN] = "kasan",
	[MEMORIZER_INSTR_LOCKDEP] = "lockdep",
	[MEMORIZER_INSTR_SELF] = "memorizer",
};

static int name_of(const char *const *names, int nr, const char *word,
		   size_t len)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (strlen(names[i]) == len && !strncmp(word, names[i], len))
			return i;
	}
	return -1;
}

/*
 * A set of names (@nr of @names, or "all"; "none" where @none is allowed),
 * separated by spaces or commas, optionally ending in one newline, into
 * *@set (a bit per name) on success; -EINVAL for an unknown word, and for
 * no word at all. An empty set is "none", alone.
 */
static int parse_names(const char *buf, const char *const *names, int nr,
		       bool none, unsigned int *set)
{
	size_t len = strlen(buf), n;
	unsigned int bits = 0;
	bool said_none = false;
	const char *end;
	int i;

	if (len && buf[len - 1] == '\n')
		len--;
	for (end = buf + len; buf < end; buf += n) {
		n = strcspn(buf, " ,");
		if (buf + n > end)
			n = end - buf;
		if (n == 3 && !strncmp(buf, "all", 3)) {
			bits |= BIT(nr) - 1;
		} else if (none && n == 4 && !strncmp(buf, "none", 4)) {
			said_none = true;
		} else if (n) {
			i = name_of(names, nr, buf, n);
			if (i < 0)
				return -EINVAL;
			bits |= BIT(i);
		}
		if (buf + n < end)
			n++;	/* the separator */
	}
	if (said_none ? bits : !bits)
		return -EINVAL;
	*set = bits;
	return 0;
}

/* @set's names, space-separated, or "none"; and a newline. */
static int format_names(char *buf, size_t size, const char *const *names,
			int nr, unsigned int set)
{
	int len = 0, i;

	for (i = 0; i < nr; i++) {
		if (set & BIT(i))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? " " : "", names[i]);
	}
	if (!len)
		len = scnprintf(buf, size, "none");
	return len + scnprintf(buf + len, size - len, "\n");
}

/**
 * memorizer_parse_kinds - parse a set of kinds of object
 * @buf: NUL-terminated text: kind names (memorizer_kind_names) or "all",
 *	separated by spaces or commas, optionally ending in one newline
 * @kinds: set to the set, a bit per enum memorizer_kind, on success;
 *	untouched on failure
 *
 * Return: 0, or -EINVAL for an unknown word or no word at all.
 */
int memorizer_parse_kinds(const char *buf, unsigned int *kinds)
{
	return parse_names(buf, memorizer_kind_names, MEMORIZER_KIND_NR, false,
			   kinds);
}

/**
 * memorizer_format_kinds - the names of a set of kinds
 * @buf, @size: where to write them, space-separated, and a newline
 * @kinds: the set, a bit per enum memorizer_kind
 *
 * Return: the length written, as scnprintf().
 */
int memorizer_format_kinds(char *buf, size_t size, unsigned int kinds)
{
	return format_names(buf, size, memorizer_kind_names, MEMORIZER_KIND_NR,
			    kinds);
}

/**
 * memorizer_parse_instrs - parse a set of instruments
 * @buf: NUL-terminated text: instrument names (memorizer_instr_names but
 *	"memorizer") or "all", separated by spaces or commas, or "none";
 *	optionally ending in one newline
 * @instrs: set to the set, a bit per enum memorizer_instr, on success;
 *	untouched on failure
 *
 * Return: 0, or -EINVAL for an unknown word, "none" with another, or no
 * word at all.
 */
int memorizer_parse_instrs(const char *buf, unsigned int *instrs)
{
	return parse_names(buf, memorizer_instr_names, MEMORIZER_INSTR_NR, true,
			   instrs);
}

/**
 * memorizer_format_instrs - the names of a set of instruments
 * @buf, @size: where to write them, space-separated, or "none"; a newline
 * @instrs: the set, a bit per enum memorizer_instr
 *
 * Return: the length written, as scnprintf().
 */
int memorizer_format_instrs(char *buf, size_t size, unsigned int instrs)
{
	return format_names(buf, size, memorizer_instr_names,
			    MEMORIZER_INSTR_NR, instrs);
}

/**
 * memorizer_copy_write - take a control file write
 * @buf: MEMORIZER_WRITE_MAX bytes, for the text, NUL-terminated
 * @ubuf, @count, @ppos: the write
 *
 * Return: 0; -EINVAL for a write that is empty, too long or not at the
 * start of the file; -EFAULT.
 */
int memorizer_copy_write(char *buf, const char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	if (*ppos != 0 || count == 0 || count >= MEMORIZER_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

/* "1", with or without a newline: the one value of a trigger file. */
static bool is_one(const char *buf)
{
	return !strcmp(buf, "1") || !strcmp(buf, "1\n");
}

/**
 * memorizer_write_one - take a write to a trigger file
 * @ubuf, @count, @ppos: the write
 *
 * Return: 0 when the write is "1" (and a newline); -EINVAL or -EFAULT.
 */
int memorizer_write_one(const char __user *ubuf, size_t count, loff_t *ppos)
{
	char buf[MEMORIZER_WRITE_MAX];
	int err = memorizer_copy_write(buf, ubuf, count, ppos);

	if (err)
		return err;
	return is_one(buf) ? 0 : -EINVAL;
}

static int parse_size(const char *val, unsigned long max, unsigned long *size)
{
	unsigned long bytes;
	char *end;

	bytes = memparse(val, &end);
	if (end == val || (*end && *end != '\n') || bytes < PAGE_SIZE ||
	    bytes > max)
		return -EINVAL;
	*size = round_up(bytes, PAGE_SIZE);
	return 0;
}

/* Sizes in bytes with the usual K, M, G suffixes, rounded up to pages. */
static int param_set_size(const char *val, const struct kernel_param *kp)
{
	struct memorizer_size_param *p = kp->arg;

	return parse_size(val, p->max, &p->bytes);
}

static_assert(offsetof(struct memorizer_size_param, bytes) == 0);

const struct kernel_param_ops memorizer_size_param_ops = {
	.set = param_set_size,
	.get = param_get_ulong,
};

#ifdef CONFIG_MEMORIZER_KUNIT_TEST
#include "tests/parse-kunit.h"
#endif
