// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's lines in the kernel log.  A suite's start with its
 * module's name; the legacy result lines with "time_bench: ", as the
 * out-of-tree original printed them, and users grep for them: their
 * format must not change.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/time64.h>

#include "time_bench_internal.h"

/* The line users grep for; its format must not change. */
void time_bench_print(const char *name,
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
const char *time_bench_format_milli(char *buf, size_t size, u64 milli)
{
	struct time_bench_fixed f = time_bench_div_fixed(milli, 1000, 2, true);

	snprintf(buf, size, "%llu.%02u", f.whole, f.frac);
	return buf;
}

/* The spread line, printed after the legacy line of a repeated test. */
void time_bench_print_summary(const char *name, u32 reps,
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
void time_bench_print_cpu(const char *name, int cpu,
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
void time_bench_print_cpu_sum(const char *name,
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

/*
 * After a test's lines, when other work entered a timed window: what
 * entered, and whether the figure above holds it.
 */
void time_bench_print_window(const struct time_bench_suite *s,
			     const char *name,
			     const struct time_bench_where *w)
{
	char kept[TIME_BENCH_ENTERED_LEN], retried[TIME_BENCH_ENTERED_LEN];

	time_bench_format_entered(kept, sizeof(kept), &w->perturbed_entered);
	time_bench_format_entered(retried, sizeof(retried),
				  &w->retried_entered);
	if (w->perturbed_chunks)
		tb_err(s, "%s: %u of %u timed chunks hold other work (%s), which entered them on each of %u tries: the figure is not the test's own\n",
		       name, w->perturbed_chunks, w->chunks, kept,
		       TIME_BENCH_RETRIES + 1);
	else if (w->retried_chunks)
		tb_info(s, "%s: %u timed chunks measured again: other work entered them (%s)\n",
			name, w->retried_chunks, retried);
}

void time_bench_print_overhead(const struct time_bench_suite *s)
{
	const struct time_bench_overhead *ovh = &s->state->overhead;
	char v[4][TIME_BENCH_NUM_LEN];

	tb_info(s, "overhead: cycle counter read %s cycles, clock read %s cycles (%s ns), empty loop %s cycles per iteration; two reads of each per chunk of about %u us\n",
		time_bench_format_milli(v[0], sizeof(v[0]),
					ovh->cycle_read_milli),
		time_bench_format_milli(v[1], sizeof(v[1]),
					ovh->clock_read_milli_cycles),
		time_bench_format_milli(v[2], sizeof(v[2]),
					ovh->clock_read_milli_ns),
		time_bench_format_milli(v[3], sizeof(v[3]),
					ovh->empty_loop_milli_cycles),
		(unsigned int)(TIME_BENCH_CHUNK_NS / NSEC_PER_USEC));
}
