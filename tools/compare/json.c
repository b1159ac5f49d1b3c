// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the report for machines (-f json): one JSON object
 * with the settings, the loads per side, where the environments differ
 * and every row with every column of the table, for CI systems that
 * track numbers across kernels.
 *
 * Numbers are those the table shows, with its decimals; what cannot be
 * computed is null. The counter's values are under the clock's name
 * ("cycles" or "instructions"), so that no number hides its unit.
 *
 * Layer: an output, called by main.c; it calls compare.c, env.c
 * and util.c, and reads results.c's names of the profile's counts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

/* A p value with six significant digits, or null. */
static void put_p(double p)
{
	if (isfinite(p))
		printf("%.6g", p);
	else
		fputs("null", stdout);
}

/*
 * @x with the fewest significant digits that read back as @x: 0.05 as
 * 0.05, and 0.9999999999999999 never as a rounded 1.
 */
static void put_exact(double x)
{
	char *s = NULL;
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		free(s);
		s = xasprintf("%.*g", prec, x);
		if (strtod(s, NULL) == x)
			break;
	}
	fputs(s, stdout);
	free(s);
}

/*
 * The key of a figure's values: the clock's name for the counter's
 * ("cycles", "instructions"), "core_cycles" and "pmu_instructions" for
 * the PMU's, "ns".
 */
static const char *json_unit(enum metric m, enum clock clock)
{
	static const char * const keys[NR_METRICS] = {
		[MET_NS] = "ns",
		[MET_CORE_CYCLES] = "core_cycles",
		[MET_PMU_INSNS] = "pmu_instructions",
	};

	return m == MET_CYCLES ? clock_names[clock] : keys[m];
}

static void put_settings(const struct comparison *cmp)
{
	char *level = fmt_level(cmp->alpha);

	printf("  \"settings\": {\"clock\": ");
	json_str(clock_names[cmp->clock]);
	printf(", \"load_stat\": \"%s\", \"alpha\": ",
	       cmp->load_stat == LOAD_MIN ? "min" : "median");
	put_exact(cmp->alpha);
	printf(", \"interval_level_percent\": %s, \"pct_change_of\": ", level);
	json_str(json_unit(cmp->clock == CLOCK_CYCLES &&
			   cmp->figure == MET_CYCLES ? MET_NS : cmp->figure,
			   cmp->clock));
	printf(", \"figure\": ");
	json_str(figure_names[cmp->figure]);
	printf(", \"unit\": \"%s\"", cmp->by_boot ? "boot" : "load");
	printf("},\n  \"loads\": {\"before\": %zu, \"after\": %zu},\n",
	       cmp->loads[SIDE_BEFORE], cmp->loads[SIDE_AFTER]);
	printf("  \"boots\": {\"before\": %zu, \"after\": %zu, ",
	       cmp->boots[SIDE_BEFORE], cmp->boots[SIDE_AFTER]);
	printf("\"without_id\": {\"before\": %zu, \"after\": %zu}},\n",
	       cmp->no_boot[SIDE_BEFORE], cmp->no_boot[SIDE_AFTER]);
	free(level);
}

/* [{"value": V, "loads": N}, ...], V null for loads without the key. */
static void put_counts(const struct env_count *c, size_t nr)
{
	size_t i;

	putchar('[');
	for (i = 0; i < nr; i++) {
		printf("%s{\"value\": ", i ? ", " : "");
		if (c[i].val)
			json_str(c[i].val);
		else
			fputs("null", stdout);
		printf(", \"loads\": %zu}", c[i].loads);
	}
	putchar(']');
}

static void put_env(const struct bench_set *set)
{
	struct env_diff *d;
	size_t i, nr;

	d = env_differences(set, &nr);
	printf("  \"environment_differences\": [");
	for (i = 0; i < nr; i++) {
		printf("%s\n    {\"key\": ", i ? "," : "");
		json_str(d[i].key);
		printf(", \"before\": ");
		put_counts(d[i].side[SIDE_BEFORE], d[i].nr[SIDE_BEFORE]);
		printf(", \"after\": ");
		put_counts(d[i].side[SIDE_AFTER], d[i].nr[SIDE_AFTER]);
		putchar('}');
	}
	printf("%s],\n", nr ? "\n  " : "");
	env_diffs_free(d, nr);
}

/* "UNIT": {"before": B, "after": A, "diff": D[, "ci": [LO, HI]]} */
static void put_metric(const char *unit, const struct metric_cmp *mc,
		       bool ci)
{
	printf(", ");
	json_str(unit);
	if (!mc->have) {
		fputs(": null", stdout);
		return;
	}
	printf(": {\"before\": ");
	json_num(mc->before, mc->decimals);
	printf(", \"after\": ");
	json_num(mc->after, mc->decimals);
	printf(", \"diff\": ");
	json_num(mc->shift.est, mc->decimals);
	if (ci && mc->shift.k) {
		printf(", \"ci\": [");
		json_num(mc->shift.lo, mc->decimals);
		printf(", ");
		json_num(mc->shift.hi, mc->decimals);
		putchar(']');
	} else if (ci) {
		printf(", \"ci\": null");
	}
	putchar('}');
}

/* {"insns": {"before": B, "after": A, "diff": D}, ...} of @pc's counts */
static void put_counts_of(const struct prof_counts *pc, int decimals)
{
	int c;

	putchar('{');
	for (c = 0; c < NR_PROF_COUNTS; c++) {
		printf("%s\"%s\": {\"before\": ", c ? ", " : "", prof_keys[c]);
		json_num(pc->before[c] / 1000, decimals);
		printf(", \"after\": ");
		json_num(pc->after[c] / 1000, decimals);
		printf(", \"diff\": ");
		json_num(pc->diff[c] / 1000, decimals);
		putchar('}');
	}
	putchar('}');
}

/*
 * "profile": {"profiled_loads": {...}, "totals": COUNTS, "moved":
 * [{"function": F, "counts": COUNTS}...]}, of a row profiled on both
 * sides only.
 */
static void put_profile(const struct prof_cmp *pc)
{
	size_t i;

	if (!pc)
		return;
	printf(", \"profile\": {\"profiled_loads\": ");
	printf("{\"before\": %zu, \"after\": %zu}, \"totals\": ",
	       pc->loads[SIDE_BEFORE], pc->loads[SIDE_AFTER]);
	put_counts_of(&pc->total, pc->decimals);
	printf(", \"moved\": [");
	for (i = 0; i < pc->nr_moved; i++) {
		printf("%s{\"function\": ", i ? ", " : "");
		json_str(pc->moved[i].fn);
		printf(", \"counts\": ");
		put_counts_of(&pc->moved[i].c, pc->decimals);
		putchar('}');
	}
	printf("]}");
}

static const char * const verdict_names[] = {
	[VERDICT_NA] = "n/a",
	[VERDICT_NOISE] = "noise",
	[VERDICT_CHANGE] = "change",
};

/*
 * "null_reason": why ns and pct_change are null although loads carried
 * ns (the table's note under it), else null.
 */
static void put_null_reason(const struct row *r)
{
	char *note = ns_dropped_note(r);

	printf(", \"null_reason\": ");
	if (note)
		json_str(note);
	else
		fputs("null", stdout);
	free(note);
}

/* A number, or null where it is not one. */
static void put_num_or_null(double x, int decimals)
{
	if (isnan(x))
		fputs("null", stdout);
	else
		json_num(x, decimals);
}

/*
 * "spread": how the per-load values of the figure spread between boots
 * and within one (standard deviations in its unit, the share of the
 * variance between boots), null where the loads cannot tell.
 */
static void put_spread(const struct metric_cmp *mc)
{
	int d = mc->decimals < 2 ? 2 : mc->decimals;

	printf(", \"spread\": {\"sd_between_boots\": ");
	put_num_or_null(mc->have ? mc->spread.sd_between : NAN, d);
	printf(", \"sd_within_boots\": ");
	put_num_or_null(mc->have ? mc->spread.sd_within : NAN, d);
	printf(", \"between_share\": ");
	put_num_or_null(mc->have ? mc->spread.share : NAN, 4);
	putchar('}');
}

/* The PMU's figures other than the one judged, where both sides have them. */
static void put_pmu_metrics(const struct comparison *cmp, const struct row *r)
{
	int m;

	for (m = MET_CORE_CYCLES; m < NR_METRICS; m++) {
		if (m != (int)cmp->figure && r->m[m].have)
			put_metric(json_unit((enum metric)m, cmp->clock),
				   &r->m[m], false);
	}
}

static void put_row(const struct comparison *cmp, const struct row *r)
{
	const struct metric_cmp *fig = &r->m[cmp->figure];

	printf("    {\"test\": ");
	json_str(r->test->name);
	put_metric(json_unit(cmp->figure, cmp->clock), fig, true);
	if (cmp->figure != MET_CYCLES)
		put_metric(clock_names[cmp->clock], &r->m[MET_CYCLES], false);
	put_pmu_metrics(cmp, r);
	if (cmp->clock == CLOCK_CYCLES) {
		put_metric("ns", &r->m[MET_NS], false);
		printf(", \"ns_loads\": {\"before\": %zu, \"after\": %zu}",
		       r->ns_loads[SIDE_BEFORE], r->ns_loads[SIDE_AFTER]);
	}
	printf(", \"pct_change\": ");
	json_num(r->pct, 2);
	put_null_reason(r);
	printf(", \"loads\": {\"before\": %zu, \"after\": %zu}",
	       r->loads[SIDE_BEFORE], r->loads[SIDE_AFTER]);
	printf(", \"samples\": {\"before\": %zu, \"after\": %zu}",
	       r->units[SIDE_BEFORE], r->units[SIDE_AFTER]);
	put_spread(fig);
	printf(", \"p_raw\": ");
	put_p(r->p_raw);
	printf(", \"p_holm\": ");
	put_p(r->p_adj);
	printf(", \"verdict\": ");
	json_str(verdict_names[r->verdict]);
	printf(", \"need_loads\": ");
	if (r->verdict == VERDICT_NA && r->need && !cmp->by_boot)
		printf("%zu", r->need);
	else
		fputs("null", stdout);
	printf(", \"need_boots\": ");
	if (r->verdict == VERDICT_NA && r->need && cmp->by_boot)
		printf("%zu", r->need);
	else
		fputs("null", stdout);
	put_profile(r->prof);
	putchar('}');
}

/* "only_in": {"before": [names], "after": [names]} */
static void put_only_in(const struct bench_set *set)
{
	size_t i, n;
	int s;

	printf("  \"only_in\": {");
	for (s = 0; s < NR_SIDES; s++) {
		printf("%s\"%s\": [", s ? ", " : "", side_names[s]);
		for (i = 0, n = 0; i < set->nr; i++) {
			const struct bench_test *t = &set->tests[i];

			if (!t->val[s][MET_CYCLES].nr_loads ||
			    t->val[!s][MET_CYCLES].nr_loads)
				continue;
			printf("%s", n++ ? ", " : "");
			json_str(t->name);
		}
		putchar(']');
	}
	printf("}\n");
}

/* The whole report as one JSON object on standard output. */
void print_json(const struct bench_set *set, const struct comparison *cmp)
{
	size_t i;

	printf("{\n  \"format\": \"bench-compare 1\",\n");
	put_settings(cmp);
	put_env(set);
	printf("  \"rows\": [");
	for (i = 0; i < cmp->nr; i++) {
		printf("%s\n", i ? "," : "");
		put_row(cmp, &cmp->rows[i]);
	}
	printf("%s],\n", cmp->nr ? "\n  " : "");
	put_only_in(set);
	printf("}\n");
}
