// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench: timing core for in-kernel micro-benchmark loops.
 *
 * Cycles come from the kernel's own accessors: rdtsc_ordered() on x86,
 * which needs no RDTSCP and keeps the read from drifting into the timed
 * loop, get_cycles() elsewhere. Time comes from the monotonic clock.
 */
#define pr_fmt(fmt) "time_bench: " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include <linux/wait.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#include <asm/tsc.h>
#endif

#include "time_bench.h"

static __always_inline u64 time_bench_read_cycles(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	return get_cycles();
#endif
}

/*
 * Kernel counters of retired instructions and core cycles of the task
 * that runs the benchmark.  Only perf_event_read_value() is exported for
 * modules and it may sleep, so the counters are read in process context
 * around a chunk; softirq work run on this task's behalf, as a tasklet
 * at local_bh_enable() is, counts with it.
 */
static struct perf_event *time_bench_pmu_insn;
static struct perf_event *time_bench_pmu_cyc;

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

/**
 * time_bench_pmu_open() - count the current task's instructions and cycles
 *
 * Return: 0, or the error of the counter that could not be made, e.g.
 * -ENOENT where the CPU has no PMU (as in an emulated guest).
 */
int time_bench_pmu_open(void)
{
	struct perf_event *ev;

	ev = time_bench_pmu_event(PERF_COUNT_HW_INSTRUCTIONS);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	time_bench_pmu_insn = ev;
	ev = time_bench_pmu_event(PERF_COUNT_HW_CPU_CYCLES);
	if (IS_ERR(ev)) {
		time_bench_pmu_close();
		return PTR_ERR(ev);
	}
	time_bench_pmu_cyc = ev;
	return 0;
}
EXPORT_SYMBOL_GPL(time_bench_pmu_open);

void time_bench_pmu_close(void)
{
	if (time_bench_pmu_insn)
		perf_event_release_kernel(time_bench_pmu_insn);
	if (time_bench_pmu_cyc)
		perf_event_release_kernel(time_bench_pmu_cyc);
	time_bench_pmu_insn = NULL;
	time_bench_pmu_cyc = NULL;
}
EXPORT_SYMBOL_GPL(time_bench_pmu_close);

/* Fills the PMU part of @stamp; process context, by the opening task.
 * Counts are only valid while the counters were on the PMU all along.
 */
void time_bench_pmu_read(struct time_bench_stamp *stamp)
{
	u64 enabled, running;

	stamp->pmu_valid = false;
	if (!time_bench_pmu_insn || !time_bench_pmu_cyc)
		return;
	stamp->pmu_instructions = perf_event_read_value(time_bench_pmu_insn,
							&enabled, &running);
	if (enabled != running)
		return;
	stamp->pmu_cycles = perf_event_read_value(time_bench_pmu_cyc,
						  &enabled, &running);
	stamp->pmu_valid = enabled == running;
}
EXPORT_SYMBOL_GPL(time_bench_pmu_read);

/**
 * time_bench_instrument() - the accelerator and the cycle counter's unit
 * @ins: filled in; the signature as a single token ('_' for anything
 *	 but letters and digits, as in "Microsoft_Hv")
 *
 * Only x86 tells: other architectures say no hypervisor and cycles.
 */
void time_bench_instrument(struct time_bench_instrument *ins)
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
EXPORT_SYMBOL_GPL(time_bench_instrument);

/* The clock is read outside the cycle count so that the ns interval
 * encloses the cycle interval and neither includes the other's read.
 * The PMU part of a stamp is read apart, see time_bench_pmu_read().
 */
void time_bench_start(struct time_bench_stamp *stamp)
{
	stamp->ns = ktime_get_ns();
	stamp->cycles = time_bench_read_cycles();
}
EXPORT_SYMBOL_GPL(time_bench_start);

void time_bench_stop(struct time_bench_stamp *stamp)
{
	stamp->cycles = time_bench_read_cycles();
	stamp->ns = ktime_get_ns();
}
EXPORT_SYMBOL_GPL(time_bench_stop);

/* The line users grep for; its format must not change. */
void time_bench_print(const char *name, const struct time_bench_record *rec)
{
	struct time_bench_fixed ns_elem = time_bench_ns_per_elem(rec);
	struct time_bench_fixed period;

	period = time_bench_div_fixed(rec->ns, NSEC_PER_SEC, 9, false);
	pr_info("Type:%s Per elem: %llu cycles(tsc) %llu.%03u ns (step:%d) - (measurement period time:%llu.%09u sec time_interval:%llu) - (invoke count:%llu tsc_interval:%llu)\n",
		name, time_bench_cycles_per_elem(rec), ns_elem.whole,
		ns_elem.frac, rec->step, period.whole, period.frac, rec->ns,
		rec->invocations, rec->cycles);
}
EXPORT_SYMBOL_GPL(time_bench_print);

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

/*
 * Cost of one cycle-counter read, of one clock read and of an empty loop
 * iteration, the least of a few tries so that an interrupt in one of
 * them does not count.
 */
void time_bench_measure_overhead(struct time_bench_overhead *ovh)
{
	u64 c0, c1, n0, n1, cyc, clk_cyc, clk_ns;
	int try, i;

	ovh->cycle_read_milli = U64_MAX;
	ovh->clock_read_milli_cycles = U64_MAX;
	ovh->clock_read_milli_ns = U64_MAX;
	ovh->empty_loop_milli_cycles = U64_MAX;
	for (try = 0; try < TIME_BENCH_OVERHEAD_TRIES; try++) {
		c0 = time_bench_read_cycles();
		for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
			time_bench_read_cycles();
		c1 = time_bench_read_cycles();
		cyc = time_bench_milli_per_elem(c1 - c0,
						TIME_BENCH_OVERHEAD_READS);

		n0 = ktime_get_ns();
		c0 = time_bench_read_cycles();
		for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
			ktime_get_ns();
		c1 = time_bench_read_cycles();
		n1 = ktime_get_ns();
		clk_cyc = time_bench_milli_per_elem(c1 - c0,
						    TIME_BENCH_OVERHEAD_READS);
		clk_ns = time_bench_milli_per_elem(n1 - n0,
						   TIME_BENCH_OVERHEAD_READS);

		ovh->cycle_read_milli = min(ovh->cycle_read_milli, cyc);
		ovh->clock_read_milli_cycles =
			min(ovh->clock_read_milli_cycles, clk_cyc);
		ovh->clock_read_milli_ns = min(ovh->clock_read_milli_ns, clk_ns);
		ovh->empty_loop_milli_cycles = min(ovh->empty_loop_milli_cycles,
						   time_bench_empty_loop_milli());
	}
}
EXPORT_SYMBOL_GPL(time_bench_measure_overhead);

/* Prints thousandths with two rounded decimals into @buf; returns @buf. */
const char *time_bench_format_milli(char *buf, size_t size, u64 milli)
{
	struct time_bench_fixed f = time_bench_div_fixed(milli, 1000, 2, true);

	snprintf(buf, size, "%llu.%02u", f.whole, f.frac);
	return buf;
}
EXPORT_SYMBOL_GPL(time_bench_format_milli);

/* The spread line, printed after the legacy line of a repeated test. */
void time_bench_print_summary(const char *name, u32 reps,
			      const struct time_bench_summary *cycles,
			      const struct time_bench_summary *ns)
{
	char v[10][TIME_BENCH_NUM_LEN];

	pr_info("Type:%s Spread over %u reps: cycles/elem min %s median %s mean %s stddev %s max %s - ns/elem min %s median %s mean %s stddev %s max %s\n",
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
EXPORT_SYMBOL_GPL(time_bench_print_summary);

/* How long the workers of a run may take to reach the start line. */
#define TIME_BENCH_CPUS_START_MS	5000

struct time_bench_cpu_worker {
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
	struct time_bench_cpu_worker w[];
};

static int time_bench_cpu_thread(void *arg)
{
	struct time_bench_cpu_worker *w = arg;
	struct time_bench_cpus *tc = w->tc;
	unsigned long seen = 0;
	int go, err;

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
		/* The start line: wait for the others, then go together. */
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
	/* Exits without running module code after the completion. */
	kthread_complete_and_exit(&w->exited, 0);
}

/**
 * time_bench_cpus_create() - start a worker thread on each CPU of a mask
 * @cpus: the CPUs, in order: the first one's worker has idx 0
 * @fn: what each worker runs in each time_bench_cpus_run()
 * @data: handed to @fn
 *
 * Process context.  CPUs must stay online until time_bench_cpus_destroy().
 *
 * Return: the workers, or an ERR_PTR().
 */
struct time_bench_cpus *time_bench_cpus_create(const struct cpumask *cpus,
					       time_bench_cpu_fn fn,
					       void *data)
{
	unsigned int nr = cpumask_weight(cpus), i = 0;
	struct time_bench_cpus *tc;
	int cpu;

	if (!nr)
		return ERR_PTR(-EINVAL);
	tc = kzalloc(struct_size(tc, w, nr), GFP_KERNEL);
	if (!tc)
		return ERR_PTR(-ENOMEM);
	tc->fn = fn;
	tc->data = data;
	tc->nr = nr;
	init_waitqueue_head(&tc->wq);
	init_completion(&tc->done);
	for_each_cpu(cpu, cpus) {
		struct time_bench_cpu_worker *w = &tc->w[i];
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
EXPORT_SYMBOL_GPL(time_bench_cpus_create);

/**
 * time_bench_cpus_run() - one run of every worker, started together
 * @tc: the workers
 * @recs: one record per worker, cleared first, filled by the workers
 *
 * Return: 0, the first error a worker's function returned, or
 * -ETIMEDOUT if the workers did not all reach the start line in time
 * (then none of them ran).
 */
int time_bench_cpus_run(struct time_bench_cpus *tc,
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
EXPORT_SYMBOL_GPL(time_bench_cpus_run);

void time_bench_cpus_destroy(struct time_bench_cpus *tc)
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
EXPORT_SYMBOL_GPL(time_bench_cpus_destroy);

unsigned int time_bench_cpus_count(const struct time_bench_cpus *tc)
{
	return tc->nr;
}
EXPORT_SYMBOL_GPL(time_bench_cpus_count);

int time_bench_cpus_cpu(const struct time_bench_cpus *tc, unsigned int idx)
{
	return tc->w[idx].cpu;
}
EXPORT_SYMBOL_GPL(time_bench_cpus_cpu);

/* One CPU's share of a concurrent run, in the legacy benchmark's format. */
void time_bench_print_cpu(const char *name, int cpu,
			  const struct time_bench_record *rec)
{
	struct time_bench_fixed ns_elem = time_bench_ns_per_elem(rec);
	struct time_bench_fixed period;

	period = time_bench_div_fixed(rec->ns, NSEC_PER_SEC, 9, false);
	pr_info("Type:%s CPU(%d) %llu cycles(tsc) %llu.%03u ns (step:%d) - (measurement period time:%llu.%09u sec time_interval:%llu) - (invoke count:%llu tsc_interval:%llu)\n",
		name, cpu, time_bench_cycles_per_elem(rec), ns_elem.whole,
		ns_elem.frac, rec->step, period.whole, period.frac, rec->ns,
		rec->invocations, rec->cycles);
}
EXPORT_SYMBOL_GPL(time_bench_print_cpu);

/* The mean over the CPUs of their cycles per element, legacy format. */
void time_bench_print_cpu_sum(const char *name,
			      const struct time_bench_record *recs,
			      unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += time_bench_cycles_per_elem(&recs[i]);
	pr_info("Sum Type:%s Average: %llu cycles(tsc) CPUs:%u step:%d\n",
		name, n ? div_u64(sum, n) : 0, n, n ? recs[0].step : 0);
}
EXPORT_SYMBOL_GPL(time_bench_print_cpu_sum);

MODULE_DESCRIPTION("Cycle and nanosecond timing core for in-kernel benchmarks");
MODULE_LICENSE("GPL");
