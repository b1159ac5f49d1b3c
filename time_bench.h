/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time_bench: the engine of in-kernel micro-benchmarks.
 *
 * A family of tests (bench_page_pool_simple is one) hands the engine a
 * table of tests, struct time_bench_suite; the engine selects them by
 * name and run_flags bit, runs each one's timed chunks in its context
 * (process, softirq, several CPUs, or one the family brings, such as a
 * NAPI poll), drives the loop (warm-up, calibration, chunks, repetitions,
 * summary), prints the legacy and spread lines and writes the results
 * file with the machine's fingerprint.  It knows nothing of what the
 * tests measure.
 *
 * A measurement is a sum of chunks: each chunk reads the cycle counter
 * and the monotonic clock before and after a run of loop iterations.
 * The arithmetic and the loop driver in this header are pure: they only
 * need <linux/types.h>, <linux/math64.h> and <linux/string.h>, so that
 * tests/ builds this header in user space and drives the loop with a
 * fake clock.
 */
#ifndef _TIME_BENCH_H
#define _TIME_BENCH_H

#include <linux/types.h>
#include <linux/math64.h>
#include <linux/string.h>

/* Sums over all chunks of one measurement. */
struct time_bench_record {
	u64 invocations;	/* loop iterations timed */
	u64 cycles;		/* cycle-counter ticks */
	u64 ns;			/* monotonic nanoseconds */
	u32 chunks;		/* timed stretches added up */
	int step;		/* legacy "step" field of the result line */
	/* PMU counts, from the chunks whose both PMU reads were valid */
	u64 pmu_invocations;
	u64 pmu_instructions;
	u64 pmu_cycles;
	u32 pmu_skipped_chunks;	/* no PMU, or counts not trustworthy */
};

/* Timestamps taken by time_bench_start() and time_bench_stop(). */
struct time_bench_stamp {
	u64 cycles;
	u64 ns;
	u64 pmu_instructions;
	u64 pmu_cycles;
	bool pmu_valid;
};

/* A non-negative fixed-point number: whole + frac / 10^digits. */
struct time_bench_fixed {
	u64 whole;
	u32 frac;
};

#define TIME_BENCH_MAX_DIGITS 9

/*
 * Next decimal digit of rem / den, for rem < den: returns (rem * 10) / den
 * and leaves the remainder in *rem.  Adds rem ten times modulo den, so
 * no intermediate value exceeds den and any u64 works.
 */
static inline u32 time_bench_next_digit(u64 *rem, u64 den)
{
	u64 acc = 0;
	u32 digit = 0;
	int i;

	for (i = 0; i < 10; i++) {
		if (acc >= den - *rem) {
			acc -= den - *rem;
			digit++;
		} else {
			acc += *rem;
		}
	}
	*rem = acc;
	return digit;
}

/**
 * time_bench_div_fixed() - divide with decimal fraction digits
 * @num: dividend
 * @den: divisor; zero gives zero, so an empty record prints as 0
 * @digits: fractional decimal digits wanted, 0..TIME_BENCH_MAX_DIGITS
 * @round: round half up on the last digit instead of truncating
 *
 * Exact for every u64 @num and @den.
 *
 * Return: the quotient as whole part and @digits fraction digits.
 */
static inline struct time_bench_fixed
time_bench_div_fixed(u64 num, u64 den, unsigned int digits, bool round)
{
	struct time_bench_fixed res = { 0, 0 };
	u32 scale = 1;
	u64 rem;
	unsigned int i;

	if (!den)
		return res;
	if (digits > TIME_BENCH_MAX_DIGITS)
		digits = TIME_BENCH_MAX_DIGITS;

	res.whole = div64_u64_rem(num, den, &rem);
	for (i = 0; i < digits; i++) {
		res.frac = res.frac * 10 + time_bench_next_digit(&rem, den);
		scale *= 10;
	}
	if (round && time_bench_next_digit(&rem, den) >= 5)
		res.frac++;
	if (res.frac >= scale) {
		res.frac -= scale;
		res.whole++;
	}
	return res;
}

/* Whole cycles per element, truncated as the legacy line prints them. */
static inline u64 time_bench_cycles_per_elem(const struct time_bench_record *rec)
{
	return time_bench_div_fixed(rec->cycles, rec->invocations, 0, false).whole;
}

/* Nanoseconds per element with three truncated digits (legacy line). */
static inline struct time_bench_fixed
time_bench_ns_per_elem(const struct time_bench_record *rec)
{
	return time_bench_div_fixed(rec->ns, rec->invocations, 3, false);
}

/* Adds one chunk of @invocations timed from @start to @stop to @rec. */
static inline void time_bench_account(struct time_bench_record *rec,
				      const struct time_bench_stamp *start,
				      const struct time_bench_stamp *stop,
				      u64 invocations)
{
	rec->invocations += invocations;
	rec->cycles += stop->cycles - start->cycles;
	rec->ns += stop->ns - start->ns;
	rec->chunks++;
	if (start->pmu_valid && stop->pmu_valid) {
		rec->pmu_invocations += invocations;
		rec->pmu_instructions += stop->pmu_instructions -
					 start->pmu_instructions;
		rec->pmu_cycles += stop->pmu_cycles - start->pmu_cycles;
	} else {
		rec->pmu_skipped_chunks++;
	}
}

/*
 * Chunk length to aim for next: @target_ns worth of iterations at the
 * speed of the chunk just measured (@loops in @ns), grown at most 16-fold
 * per step so one lucky chunk cannot produce an overlong one, at least 1
 * and at most @remaining.  Zero @loops or @ns count as 1; results beyond
 * U64_MAX saturate.
 */
static inline u64 time_bench_next_chunk(u64 loops, u64 ns, u64 target_ns,
					u64 remaining)
{
	u64 ratio, ratio_rem, next;

	if (!loops)
		loops = 1;
	if (!ns)
		ns = 1;
	/* loops * target_ns / ns == loops * ratio + loops * ratio_rem / ns */
	ratio = div64_u64_rem(target_ns, ns, &ratio_rem);
	if (ratio >= 16) {
		ratio = 16;
		ratio_rem = 0;
	}
	next = mul_u64_u64_div_u64(loops, ratio_rem, ns);  /* < loops */
	if (ratio && loops > div64_u64(U64_MAX - next, ratio))
		next = U64_MAX;
	else
		next += loops * ratio;
	if (!next)
		next = 1;
	return next < remaining ? next : remaining;
}

/* A value per element in thousandths (of a cycle, of a ns), rounded;
 * values above U64_MAX / 1000 per element do not fit.
 */
static inline u64 time_bench_milli_per_elem(u64 total, u64 invocations)
{
	struct time_bench_fixed f;

	f = time_bench_div_fixed(total, invocations, 3, true);
	return f.whole * 1000 + f.frac;
}

/* Largest r with r * r <= @x. */
static inline u64 time_bench_isqrt(u64 x)
{
	u64 root = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= root + bit) {
			x -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return root;
}

#define TIME_BENCH_MAX_REPS	1000

/* Spread of repeated measurements, in the unit of the input values. */
struct time_bench_summary {
	u64 min;
	u64 median;	/* mean of the two middle values for an even count */
	u64 mean;
	u64 stddev;	/* sample standard deviation, 0 for one value */
	u64 max;
};

/**
 * time_bench_summarize() - min, median, mean, stddev and max
 * @vals: the values; sorted in place
 * @n: how many, 1..TIME_BENCH_MAX_REPS
 *
 * Mean and median are truncated.  The deviations from the truncated
 * mean are scaled down until the largest fits in 26 bits, so that a
 * thousand squares add up without overflow; only a spread beyond 2^26
 * loses low-order bits.
 *
 * Return: the summary; all zero for @n == 0.
 */
static inline struct time_bench_summary time_bench_summarize(u64 *vals, u32 n)
{
	struct time_bench_summary sum = { 0, 0, 0, 0, 0 };
	u64 quot = 0, rems = 0, var = 0, spread;
	unsigned int shift = 0;
	u32 i, j;

	if (!n)
		return sum;
	for (i = 1; i < n; i++) {	/* insertion sort: n is small */
		u64 v = vals[i];

		for (j = i; j > 0 && vals[j - 1] > v; j--)
			vals[j] = vals[j - 1];
		vals[j] = v;
	}
	sum.min = vals[0];
	sum.max = vals[n - 1];
	sum.median = n & 1 ? vals[n / 2] :
		vals[n / 2 - 1] + (vals[n / 2] - vals[n / 2 - 1]) / 2;

	/* floor(sum / n) without summing: quotients plus remainders */
	for (i = 0; i < n; i++) {
		u64 rem;

		quot += div64_u64_rem(vals[i], n, &rem);
		rems += rem;
	}
	sum.mean = quot + div64_u64(rems, n);
	if (n < 2)
		return sum;

	spread = sum.max - sum.mean > sum.mean - sum.min ?
		 sum.max - sum.mean : sum.mean - sum.min;
	while ((spread >> shift) >= 1ULL << 26)
		shift++;
	for (i = 0; i < n; i++) {
		u64 d = vals[i] > sum.mean ? vals[i] - sum.mean :
					     sum.mean - vals[i];

		d >>= shift;
		var += d * d;
	}
	sum.stddev = time_bench_isqrt(div64_u64(var, n - 1)) << shift;
	return sum;
}

/*
 * The instrument: what the cycle counter counts.  Under QEMU's TCG with
 * "-icount shift=0" the TSC advances one tick per guest instruction and
 * the kernel measures it at 1 GHz, so "cycles" are instructions there.
 */
enum time_bench_accel {
	TIME_BENCH_ACCEL_NONE,		/* no hypervisor bit: bare metal */
	TIME_BENCH_ACCEL_KVM,
	TIME_BENCH_ACCEL_TCG,
	TIME_BENCH_ACCEL_OTHER,
};

enum time_bench_clock {
	TIME_BENCH_CLOCK_CYCLES,
	TIME_BENCH_CLOCK_INSTRUCTIONS,
};

#define TIME_BENCH_SIG_LEN	12	/* CPUID 0x40000000 signature */
#define TIME_BENCH_ICOUNT_KHZ	1000000	/* one tick per ns */

/* The accelerator a CPUID hypervisor signature names. */
static inline enum time_bench_accel
time_bench_accel_of(bool hypervisor, const char sig[TIME_BENCH_SIG_LEN])
{
	if (!hypervisor)
		return TIME_BENCH_ACCEL_NONE;
	if (!memcmp(sig, "KVMKVMKVM\0\0\0", TIME_BENCH_SIG_LEN))
		return TIME_BENCH_ACCEL_KVM;
	if (!memcmp(sig, "TCGTCGTCGTCG", TIME_BENCH_SIG_LEN))
		return TIME_BENCH_ACCEL_TCG;
	return TIME_BENCH_ACCEL_OTHER;
}

/* Instructions when TCG's TSC runs at 1 GHz, within 0.1%. */
static inline enum time_bench_clock
time_bench_clock_of(enum time_bench_accel accel, u32 tsc_khz)
{
	u32 off = tsc_khz > TIME_BENCH_ICOUNT_KHZ ?
		  tsc_khz - TIME_BENCH_ICOUNT_KHZ :
		  TIME_BENCH_ICOUNT_KHZ - tsc_khz;

	if (accel == TIME_BENCH_ACCEL_TCG && off <= TIME_BENCH_ICOUNT_KHZ / 1000)
		return TIME_BENCH_CLOCK_INSTRUCTIONS;
	return TIME_BENCH_CLOCK_CYCLES;
}

static inline const char *time_bench_accel_name(enum time_bench_accel accel)
{
	switch (accel) {
	case TIME_BENCH_ACCEL_NONE:
		return "none";
	case TIME_BENCH_ACCEL_KVM:
		return "kvm";
	case TIME_BENCH_ACCEL_TCG:
		return "tcg";
	default:
		return "other";
	}
}

static inline const char *time_bench_clock_name(enum time_bench_clock clock)
{
	return clock == TIME_BENCH_CLOCK_INSTRUCTIONS ? "instructions" :
							"cycles";
}

/* What reading the timers costs, in thousandths per read. */
struct time_bench_overhead {
	u64 cycle_read_milli;		/* cycles per cycle-counter read */
	u64 clock_read_milli_cycles;	/* cycles per monotonic-clock read */
	u64 clock_read_milli_ns;	/* ns per monotonic-clock read */
	u64 empty_loop_milli_cycles;	/* cycles per empty loop iteration */
};

/*
 * The loop driver.  A context runs one chunk at a time for it: the body's
 * loop of chunk.loops iterations, timed from start to stop.  The driver
 * sizes the chunks so that none stays in its context much longer than
 * chunk_ns, adds the timed ones up per repetition, and notes where they
 * ran.  Everything it needs from the kernel comes through the ops, so
 * user space drives it with a fake clock.
 */
struct time_bench_chunk {
	u64 loops;			/* iterations asked */
	u64 completed;			/* iterations the body ran */
	struct time_bench_stamp start;
	struct time_bench_stamp stop;
	int cpu;			/* where it ran */
	bool in_softirq;		/* serving a softirq there */
	bool in_context;		/* in the context it was sent to */
	int error;			/* the context failed it, and said why */
};

/* Where the timed chunks ran. */
struct time_bench_where {
	u32 chunks;
	u32 softirq_chunks;
	u32 context_chunks;	/* in the test's own context */
	int cpu;		/* of the first one */
	u32 cpu_moves;		/* chunks that ran on another CPU */
};

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

/* Notes where a timed chunk ran. */
static inline void time_bench_note_where(struct time_bench_where *w,
					 const struct time_bench_chunk *c)
{
	if (!w->chunks++)
		w->cpu = c->cpu;
	else if (c->cpu != w->cpu)
		w->cpu_moves++;
	w->softirq_chunks += c->in_softirq;
	w->context_chunks += c->in_context;
}

/*
 * The context the chunks were seen in, not the one they were sent to:
 * @wanted if all of them ran there, else process (no chunk in softirq),
 * softirq (all of them) or mixed.
 */
static inline const char *time_bench_where_name(const struct time_bench_where *w,
						const char *wanted)
{
	if (w->context_chunks == w->chunks)
		return wanted;
	if (!w->softirq_chunks)
		return "process";
	if (w->softirq_chunks == w->chunks)
		return "softirq";
	return "mixed";
}

/* One chunk of @loops iterations; sizes the next one from its speed. */
static inline enum time_bench_end
time_bench_drive_chunk(struct time_bench_driver *d, u64 loops, bool timed)
{
	struct time_bench_chunk *c = &d->chunk;

	memset(c, 0, sizeof(*c));
	c->loops = loops;
	d->ops->run_chunk(d->arg, c, timed);
	if (c->error) {
		d->error = c->error;
		return TIME_BENCH_FAILED;
	}
	if (c->completed < loops)
		return TIME_BENCH_SHORT;
	d->next_chunk = time_bench_next_chunk(loops, c->stop.ns - c->start.ns,
					      d->chunk_ns, U64_MAX);
	return TIME_BENCH_DONE;
}

/*
 * Runs the loop into @rec, chunk by chunk, until @max_loops iterations or
 * @max_ns of timed work are done; @timed chunks count where they ran.
 */
static inline enum time_bench_end
time_bench_run_loops(struct time_bench_driver *d, u64 max_loops, u64 max_ns,
		     struct time_bench_record *rec, bool timed)
{
	enum time_bench_end end;
	u64 loops;

	while (rec->invocations < max_loops && rec->ns < max_ns) {
		loops = max_loops - rec->invocations;
		if (d->next_chunk < loops)
			loops = d->next_chunk;
		if (d->ops->stop(d->arg))
			return TIME_BENCH_STOPPED;
		end = time_bench_drive_chunk(d, loops, timed);
		if (end == TIME_BENCH_FAILED)
			return end;
		time_bench_account(rec, &d->chunk.start, &d->chunk.stop,
				   d->chunk.completed);
		if (end == TIME_BENCH_SHORT) {
			d->short_after = rec->invocations;
			return end;
		}
		if (timed)
			time_bench_note_where(&d->where, &d->chunk);
	}
	return TIME_BENCH_DONE;
}

/*
 * Iterations per repetition that fill @rep_ns at the speed of a short
 * calibration run (@rep_ns, or one chunk if that is shorter), within
 * [@min_loops, @max_loops].
 */
static inline enum time_bench_end
time_bench_calibrate(struct time_bench_driver *d, u64 rep_ns, u64 min_loops,
		     u64 max_loops, u64 *per_rep)
{
	struct time_bench_record cal = { 0 };
	enum time_bench_end end;
	u64 loops;

	end = time_bench_run_loops(d, U64_MAX,
				   rep_ns < d->chunk_ns ? rep_ns : d->chunk_ns,
				   &cal, false);
	if (end != TIME_BENCH_DONE)
		return end;
	loops = mul_u64_u64_div_u64(cal.invocations, rep_ns,
				    cal.ns ? cal.ns : 1);
	if (loops < min_loops)
		loops = min_loops;
	*per_rep = loops > max_loops ? max_loops : loops;
	return TIME_BENCH_DONE;
}

/* Spread over the repetitions, and the one the legacy line shows: the
 * median, or the lower of the two middle ones.
 */
static inline void time_bench_summarize_outcome(struct time_bench_outcome *o)
{
	u32 r;

	o->total_invocations = 0;
	for (r = 0; r < o->reps; r++) {
		const struct time_bench_record *rec = &o->recs[r];

		o->cycles_milli[r] = time_bench_milli_per_elem(rec->cycles,
							       rec->invocations);
		o->ns_milli[r] = time_bench_milli_per_elem(rec->ns,
							   rec->invocations);
		o->total_invocations += rec->invocations;
	}
	memcpy(o->sorted, o->ns_milli, o->reps * sizeof(*o->sorted));
	o->ns = time_bench_summarize(o->sorted, o->reps);
	memcpy(o->sorted, o->cycles_milli, o->reps * sizeof(*o->sorted));
	o->cycles = time_bench_summarize(o->sorted, o->reps);
	for (r = 0; r < o->reps; r++)
		if (o->cycles_milli[r] == o->sorted[(o->reps - 1) / 2])
			break;
	o->median_rep = r;
}

/*
 * A whole measurement: an untimed warm-up chunk, which also sizes the
 * first chunk; the calibration, unless the plan fixes the loops; then
 * the repetitions, timed, between the before_reps and after_reps hooks;
 * then the summary.  @o's arrays hold plan->reps entries, zeroed.
 */
static inline enum time_bench_end
time_bench_drive(struct time_bench_driver *d, const struct time_bench_plan *p,
		 struct time_bench_outcome *o)
{
	enum time_bench_end end;
	u32 r;

	d->phase = TIME_BENCH_WARMUP;
	end = time_bench_drive_chunk(d, p->warmup_loops, false);
	if (end != TIME_BENCH_DONE)
		return end;
	o->reps = p->reps;
	o->loops = p->loops;
	d->phase = TIME_BENCH_CALIBRATION;
	if (!o->loops) {
		end = time_bench_calibrate(d, div64_u64(p->time_ns, p->reps),
					   p->min_loops, p->max_loops, &o->loops);
		if (end != TIME_BENCH_DONE)
			return end;
	}
	d->phase = TIME_BENCH_REPETITIONS;
	if (d->ops->before_reps) {
		d->error = d->ops->before_reps(d->arg);
		if (d->error)
			return TIME_BENCH_FAILED;
	}
	for (r = 0; r < o->reps; r++) {
		end = time_bench_run_loops(d, o->loops, U64_MAX, &o->recs[r],
					   true);
		if (end != TIME_BENCH_DONE)
			return end;
	}
	if (d->ops->after_reps)
		d->ops->after_reps(d->arg);
	o->where = d->where;
	time_bench_summarize_outcome(o);
	return TIME_BENCH_DONE;
}

/*
 * The engine's interface for families of tests.
 */
struct seq_file;
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

#define TIME_BENCH_CPUS_CONTEXT(ops) {					\
	.name = "softirq",						\
	.setup = time_bench_cpus_setup,					\
	.run_chunk = time_bench_cpus_run_chunk,				\
	.report = time_bench_cpus_report,				\
	.teardown = time_bench_cpus_teardown,				\
	.cpus = (ops),							\
}

int time_bench_cpus_setup(struct time_bench_run *run);
void time_bench_cpus_run_chunk(struct time_bench_run *run);
void time_bench_cpus_report(struct time_bench_run *run);
void time_bench_cpus_teardown(struct time_bench_run *run);

/* One row of a family's table. */
struct time_bench_test {
	const char *name;
	unsigned int bit;		/* of run_flags */
	const struct time_bench_context *context;
	/* Runs @loops iterations in the context, returns how many
	 * completed; NULL in contexts of several CPUs.
	 */
	u64 (*body)(void *priv, u64 loops);
	/* Process context, after the context's setup: what the body
	 * needs, e.g. its pool; -ENODEV after time_bench_skip() skips.
	 */
	int (*setup)(struct time_bench_run *run);
	const char *unsupported;	/* why this kernel cannot run it */
	const struct time_bench_expect *expect;
	/* Tests it must cost less than, comma-separated, on any
	 * instrument; and those it undercuts by less than emulated
	 * cycles resolve, checked where the clock counts instructions
	 * or the CPU is real.
	 */
	const char *cheaper_than;
	const char *narrowly_cheaper_than;
	/* Optional: false when the parameters of this load void both. */
	bool (*relations_hold)(void);
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
	const char *name;	/* of the module: dmesg, debugfs, format */
	const char *subject;	/* what the tests cost, for the warnings */
	const struct time_bench_test *tests;
	unsigned int nr_tests;
	unsigned long legacy_bits;	/* run_flags bits of tests=legacy */
	struct time_bench_params *params;
	size_t priv_size;	/* a test's state: run->priv, zeroed */
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
	void (*seq_test)(struct seq_file *m, unsigned int idx,
			 u64 total_invocations);
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
