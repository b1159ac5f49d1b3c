// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's results file, /sys/kernel/debug/<suite>/results: every
 * field of every test of a load, format 3 (doc/output.rst).
 */
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>

#include "time_bench_internal.h"

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
 * What the kselftest plans its checks of a test from, on its test: or
 * skip: line alike: the tests it must be cheaper than, its twin, and
 * the CPUs it runs on.  Whether this load's instrument can judge a
 * relation is the kselftest's to say (emulated cycles do not rank
 * paths: in one load the bulk test's cheapest repetition cost more than
 * the ptr_ring one's, 417 against 404 cycles, where counting
 * instructions gives 141.6 against 164.6 on every load).
 */
static void time_bench_seq_row(struct seq_file *m,
			       const struct time_bench_test *t,
			       unsigned int cpus)
{
	seq_printf(m, " cheaper_than=%s twin=%s cpus=%u",
		   t->cheaper_than ?: "-", t->twin ?: "-", cpus);
}

/* The CPUs a test runs on: one, or those its context brings */
static unsigned int time_bench_test_cpus(const struct time_bench_test *t)
{
	return t->context->cpus ? t->context->cpus->nr_cpus() : 1;
}

/* The median repetition and where the chunks ran. */
/* @row: the test's row in the suite's table, its id in a profile */
static void time_bench_seq_main(struct seq_file *m, unsigned int row,
				const struct time_bench_test *t,
				const struct time_bench_outcome *o)
{
	const struct time_bench_record *rec = &o->recs[o->median_rep];
	char entered[TIME_BENCH_ENTERED_LEN];
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
	/* Whether other work could enter the windows, and what did */
	seq_printf(m, " preemptible_chunks=%u retried_chunks=%u perturbed_chunks=%u",
		   o->where.preemptible_chunks, o->where.retried_chunks,
		   o->where.perturbed_chunks);
	seq_printf(m, " retried_entered=%s",
		   time_bench_format_entered(entered, sizeof(entered),
					     &o->where.retried_entered));
	seq_printf(m, " perturbed_entered=%s",
		   time_bench_format_entered(entered, sizeof(entered),
					     &o->where.perturbed_entered));
}

static void time_bench_seq_test(struct seq_file *m,
				const struct time_bench_suite *s,
				unsigned int idx)
{
	const struct time_bench_test *t = &s->tests[idx];
	const struct time_bench_result *res = &s->state->results[idx];
	const struct time_bench_outcome *o = &res->out;

	if (res->skipped) {
		seq_printf(m, "skip: name=%s run_flags_bit=%u wanted_context=%s",
			   t->name, t->bit, t->context->name);
		if (s->seq_skip)
			s->seq_skip(m, idx);
		time_bench_seq_row(m, t, time_bench_test_cpus(t));
		/* reason= takes the rest of the line */
		seq_printf(m, " reason=%s\n", res->skip_reason);
		return;
	}
	time_bench_seq_main(m, idx, t, o);
	time_bench_seq_summary(m, "cycles", &o->cycles);
	time_bench_seq_summary(m, "ns", &o->ns);
	time_bench_seq_samples(m, "cycles_samples", o->cycles_milli, o->reps);
	time_bench_seq_samples(m, "ns_samples", o->ns_milli, o->reps);
	time_bench_seq_pmu(m, o);
	if (s->seq_test)
		s->seq_test(m, idx, o->total_invocations +
			    o->where.retried_invocations);
	time_bench_seq_row(m, t, time_bench_test_cpus(t));
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

/* The file, readable until time_bench_results_remove(). */
void time_bench_results_create(struct time_bench_suite *s)
{
	s->state->dir = debugfs_create_dir(s->name, NULL);
	debugfs_create_file("results", 0444, s->state->dir, s,
			    &time_bench_results_fops);
}

void time_bench_results_remove(struct time_bench_suite *s)
{
	debugfs_remove_recursive(s->state->dir);
}
