// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's loop driver, see time_bench_driver.h.  Built into the
 * module and into the user-space unit tests (tests/), which drive it
 * with a fake clock.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "time_bench_driver.h"

static const char *const time_bench_kind_names[TIME_BENCH_KINDS] = {
	[TIME_BENCH_SWITCH] = "switch",
	[TIME_BENCH_IRQ] = "irq",
	[TIME_BENCH_TIMER] = "timer",
	[TIME_BENCH_IPI] = "ipi",
	[TIME_BENCH_NMI] = "nmi",
	[TIME_BENCH_SOFTIRQ] = "softirq",
	[TIME_BENCH_SMI] = "smi",
};

/* Did any other work enter the window? */
bool time_bench_entered_any(const struct time_bench_entered *e)
{
	unsigned int k;

	for (k = 0; k < TIME_BENCH_KINDS; k++)
		if (e->n[k])
			return true;
	return false;
}

/* Adds @e's counts into @sum, saturating. */
static void time_bench_entered_add(struct time_bench_entered *sum,
				   const struct time_bench_entered *e)
{
	unsigned int k;

	for (k = 0; k < TIME_BENCH_KINDS; k++)
		sum->n[k] = e->n[k] > U32_MAX - sum->n[k] ?
			    U32_MAX : sum->n[k] + e->n[k];
}

/*
 * "timer:2,softirq:2": the kinds that entered, in the order of enum
 * time_bench_kind, or "-" if none did.  @size: TIME_BENCH_ENTERED_LEN.
 */
const char *time_bench_format_entered(char *buf, size_t size,
				      const struct time_bench_entered *e)
{
	size_t len = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < TIME_BENCH_KINDS; k++) {
		if (!e->n[k])
			continue;
		len += scnprintf(buf + len, size - len, "%s%s:%u",
				 len ? "," : "", time_bench_kind_names[k],
				 e->n[k]);
	}
	if (!len)
		scnprintf(buf, size, "-");
	return buf;
}

/* Notes where a timed chunk ran. */
static void time_bench_note_where(struct time_bench_where *w,
				  const struct time_bench_chunk *c)
{
	if (!w->chunks++)
		w->cpu = c->cpu;
	else if (c->cpu != w->cpu)
		w->cpu_moves++;
	w->softirq_chunks += c->in_softirq;
	w->context_chunks += c->in_context;
	w->preemptible_chunks += c->preemptible;
	if (time_bench_entered_any(&c->entered)) {
		w->perturbed_chunks++;
		time_bench_entered_add(&w->perturbed_entered, &c->entered);
	}
}

/*
 * The context the chunks were seen in, not the one they were sent to:
 * @wanted if all of them ran there, else process (no chunk in softirq),
 * softirq (all of them) or mixed.
 */
const char *time_bench_where_name(const struct time_bench_where *w,
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

/*
 * Iterations of the next chunk: @want (the driver's size by time) or
 * the @remaining ones of the repetition if fewer, made batch * 2^k, the
 * largest not above them and at least one batch; @remaining itself if
 * it is less than a batch (a loops= that is not a multiple of it).
 *
 * A family whose body works in batches (page_pool refills its alloc
 * cache 64 pages at a time) gives their size: a chunk of any length
 * holds floor or ceil(length / batch) of them by where it starts, so
 * chunks of varying length (the retries' halves, a repetition's last
 * one) give repetitions a varying share of the batches' cost.  A whole
 * number of batches holds length / batch of them wherever it starts,
 * and halving keeps it whole down to one batch.
 */
u64 time_bench_batch_chunk(u64 want, u64 remaining, u64 batch)
{
	u64 n;

	if (want > remaining)
		want = remaining;
	if (batch <= 1)
		return want;
	if (remaining < batch)
		return remaining;
	for (n = batch; n <= want / 2; n *= 2)
		;
	return n;
}

/*
 * Iterations per repetition sized by time, @loops, made a whole number
 * of @unit (the chunk the driver would run next, batch * 2^k): the
 * nearest, at least one and within [@min_loops, @max_loops] where a
 * multiple is, so that a repetition is whole chunks and not a string of
 * smaller ones for its rest, each chunk costing its stamps.
 */
u64 time_bench_batch_loops(u64 loops, u64 unit, u64 min_loops, u64 max_loops)
{
	u64 n, rem;

	if (unit <= 1 || unit > max_loops)
		return loops;
	n = div64_u64_rem(loops, unit, &rem);
	if (!n || rem >= unit - rem)
		n++;
	if (n > div64_u64(max_loops, unit))
		n = div64_u64(max_loops, unit);
	if (n * unit < min_loops && n < div64_u64(max_loops, unit))
		n++;
	return n * unit;
}

/* One chunk of @loops iterations; sizes the next one from its speed. */
static enum time_bench_end
time_bench_drive_chunk(struct time_bench_driver *d, u64 loops, bool timed,
		       bool may_retry)
{
	struct time_bench_chunk *c = &d->chunk;

	memset(c, 0, sizeof(*c));
	c->loops = loops;
	c->may_retry = timed && may_retry;
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
 * A timed chunk whose window other work entered while the body ran (its
 * task switched out, an interrupt, a softirq, an NMI or SMI) holds that
 * work: it does not count, and runs again, half as long, unless it
 * already ran again TIME_BENCH_RETRIES times (then it was not sent
 * with may_retry).
 */
static bool time_bench_retry_chunk(struct time_bench_driver *d, u32 *tries)
{
	const struct time_bench_chunk *c = &d->chunk;

	if (!c->may_retry || !time_bench_entered_any(&c->entered) ||
	    c->completed < c->loops)
		return false;
	++*tries;
	d->where.retried_chunks++;
	d->where.retried_invocations += c->completed;
	time_bench_entered_add(&d->where.retried_entered, &c->entered);
	/* Half as long each try: it then fits between interrupts that
	 * come more often than a chunk, e.g. the scheduler's hrtick at
	 * the end of a slice shorter than a chunk, while another task
	 * waits (7.x).  time_bench_batch_chunk() keeps it whole batches.
	 */
	if (c->loops > 1)
		d->next_chunk = c->loops / 2;
	/* One batch is the shortest chunk of whole batches; a clock that
	 * measures the machine (a host that deschedules a vCPU inside a
	 * window that a batch of a slow path fills) may go below it
	 */
	d->split = d->split_batch && c->loops <= d->batch;
	return true;
}

/*
 * The batch the next chunk is made of: d->batch, or none (1) where
 * split_batch lets it go: for a retry below one batch, and where one
 * batch is longer than a chunk's time (a slow path on a debug kernel
 * under emulation: 64 elements of 50 ms hold a dozen ticks).
 */
static u64 time_bench_batch_of(const struct time_bench_driver *d)
{
	if (d->split_batch && (d->split || d->next_chunk < d->batch))
		return 1;
	return d->batch;
}

/*
 * Runs the loop into @rec, chunk by chunk, until @max_loops iterations or
 * @max_ns of timed work are done; @timed chunks count where they ran.
 */
static enum time_bench_end
time_bench_run_loops(struct time_bench_driver *d, u64 max_loops, u64 max_ns,
		     struct time_bench_record *rec, bool timed)
{
	enum time_bench_end end;
	u32 tries = 0;
	u64 loops;

	while (rec->invocations < max_loops && rec->ns < max_ns) {
		loops = time_bench_batch_chunk(d->next_chunk,
					       max_loops - rec->invocations,
					       time_bench_batch_of(d));
		if (d->ops->stop(d->arg))
			return TIME_BENCH_STOPPED;
		end = time_bench_drive_chunk(d, loops, timed,
					     tries < TIME_BENCH_RETRIES);
		if (end == TIME_BENCH_FAILED)
			return end;
		if (timed && time_bench_retry_chunk(d, &tries))
			continue;
		tries = 0;
		d->split = false;
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
static enum time_bench_end
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
	if (loops > max_loops)
		loops = max_loops;
	*per_rep = d->batch <= 1 ? loops :
		   time_bench_batch_loops(loops,
					  time_bench_batch_chunk(d->next_chunk,
								 U64_MAX,
								 d->batch),
					  min_loops, max_loops);
	return TIME_BENCH_DONE;
}

/* Spread over the repetitions, and the one the legacy line shows: the
 * median, or the lower of the two middle ones.
 */
static void time_bench_summarize_outcome(struct time_bench_outcome *o)
{
	u32 r;

	o->total_invocations = 0;
	for (r = 0; r < o->reps; r++) {
		const struct time_bench_record *rec = &o->recs[r];

		o->cycles_milli[r] =
			time_bench_milli_per_elem(rec->cycles,
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
enum time_bench_end
time_bench_drive(struct time_bench_driver *d, const struct time_bench_plan *p,
		 struct time_bench_outcome *o)
{
	enum time_bench_end end;
	u32 r;

	d->phase = TIME_BENCH_WARMUP;
	end = time_bench_drive_chunk(d, p->warmup_loops, false, false);
	if (end != TIME_BENCH_DONE)
		return end;
	o->reps = p->reps;
	o->loops = p->loops;
	d->phase = TIME_BENCH_CALIBRATION;
	if (!o->loops) {
		end = time_bench_calibrate(d, div64_u64(p->time_ns, p->reps),
					   p->min_loops, p->max_loops,
					   &o->loops);
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
