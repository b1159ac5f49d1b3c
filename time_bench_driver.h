/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop driver.  A context runs one chunk at a time for it: the body's
 * loop of chunk.loops iterations, timed from start to stop.  The driver
 * sizes the chunks so that none stays in its context much longer than
 * chunk_ns, adds the timed ones up per repetition, and notes where they
 * ran.  Everything it needs from the kernel comes through the ops, so
 * user space (tests/) drives time_bench_driver.c, the same source the
 * module builds, with a fake clock.
 */
#ifndef _TIME_BENCH_DRIVER_H
#define _TIME_BENCH_DRIVER_H

#include "time_bench_math.h"

struct time_bench_chunk {
	u64 loops;			/* iterations asked */
	u64 completed;			/* iterations the body ran */
	struct time_bench_stamp start;
	struct time_bench_stamp stop;
	int cpu;			/* where it ran */
	bool in_softirq;		/* serving a softirq there */
	bool in_context;		/* in the context it was sent to */
	/* Its window: could another task be scheduled into it, and how
	 * often was its task switched out while the body ran
	 */
	bool preemptible;
	u32 switches;
	int error;		/* the context failed it, and said why */
};

/* Where the timed chunks ran. */
struct time_bench_where {
	u32 chunks;
	u32 softirq_chunks;
	u32 context_chunks;	/* in the test's own context */
	int cpu;		/* of the first one */
	u32 cpu_moves;		/* chunks that ran on another CPU */
	u32 preemptible_chunks;	/* their windows let other tasks in */
	/* Chunks whose task was switched out inside the window: measured
	 * again (retried_chunks counts each time), or, after
	 * TIME_BENCH_RETRIES retries, kept (perturbed: the figure holds
	 * another task's work)
	 */
	u32 retried_chunks;
	u32 perturbed_chunks;
	u64 retried_invocations;	/* iterations of the retried ones */
};

/*
 * A timed chunk its task was switched out of is measured again, up to
 * this many times in a row, then kept as perturbed.  Three: a transient
 * task (a kworker) is gone by then; one that keeps coming back is said.
 */
#define TIME_BENCH_RETRIES	3

struct time_bench_driver_ops {
	/* Runs chunk->loops iterations in the test's context and fills in
	 * the rest of @chunk; @timed: they count in the results.
	 */
	void (*run_chunk)(void *arg, struct time_bench_chunk *chunk,
			  bool timed);
	/* Between chunks, where the task may be scheduled out: true if the
	 * run must end (a fatal signal).
	 */
	bool (*stop)(void *arg);
	/* Optional, around the timed repetitions; an error ends the run. */
	int (*before_reps)(void *arg);
	void (*after_reps)(void *arg);
};

/* What to measure. */
struct time_bench_plan {
	u64 warmup_loops;	/* untimed first chunk */
	u64 loops;		/* per repetition; 0: as many as fit time_ns */
	u64 time_ns;		/* all repetitions together, when sized */
	u32 reps;
	u64 min_loops;		/* bounds of a sized repetition */
	u64 max_loops;
};

enum time_bench_phase {
	TIME_BENCH_WARMUP,
	TIME_BENCH_CALIBRATION,
	TIME_BENCH_REPETITIONS,
};

/* Why a run ended. */
enum time_bench_end {
	TIME_BENCH_DONE,
	TIME_BENCH_STOPPED,	/* stop() said so, between chunks */
	TIME_BENCH_SHORT,	/* the body ran fewer iterations than asked */
	TIME_BENCH_FAILED,	/* a context or a hook failed: error */
};

struct time_bench_driver {
	const struct time_bench_driver_ops *ops;
	void *arg;
	u64 chunk_ns;		/* longest stay in one chunk */
	u64 next_chunk;		/* iterations of the next chunk */
	struct time_bench_chunk chunk;	/* the last one */
	struct time_bench_where where;
	/* How the run ended, when it did not end well */
	enum time_bench_phase phase;
	u64 short_after;	/* iterations of the record that fell short */
	int error;
};

/* Where the repetitions ran and what they measured. */
struct time_bench_outcome {
	u32 reps;
	u64 loops;			/* iterations per repetition */
	struct time_bench_record *recs;	/* [reps] */
	u64 *cycles_milli;		/* [reps], thousandths per element */
	u64 *ns_milli;			/* [reps] */
	u64 *sorted;			/* [reps], room to sort */
	u32 median_rep;			/* the one the legacy line shows */
	struct time_bench_summary cycles;	/* thousandths per element */
	struct time_bench_summary ns;
	u64 total_invocations;
	struct time_bench_where where;
};

const char *time_bench_where_name(const struct time_bench_where *w,
				  const char *wanted);
enum time_bench_end
time_bench_drive(struct time_bench_driver *d, const struct time_bench_plan *p,
		 struct time_bench_outcome *o);

#endif /* _TIME_BENCH_DRIVER_H */
