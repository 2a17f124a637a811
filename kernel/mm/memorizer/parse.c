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
