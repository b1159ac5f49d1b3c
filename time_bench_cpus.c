// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's context of several CPUs: a kthread per CPU, started
 * together for each chunk, each running the test's batches in a tasklet
 * on its CPU (struct time_bench_cpus_ops in time_bench.h).
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>

#include "time_bench_internal.h"
#include "time_bench_stamp.h"

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
static struct time_bench_cpus *
time_bench_cpus_create(const struct cpumask *cpus, time_bench_cpu_fn fn,
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
static int time_bench_cpus_setup(struct time_bench_run *run)
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
static void time_bench_cpus_run_chunk(struct time_bench_run *run)
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

/* Each CPU's share, in the legacy benchmark's concurrent format. */
static void time_bench_cpus_report(struct time_bench_run *run)
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

static void time_bench_cpus_teardown(struct time_bench_run *run)
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

const struct time_bench_context time_bench_cpus_hooks = {
	.setup = time_bench_cpus_setup,
	.run_chunk = time_bench_cpus_run_chunk,
	.report = time_bench_cpus_report,
	.teardown = time_bench_cpus_teardown,
};
