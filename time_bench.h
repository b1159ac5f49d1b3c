/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time_bench: the engine of in-kernel micro-benchmarks; this is what a
 * family of tests uses of it.
 *
 * A family of tests (bench_page_pool_simple is one) hands the engine a
 * table of tests, struct time_bench_suite; the engine selects them by
 * name and run_flags bit, runs each one's timed chunks in its context
 * (process, softirq, several CPUs, or one the family brings, such as a
 * NAPI poll), drives the loop (warm-up, calibration, chunks, repetitions,
 * summary), prints the legacy and spread lines and writes the results
 * file with the kernel's fingerprint.  It knows nothing of what the
 * tests measure.
 *
 * A measurement is a sum of chunks: each chunk reads the cycle counter
 * and the monotonic clock before and after a run of loop iterations.
 */
#ifndef _TIME_BENCH_H
#define _TIME_BENCH_H

#include <linux/types.h>

struct seq_file;
struct time_bench_chunk;
struct time_bench_run;
struct time_bench_result;
struct time_bench_state;

/*
 * What a family says a test must do, printed by its seq_test hook.  The
 * family defines it; the engine only carries the pointer.
 */
struct time_bench_expect;

/*
 * How a test's chunks run: @run_chunk runs time_bench_chunk_here(run)
 * there once and returns when it is done.  @setup and @teardown run in
 * process context around the test and keep the context's own state in
 * run->ctx.  @here, in a chunk, says whether it runs in this context.
 * @report prints what only this context measures, after the test.
 */
struct time_bench_context {
	const char *name;	/* as the results file names it */
	int (*setup)(struct time_bench_run *run);
	void (*run_chunk)(struct time_bench_run *run);
	bool (*here)(struct time_bench_run *run);
	void (*report)(struct time_bench_run *run);
	void (*teardown)(struct time_bench_run *run);
	/* Contexts of several CPUs: what each CPU does */
	const struct time_bench_cpus_ops *cpus;
};

/* Chunks in the loading task, and in a tasklet on its CPU. */
extern const struct time_bench_context time_bench_process;
extern const struct time_bench_context time_bench_softirq;

/*
 * Several CPUs at once, each in softirq on its own CPU: one worker
 * thread per CPU, started together for each chunk, runs batches in a
 * tasklet there until the test says it is done.  Worker 0 feeds the
 * others; a chunk's figures are the others' together (their elements,
 * their cycles and time spent in batches).  A worker whose batches move
 * nothing for two seconds ends the chunk with an error.  The number of
 * CPUs comes from the test, the first online ones; under instructions
 * (QEMU -icount runs vCPUs one at a time) such a test is skipped.
 */
struct time_bench_cpus_ops {
	const char *roles[2];	/* of worker 0, and of the others */
	const char *stalled[2];	/* what a stalled one waited for */
	/* How many CPUs, worker 0 included (a family parameter) */
	unsigned int (*nr_cpus)(void);
	/* Process context, before a chunk: it moves @loops elements */
	void (*begin)(void *priv, u64 loops);
	/* Softirq on worker @idx's CPU: up to a batch; how many moved */
	u32 (*batch)(void *priv, unsigned int idx);
	/* Process context, after a batch moved nothing: is @idx done? */
	bool (*done)(void *priv, unsigned int idx);
	/* Process context, after a chunk, the workers stopped: its error,
	 * 0 for none, and *@what went wrong
	 */
	int (*end)(void *priv, const char **what);
};

/* The engine brings the hooks of such a context. */
#define TIME_BENCH_CPUS_CONTEXT(ops) {					\
	.name = "softirq",						\
	.cpus = (ops),							\
}

/* One row of a family's table. */
struct time_bench_test {
	const char *name;
	unsigned int bit;		/* of run_flags */
	const struct time_bench_context *context;
	/* Runs @loops iterations in the context, returns how many
	 * completed; NULL in contexts of several CPUs.  Never sleeps:
	 * time_bench_process runs it with preemption off (except on
	 * PREEMPT_RT), the other contexts in softirq.
	 */
	u64 (*body)(void *priv, u64 loops);
	/* Process context, after the context's setup: what the body
	 * needs, e.g. its pool; -ENODEV after time_bench_skip() skips.
	 */
	int (*setup)(struct time_bench_run *run);
	const char *unsupported;	/* why this kernel cannot run it */
	const struct time_bench_expect *expect;
	/* Tests it must cost less than, comma-separated: checked where
	 * the clock counts instructions or the CPU is real (emulated
	 * cycles do not rank paths this close).
	 */
	const char *cheaper_than;
	/* A test of another context whose body runs the same code when
	 * both take the same path: counted in instructions, the two
	 * agree, unless other work entered one's windows.
	 */
	const char *twin;
};

/* A module parameter given as NAME=VALUE, or left at its default. */
struct time_bench_param {
	unsigned int val;
	bool given;
	const char *accepted;	/* ends the line of a bad value */
};

#define TIME_BENCH_TESTS_LEN	512

struct time_bench_params {
	struct time_bench_param loops;
	struct time_bench_param run_flags;
	struct time_bench_param time_ms;
	struct time_bench_param reps;
	char tests[TIME_BENCH_TESTS_LEN];
	bool tests_given;
};

/*
 * Sized by time: the timed duration of a test, all repetitions together,
 * and their number, per clock.  Cycles are noisy: 200 ms in 5.  Counted
 * instructions are not (QEMU -icount: the cheapest repetition of each
 * recycling test agreed to 0.17 instruction or better on three boots
 * with one vCPU, 0.21 with two), and a timer tick adds to the repetition
 * it falls in: repetitions of 2 ms, shorter than the 4 ms between ticks,
 * let the cheapest one miss them all.
 */
#define TIME_BENCH_TIME_MS_CYCLES	200
#define TIME_BENCH_REPS_CYCLES		5
#define TIME_BENCH_TIME_MS_INSNS	20
#define TIME_BENCH_REPS_INSNS		10
#define TIME_BENCH_TIME_MS_DEFAULTS					\
	__stringify(TIME_BENCH_TIME_MS_CYCLES) " counting cycles, "	\
	__stringify(TIME_BENCH_TIME_MS_INSNS) " counting instructions"
#define TIME_BENCH_REPS_DEFAULTS					\
	__stringify(TIME_BENCH_REPS_CYCLES) " counting cycles, "	\
	__stringify(TIME_BENCH_REPS_INSNS) " counting instructions"

#define TIME_BENCH_MIN_LOOPS	1000
#define TIME_BENCH_MAX_REPS	1000
#define TIME_BENCH_MAX_TIME_MS	60000
#define TIME_BENCH_LOOPS_ACCEPTED \
	__stringify(TIME_BENCH_MIN_LOOPS) "..4294967295"
#define TIME_BENCH_TIME_MS_ACCEPTED "1.." __stringify(TIME_BENCH_MAX_TIME_MS)
#define TIME_BENCH_REPS_ACCEPTED "1.." __stringify(TIME_BENCH_MAX_REPS)
#define TIME_BENCH_TESTS_ACCEPTED \
	"test names separated by commas, a name prefix ending in '*', legacy or all (see modinfo)"

#define TIME_BENCH_PARAMS_INIT {					\
	.loops = { .accepted = TIME_BENCH_LOOPS_ACCEPTED },		\
	.run_flags = { .accepted = "a bit mask of tests (see modinfo)" }, \
	.time_ms = { .accepted = TIME_BENCH_TIME_MS_ACCEPTED },		\
	.reps = { .accepted = TIME_BENCH_REPS_ACCEPTED },		\
}

/* Parameter ops: an unsigned int into a struct time_bench_param, and
 * the tests= names into struct time_bench_params.tests.
 */
extern const struct kernel_param_ops time_bench_uint_param_ops;
extern const struct kernel_param_ops time_bench_tests_param_ops;

struct time_bench_config_opt {
	const char *name;
	bool enabled;
	bool inflates;	/* warned about: costs are not production ones */
};

/*
 * A family: its table and what it adds to the engine's run.  The hooks
 * are optional; those of a test get its run, the later ones its index
 * in @tests.
 */
struct time_bench_suite {
	const char *name;	/* the benchmark's: dmesg, debugfs, format */
	const char *subject;	/* what the tests cost, for the warnings */
	const struct time_bench_test *tests;
	unsigned int nr_tests;
	unsigned long legacy_bits;	/* run_flags bits of tests=legacy */
	struct time_bench_params *params;
	size_t priv_size;	/* a test's state: run->priv, zeroed */
	/* The bodies work in batches of this many iterations (a pool's
	 * refill): every timed chunk holds chunk_batch * 2^k of them, so
	 * each holds the same share of the batches' cost; 0: any length
	 */
	unsigned int chunk_batch;
	const char *short_run;	/* why a body stops short */
	const struct time_bench_config_opt *config;	/* appended */
	unsigned int nr_config;
	int (*validate)(void);	/* the family's own parameters */
	/* Process context, after the context's teardown */
	void (*teardown)(struct time_bench_run *run);
	int (*before_reps)(struct time_bench_run *run);
	void (*after_reps)(struct time_bench_run *run);
	void (*report)(unsigned int idx);	/* dmesg, after the lines */
	void (*seq_header)(struct seq_file *m);	/* before config: */
	void (*seq_params)(struct seq_file *m);	/* ends params: */
	/* @iterations: all the body ran between before_reps and
	 * after_reps, the chunks measured again included
	 */
	void (*seq_test)(struct seq_file *m, unsigned int idx,
			 u64 iterations);
	/* What a skipped test's line keeps of its row (its path) */
	void (*seq_skip)(struct seq_file *m, unsigned int idx);
	struct time_bench_state *state;	/* the engine's, while loaded */
};

/* A test being run. */
struct time_bench_run {
	const struct time_bench_suite *suite;
	const struct time_bench_test *test;
	unsigned int idx;	/* in suite->tests */
	void *priv;		/* the family's state of this test */
	void *ctx;		/* the context's */
	struct time_bench_result *result;
	struct time_bench_chunk *chunk;	/* going on */
	bool timed;		/* it counts in the results */
	const void *chunk_task;	/* the task a chunk ran in */
};

int time_bench_suite_prepare(struct time_bench_suite *suite);
int time_bench_suite_run(struct time_bench_suite *suite);
void time_bench_suite_remove(struct time_bench_suite *suite);
void time_bench_chunk_here(struct time_bench_run *run);
s64 time_bench_run_untimed(struct time_bench_run *run, u64 loops);
int time_bench_skip(struct time_bench_run *run, const char *fmt, ...)
	__printf(2, 3);

#endif /* _TIME_BENCH_H */
