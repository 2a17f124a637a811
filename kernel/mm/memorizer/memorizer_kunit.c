// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for Memorizer's control interface.
 */

#include <kunit/test.h>
#include <linux/threads.h>

#include "memorizer.h"

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

static struct kunit_case memorizer_control_cases[] = {
	KUNIT_CASE_PARAM(parse_enabled_test, parse_gen_params),
	KUNIT_CASE(parse_pid_limit_test),
	{}
};

static struct kunit_suite memorizer_control_suite = {
	.name = "memorizer_control",
	.test_cases = memorizer_control_cases,
};
kunit_test_suite(memorizer_control_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests for Memorizer's control interface");
MODULE_LICENSE("GPL");
