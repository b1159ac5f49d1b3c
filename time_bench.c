// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench: the engine of in-kernel micro-benchmarks, see time_bench.h.
 * Its core: the chunk between two stamps, the process and softirq
 * contexts, the loop driver's kernel side, and a suite's run from
 * prepare to remove.  time_bench_internal.h lists the other files.
 */
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/kernel_stat.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "time_bench_compat.h"
#include "time_bench_internal.h"
#include "time_bench_stamp.h"

/* Untimed first chunk: fills caches (a pool's) and measures the speed. */
#define TIME_BENCH_WARMUP_LOOPS	1024

/*
 * Profile markers (doc/profile.rst).  Multi-byte NOPs whose displacement
 * is a tag; a QEMU TCG plugin (tools/profile) reads the tag when it
 * translates the instruction and counts only inside a window: from a
 * BEGIN that follows an OPEN to the next END, in the vCPU that ran
 * them.  A NOP carries no run-time value, so OPEN is followed by one
 * TICK per row of the test in the suite's table, which the plugin
 * counts.  SUITE starts a suite's run: the loads of one guest stay
 * apart.  DROP, after a window's END, says that other work entered it
 * and the chunk will be measured again: the plugin leaves that window
 * out, as the results do.  Without the plugin they cost their own
 * execution: two NOPs inside a chunk's stamps, the rest outside.
 */
#define TIME_BENCH_MARK_SUITE	0x54420001
#define TIME_BENCH_MARK_OPEN	0x54420002
#define TIME_BENCH_MARK_TICK	0x54420003
#define TIME_BENCH_MARK_BEGIN	0x54420004
#define TIME_BENCH_MARK_END	0x54420005
#define TIME_BENCH_MARK_DROP	0x54420006

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
 * What has entered this task's windows on @cpu so far, by kind (enum
 * time_bench_kind): the task's context switches, and @cpu's interrupts,
 * softirqs, NMIs and, with @smi, this CPU's SMIs.  Read before a
 * chunk's first stamp and after its second, the difference says what
 * entered the window; anything that comes between a read and its stamp
 * is counted too, and only makes the chunk run again.
 */
static void time_bench_count(u64 *n, int cpu, bool smi)
{
	u64 softirqs = 0;
	unsigned int i;

	n[TIME_BENCH_SWITCH] = READ_ONCE(current->nvcsw) +
			       READ_ONCE(current->nivcsw);
	n[TIME_BENCH_IRQ] = READ_ONCE(kstat_cpu(cpu).irqs_sum);
	for (i = 0; i < NR_SOFTIRQS; i++)
		softirqs += READ_ONCE(kstat_cpu(cpu).softirqs[i]);
	n[TIME_BENCH_SOFTIRQ] = softirqs;
	time_bench_arch_irqs(cpu, &n[TIME_BENCH_TIMER], &n[TIME_BENCH_NMI],
			     &n[TIME_BENCH_IPI]);
	if (!smi || time_bench_read_smi(&n[TIME_BENCH_SMI]))
		n[TIME_BENCH_SMI] = 0;
}

/* Whether this CPU's SMIs can be counted; said once a load if not. */
static bool time_bench_smi_counted(const struct time_bench_suite *s)
{
	u64 count;
	int err = time_bench_read_smi(&count);

	if (err)
		tb_info(s, "SMIs not counted: MSR_SMI_COUNT (0x34) cannot be read here (error %d); an SMI inside a window would go unseen\n",
			err);
	return !err;
}

/*
 * Contexts.  A chunk runs time_bench_chunk_here() in the test's context:
 * the body's loop between two stamps, then where it ran and whether
 * another task ran inside.  A timed chunk opens a profile window first;
 * an untimed one's BEGIN and END are not a window.
 */
void time_bench_chunk_here(struct time_bench_run *run)
{
	const struct time_bench_context *ctx = run->test->context;
	struct time_bench_chunk *c = run->chunk;
	bool smi = run->suite->state->smi_counted;
	u64 before[TIME_BENCH_KINDS], after[TIME_BENCH_KINDS];
	int cpu = raw_smp_processor_id();
	unsigned int k;

	if (run->timed)
		time_bench_mark_open(run->idx);
	time_bench_count(before, cpu, smi);
	time_bench_start(&c->start);
	time_bench_mark(TIME_BENCH_MARK_BEGIN);
	c->completed = run->test->body(run->priv, c->loops);
	time_bench_mark(TIME_BENCH_MARK_END);
	time_bench_stop(&c->stop);
	/* A window that moved (PREEMPT_RT) holds a switch: the SMIs of
	 * another CPU say nothing of it
	 */
	c->cpu = raw_smp_processor_id();
	time_bench_count(after, cpu, smi && c->cpu == cpu);
	if (c->cpu != cpu)
		after[TIME_BENCH_SMI] = before[TIME_BENCH_SMI];
	for (k = 0; k < TIME_BENCH_KINDS; k++)
		c->entered.n[k] = min_t(u64, after[k] - before[k], U32_MAX);
	/* The driver will measure it again (time_bench_retry_chunk()) */
	if (run->timed && c->may_retry && c->completed >= c->loops &&
	    time_bench_entered_any(&c->entered))
		time_bench_mark(TIME_BENCH_MARK_DROP);

	c->preemptible = preemptible();
	c->in_softirq = in_serving_softirq();
	c->in_context = ctx->here ? ctx->here(run) : true;
	run->chunk_task = current;
}

/*
 * A chunk in the loading task, with preemption off: under PREEMPT_LAZY
 * or PREEMPT_FULL (every x86 kernel since 7.0) the scheduler would run
 * any other runnable task inside the window at a tick, and its work
 * would count as the test's.  The bodies never sleep (GFP_ATOMIC), and
 * page_pool decides its path by softirq and NAPI context, never by
 * preemption: the path stays the one upstream's test takes on a kernel
 * that does not preempt.  A chunk lasts about TIME_BENCH_CHUNK_NS and
 * the task reschedules between chunks, so no CPU is held for long.
 * Under PREEMPT_RT spinlocks sleep, so the window stays preemptible
 * there, and the switch count says what entered it.
 */
static void time_bench_process_chunk(struct time_bench_run *run)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		time_bench_chunk_here(run);
		return;
	}
	preempt_disable();
	time_bench_chunk_here(run);
	preempt_enable();
}

static bool time_bench_in_process(struct time_bench_run *run)
{
	return !in_serving_softirq();
}

const struct time_bench_context time_bench_process = {
	.name = "process",
	.run_chunk = time_bench_process_chunk,
	.here = time_bench_in_process,
};

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

/* The hooks of a test's context; the engine's for several CPUs. */
static const struct time_bench_context *
time_bench_hooks(const struct time_bench_run *run)
{
	const struct time_bench_context *ctx = run->test->context;

	return ctx->cpus ? &time_bench_cpus_hooks : ctx;
}

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
	time_bench_hooks(run)->run_chunk(run);
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
		.batch = run->suite->chunk_batch,
		.split_batch = run->suite->state->ins.clock !=
			       TIME_BENCH_CLOCK_INSTRUCTIONS,
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
	const struct time_bench_context *ctx = time_bench_hooks(run);
	const struct time_bench_test *t = run->test;
	int ret = 0;

	if (ctx->setup)
		ret = ctx->setup(run);
	if (!ret && t->setup)
		ret = t->setup(run);
	return ret;
}

/* The context first: a pool bound to a NAPI wants it disabled. */
static void time_bench_teardown(struct time_bench_run *run)
{
	const struct time_bench_context *ctx = time_bench_hooks(run);

	if (ctx->teardown)
		ctx->teardown(run);
	if (run->suite->teardown)
		run->suite->teardown(run);
}

/* Sets up, measures and tears down one test. */
static int time_bench_run_one(const struct time_bench_suite *s,
			      unsigned int idx)
{
	struct time_bench_run *run;
	int ret = -ENOMEM;

	run = time_bench_kzalloc_obj(run);
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
		if (!ret && time_bench_hooks(run)->report)
			time_bench_hooks(run)->report(run);
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
	time_bench_print_window(s, t->name, &o->where);
	if (s->report)
		s->report(idx);
	return 0;
}

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

	st = time_bench_kzalloc_obj(st);
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

/* What the numbers of this load are, said once before them. */
static void time_bench_announce(struct time_bench_suite *s)
{
	struct time_bench_state *st = s->state;

	time_bench_warn_debug_options(s);
	time_bench_instrument(&st->ins);
	time_bench_apply_defaults(s);
	/* What the cycles(tsc) of the lines below count. */
	tb_info(s, "instrument: clock=%s accel=%s\n",
		time_bench_clock_name(st->ins.clock),
		time_bench_accel_name(st->ins.accel));
	st->smi_counted = time_bench_smi_counted(s);
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
	time_bench_results_create(s);
	return 0;
}

/* Module exit: the results file goes, then what it showed. */
void time_bench_suite_remove(struct time_bench_suite *s)
{
	if (!s->state)
		return;
	time_bench_results_remove(s);
	time_bench_release(s);
}
