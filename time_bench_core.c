// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench: the engine of in-kernel micro-benchmarks, see time_bench.h.
 *
 * Cycles come from the kernel's own accessors: rdtsc_ordered() on x86,
 * which needs no RDTSCP and keeps the read from drifting into the timed
 * loop, get_cycles() elsewhere.  Time comes from the monotonic clock.
 *
 * A suite's lines in the kernel log start with its module's name; the
 * legacy result lines with "time_bench: ", as the out-of-tree original
 * printed them.
 */
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include <linux/utsname.h>
#include <linux/wait.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "bench_page_pool_compat.h"
#include "time_bench.h"
#include "time_bench_driver.h"

#define TB_LEGACY	"time_bench: "
#define tb_err(suite, fmt, ...) \
	pr_err("%s: " fmt, (suite)->name, ##__VA_ARGS__)
#define tb_info(suite, fmt, ...) \
	pr_info("%s: " fmt, (suite)->name, ##__VA_ARGS__)

/* Longest stay in one timed stretch, well below RCU stall and soft lockup
 * limits, so that any loops value is split into short chunks.
 */
#define TIME_BENCH_CHUNK_NS	(10 * NSEC_PER_MSEC)
/* Untimed first chunk: fills caches (a pool's) and measures the speed. */
#define TIME_BENCH_WARMUP_LOOPS	1024
#define TIME_BENCH_SKIP_LEN	112
#define TIME_BENCH_CMDLINE_LEN	4096
#define TIME_BENCH_PLATFORM_LEN	128
#define TIME_BENCH_MITIGATIONS_LEN	4096
#define TIME_BENCH_SYSFS_CPU	"/sys/devices/system/cpu"

/* Room for a u64 with two decimals */
#define TIME_BENCH_NUM_LEN	24

/* What reading the timers costs, in thousandths per read. */
struct time_bench_overhead {
	u64 cycle_read_milli;		/* cycles per cycle-counter read */
	u64 clock_read_milli_cycles;	/* cycles per monotonic-clock read */
	u64 clock_read_milli_ns;	/* ns per monotonic-clock read */
	u64 empty_loop_milli_cycles;	/* cycles per empty loop iteration */
};

/* The machine's hypervisor and what its cycle counter counts. */
struct time_bench_instrument {
	enum time_bench_accel accel;
	enum time_bench_clock clock;
	char signature[TIME_BENCH_SIG_LEN + 1];	/* "none" on bare metal */
};

/* What a load measured of one test. */
struct time_bench_result {
	bool valid;
	bool skipped;		/* selected, but not run here */
	char skip_reason[TIME_BENCH_SKIP_LEN];
	struct time_bench_outcome out;
	/* Contexts of several CPUs: each CPU's share of the timed chunks */
	unsigned int nr_cpus;
	int *cpu_ids;
	struct time_bench_record *cpu_recs;
};

/* The engine's part of a loaded suite. */
struct time_bench_state {
	unsigned long *selected;
	struct time_bench_result *results;
	struct time_bench_instrument ins;
	struct time_bench_overhead overhead;
	struct perf_event *pmu_insn;
	struct perf_event *pmu_cyc;
	int pmu_error;
	char *cmdline;
	int cmdline_error;
	char platform[TIME_BENCH_PLATFORM_LEN];
	char *mitigations;
	struct dentry *dir;
};

static __always_inline u64 time_bench_read_cycles(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	return get_cycles();
#endif
}

/* The clock is read outside the cycle count so that the ns interval
 * encloses the cycle interval and neither includes the other's read.
 * The PMU part of a stamp is read apart, see time_bench_pmu_read().
 */
static void time_bench_start(struct time_bench_stamp *stamp)
{
	stamp->ns = ktime_get_ns();
	stamp->cycles = time_bench_read_cycles();
}

static void time_bench_stop(struct time_bench_stamp *stamp)
{
	stamp->cycles = time_bench_read_cycles();
	stamp->ns = ktime_get_ns();
}

/*
 * time_bench_instrument() - the accelerator and the cycle counter's unit
 * @ins: filled in; the signature as a single token ('_' for anything
 *	 but letters and digits, as in "Microsoft_Hv")
 *
 * Only x86 tells: other architectures say no hypervisor and cycles.
 */
static void time_bench_instrument(struct time_bench_instrument *ins)
{
	char sig[TIME_BENCH_SIG_LEN] = { };
	bool hypervisor = false;
	u32 khz = 0;
	int i;

#ifdef CONFIG_X86
	hypervisor = boot_cpu_has(X86_FEATURE_HYPERVISOR);
	if (hypervisor) {
		u32 eax, regs[3];

		cpuid(0x40000000, &eax, &regs[0], &regs[1], &regs[2]);
		memcpy(sig, regs, sizeof(sig));
	}
	khz = tsc_khz;
#endif
	ins->accel = time_bench_accel_of(hypervisor, sig);
	ins->clock = time_bench_clock_of(ins->accel, khz);
	if (!hypervisor) {
		strscpy(ins->signature, "none", sizeof(ins->signature));
		return;
	}
	for (i = 0; i < TIME_BENCH_SIG_LEN && sig[i]; i++)
		ins->signature[i] = isalnum(sig[i]) ? sig[i] : '_';
	ins->signature[i] = '\0';
	if (!i)
		strscpy(ins->signature, "unknown", sizeof(ins->signature));
}

/*
 * Kernel counters of retired instructions and core cycles of the task
 * that runs the benchmark.  Only perf_event_read_value() is exported for
 * modules and it may sleep, so the counters are read in process context
 * around a chunk; softirq work run on this task's behalf, as a tasklet
 * at local_bh_enable() is, counts with it.
 */
static struct perf_event *time_bench_pmu_event(u64 config)
{
#ifdef CONFIG_PERF_EVENTS
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = config,
		.pinned = 1,
		.exclude_user = 1,
		.exclude_hv = 1,
	};

	return perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
#else
	return ERR_PTR(-EOPNOTSUPP);
#endif
}

static void time_bench_pmu_close(struct time_bench_state *st)
{
	if (st->pmu_insn)
		perf_event_release_kernel(st->pmu_insn);
	if (st->pmu_cyc)
		perf_event_release_kernel(st->pmu_cyc);
	st->pmu_insn = NULL;
	st->pmu_cyc = NULL;
}

/* 0, or the error of the counter that could not be made, e.g. -ENOENT
 * where the CPU has no PMU (as in an emulated guest).
 */
static int time_bench_pmu_open(struct time_bench_state *st)
{
	struct perf_event *ev;

	ev = time_bench_pmu_event(PERF_COUNT_HW_INSTRUCTIONS);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	st->pmu_insn = ev;
	ev = time_bench_pmu_event(PERF_COUNT_HW_CPU_CYCLES);
	if (IS_ERR(ev)) {
		time_bench_pmu_close(st);
		return PTR_ERR(ev);
	}
	st->pmu_cyc = ev;
	return 0;
}

/* Fills the PMU part of @stamp; process context, by the opening task.
 * Counts are only valid while the counters were on the PMU all along.
 */
static void time_bench_pmu_read(const struct time_bench_state *st,
				struct time_bench_stamp *stamp)
{
	u64 enabled, running;

	stamp->pmu_valid = false;
	if (!st->pmu_insn || !st->pmu_cyc)
		return;
	stamp->pmu_instructions = perf_event_read_value(st->pmu_insn,
							&enabled, &running);
	if (enabled != running)
		return;
	stamp->pmu_cycles = perf_event_read_value(st->pmu_cyc, &enabled,
						  &running);
	stamp->pmu_valid = enabled == running;
}

/* The line users grep for; its format must not change. */
static void time_bench_print(const char *name,
			     const struct time_bench_record *rec)
{
	struct time_bench_fixed ns_elem = time_bench_ns_per_elem(rec);
	struct time_bench_fixed period;

	period = time_bench_div_fixed(rec->ns, NSEC_PER_SEC, 9, false);
	pr_info(TB_LEGACY "Type:%s Per elem: %llu cycles(tsc) %llu.%03u ns (step:%d) - (measurement period time:%llu.%09u sec time_interval:%llu) - (invoke count:%llu tsc_interval:%llu)\n",
		name, time_bench_cycles_per_elem(rec), ns_elem.whole,
		ns_elem.frac, rec->step, period.whole, period.frac, rec->ns,
		rec->invocations, rec->cycles);
}

/* Prints thousandths with two rounded decimals into @buf; returns @buf. */
static const char *time_bench_format_milli(char *buf, size_t size, u64 milli)
{
	struct time_bench_fixed f = time_bench_div_fixed(milli, 1000, 2, true);

	snprintf(buf, size, "%llu.%02u", f.whole, f.frac);
	return buf;
}

/* The spread line, printed after the legacy line of a repeated test. */
static void time_bench_print_summary(const char *name, u32 reps,
				     const struct time_bench_summary *cycles,
				     const struct time_bench_summary *ns)
{
	char v[10][TIME_BENCH_NUM_LEN];

	pr_info(TB_LEGACY "Type:%s Spread over %u reps: cycles/elem min %s median %s mean %s stddev %s max %s - ns/elem min %s median %s mean %s stddev %s max %s\n",
		name, reps,
		time_bench_format_milli(v[0], sizeof(v[0]), cycles->min),
		time_bench_format_milli(v[1], sizeof(v[1]), cycles->median),
		time_bench_format_milli(v[2], sizeof(v[2]), cycles->mean),
		time_bench_format_milli(v[3], sizeof(v[3]), cycles->stddev),
		time_bench_format_milli(v[4], sizeof(v[4]), cycles->max),
		time_bench_format_milli(v[5], sizeof(v[5]), ns->min),
		time_bench_format_milli(v[6], sizeof(v[6]), ns->median),
		time_bench_format_milli(v[7], sizeof(v[7]), ns->mean),
		time_bench_format_milli(v[8], sizeof(v[8]), ns->stddev),
		time_bench_format_milli(v[9], sizeof(v[9]), ns->max));
}

/* One CPU's share of a concurrent run, in the legacy benchmark's format. */
static void time_bench_print_cpu(const char *name, int cpu,
				 const struct time_bench_record *rec)
{
	struct time_bench_fixed ns_elem = time_bench_ns_per_elem(rec);
	struct time_bench_fixed period;

	period = time_bench_div_fixed(rec->ns, NSEC_PER_SEC, 9, false);
	pr_info(TB_LEGACY "Type:%s CPU(%d) %llu cycles(tsc) %llu.%03u ns (step:%d) - (measurement period time:%llu.%09u sec time_interval:%llu) - (invoke count:%llu tsc_interval:%llu)\n",
		name, cpu, time_bench_cycles_per_elem(rec), ns_elem.whole,
		ns_elem.frac, rec->step, period.whole, period.frac, rec->ns,
		rec->invocations, rec->cycles);
}

/* The mean over the CPUs of their cycles per element, legacy format. */
static void time_bench_print_cpu_sum(const char *name,
				     const struct time_bench_record *recs,
				     unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += time_bench_cycles_per_elem(&recs[i]);
	pr_info(TB_LEGACY "Sum Type:%s Average: %llu cycles(tsc) CPUs:%u step:%d\n",
		name, n ? div_u64(sum, n) : 0, n, n ? recs[0].step : 0);
}

#define TIME_BENCH_OVERHEAD_READS	1000
#define TIME_BENCH_OVERHEAD_LOOPS	65536
#define TIME_BENCH_OVERHEAD_TRIES	5

static u64 time_bench_empty_loop_milli(void)
{
	u64 c0, c1;
	int i;

	c0 = time_bench_read_cycles();
	for (i = 0; i < TIME_BENCH_OVERHEAD_LOOPS; i++)
		barrier();
	c1 = time_bench_read_cycles();
	return time_bench_milli_per_elem(c1 - c0, TIME_BENCH_OVERHEAD_LOOPS);
}

/* Cycles (and ns) per read of the cycle counter and of the clock. */
static void time_bench_read_costs(u64 *cycle_read, u64 *clock_cycles,
				  u64 *clock_ns)
{
	u64 c0, c1, n0, n1;
	int i;

	c0 = time_bench_read_cycles();
	for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
		time_bench_read_cycles();
	c1 = time_bench_read_cycles();
	*cycle_read = time_bench_milli_per_elem(c1 - c0,
						TIME_BENCH_OVERHEAD_READS);

	n0 = ktime_get_ns();
	c0 = time_bench_read_cycles();
	for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
		ktime_get_ns();
	c1 = time_bench_read_cycles();
	n1 = ktime_get_ns();
	*clock_cycles = time_bench_milli_per_elem(c1 - c0,
						  TIME_BENCH_OVERHEAD_READS);
	*clock_ns = time_bench_milli_per_elem(n1 - n0,
					      TIME_BENCH_OVERHEAD_READS);
}

/*
 * Cost of one cycle-counter read, of one clock read and of an empty loop
 * iteration, the least of a few tries so that an interrupt in one of
 * them does not count.
 */
static void time_bench_measure_overhead(struct time_bench_overhead *ovh)
{
	u64 cyc, clk_cyc, clk_ns;
	int try;

	ovh->cycle_read_milli = U64_MAX;
	ovh->clock_read_milli_cycles = U64_MAX;
	ovh->clock_read_milli_ns = U64_MAX;
	ovh->empty_loop_milli_cycles = U64_MAX;
	for (try = 0; try < TIME_BENCH_OVERHEAD_TRIES; try++) {
		time_bench_read_costs(&cyc, &clk_cyc, &clk_ns);
		ovh->cycle_read_milli = min(ovh->cycle_read_milli, cyc);
		ovh->clock_read_milli_cycles =
			min(ovh->clock_read_milli_cycles, clk_cyc);
		ovh->clock_read_milli_ns = min(ovh->clock_read_milli_ns, clk_ns);
		ovh->empty_loop_milli_cycles = min(ovh->empty_loop_milli_cycles,
						   time_bench_empty_loop_milli());
	}
}

static void time_bench_print_overhead(const struct time_bench_suite *s)
{
	const struct time_bench_overhead *ovh = &s->state->overhead;
	char v[4][TIME_BENCH_NUM_LEN];

	tb_info(s, "overhead: cycle counter read %s cycles, clock read %s cycles (%s ns), empty loop %s cycles per iteration; two reads of each per chunk of about 10 ms\n",
		time_bench_format_milli(v[0], sizeof(v[0]),
					ovh->cycle_read_milli),
		time_bench_format_milli(v[1], sizeof(v[1]),
					ovh->clock_read_milli_cycles),
		time_bench_format_milli(v[2], sizeof(v[2]),
					ovh->clock_read_milli_ns),
		time_bench_format_milli(v[3], sizeof(v[3]),
					ovh->empty_loop_milli_cycles));
}

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
EXPORT_SYMBOL_GPL(time_bench_uint_param_ops);

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
EXPORT_SYMBOL_GPL(time_bench_tests_param_ops);

/* Defaults that depend on the clock, once it is known. */
static void time_bench_apply_defaults(const struct time_bench_suite *s)
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
static int time_bench_check_params(const struct time_bench_suite *s)
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
			       names, (int)len, word, TIME_BENCH_TESTS_ACCEPTED);
			return -EINVAL;
		}
		if (!word[len])
			return 0;
		word += len + 1;
	}
}

/* The tests run_flags and tests= select; all of them by default. */
static int time_bench_select(const struct time_bench_suite *s)
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
		       flags->val, flags->val ? "unknown bits" : "selects no test",
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

/* A relation naming no test of the table is the table's bug. */
static int time_bench_check_relations(const struct time_bench_suite *s,
				      const char *test, const char *names)
{
	size_t len;

	while (names && *names) {
		len = strcspn(names, ",");
		if (!time_bench_is_test(s, names, len)) {
			tb_err(s, "%s: cheaper than '%.*s', which is no test\n",
			       test, (int)len, names);
			return -EINVAL;
		}
		names += len + !!names[len];
	}
	return 0;
}

static int time_bench_check_table(const struct time_bench_suite *s)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < s->nr_tests; i++) {
		const struct time_bench_test *t = &s->tests[i];

		ret = time_bench_check_relations(s, t->name, t->cheaper_than) ?:
		      time_bench_check_relations(s, t->name,
						 t->narrowly_cheaper_than);
	}
	return ret;
}

/*
 * Profile markers (doc/profile.rst).  Multi-byte NOPs whose displacement
 * is a tag; a QEMU TCG plugin (tools/profile) reads the tag when it
 * translates the instruction and counts only inside a window: from a
 * BEGIN that follows an OPEN to the next END, in the vCPU that ran
 * them.  A NOP carries no run-time value, so OPEN is followed by one
 * TICK per row of the test in the suite's table, which the plugin
 * counts.  SUITE starts a suite's run: the loads of one guest stay
 * apart.  Without the plugin they cost their own execution: two NOPs
 * inside a chunk's stamps, the rest outside.
 */
#define TIME_BENCH_MARK_SUITE	0x54420001
#define TIME_BENCH_MARK_OPEN	0x54420002
#define TIME_BENCH_MARK_TICK	0x54420003
#define TIME_BENCH_MARK_BEGIN	0x54420004
#define TIME_BENCH_MARK_END	0x54420005

static __always_inline void time_bench_mark(u32 tag)
{
#ifdef CONFIG_X86
	asm volatile("nopl %c0(%%rax,%%rax,1)" : : "i" (tag) : "memory");
#else
	barrier();
#endif
}

static noinline void time_bench_mark_open(unsigned int row)
{
	unsigned int i;

	time_bench_mark(TIME_BENCH_MARK_OPEN);
	for (i = 0; i < row; i++)
		time_bench_mark(TIME_BENCH_MARK_TICK);
}

/*
 * Contexts.  A chunk runs time_bench_chunk_here() in the test's context:
 * the body's loop between two stamps, then where it ran.  A timed chunk
 * opens a profile window first; an untimed one's BEGIN and END are not
 * a window.
 */
void time_bench_chunk_here(struct time_bench_run *run)
{
	const struct time_bench_context *ctx = run->test->context;
	struct time_bench_chunk *c = run->chunk;

	if (run->timed)
		time_bench_mark_open(run->idx);
	time_bench_start(&c->start);
	time_bench_mark(TIME_BENCH_MARK_BEGIN);
	c->completed = run->test->body(run->priv, c->loops);
	time_bench_mark(TIME_BENCH_MARK_END);
	time_bench_stop(&c->stop);

	c->cpu = raw_smp_processor_id();
	c->in_softirq = in_serving_softirq();
	c->in_context = ctx->here ? ctx->here(run) : true;
	run->chunk_task = current;
}
EXPORT_SYMBOL_GPL(time_bench_chunk_here);

static bool time_bench_in_process(struct time_bench_run *run)
{
	return !in_serving_softirq();
}

const struct time_bench_context time_bench_process = {
	.name = "process",
	.run_chunk = time_bench_chunk_here,
	.here = time_bench_in_process,
};
EXPORT_SYMBOL_GPL(time_bench_process);

struct time_bench_tasklet {
	struct tasklet_struct tasklet;
	struct completion done;
	struct time_bench_run *run;
};

static void time_bench_tasklet_fn(struct tasklet_struct *t)
{
	struct time_bench_tasklet *tt = from_tasklet(tt, t, tasklet);

	time_bench_chunk_here(tt->run);
	complete(&tt->done);
}

static int time_bench_tasklet_setup(struct time_bench_run *run)
{
	struct time_bench_tasklet *tt = kzalloc(sizeof(*tt), GFP_KERNEL);

	if (!tt)
		return -ENOMEM;
	tt->run = run;
	tasklet_setup(&tt->tasklet, time_bench_tasklet_fn);
	init_completion(&tt->done);
	run->ctx = tt;
	return 0;
}

/* Scheduled with BH off, the tasklet runs at local_bh_enable() in this
 * task when it can, so profilers of the loading task see it; otherwise
 * ksoftirqd runs it.  Either way the completion says when.
 */
static void time_bench_tasklet_run_chunk(struct time_bench_run *run)
{
	struct time_bench_tasklet *tt = run->ctx;

	reinit_completion(&tt->done);
	local_bh_disable();
	tasklet_schedule(&tt->tasklet);
	local_bh_enable();
	wait_for_completion(&tt->done);
}

static bool time_bench_in_softirq(struct time_bench_run *run)
{
	return in_serving_softirq();
}

static void time_bench_tasklet_teardown(struct time_bench_run *run)
{
	struct time_bench_tasklet *tt = run->ctx;

	if (!tt)
		return;
	tasklet_kill(&tt->tasklet);
	kfree(tt);
	run->ctx = NULL;
}

const struct time_bench_context time_bench_softirq = {
	.name = "softirq",
	.setup = time_bench_tasklet_setup,
	.run_chunk = time_bench_tasklet_run_chunk,
	.here = time_bench_in_softirq,
	.teardown = time_bench_tasklet_teardown,
};
EXPORT_SYMBOL_GPL(time_bench_softirq);

/*
 * Concurrent runs: one worker thread per CPU of a mask, each calling
 * fn(data, idx, rec) at the same moment in every run, idx being its
 * place in the mask and rec its record of that run.  fn runs in process
 * context on its CPU and must end on its own, in bounded time.
 */
typedef int (*time_bench_cpu_fn)(void *data, unsigned int idx,
				 struct time_bench_record *rec);

/* How long the workers of a run may take to reach the start line. */
#define TIME_BENCH_CPUS_START_MS	5000

struct time_bench_cpu_thread {
	struct time_bench_cpus *tc;
	struct task_struct *task;
	unsigned int idx;
	int cpu;
	struct completion exited;
};

struct time_bench_cpus {
	time_bench_cpu_fn fn;
	void *data;
	unsigned int nr;
	struct time_bench_record *recs;	/* of the run going on */
	unsigned long generation;	/* bumped to start a run */
	bool exiting;
	wait_queue_head_t wq;
	atomic_t arrived;		/* workers at the start line */
	int go;				/* 0: wait, 1: start, -1: give up */
	atomic_t running;		/* workers not done with the run */
	struct completion done;		/* the last one is done */
	int error;			/* the first error of a worker */
	struct time_bench_cpu_thread w[];
};

/* The start line: wait for the others, then go together. */
static void time_bench_cpu_start_line(struct time_bench_cpu_thread *w)
{
	struct time_bench_cpus *tc = w->tc;
	int go, err;

	atomic_inc(&tc->arrived);
	/* pairs with the release of go: the run's parameters */
	while (!(go = smp_load_acquire(&tc->go))) {
		cpu_relax();
		cond_resched();
	}
	if (go > 0) {
		err = tc->fn(tc->data, w->idx, &tc->recs[w->idx]);
		if (err)
			cmpxchg(&tc->error, 0, err);
	}
	if (atomic_dec_and_test(&tc->running))
		complete(&tc->done);
}

static int time_bench_cpu_thread(void *arg)
{
	struct time_bench_cpu_thread *w = arg;
	struct time_bench_cpus *tc = w->tc;
	unsigned long seen = 0;

	for (;;) {
		wait_event_interruptible(tc->wq,
					 READ_ONCE(tc->generation) != seen ||
					 READ_ONCE(tc->exiting));
		if (READ_ONCE(tc->exiting))
			break;
		/* pairs with the release of a new generation: its setup */
		if (smp_load_acquire(&tc->generation) == seen)
			continue;
		seen = tc->generation;
		time_bench_cpu_start_line(w);
	}
	/* Exits without running module code after the completion. */
	kthread_complete_and_exit(&w->exited, 0);
}

/* Process context.  CPUs must stay online until time_bench_cpus_destroy(). */
static struct time_bench_cpus *time_bench_cpus_create(const struct cpumask *cpus,
						      time_bench_cpu_fn fn,
						      void *data)
{
	unsigned int nr = cpumask_weight(cpus), i = 0;
	struct time_bench_cpus *tc;
	int cpu;

	tc = kzalloc(struct_size(tc, w, nr), GFP_KERNEL);
	if (!tc)
		return ERR_PTR(-ENOMEM);
	tc->fn = fn;
	tc->data = data;
	tc->nr = nr;
	init_waitqueue_head(&tc->wq);
	init_completion(&tc->done);
	for_each_cpu(cpu, cpus) {
		struct time_bench_cpu_thread *w = &tc->w[i];
		struct task_struct *task;

		w->tc = tc;
		w->idx = i;
		w->cpu = cpu;
		init_completion(&w->exited);
		task = kthread_create_on_node(time_bench_cpu_thread, w,
					      cpu_to_node(cpu),
					      "time_bench/%d", cpu);
		if (IS_ERR(task)) {
			/* Never woken, the others exit without running. */
			while (i--)
				kthread_stop(tc->w[i].task);
			kfree(tc);
			return ERR_CAST(task);
		}
		kthread_bind(task, cpu);
		w->task = task;
		i++;
	}
	for (i = 0; i < nr; i++)
		wake_up_process(tc->w[i].task);
	return tc;
}

/*
 * One run of every worker, started together, each into its record of
 * @recs (cleared first).  Returns 0, the first error a worker's function
 * returned, or -ETIMEDOUT if the workers did not all reach the start line
 * in time (then none of them ran).
 */
static int time_bench_cpus_run(struct time_bench_cpus *tc,
			       struct time_bench_record *recs)
{
	unsigned long deadline;

	memset(recs, 0, tc->nr * sizeof(*recs));
	tc->recs = recs;
	tc->error = 0;
	atomic_set(&tc->arrived, 0);
	atomic_set(&tc->running, tc->nr);
	WRITE_ONCE(tc->go, 0);
	reinit_completion(&tc->done);
	/* publishes the run set up above to the waiting threads */
	smp_store_release(&tc->generation, tc->generation + 1);
	wake_up_all(&tc->wq);

	deadline = jiffies + msecs_to_jiffies(TIME_BENCH_CPUS_START_MS);
	while (atomic_read(&tc->arrived) < tc->nr) {
		if (time_after(jiffies, deadline)) {
			/* tells the threads that arrived to give up */
			smp_store_release(&tc->go, -1);
			wait_for_completion(&tc->done);
			return -ETIMEDOUT;
		}
		usleep_range(10, 100);
	}
	/* all arrived: the start, after everything set up before it */
	smp_store_release(&tc->go, 1);
	wait_for_completion(&tc->done);
	return tc->error;
}

static void time_bench_cpus_destroy(struct time_bench_cpus *tc)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(tc))
		return;
	WRITE_ONCE(tc->exiting, true);
	wake_up_all(&tc->wq);
	for (i = 0; i < tc->nr; i++)
		wait_for_completion(&tc->w[i].exited);
	kfree(tc);
}

/*
 * The context of several CPUs (struct time_bench_cpus_ops): on each CPU
 * a worker runs the test's batches, each in a tasklet there, so that no
 * stay in softirq is longer than a batch.  A worker with nothing to do
 * yields the CPU; one that waits longer than TIME_BENCH_STALL_NS for the
 * others ends the chunk with an error.
 */
#define TIME_BENCH_STALL_NS	(2 * NSEC_PER_SEC)

struct time_bench_cpus_worker {
	struct time_bench_cpus_ctx *cc;
	unsigned int idx;
	struct tasklet_struct tasklet;
	struct completion batch_done;
	struct time_bench_record *rec;	/* of the chunk going on */
	u32 batch;			/* elements the last batch moved */
	bool batch_in_softirq;
	struct time_bench_record total;	/* of the timed chunks */
};

struct time_bench_cpus_ctx {
	struct time_bench_run *run;
	const struct time_bench_cpus_ops *ops;
	struct time_bench_cpus *cpus;
	unsigned int nr;
	struct time_bench_record *recs;	/* one per worker, of a chunk */
	bool in_softirq;		/* every batch of the chunk was */
	int error;
	const char *error_what;
	struct time_bench_cpus_worker w[];
};

static void time_bench_cpus_tasklet_fn(struct tasklet_struct *t)
{
	struct time_bench_cpus_worker *w = from_tasklet(w, t, tasklet);
	struct time_bench_stamp start = { }, stop = { };

	time_bench_start(&start);
	w->batch = w->cc->ops->batch(w->cc->run->priv, w->idx);
	time_bench_stop(&stop);
	w->batch_in_softirq = in_serving_softirq();
	if (w->batch)
		time_bench_account(w->rec, &start, &stop, w->batch);
	complete(&w->batch_done);
}

/* One batch in softirq on this worker's CPU. */
static u32 time_bench_cpus_batch(struct time_bench_cpus_worker *w)
{
	reinit_completion(&w->batch_done);
	local_bh_disable();
	tasklet_schedule(&w->tasklet);
	local_bh_enable();
	wait_for_completion(&w->batch_done);
	if (!w->batch_in_softirq)
		WRITE_ONCE(w->cc->in_softirq, false);
	return w->batch;
}

/* False, with the error set, once the others kept @idx waiting too long. */
static bool time_bench_cpus_wait(struct time_bench_cpus_ctx *cc,
				 unsigned int idx, u64 *since)
{
	u64 now = ktime_get_ns();

	if (!*since)
		*since = now;
	if (now - *since > TIME_BENCH_STALL_NS) {
		if (!cmpxchg(&cc->error, 0, -ETIMEDOUT))
			cc->error_what = cc->ops->stalled[idx ? 1 : 0];
		return false;
	}
	cond_resched();
	return true;
}

static int time_bench_cpus_work(void *data, unsigned int idx,
				struct time_bench_record *rec)
{
	struct time_bench_cpus_ctx *cc = data;
	struct time_bench_cpus_worker *w = &cc->w[idx];
	u64 since = 0;

	w->rec = rec;
	while (!READ_ONCE(cc->error)) {
		if (time_bench_cpus_batch(w)) {
			since = 0;
			continue;
		}
		if (cc->ops->done(cc->run->priv, idx) ||
		    !time_bench_cpus_wait(cc, idx, &since))
			break;
	}
	return 0;
}

/* The first online CPUs, as many as the test asks for. */
static int time_bench_cpus_mask(struct time_bench_run *run, unsigned int nr,
				struct cpumask *mask)
{
	int cpu;

	if (num_online_cpus() < nr)
		return time_bench_skip(run, "needs %u online CPUs, %u online",
				       nr, num_online_cpus());
	for_each_online_cpu(cpu) {
		if (cpumask_weight(mask) == nr)
			break;
		cpumask_set_cpu(cpu, mask);
	}
	return 0;
}

static int time_bench_cpus_alloc(struct time_bench_run *run, unsigned int nr)
{
	struct time_bench_result *res = run->result;
	struct time_bench_cpus_ctx *cc;
	unsigned int i;

	cc = kzalloc(struct_size(cc, w, nr), GFP_KERNEL);
	if (!cc)
		return -ENOMEM;
	run->ctx = cc;
	cc->recs = kcalloc(nr, sizeof(*cc->recs), GFP_KERNEL);
	res->cpu_ids = kcalloc(nr, sizeof(*res->cpu_ids), GFP_KERNEL);
	res->cpu_recs = kcalloc(nr, sizeof(*res->cpu_recs), GFP_KERNEL);
	if (!cc->recs || !res->cpu_ids || !res->cpu_recs)
		return -ENOMEM;
	cc->run = run;
	cc->ops = run->test->context->cpus;
	cc->nr = nr;
	for (i = 0; i < nr; i++) {
		cc->w[i].cc = cc;
		cc->w[i].idx = i;
		init_completion(&cc->w[i].batch_done);
		tasklet_setup(&cc->w[i].tasklet, time_bench_cpus_tasklet_fn);
	}
	return 0;
}

/* Counting instructions, QEMU runs the vCPUs one at a time. */
int time_bench_cpus_setup(struct time_bench_run *run)
{
	struct time_bench_cpus_ctx *cc;
	unsigned int nr = run->test->context->cpus->nr_cpus(), i;
	cpumask_var_t mask;
	int ret;

	if (run->suite->state->ins.clock == TIME_BENCH_CLOCK_INSTRUCTIONS)
		return time_bench_skip(run,
				       "counting instructions (QEMU -icount), vCPUs run one at a time: no contention between CPUs to measure");
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = time_bench_cpus_mask(run, nr, mask) ?:
	      time_bench_cpus_alloc(run, nr);
	if (ret)
		goto out;
	cc = run->ctx;
	cc->cpus = time_bench_cpus_create(mask, time_bench_cpus_work, cc);
	if (IS_ERR(cc->cpus)) {
		ret = PTR_ERR(cc->cpus);
		tb_err(run->suite, "%s: cannot start the per-CPU workers: %d\n",
		       run->test->name, ret);
		goto out;
	}
	run->result->nr_cpus = nr;
	for (i = 0; i < nr; i++)
		run->result->cpu_ids[i] = cc->cpus->w[i].cpu;
out:
	free_cpumask_var(mask);
	return ret;
}
EXPORT_SYMBOL_GPL(time_bench_cpus_setup);

/* The chunk's figures: the workers but the first, together. */
static void time_bench_cpus_account(struct time_bench_cpus_ctx *cc,
				    struct time_bench_chunk *c)
{
	unsigned int i;

	for (i = 1; i < cc->nr; i++) {
		c->completed += cc->recs[i].invocations;
		c->stop.cycles += cc->recs[i].cycles;
		c->stop.ns += cc->recs[i].ns;
	}
	for (i = 0; cc->run->timed && i < cc->nr; i++) {
		cc->w[i].total.invocations += cc->recs[i].invocations;
		cc->w[i].total.cycles += cc->recs[i].cycles;
		cc->w[i].total.ns += cc->recs[i].ns;
		cc->w[i].total.chunks++;
	}
	c->cpu = cc->cpus->w[0].cpu;
	c->in_softirq = cc->in_softirq;
	c->in_context = cc->in_softirq;
}

/* One concurrent run of chunk->loops elements. */
void time_bench_cpus_run_chunk(struct time_bench_run *run)
{
	struct time_bench_cpus_ctx *cc = run->ctx;
	struct time_bench_chunk *c = run->chunk;
	const char *what, *end_what = NULL;
	int err, end;

	cc->in_softirq = true;
	cc->error = 0;
	cc->error_what = NULL;
	cc->ops->begin(run->priv, c->loops);
	err = time_bench_cpus_run(cc->cpus, cc->recs) ?: cc->error;
	what = cc->error_what;
	/* Process context again: the test gives back what is in flight. */
	end = cc->ops->end(run->priv, &end_what);
	if (!err) {
		err = end;
		what = end_what;
	}
	if (err) {
		tb_err(run->suite, "%s: %s (%d)\n", run->test->name,
		       what ?: "the per-CPU workers did not start", err);
		c->error = err;
		return;
	}
	time_bench_cpus_account(cc, c);
	/* The work ran in other tasks: the PMU counts of this one miss it. */
	run->chunk_task = NULL;
}
EXPORT_SYMBOL_GPL(time_bench_cpus_run_chunk);

/* Each CPU's share, in the legacy benchmark's concurrent format. */
void time_bench_cpus_report(struct time_bench_run *run)
{
	struct time_bench_cpus_ctx *cc = run->ctx;
	struct time_bench_result *res = run->result;
	const char *name = run->test->name;
	char first[64];
	unsigned int i;

	for (i = 0; i < cc->nr; i++)
		res->cpu_recs[i] = cc->w[i].total;
	snprintf(first, sizeof(first), "%s_%s", name, cc->ops->roles[0]);
	time_bench_print_cpu(first, res->cpu_ids[0], &res->cpu_recs[0]);
	time_bench_print_cpu_sum(first, res->cpu_recs, 1);
	for (i = 1; i < cc->nr; i++)
		time_bench_print_cpu(name, res->cpu_ids[i], &res->cpu_recs[i]);
	time_bench_print_cpu_sum(name, res->cpu_recs + 1, cc->nr - 1);
}
EXPORT_SYMBOL_GPL(time_bench_cpus_report);

void time_bench_cpus_teardown(struct time_bench_run *run)
{
	struct time_bench_cpus_ctx *cc = run->ctx;
	unsigned int i;

	if (!cc)
		return;
	time_bench_cpus_destroy(cc->cpus);
	for (i = 0; i < cc->nr; i++)
		tasklet_kill(&cc->w[i].tasklet);
	kfree(cc->recs);
	kfree(cc);
	run->ctx = NULL;
}
EXPORT_SYMBOL_GPL(time_bench_cpus_teardown);

/*
 * The loop driver's kernel side (the driver itself is pure, in the
 * header): a chunk runs in the test's context, the PMU is read around it
 * in process context, and a fatal signal ends the run between chunks.
 */
static void time_bench_glue_chunk(void *arg, struct time_bench_chunk *c,
				  bool timed)
{
	struct time_bench_run *run = arg;
	const struct time_bench_state *st = run->suite->state;

	run->chunk = c;
	run->timed = timed;
	run->chunk_task = NULL;
	time_bench_pmu_read(st, &c->start);
	run->test->context->run_chunk(run);
	time_bench_pmu_read(st, &c->stop);
	/* This task's counters missed a chunk that another task ran. */
	if (run->chunk_task != current)
		c->stop.pmu_valid = false;
}

static bool time_bench_glue_stop(void *arg)
{
	cond_resched();
	return fatal_signal_pending(current);
}

static int time_bench_glue_before_reps(void *arg)
{
	struct time_bench_run *run = arg;

	return run->suite->before_reps ? run->suite->before_reps(run) : 0;
}

static void time_bench_glue_after_reps(void *arg)
{
	struct time_bench_run *run = arg;

	if (run->suite->after_reps)
		run->suite->after_reps(run);
}

static const struct time_bench_driver_ops time_bench_glue_ops = {
	.run_chunk = time_bench_glue_chunk,
	.stop = time_bench_glue_stop,
	.before_reps = time_bench_glue_before_reps,
	.after_reps = time_bench_glue_after_reps,
};

/**
 * time_bench_run_untimed() - @loops iterations in the test's context
 * @run: the test, set up
 * @loops: how many
 *
 * For a family's own looks at what one iteration does, in process
 * context, e.g. where a page goes.  Nothing of it counts in the results.
 *
 * Return: the iterations the body completed, or the context's error.
 */
s64 time_bench_run_untimed(struct time_bench_run *run, u64 loops)
{
	struct time_bench_chunk c = { .loops = loops };

	time_bench_glue_chunk(run, &c, false);
	return c.error ?: c.completed;
}
EXPORT_SYMBOL_GPL(time_bench_run_untimed);

/**
 * time_bench_skip() - says why this machine cannot run the test
 * @run: the test, in its setup
 * @fmt: the reason, printf style
 *
 * Return: -ENODEV, for the setup to return.
 */
int time_bench_skip(struct time_bench_run *run, const char *fmt, ...)
{
	struct time_bench_result *res = run->result;
	va_list args;

	va_start(args, fmt);
	vscnprintf(res->skip_reason, sizeof(res->skip_reason), fmt, args);
	va_end(args);
	return -ENODEV;
}
EXPORT_SYMBOL_GPL(time_bench_skip);

static void time_bench_plan(const struct time_bench_suite *s,
			    struct time_bench_plan *plan)
{
	const struct time_bench_params *p = s->params;

	plan->warmup_loops = TIME_BENCH_WARMUP_LOOPS;
	plan->loops = p->loops.given ? p->loops.val : 0;
	plan->time_ns = (u64)p->time_ms.val * NSEC_PER_MSEC;
	plan->reps = p->reps.val;
	plan->min_loops = TIME_BENCH_MIN_LOOPS;
	plan->max_loops = U32_MAX;
}

static int time_bench_alloc_outcome(struct time_bench_outcome *o, u32 reps)
{
	o->recs = kcalloc(reps, sizeof(*o->recs), GFP_KERNEL);
	o->cycles_milli = kcalloc(reps, sizeof(u64), GFP_KERNEL);
	o->ns_milli = kcalloc(reps, sizeof(u64), GFP_KERNEL);
	o->sorted = kcalloc(reps, sizeof(u64), GFP_KERNEL);
	return o->recs && o->cycles_milli && o->ns_milli && o->sorted ?
	       0 : -ENOMEM;
}

/* The line, and the error, of a run that did not end well. */
static int time_bench_end_error(const struct time_bench_run *run,
				const struct time_bench_driver *d,
				enum time_bench_end end)
{
	const struct time_bench_suite *s = run->suite;
	const char *name = run->test->name;

	switch (end) {
	case TIME_BENCH_DONE:
		return 0;
	case TIME_BENCH_STOPPED:
		tb_err(s, "%s: interrupted by a signal\n", name);
		return -EINTR;
	case TIME_BENCH_SHORT:
		if (d->phase == TIME_BENCH_WARMUP)
			tb_err(s, "%s: %s while warming up\n", name,
			       s->short_run);
		else
			tb_err(s, "%s: %s after %llu iterations\n", name,
			       s->short_run, d->short_after);
		return -ENOMEM;
	default:
		return d->error;
	}
}

static int time_bench_measure(struct time_bench_run *run)
{
	struct time_bench_outcome *o = &run->result->out;
	struct time_bench_driver d = {
		.ops = &time_bench_glue_ops,
		.arg = run,
		.chunk_ns = TIME_BENCH_CHUNK_NS,
	};
	struct time_bench_plan plan;

	time_bench_plan(run->suite, &plan);
	if (time_bench_alloc_outcome(o, plan.reps))
		return -ENOMEM;
	return time_bench_end_error(run, &d, time_bench_drive(&d, &plan, o));
}

/* The context first: a test's setup may need it, e.g. its NAPI. */
static int time_bench_setup(struct time_bench_run *run)
{
	const struct time_bench_test *t = run->test;
	int ret = 0;

	if (t->context->setup)
		ret = t->context->setup(run);
	if (!ret && t->setup)
		ret = t->setup(run);
	return ret;
}

/* The context first: a pool bound to a NAPI wants it disabled. */
static void time_bench_teardown(struct time_bench_run *run)
{
	if (run->test->context->teardown)
		run->test->context->teardown(run);
	if (run->suite->teardown)
		run->suite->teardown(run);
}

/* Sets up, measures and tears down one test. */
static int time_bench_run_one(const struct time_bench_suite *s,
			      unsigned int idx)
{
	struct time_bench_run *run;
	int ret = -ENOMEM;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return ret;
	run->suite = s;
	run->test = &s->tests[idx];
	run->idx = idx;
	run->result = &s->state->results[idx];
	run->priv = kzalloc(s->priv_size, GFP_KERNEL);
	if (run->priv) {
		ret = time_bench_setup(run);
		if (!ret)
			ret = time_bench_measure(run);
		if (!ret && run->test->context->report)
			run->test->context->report(run);
		time_bench_teardown(run);
	}
	kfree(run->priv);
	kfree(run);
	return ret;
}

/* A test, then its lines; a test this machine cannot run says why. */
static int time_bench_run_test(const struct time_bench_suite *s,
			       unsigned int idx)
{
	const struct time_bench_test *t = &s->tests[idx];
	struct time_bench_result *res = &s->state->results[idx];
	const struct time_bench_outcome *o = &res->out;
	int ret = 0;

	if (t->unsupported)
		strscpy(res->skip_reason, t->unsupported,
			sizeof(res->skip_reason));
	else
		ret = time_bench_run_one(s, idx);
	if ((t->unsupported || ret == -ENODEV) && res->skip_reason[0]) {
		tb_info(s, "%s: skipped: %s\n", t->name, res->skip_reason);
		res->skipped = true;
		return 0;
	}
	if (ret)
		return ret;
	res->valid = true;
	time_bench_print(t->name, &o->recs[o->median_rep]);
	if (o->reps > 1)
		time_bench_print_summary(t->name, o->reps, &o->cycles, &o->ns);
	if (s->report)
		s->report(idx);
	return 0;
}

/*
 * What moves the numbers besides the code under test, recorded in the
 * results file so that two runs can be told apart: kernel options known
 * to make kernel paths dearer (@inflates: warned about once), the
 * preemption model, allocation-time page clearing, the command line and
 * the machine.
 */
static const struct time_bench_config_opt time_bench_config_opts[] = {
	{ "prove_locking", IS_ENABLED(CONFIG_PROVE_LOCKING), true },
	{ "debug_lock_alloc", IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC), true },
	{ "debug_spinlock", IS_ENABLED(CONFIG_DEBUG_SPINLOCK), true },
	{ "lock_stat", IS_ENABLED(CONFIG_LOCK_STAT), true },
	{ "debug_atomic_sleep", IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP), true },
	{ "kasan", IS_ENABLED(CONFIG_KASAN), true },
	{ "kcsan", IS_ENABLED(CONFIG_KCSAN), true },
	{ "kmsan", IS_ENABLED(CONFIG_KMSAN), true },
	{ "debug_net", IS_ENABLED(CONFIG_DEBUG_NET), true },
	{ "debug_vm", IS_ENABLED(CONFIG_DEBUG_VM), true },
	{ "debug_pagealloc", IS_ENABLED(CONFIG_DEBUG_PAGEALLOC), false },
	{ "kmemleak", IS_ENABLED(CONFIG_DEBUG_KMEMLEAK), true },
	{ "dma_api_debug", IS_ENABLED(CONFIG_DMA_API_DEBUG), true },
};

/* " name" of each enabled option that inflates costs, into @buf. */
static size_t time_bench_inflating(char *buf, size_t size, size_t len,
				   const struct time_bench_config_opt *opts,
				   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (opts[i].enabled && opts[i].inflates)
			len += scnprintf(buf + len, size - len, " %s",
					 opts[i].name);
	return len;
}

/* Once per load: numbers from such a kernel are not production costs. */
static void time_bench_warn_debug_options(const struct time_bench_suite *s)
{
	char buf[256];
	size_t len;

	buf[0] = '\0';
	len = time_bench_inflating(buf, sizeof(buf), 0, time_bench_config_opts,
				   ARRAY_SIZE(time_bench_config_opts));
	len = time_bench_inflating(buf, sizeof(buf), len, s->config,
				   s->nr_config);
	if (debug_pagealloc_enabled())
		len += scnprintf(buf + len, sizeof(buf) - len,
				 " debug_pagealloc");
	if (len)
		pr_warn("%s: debugging options make %s costs higher than in production:%s; do not compare these numbers with other kernels\n",
			s->name, s->subject, buf);
}

static const char *time_bench_preempt_model(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return "rt";
	if (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC)) {
		if (preempt_model_full())
			return "dynamic_full";
		if (preempt_model_voluntary())
			return "dynamic_voluntary";
		return "dynamic_none";
	}
	if (IS_ENABLED(CONFIG_PREEMPT))
		return "full";
	if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		return "voluntary";
	return "none";
}

static const char *time_bench_cpu_model(void)
{
#ifdef CONFIG_X86
	if (boot_cpu_data.x86_model_id[0])
		return boot_cpu_data.x86_model_id;
#endif
	return "unknown";
}

/*
 * Up to @size - 1 bytes of a file the kernel does not export otherwise,
 * such as /proc/cmdline; process context.  Returns the length or an error.
 */
static ssize_t time_bench_read_file(const char *path, char *buf, size_t size)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t len;

	file = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	len = kernel_read(file, buf, size - 1, &pos);
	filp_close(file, NULL);
	buf[len > 0 ? len : 0] = '\0';
	return len;
}

static void time_bench_read_cmdline(struct time_bench_state *st)
{
	ssize_t len;

	st->cmdline = kzalloc(TIME_BENCH_CMDLINE_LEN, GFP_KERNEL);
	if (!st->cmdline) {
		st->cmdline_error = -ENOMEM;
		return;
	}
	len = time_bench_read_file("/proc/cmdline", st->cmdline,
				   TIME_BENCH_CMDLINE_LEN);
	if (len < 0)
		st->cmdline_error = len;
	strim(st->cmdline);
}

/* @buf as one token of a "key=value" list: blanks become '_'. */
static void time_bench_tokenize(char *buf)
{
	for (; *buf; buf++)
		if (isspace(*buf))
			*buf = '_';
}

/* A one-line file of sysfs, as one token; false if there is none. */
static __printf(3, 4) bool time_bench_read_value(char *buf, size_t size,
						 const char *fmt, ...)
{
	char path[128];
	va_list args;

	va_start(args, fmt);
	vsnprintf(path, sizeof(path), fmt, args);
	va_end(args);
	if (time_bench_read_file(path, buf, size) <= 0)
		return false;
	strreplace(buf, '\n', '\0');
	time_bench_tokenize(buf);
	return buf[0];
}

/* Turbo/boost: cpufreq's global switch, intel_pstate's inverse one, or
 * the CPU's policy's own (amd-pstate); "none" where none exists.
 */
static void time_bench_read_boost(char *buf, size_t size, int cpu)
{
	char no_turbo[8];

	if (time_bench_read_value(buf, size, TIME_BENCH_SYSFS_CPU "/cpufreq/boost"))
		return;
	if (time_bench_read_value(no_turbo, sizeof(no_turbo),
				  TIME_BENCH_SYSFS_CPU "/intel_pstate/no_turbo")) {
		strscpy(buf, strcmp(no_turbo, "0") ? "0" : "1", size);
		return;
	}
	if (!time_bench_read_value(buf, size,
				   TIME_BENCH_SYSFS_CPU "/cpu%d/cpufreq/boost",
				   cpu))
		strscpy(buf, "none", size);
}

/*
 * What sets the speed of the CPU the tests start on: its cpufreq
 * governor, boost and SMT.  Under QEMU there is no cpufreq: none.
 */
static void time_bench_read_platform(struct time_bench_state *st)
{
	char governor[32], boost[8], smt[24];
	int cpu = raw_smp_processor_id();

	if (!time_bench_read_value(governor, sizeof(governor),
				   TIME_BENCH_SYSFS_CPU "/cpu%d/cpufreq/scaling_governor",
				   cpu))
		strscpy(governor, "none", sizeof(governor));
	time_bench_read_boost(boost, sizeof(boost), cpu);
	if (!time_bench_read_value(smt, sizeof(smt),
				   TIME_BENCH_SYSFS_CPU "/smt/control"))
		strscpy(smt, "none", sizeof(smt));
	snprintf(st->platform, sizeof(st->platform),
		 "cpufreq_governor=%s boost=%s smt=%s", governor, boost, smt);
}

#define TIME_BENCH_MAX_VULNS	64
#define TIME_BENCH_VULN_LEN	48

/* The names in a directory, for iterate_dir() */
struct time_bench_dir {
	struct dir_context ctx;
	char (*names)[TIME_BENCH_VULN_LEN];
	unsigned int n;
};

static bool time_bench_dir_entry(struct dir_context *ctx, const char *name,
				 int len, loff_t pos, u64 ino,
				 unsigned int type)
{
	struct time_bench_dir *dir = container_of(ctx, struct time_bench_dir,
						  ctx);

	if (name[0] == '.' || len >= TIME_BENCH_VULN_LEN ||
	    dir->n == TIME_BENCH_MAX_VULNS)
		return true;
	memcpy(dir->names[dir->n], name, len);
	dir->names[dir->n++][len] = '\0';
	return true;
}

static int time_bench_cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The files of a sysfs directory, sorted by name. */
static int time_bench_list_dir(const char *path, struct time_bench_dir *dir)
{
	struct file *file = filp_open(path, O_RDONLY | O_DIRECTORY, 0);
	int ret;

	if (IS_ERR(file))
		return PTR_ERR(file);
	dir->ctx.actor = time_bench_dir_entry;
	ret = iterate_dir(file, &dir->ctx);
	filp_close(file, NULL);
	sort(dir->names, dir->n, TIME_BENCH_VULN_LEN, time_bench_cmp_names,
	     NULL);
	return ret;
}

/*
 * The kernel's CPU vulnerability and mitigation state, one "name=state"
 * per file of /sys/devices/system/cpu/vulnerabilities (an SRSO or
 * retbleed mitigation moves page_pool costs on real hardware).
 */
static void time_bench_read_mitigations(struct time_bench_state *st)
{
	struct time_bench_dir dir = { };
	char value[160];
	size_t len = 0;
	unsigned int i;

	st->mitigations = kzalloc(TIME_BENCH_MITIGATIONS_LEN, GFP_KERNEL);
	dir.names = kcalloc(TIME_BENCH_MAX_VULNS, TIME_BENCH_VULN_LEN,
			    GFP_KERNEL);
	if (!st->mitigations || !dir.names)
		goto out;
	time_bench_list_dir(TIME_BENCH_SYSFS_CPU "/vulnerabilities", &dir);
	for (i = 0; i < dir.n; i++) {
		if (!time_bench_read_value(value, sizeof(value),
					   TIME_BENCH_SYSFS_CPU "/vulnerabilities/%s",
					   dir.names[i]))
			strscpy(value, "unreadable", sizeof(value));
		len += scnprintf(st->mitigations + len,
				 TIME_BENCH_MITIGATIONS_LEN - len, "%s%s=%s",
				 len ? " " : "", dir.names[i], value);
	}
out:
	kfree(dir.names);
}

static void time_bench_seq_config(struct seq_file *m,
				  const struct time_bench_config_opt *opts,
				  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		seq_printf(m, " %s=%c", opts[i].name,
			   opts[i].enabled ? 'y' : 'n');
}

static void time_bench_seq_fingerprint(struct seq_file *m,
				       const struct time_bench_suite *s)
{
	const struct time_bench_state *st = s->state;

	seq_puts(m, "config:");
	time_bench_seq_config(m, time_bench_config_opts,
			      ARRAY_SIZE(time_bench_config_opts));
	time_bench_seq_config(m, s->config, s->nr_config);
	seq_printf(m, " preempt=%s\n", time_bench_preempt_model());
	seq_printf(m, "runtime: init_on_alloc=%d init_on_free=%d debug_pagealloc=%d online_cpus=%u hypervisor=%s\n",
		   want_init_on_alloc(0), want_init_on_free(),
		   debug_pagealloc_enabled(), num_online_cpus(),
		   st->ins.signature);
	seq_printf(m, "platform: %s\n", st->platform);
	seq_printf(m, "mitigations: %s\n",
		   st->mitigations && st->mitigations[0] ? st->mitigations :
							   "none");
	if (st->cmdline_error)
		seq_printf(m, "cmdline: unavailable (error %d)\n",
			   st->cmdline_error);
	else
		seq_printf(m, "cmdline: %s\n", st->cmdline);
}

/* " key=x.yy" from thousandths, two decimals rounded */
static void time_bench_seq_milli2(struct seq_file *m, const char *key,
				  u64 milli)
{
	char num[TIME_BENCH_NUM_LEN];

	seq_printf(m, " %s=%s", key,
		   time_bench_format_milli(num, sizeof(num), milli));
}

/* PMU counts over all repetitions, as " key=x.yy" fields. */
static void time_bench_seq_pmu(struct seq_file *m,
			       const struct time_bench_outcome *o)
{
	u64 insn = 0, cyc = 0, inv = 0;
	u32 skipped = 0, r;

	for (r = 0; r < o->reps; r++) {
		insn += o->recs[r].pmu_instructions;
		cyc += o->recs[r].pmu_cycles;
		inv += o->recs[r].pmu_invocations;
		skipped += o->recs[r].pmu_skipped_chunks;
	}
	if (!inv) {
		seq_puts(m, " pmu=-");
		return;
	}
	time_bench_seq_milli2(m, "instructions_per_elem",
			      time_bench_milli_per_elem(insn, inv));
	time_bench_seq_milli2(m, "pmu_cycles_per_elem",
			      time_bench_milli_per_elem(cyc, inv));
	time_bench_seq_milli2(m, "ipc", time_bench_milli_per_elem(insn, cyc));
	seq_printf(m, " pmu_skipped_chunks=%u", skipped);
}

static void time_bench_seq_summary(struct seq_file *m, const char *unit,
				   const struct time_bench_summary *sum)
{
	char key[24];

	snprintf(key, sizeof(key), "%s_min", unit);
	time_bench_seq_milli2(m, key, sum->min);
	snprintf(key, sizeof(key), "%s_median", unit);
	time_bench_seq_milli2(m, key, sum->median);
	snprintf(key, sizeof(key), "%s_mean", unit);
	time_bench_seq_milli2(m, key, sum->mean);
	snprintf(key, sizeof(key), "%s_stddev", unit);
	time_bench_seq_milli2(m, key, sum->stddev);
	snprintf(key, sizeof(key), "%s_max", unit);
	time_bench_seq_milli2(m, key, sum->max);
}

/* " key=a.aaa,b.bbb,..." : one value per repetition, in order */
static void time_bench_seq_samples(struct seq_file *m, const char *key,
				   const u64 *milli, u32 n)
{
	u32 r;

	seq_printf(m, " %s=", key);
	for (r = 0; r < n; r++)
		seq_printf(m, "%s%llu.%03llu", r ? "," : "",
			   div_u64(milli[r], 1000), milli[r] % 1000);
}

/* " key=value" of a parameter the user gave, or " key=-" */
static void time_bench_seq_param(struct seq_file *m, const char *key,
				 const struct time_bench_param *p,
				 const char *fmt)
{
	seq_printf(m, " %s=", key);
	if (p->given)
		seq_printf(m, fmt, p->val);
	else
		seq_putc(m, '-');
}

/* Concurrent tests: one line per CPU, over the timed repetitions. */
static void time_bench_seq_cpus(struct seq_file *m,
				const struct time_bench_test *t,
				const struct time_bench_result *res)
{
	struct time_bench_fixed cyc, ns;
	unsigned int i;

	for (i = 0; i < res->nr_cpus; i++) {
		const struct time_bench_record *rec = &res->cpu_recs[i];

		cyc = time_bench_div_fixed(rec->cycles, rec->invocations, 3,
					   true);
		ns = time_bench_div_fixed(rec->ns, rec->invocations, 3, true);
		seq_printf(m, "cpu: name=%s cpu=%d role=%s invoke_count=%llu cycles=%llu ns=%llu cycles_per_elem=%llu.%03u ns_per_elem=%llu.%03u\n",
			   t->name, res->cpu_ids[i],
			   t->context->cpus->roles[i ? 1 : 0],
			   rec->invocations, rec->cycles, rec->ns, cyc.whole,
			   cyc.frac, ns.whole, ns.frac);
	}
}

/*
 * " cheaper_than=a,b": the relations this instrument can check.  Emulated
 * cycles (TCG without -icount) do not rank paths that close: in one load
 * the bulk test's cheapest repetition cost more than the ptr_ring one's
 * (417 against 404 cycles), where counting instructions gives 141.6
 * against 164.6 on every load.
 */
static void time_bench_seq_cheaper_than(struct seq_file *m,
					const struct time_bench_state *st,
					const struct time_bench_test *t)
{
	bool narrow = t->narrowly_cheaper_than &&
		      (st->ins.clock == TIME_BENCH_CLOCK_INSTRUCTIONS ||
		       st->ins.accel != TIME_BENCH_ACCEL_TCG);
	const char *sep = t->cheaper_than && narrow ? "," : "";

	if ((!t->cheaper_than && !narrow) ||
	    (t->relations_hold && !t->relations_hold())) {
		seq_puts(m, " cheaper_than=-");
		return;
	}
	seq_printf(m, " cheaper_than=%s%s%s", t->cheaper_than ?: "", sep,
		   narrow ? t->narrowly_cheaper_than : "");
}

/* The median repetition and where the chunks ran. */
/* @row: the test's row in the suite's table, its id in a profile */
static void time_bench_seq_main(struct seq_file *m, unsigned int row,
				const struct time_bench_test *t,
				const struct time_bench_outcome *o)
{
	const struct time_bench_record *rec = &o->recs[o->median_rep];
	struct time_bench_fixed cyc, ns;

	cyc = time_bench_div_fixed(rec->cycles, rec->invocations, 3, true);
	ns = time_bench_div_fixed(rec->ns, rec->invocations, 3, true);
	seq_printf(m, "test: name=%s run_flags_bit=%u row=%u context=%s wanted_context=%s cpu=%d cpu_moves=%u reps=%u loops=%llu invoke_count=%llu total_invoke_count=%llu cycles=%llu ns=%llu chunks=%u cycles_per_elem=%llu.%03u ns_per_elem=%llu.%03u",
		   t->name, t->bit, row,
		   time_bench_where_name(&o->where, t->context->name),
		   t->context->name, o->where.cpu, o->where.cpu_moves, o->reps,
		   o->loops, rec->invocations, o->total_invocations,
		   rec->cycles, rec->ns, o->where.chunks, cyc.whole, cyc.frac,
		   ns.whole, ns.frac);
}

static void time_bench_seq_test(struct seq_file *m,
				const struct time_bench_suite *s,
				unsigned int idx)
{
	const struct time_bench_test *t = &s->tests[idx];
	const struct time_bench_result *res = &s->state->results[idx];
	const struct time_bench_outcome *o = &res->out;

	if (res->skipped) {
		/* reason= takes the rest of the line */
		seq_printf(m, "skip: name=%s run_flags_bit=%u wanted_context=%s reason=%s\n",
			   t->name, t->bit, t->context->name,
			   res->skip_reason);
		return;
	}
	time_bench_seq_main(m, idx, t, o);
	time_bench_seq_summary(m, "cycles", &o->cycles);
	time_bench_seq_summary(m, "ns", &o->ns);
	time_bench_seq_samples(m, "cycles_samples", o->cycles_milli, o->reps);
	time_bench_seq_samples(m, "ns_samples", o->ns_milli, o->reps);
	time_bench_seq_pmu(m, o);
	if (s->seq_test)
		s->seq_test(m, idx, o->total_invocations);
	time_bench_seq_cheaper_than(m, s->state, t);
	seq_putc(m, '\n');
	time_bench_seq_cpus(m, t, res);
}

static void time_bench_seq_header(struct seq_file *m,
				  const struct time_bench_suite *s)
{
	const struct time_bench_state *st = s->state;

	seq_printf(m, "format: %s 3\n", s->name);
	seq_printf(m, "kernel: %s\n", init_utsname()->release);
	seq_printf(m, "cpu_model: %s\n", time_bench_cpu_model());
	seq_printf(m, "clock: %s\n", time_bench_clock_name(st->ins.clock));
	seq_printf(m, "accel: %s\n", time_bench_accel_name(st->ins.accel));
	if (s->seq_header)
		s->seq_header(m);
	time_bench_seq_fingerprint(m, s);
}

static void time_bench_seq_setup(struct seq_file *m,
				 const struct time_bench_suite *s)
{
	const struct time_bench_params *p = s->params;
	const struct time_bench_overhead *ovh = &s->state->overhead;
	const char *sep = " ";
	unsigned int i;

	seq_puts(m, "params:");
	time_bench_seq_param(m, "loops", &p->loops, "%u");
	time_bench_seq_param(m, "run_flags", &p->run_flags, "0x%x");
	seq_printf(m, " tests=%s", p->tests_given ? p->tests : "-");
	if (p->loops.given)
		seq_puts(m, " time_ms=-");
	else
		seq_printf(m, " time_ms=%u", p->time_ms.val);
	seq_printf(m, " reps=%u", p->reps.val);
	if (s->seq_params)
		s->seq_params(m);
	seq_puts(m, "\nselected:");
	for_each_set_bit(i, s->state->selected, s->nr_tests) {
		seq_printf(m, "%s%s", sep, s->tests[i].name);
		sep = ",";
	}
	seq_puts(m, "\noverhead:");
	time_bench_seq_milli2(m, "cycle_read_cycles", ovh->cycle_read_milli);
	time_bench_seq_milli2(m, "clock_read_cycles",
			      ovh->clock_read_milli_cycles);
	time_bench_seq_milli2(m, "clock_read_ns", ovh->clock_read_milli_ns);
	time_bench_seq_milli2(m, "empty_loop_cycles",
			      ovh->empty_loop_milli_cycles);
	seq_putc(m, '\n');
}

/* The results file: format 3, see doc/output.rst. */
static int time_bench_results_show(struct seq_file *m, void *v)
{
	const struct time_bench_suite *s = m->private;
	const struct time_bench_state *st = s->state;
	unsigned int i, ran = 0, skipped = 0;

	time_bench_seq_header(m, s);
	time_bench_seq_setup(m, s);
	if (st->pmu_error)
		seq_printf(m, "pmu: unavailable (error %d)\n", st->pmu_error);
	else
		seq_puts(m, "pmu: instructions cycles\n");
	for (i = 0; i < s->nr_tests; i++) {
		if (st->results[i].valid || st->results[i].skipped)
			time_bench_seq_test(m, s, i);
		ran += st->results[i].valid;
		skipped += st->results[i].skipped;
	}
	seq_printf(m, "end: tests=%u skips=%u\n", ran, skipped);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(time_bench_results);

/* What a load keeps until it is removed, or until it fails. */
static void time_bench_release(struct time_bench_suite *s)
{
	struct time_bench_state *st = s->state;
	unsigned int i;

	if (!st)
		return;
	for (i = 0; st->results && i < s->nr_tests; i++) {
		struct time_bench_result *res = &st->results[i];

		kfree(res->out.recs);
		kfree(res->out.cycles_milli);
		kfree(res->out.ns_milli);
		kfree(res->out.sorted);
		kfree(res->cpu_ids);
		kfree(res->cpu_recs);
	}
	kfree(st->results);
	bitmap_free(st->selected);
	kfree(st->cmdline);
	kfree(st->mitigations);
	kfree(st);
	s->state = NULL;
}

/**
 * time_bench_suite_prepare() - check the parameters, select the tests
 * @s: the family's suite
 *
 * Process context, in the family's module init, before anything else it
 * prints.  On error, one dmesg line said what was wrong.
 *
 * Return: 0, or the error for the module init to return.
 */
int time_bench_suite_prepare(struct time_bench_suite *s)
{
	struct time_bench_state *st;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	s->state = st;
	st->results = kcalloc(s->nr_tests, sizeof(*st->results), GFP_KERNEL);
	st->selected = bitmap_zalloc(s->nr_tests, GFP_KERNEL);
	ret = !st->results || !st->selected ? -ENOMEM :
	      time_bench_check_table(s) ?: time_bench_check_params(s) ?:
	      time_bench_select(s);
	if (ret)
		time_bench_release(s);
	return ret;
}
EXPORT_SYMBOL_GPL(time_bench_suite_prepare);

/* What the numbers of this load are, said once before them. */
static void time_bench_announce(struct time_bench_suite *s)
{
	struct time_bench_state *st = s->state;

	time_bench_warn_debug_options(s);
	time_bench_read_cmdline(st);
	time_bench_read_platform(st);
	time_bench_read_mitigations(st);
	time_bench_instrument(&st->ins);
	time_bench_apply_defaults(s);
	/* What the cycles(tsc) of the lines below count. */
	tb_info(s, "instrument: clock=%s accel=%s\n",
		time_bench_clock_name(st->ins.clock),
		time_bench_accel_name(st->ins.accel));
	time_bench_measure_overhead(&st->overhead);
	time_bench_print_overhead(s);
	st->pmu_error = time_bench_pmu_open(st);
	if (st->pmu_error)
		tb_info(s, "PMU counters unavailable (error %d): no instructions or IPC per element\n",
			st->pmu_error);
}

/**
 * time_bench_suite_run() - run the selected tests, publish the results
 * @s: the family's suite, prepared
 *
 * Process context, in the family's module init: the whole run happens
 * while the module loads, so that "perf record modprobe" sees all of it.
 * The results stay readable in debugfs until time_bench_suite_remove().
 *
 * Return: 0, or the error of the test that failed; then the suite is
 * released.
 */
int time_bench_suite_run(struct time_bench_suite *s)
{
	struct time_bench_state *st = s->state;
	unsigned int i;
	int ret = 0;

	time_bench_announce(s);
	time_bench_mark(TIME_BENCH_MARK_SUITE);
	for_each_set_bit(i, st->selected, s->nr_tests) {
		ret = time_bench_run_test(s, i);
		if (ret)
			break;
	}
	time_bench_pmu_close(st);
	if (ret) {
		time_bench_release(s);
		return ret;
	}
	st->dir = debugfs_create_dir(s->name, NULL);
	debugfs_create_file("results", 0444, st->dir, s,
			    &time_bench_results_fops);
	return 0;
}
EXPORT_SYMBOL_GPL(time_bench_suite_run);

/* Module exit: the results file goes, then what it showed. */
void time_bench_suite_remove(struct time_bench_suite *s)
{
	if (!s->state)
		return;
	debugfs_remove_recursive(s->state->dir);
	time_bench_release(s);
}
EXPORT_SYMBOL_GPL(time_bench_suite_remove);

MODULE_DESCRIPTION("Engine of in-kernel micro-benchmarks: contexts, loop driver, results");
MODULE_LICENSE("GPL");
