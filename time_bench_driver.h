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

/*
 * What may enter a timed window besides the body, by kind: counted on
 * the chunk's CPU before its first stamp and after its second
 * (doc/windows.rst).
 */
enum time_bench_kind {
	TIME_BENCH_SWITCH,	/* its task was switched out */
	TIME_BENCH_IRQ,		/* device interrupts (kstat's irqs_sum) */
	TIME_BENCH_TIMER,	/* the local APIC timer (x86) */
	TIME_BENCH_IPI,		/* the other interrupts x86 counts apart */
	TIME_BENCH_NMI,
	TIME_BENCH_SOFTIRQ,	/* softirqs run */
	TIME_BENCH_SMI,		/* where MSR_SMI_COUNT can be read */
	TIME_BENCH_KINDS,
};

struct time_bench_entered {
	u32 n[TIME_BENCH_KINDS];
};

/* "kind:count,..." of the kinds that entered, "-" if none */
#define TIME_BENCH_ENTERED_LEN	(TIME_BENCH_KINDS * 20)

struct time_bench_chunk {
	u64 loops;			/* iterations asked */
	u64 completed;			/* iterations the body ran */
	struct time_bench_stamp start;
	struct time_bench_stamp stop;
	int cpu;			/* where it ran */
	bool in_softirq;		/* serving a softirq there */
	bool in_context;		/* in the context it was sent to */
	/* Its window: could another task be scheduled into it, and what
	 * entered it while the body ran
	 */
	bool preemptible;
	struct time_bench_entered entered;
	/* The driver measures it again if other work entered it: a
	 * profiler should leave it out then (set before run_chunk)
	 */
	bool may_retry;
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
	/* Chunks whose window other work entered (another task, an
	 * interrupt, a softirq, an NMI or SMI): measured again
	 * (retried_chunks counts each time), or, after TIME_BENCH_RETRIES
	 * retries, kept (perturbed: the figure holds that work); what
	 * entered each, by kind
	 */
	u32 retried_chunks;
	u32 perturbed_chunks;
	u64 retried_invocations;	/* iterations of the retried ones */
	struct time_bench_entered retried_entered;
	struct time_bench_entered perturbed_entered;
};

/*
 * A timed chunk that other work entered is measured again, up to this
 * many times in a row, each try half as long as the one before (down
 * to one batch), then kept as perturbed.  Six: a 1 ms chunk that a
 * 4 ms tick hit (1 in 4) is kept with a tick in it once in 2^35 when
 * every try halves, against 2^14 after three; a transient task (a
 * kworker) is gone long before; work that keeps coming back is said.
 */
#define TIME_BENCH_RETRIES	6

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
	/* Timed chunks hold batch * 2^k iterations (0 or 1: any), see
	 * time_bench_batch_chunk()
	 */
	u64 batch;
	/* A retry of one batch may halve it further, and a batch longer
	 * than chunk_ns is not kept whole: for a clock whose spread is the
	 * machine's (cycles), not the batches' share
	 */
	bool split_batch;
	u64 next_chunk;		/* iterations of the next chunk */
	bool split;		/* the next one below a batch (a retry) */
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

u64 time_bench_batch_chunk(u64 want, u64 remaining, u64 batch);
u64 time_bench_batch_loops(u64 loops, u64 unit, u64 min_loops,
			   u64 max_loops);
const char *time_bench_where_name(const struct time_bench_where *w,
				  const char *wanted);
bool time_bench_entered_any(const struct time_bench_entered *e);
const char *time_bench_format_entered(char *buf, size_t size,
				      const struct time_bench_entered *e);
enum time_bench_end
time_bench_drive(struct time_bench_driver *d, const struct time_bench_plan *p,
		 struct time_bench_outcome *o);

#endif /* _TIME_BENCH_DRIVER_H */
