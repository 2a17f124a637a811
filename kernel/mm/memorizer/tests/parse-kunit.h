/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of what Memorizer accepts (parse.c, which includes this file
 * at its end, so that the tests reach its static functions, as
 * mm/damon/tests/core-kunit.h does for DAMON).
 */
#ifndef _MM_MEMORIZER_PARSE_KUNIT_H
#define _MM_MEMORIZER_PARSE_KUNIT_H

#include <kunit/test.h>
#include <linux/sizes.h>

struct parse_case {
	const char *input;
	int ret;
	enum memorizer_mode mode;
	pid_t pid;
};

static const struct parse_case parse_cases[] = {
	{ "0", 0, MEMORIZER_OFF, 0 },
	{ "1", 0, MEMORIZER_SYSTEM, 0 },
	{ "2", 0, MEMORIZER_TREE_AND_IRQ, 0 },
	{ "3", 0, MEMORIZER_TREE, 0 },
	{ "3\n", 0, MEMORIZER_TREE, 0 },
	{ "4", 0, MEMORIZER_PID, 4 },
	{ "1234\n", 0, MEMORIZER_PID, 1234 },
	{ "007", 0, MEMORIZER_PID, 7 },
	{ "99999999999999999999", -EINVAL },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "on", -EINVAL },
	{ "-1", -EINVAL },
	{ "+1", -EINVAL },
	{ " 1", -EINVAL },
	{ "1 ", -EINVAL },
	{ "1x", -EINVAL },
	{ "1\n\n", -EINVAL },
	{ "0x3", -EINVAL },
	{ "1 2", -EINVAL },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"",
		 (int)strlen(c->input), c->input);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

/* Each input gives exactly the expected target, or -EINVAL and no change. */
static void parse_enabled_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	const struct memorizer_target poison = { .mode = 0x5a, .pid = -7 };
	struct memorizer_target target = poison;
	int ret = memorizer_parse_enabled(c->input, &target);

	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (c->ret) {
		KUNIT_EXPECT_EQ(test, target.mode, poison.mode);
		KUNIT_EXPECT_EQ(test, target.pid, poison.pid);
	} else {
		KUNIT_EXPECT_EQ(test, target.mode, c->mode);
		KUNIT_EXPECT_EQ(test, target.pid, c->pid);
	}
}

/* The largest pid the kernel can hand out is accepted; one more is not. */
static void parse_pid_limit_test(struct kunit *test)
{
	struct memorizer_target target = {};
	char buf[16];

	snprintf(buf, sizeof(buf), "%u\n", (unsigned int)PID_MAX_LIMIT - 1);
	KUNIT_EXPECT_EQ(test, memorizer_parse_enabled(buf, &target), 0);
	KUNIT_EXPECT_EQ(test, target.mode, MEMORIZER_PID);
	KUNIT_EXPECT_EQ(test, target.pid, PID_MAX_LIMIT - 1);

	snprintf(buf, sizeof(buf), "%u", (unsigned int)PID_MAX_LIMIT);
	KUNIT_EXPECT_EQ(test, memorizer_parse_enabled(buf, &target), -EINVAL);
	KUNIT_EXPECT_EQ(test, target.pid, PID_MAX_LIMIT - 1);
}

struct bool_case {
	const char *input;
	int ret;
	bool val;
};

static const struct bool_case bool_cases[] = {
	{ "1", 0, true }, { "0", 0, false }, { "1\n", 0, true },
	{ "y", 0, true }, { "N", 0, false }, { "yes", 0, true },
	{ "No\n", 0, false }, { "on", 0, true }, { "OFF", 0, false },
	{ "true", 0, true }, { "false", 0, false },
	{ "", -EINVAL }, { "2", -EINVAL }, { "ye", -EINVAL },
	{ "onn", -EINVAL }, { "1\n\n", -EINVAL }, { " 1", -EINVAL },
	{ "truex", -EINVAL }, { "-1", -EINVAL },
};

static void bool_case_desc(const struct bool_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"",
		 (int)strlen(c->input), c->input);
}

KUNIT_ARRAY_PARAM(parse_bool, bool_cases, bool_case_desc);

static void parse_bool_test(struct kunit *test)
{
	const struct bool_case *c = test->param_value;
	bool val = !c->val;
	int ret = memorizer_parse_bool(c->input, &val);

	KUNIT_EXPECT_EQ(test, ret, c->ret);
	/* Set on success; untouched on failure. */
	KUNIT_EXPECT_EQ(test, val, c->ret ? !c->val : c->val);
}

/* Only "1", with or without one newline, triggers. */
static void is_one_test(struct kunit *test)
{
	static const char *const no[] = {
		"", "0", "1\n\n", " 1", "1 ", "11", "y", "01", "+1",
	};
	int i;

	KUNIT_EXPECT_TRUE(test, is_one("1"));
	KUNIT_EXPECT_TRUE(test, is_one("1\n"));
	for (i = 0; i < ARRAY_SIZE(no); i++)
		KUNIT_EXPECT_FALSE_MSG(test, is_one(no[i]), "\"%s\"", no[i]);
}

struct size_case {
	const char *input;
	int ret;
	unsigned long size;
};

static const struct size_case size_cases[] = {
	{ "64M", 0, SZ_64M }, { "256K\n", 0, SZ_256K }, { "1G", 0, SZ_1G },
	{ "4096", 0, PAGE_SIZE }, { "4097", 0, 2 * PAGE_SIZE },
	{ "2G", -EINVAL }, { "4095", -EINVAL }, { "0", -EINVAL },
	{ "", -EINVAL }, { "M", -EINVAL }, { "64M ", -EINVAL },
	{ "64Mx", -EINVAL }, { "-1", -EINVAL },
};

static void size_case_desc(const struct size_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"",
		 (int)strlen(c->input), c->input);
}

KUNIT_ARRAY_PARAM(parse_size, size_cases, size_case_desc);

/* At most 1G here; a rejected value leaves the old one. */
static void parse_size_test(struct kunit *test)
{
	const struct size_case *c = test->param_value;
	unsigned long size = 12345;

	KUNIT_EXPECT_EQ(test, parse_size(c->input, SZ_1G, &size), c->ret);
	KUNIT_EXPECT_EQ(test, size, c->ret ? 12345UL : c->size);
}

#define K(kind)	BIT(MEMORIZER_KIND_##kind)

struct kinds_case {
	const char *input;
	int ret;
	unsigned int kinds;
};

static const struct kinds_case kinds_cases[] = {
	{ "all", 0, MEMORIZER_KINDS_ALL },
	{ "all\n", 0, MEMORIZER_KINDS_ALL },
	{ "kmalloc", 0, K(KMALLOC) },
	{ "kmalloc kmem_cache\n", 0, K(KMALLOC) | K(CACHE) },
	{ "global,percpu,stack", 0, K(GLOBAL) | K(PERCPU) | K(STACK) },
	{ "pages, vmalloc", 0, K(PAGES) | K(VMALLOC) },
	{ "kmalloc_large kmalloc", 0, K(KMALLOC_LARGE) | K(KMALLOC) },
	{ "stack stack", 0, K(STACK) },
	{ "stack all", 0, MEMORIZER_KINDS_ALL },
	{ "", -EINVAL }, { "\n", -EINVAL }, { " ", -EINVAL },
	{ ",", -EINVAL }, { "none", -EINVAL }, { "kmallocx", -EINVAL },
	{ "kmalloc_", -EINVAL }, { "KMALLOC", -EINVAL },
	{ "kmalloc\n\n", -EINVAL }, { "kmalloc;stack", -EINVAL },
	{ "global bogus", -EINVAL }, { "al", -EINVAL },
};

static void kinds_case_desc(const struct kinds_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"",
		 (int)strlen(c->input), c->input);
}

KUNIT_ARRAY_PARAM(parse_kinds, kinds_cases, kinds_case_desc);

/* Exactly the named set, or -EINVAL and the old set. */
static void parse_kinds_test(struct kunit *test)
{
	const struct kinds_case *c = test->param_value;
	unsigned int kinds = 0x5a5a;

	KUNIT_EXPECT_EQ(test, memorizer_parse_kinds(c->input, &kinds), c->ret);
	KUNIT_EXPECT_EQ(test, kinds, c->ret ? 0x5a5a : c->kinds);
}

/* What the kinds file shows, it takes back; every kind by its name. */
static void format_kinds_test(struct kunit *test)
{
	char buf[MEMORIZER_WRITE_MAX];
	unsigned int kinds, back;

	memorizer_format_kinds(buf, sizeof(buf), MEMORIZER_KINDS_ALL);
	KUNIT_EXPECT_STREQ(test, buf,
			   "kmalloc kmem_cache kmalloc_large vmalloc pages global percpu stack\n");
	memorizer_format_kinds(buf, sizeof(buf), K(CACHE) | K(STACK));
	KUNIT_EXPECT_STREQ(test, buf, "kmem_cache stack\n");
	for (kinds = 1; kinds <= MEMORIZER_KINDS_ALL; kinds++) {
		memorizer_format_kinds(buf, sizeof(buf), kinds);
		KUNIT_ASSERT_EQ(test, memorizer_parse_kinds(buf, &back), 0);
		KUNIT_ASSERT_EQ(test, back, kinds);
	}
}

#undef K

#define I(instr)	BIT(MEMORIZER_INSTR_##instr)

static const struct kinds_case instrs_cases[] = {
	{ "none", 0, 0 },
	{ "none\n", 0, 0 },
	{ "all", 0, I(KASAN) | I(LOCKDEP) },
	{ "kasan", 0, I(KASAN) },
	{ "lockdep\n", 0, I(LOCKDEP) },
	{ "lockdep,kasan", 0, I(KASAN) | I(LOCKDEP) },
	{ "kasan kasan", 0, I(KASAN) },
	{ "", -EINVAL }, { "\n", -EINVAL }, { " ", -EINVAL },
	{ "memorizer", -EINVAL }, { "none kasan", -EINVAL },
	{ "kasan none", -EINVAL }, { "KASAN", -EINVAL },
	{ "kasan\n\n", -EINVAL }, { "lock", -EINVAL }, { "nonex", -EINVAL },
};

KUNIT_ARRAY_PARAM(parse_instrs, instrs_cases, kinds_case_desc);

/* Exactly the named set, "none" the empty one, or -EINVAL and no change. */
static void parse_instrs_test(struct kunit *test)
{
	const struct kinds_case *c = test->param_value;
	unsigned int instrs = 0x5a5a;

	KUNIT_EXPECT_EQ(test, memorizer_parse_instrs(c->input, &instrs),
			c->ret);
	KUNIT_EXPECT_EQ(test, instrs, c->ret ? 0x5a5a : c->kinds);
}

/* What count_instruments shows, it takes back. */
static void format_instrs_test(struct kunit *test)
{
	char buf[MEMORIZER_WRITE_MAX];
	unsigned int instrs, back;

	memorizer_format_instrs(buf, sizeof(buf), 0);
	KUNIT_EXPECT_STREQ(test, buf, "none\n");
	memorizer_format_instrs(buf, sizeof(buf), MEMORIZER_INSTRS_ALL);
	KUNIT_EXPECT_STREQ(test, buf, "kasan lockdep\n");
	for (instrs = 0; instrs <= MEMORIZER_INSTRS_ALL; instrs++) {
		memorizer_format_instrs(buf, sizeof(buf), instrs);
		KUNIT_ASSERT_EQ(test, memorizer_parse_instrs(buf, &back), 0);
		KUNIT_ASSERT_EQ(test, back, instrs);
	}
}

#undef I

static struct kunit_case memorizer_parse_cases[] = {
	KUNIT_CASE_PARAM(parse_enabled_test, parse_gen_params),
	KUNIT_CASE(parse_pid_limit_test),
	KUNIT_CASE_PARAM(parse_bool_test, parse_bool_gen_params),
	KUNIT_CASE(is_one_test),
	KUNIT_CASE_PARAM(parse_size_test, parse_size_gen_params),
	KUNIT_CASE_PARAM(parse_kinds_test, parse_kinds_gen_params),
	KUNIT_CASE(format_kinds_test),
	KUNIT_CASE_PARAM(parse_instrs_test, parse_instrs_gen_params),
	KUNIT_CASE(format_instrs_test),
	{}
};

static struct kunit_suite memorizer_control_suite = {
	.name = "memorizer_control",
	.test_cases = memorizer_parse_cases,
};

kunit_test_suite(memorizer_control_suite);

#endif /* _MM_MEMORIZER_PARSE_KUNIT_H */
