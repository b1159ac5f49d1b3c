/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine's files share; a test family sees none of it.
 *
 *   time_bench.c           chunks, process and softirq contexts, a run
 *   time_bench_params.c    module parameters, test selection
 *   time_bench_cpus.c      the context of several CPUs
 *   time_bench_counters.c  cycle counter, its cost, PMU
 *   time_bench_env.c       the kernel's fingerprint
 *   time_bench_output.c    dmesg lines
 *   time_bench_results.c   the results file
 *   time_bench_math.c      arithmetic (tests/ builds it too)
 *   time_bench_driver.c    loop driver (tests/ builds it too)
 *   time_bench_stamp.h     a chunk's stamps (core, cpus)
 *
 * Cycles come from the kernel's own accessors: rdtsc_ordered() on x86,
 * which needs no RDTSCP and keeps the read from drifting into the timed
 * loop, get_cycles() elsewhere.  Time comes from the monotonic clock.
 *
 * The engine's kernel differences are time_bench_compat.h's, which only
 * the files that need them include (time_bench.c, time_bench_counters.c).
 */
#ifndef _TIME_BENCH_INTERNAL_H
#define _TIME_BENCH_INTERNAL_H

#include <linux/jiffies.h>
#include <linux/printk.h>
#include <linux/timex.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "time_bench.h"
#include "time_bench_driver.h"

#define TB_LEGACY	"time_bench: "
#define tb_err(suite, fmt, ...) \
	pr_err("%s: " fmt, (suite)->name, ##__VA_ARGS__)
#define tb_info(suite, fmt, ...) \
	pr_info("%s: " fmt, (suite)->name, ##__VA_ARGS__)

/* Longest stay in one timed stretch, well below RCU stall and soft lockup
 * limits, so that any loops value is split into short chunks: a quarter
 * of a tick (1 ms at HZ=250), so that three chunks in four miss the
 * tick, and the one after a chunk the tick hit misses it
 * (doc/windows.rst says how it was chosen).
 */
#define TIME_BENCH_CHUNK_NS	(TICK_NSEC / 4)

#define TIME_BENCH_SKIP_LEN	112
/* Room for a u64 with two decimals */
#define TIME_BENCH_NUM_LEN	24

/* What reading the timers costs, in thousandths per read. */
struct time_bench_overhead {
	u64 cycle_read_milli;		/* cycles per cycle-counter read */
	u64 clock_read_milli_cycles;	/* cycles per monotonic-clock read */
	u64 clock_read_milli_ns;	/* ns per monotonic-clock read */
	u64 empty_loop_milli_cycles;	/* cycles per empty loop iteration */
};

/* The machine's hypervisor and what its cycle counter counts. */
struct time_bench_instrument {
	enum time_bench_accel accel;
	enum time_bench_clock clock;
	char signature[TIME_BENCH_SIG_LEN + 1];	/* "none" on bare metal */
};

/* What a load measured of one test. */
struct time_bench_result {
	bool valid;
	bool skipped;		/* selected, but not run here */
	char skip_reason[TIME_BENCH_SKIP_LEN];
	struct time_bench_outcome out;
	/* Contexts of several CPUs: each CPU's share of the timed chunks */
	unsigned int nr_cpus;
	int *cpu_ids;
	struct time_bench_record *cpu_recs;
};

/* The engine's part of a loaded suite. */
struct time_bench_state {
	unsigned long *selected;
	struct time_bench_result *results;
	struct time_bench_instrument ins;
	struct time_bench_overhead overhead;
	struct perf_event *pmu_insn;
	struct perf_event *pmu_cyc;
	int pmu_error;
	bool smi_counted;	/* MSR_SMI_COUNT reads on this CPU */
	struct dentry *dir;
};

static __always_inline u64 time_bench_read_cycles(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	return get_cycles();
#endif
}

/* time_bench_params.c */
void time_bench_apply_defaults(const struct time_bench_suite *s);
int time_bench_check_params(const struct time_bench_suite *s);
int time_bench_select(const struct time_bench_suite *s);
/* The longest test name the results file's readers take */
#define TIME_BENCH_NAME_MAX	64

int time_bench_check_table(const struct time_bench_suite *s);

/* time_bench_cpus.c: the hooks of TIME_BENCH_CPUS_CONTEXT() */
extern const struct time_bench_context time_bench_cpus_hooks;

/* time_bench_counters.c */
void time_bench_instrument(struct time_bench_instrument *ins);
int time_bench_pmu_open(struct time_bench_state *st);
void time_bench_pmu_close(struct time_bench_state *st);
void time_bench_pmu_read(const struct time_bench_state *st,
			 struct time_bench_stamp *stamp);
void time_bench_measure_overhead(struct time_bench_overhead *ovh);

/* time_bench_env.c */
void time_bench_warn_debug_options(const struct time_bench_suite *s);
const char *time_bench_cpu_model(void);
void time_bench_seq_fingerprint(struct seq_file *m,
				const struct time_bench_suite *s);

/* time_bench_output.c */
void time_bench_print(const char *name, const struct time_bench_record *rec);
const char *time_bench_format_milli(char *buf, size_t size, u64 milli);
void time_bench_print_summary(const char *name, u32 reps,
			      const struct time_bench_summary *cycles,
			      const struct time_bench_summary *ns);
void time_bench_print_cpu(const char *name, int cpu,
			  const struct time_bench_record *rec);
void time_bench_print_cpu_sum(const char *name,
			      const struct time_bench_record *recs,
			      unsigned int n);
void time_bench_print_window(const struct time_bench_suite *s,
			     const char *name,
			     const struct time_bench_where *w);
void time_bench_print_overhead(const struct time_bench_suite *s);

/* time_bench_results.c */
void time_bench_results_create(struct time_bench_suite *s);
void time_bench_results_remove(struct time_bench_suite *s);

#endif /* _TIME_BENCH_INTERNAL_H */
