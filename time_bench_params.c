// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's module parameters and the tests they select: the parsers
 * a family's module_param_cb() uses, the checks once all are known, and
 * the selection by run_flags bit and tests= name.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "time_bench_internal.h"

/*
 * Parameters.  The values are checked once all are known, in
 * time_bench_suite_prepare(); here only that they are numbers.
 */
static int time_bench_param_set_uint(const char *val,
				     const struct kernel_param *kp)
{
	struct time_bench_param *p = kp->arg;
	int ret = kstrtouint(val, 0, &p->val);

	if (ret) {
		pr_err("%s: %s=%s invalid: not an unsigned 32-bit number; accepted: %s\n",
		       module_name(kp->mod), kp->name, val, p->accepted);
		return ret;
	}
	p->given = true;
	return 0;
}

static int time_bench_param_get_uint(char *buffer,
				     const struct kernel_param *kp)
{
	const struct time_bench_param *p = kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%u\n", p->val);
}

const struct kernel_param_ops time_bench_uint_param_ops = {
	.set = time_bench_param_set_uint,
	.get = time_bench_param_get_uint,
};

/* The names are checked with the other parameters, before the run. */
static int time_bench_param_set_tests(const char *val,
				      const struct kernel_param *kp)
{
	struct time_bench_params *p = kp->arg;
	size_t len = strcspn(val, "\n");

	if (len >= sizeof(p->tests)) {
		pr_err("%s: tests=%.32s... invalid: longer than %zu characters; accepted: %s\n",
		       module_name(kp->mod), val, sizeof(p->tests) - 1,
		       TIME_BENCH_TESTS_ACCEPTED);
		return -EINVAL;
	}
	memcpy(p->tests, val, len);
	p->tests[len] = '\0';
	p->tests_given = true;
	return 0;
}

static int time_bench_param_get_tests(char *buffer,
				      const struct kernel_param *kp)
{
	const struct time_bench_params *p = kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%s\n", p->tests);
}

const struct kernel_param_ops time_bench_tests_param_ops = {
	.set = time_bench_param_set_tests,
	.get = time_bench_param_get_tests,
};

/* Defaults that depend on the clock, once it is known. */
void time_bench_apply_defaults(const struct time_bench_suite *s)
{
	struct time_bench_params *p = s->params;
	bool insns = s->state->ins.clock == TIME_BENCH_CLOCK_INSTRUCTIONS;

	if (!p->time_ms.given)
		p->time_ms.val = insns ? TIME_BENCH_TIME_MS_INSNS :
					 TIME_BENCH_TIME_MS_CYCLES;
	/* An explicit loops runs once, as the legacy benchmark did. */
	if (!p->reps.given)
		p->reps.val = p->loops.given ? 1 :
			      insns ? TIME_BENCH_REPS_INSNS :
				      TIME_BENCH_REPS_CYCLES;
}

/* Ranges the parsers cannot know; one dmesg line per bad value. */
int time_bench_check_params(const struct time_bench_suite *s)
{
	const struct time_bench_params *p = s->params;

	if (p->loops.given && p->loops.val < TIME_BENCH_MIN_LOOPS) {
		tb_err(s, "loops=%u invalid: too few to time; accepted: %s\n",
		       p->loops.val, TIME_BENCH_LOOPS_ACCEPTED);
		return -EINVAL;
	}
	if (p->reps.given &&
	    (!p->reps.val || p->reps.val > TIME_BENCH_MAX_REPS)) {
		tb_err(s, "reps=%u invalid: out of range; accepted: %s\n",
		       p->reps.val, TIME_BENCH_REPS_ACCEPTED);
		return -EINVAL;
	}
	if (p->time_ms.given &&
	    (!p->time_ms.val || p->time_ms.val > TIME_BENCH_MAX_TIME_MS)) {
		tb_err(s, "time_ms=%u invalid: out of range; accepted: %s\n",
		       p->time_ms.val, TIME_BENCH_TIME_MS_ACCEPTED);
		return -EINVAL;
	}
	return s->validate ? s->validate() : 0;
}

/* Marks the tests a tests= word names; false if it names none. */
static bool time_bench_select_word(const struct time_bench_suite *s,
				   const char *word, size_t len)
{
	bool prefix = len && word[len - 1] == '*', found = false;
	size_t n = prefix ? len - 1 : len;
	unsigned int i;

	for (i = 0; i < s->nr_tests; i++) {
		const char *name = s->tests[i].name;
		bool match;

		if (len == 3 && !strncmp(word, "all", 3))
			match = true;
		else if (len == 6 && !strncmp(word, "legacy", 6))
			match = BIT(s->tests[i].bit) & s->legacy_bits;
		else
			match = !strncmp(name, word, n) &&
				(prefix || !name[n]);
		if (match) {
			__set_bit(i, s->state->selected);
			found = true;
		}
	}
	return found;
}

static int time_bench_select_names(const struct time_bench_suite *s)
{
	const char *names = s->params->tests, *word = names;
	size_t len;

	for (;;) {
		len = strcspn(word, ",");
		if (!time_bench_select_word(s, word, len)) {
			tb_err(s, "tests=%s invalid: '%.*s' names no test; accepted: %s\n",
			       names, (int)len, word,
			       TIME_BENCH_TESTS_ACCEPTED);
			return -EINVAL;
		}
		if (!word[len])
			return 0;
		word += len + 1;
	}
}

/* The tests run_flags and tests= select; all of them by default. */
int time_bench_select(const struct time_bench_suite *s)
{
	const struct time_bench_param *flags = &s->params->run_flags;
	unsigned long *selected = s->state->selected, all_bits = 0;
	unsigned int i;

	if (!flags->given && !s->params->tests_given) {
		bitmap_fill(selected, s->nr_tests);
		return 0;
	}
	for (i = 0; i < s->nr_tests; i++)
		all_bits |= BIT(s->tests[i].bit);
	if (flags->given && (!flags->val || flags->val & ~all_bits)) {
		tb_err(s, "run_flags=0x%x invalid: %s; accepted: a mask of bits 0-%d (0x1..0x%lx), see modinfo\n",
		       flags->val,
		       flags->val ? "unknown bits" : "selects no test",
		       fls(all_bits) - 1, all_bits);
		return -EINVAL;
	}
	for (i = 0; flags->given && i < s->nr_tests; i++)
		if (flags->val & BIT(s->tests[i].bit))
			__set_bit(i, selected);
	return s->params->tests_given ? time_bench_select_names(s) : 0;
}

static bool time_bench_is_test(const struct time_bench_suite *s,
			       const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < s->nr_tests; i++)
		if (strlen(s->tests[i].name) == len &&
		    !strncmp(s->tests[i].name, name, len))
			return true;
	return false;
}

/* A relation (cheaper than, twin) naming no test of the table is the
 * table's bug.
 */
static int time_bench_check_relations(const struct time_bench_suite *s,
				      const char *test, const char *names)
{
	size_t len;

	while (names && *names) {
		len = strcspn(names, ",");
		if (!time_bench_is_test(s, names, len)) {
			tb_err(s, "%s: related to '%.*s', which is no test\n",
			       test, (int)len, names);
			return -EINVAL;
		}
		names += len + !!names[len];
	}
	return 0;
}

/*
 * A test name is 1 to TIME_BENCH_NAME_MAX letters, digits, '_' and '-':
 * what the results file's readers take (doc/output.rst), and what a
 * tests= word, a selected: list and a KTAP line carry as they are.
 */
static int time_bench_check_name(const struct time_bench_suite *s,
				 const char *name)
{
	size_t len = strlen(name), i;

	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			break;
	if (len && len <= TIME_BENCH_NAME_MAX && i == len)
		return 0;
	tb_err(s, "test name '%s' is not 1 to %d letters, digits, _ and -\n",
	       name, TIME_BENCH_NAME_MAX);
	return -EINVAL;
}

int time_bench_check_table(const struct time_bench_suite *s)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < s->nr_tests; i++) {
		const struct time_bench_test *t = &s->tests[i];

		ret = time_bench_check_name(s, t->name) ?:
		      time_bench_check_relations(s, t->name, t->cheaper_than) ?:
		      time_bench_check_relations(s, t->name, t->twin);
	}
	return ret;
}
