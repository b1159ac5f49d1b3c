// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's fingerprint of the kernel: what moves the numbers besides
 * the code under test and only the kernel knows (its options, preemption
 * model, page clearing), warned about once per load and written into the
 * results file.  What user space can read (cpufreq, mitigations, the
 * command line) the wrapper adds as it collects the file (env_lib.sh).
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include "time_bench_internal.h"

/*
 * What moves the numbers besides the code under test, recorded in the
 * results file so that two runs can be told apart: kernel options known
 * to make kernel paths dearer (@inflates: warned about once), the
 * preemption model, allocation-time page clearing, the command line and
 * the machine.
 */
static const struct time_bench_config_opt time_bench_config_opts[] = {
	{ "prove_locking", IS_ENABLED(CONFIG_PROVE_LOCKING), true },
	{ "debug_lock_alloc", IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC), true },
	{ "debug_spinlock", IS_ENABLED(CONFIG_DEBUG_SPINLOCK), true },
	{ "lock_stat", IS_ENABLED(CONFIG_LOCK_STAT), true },
	{ "debug_atomic_sleep", IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP), true },
	{ "kasan", IS_ENABLED(CONFIG_KASAN), true },
	{ "kcsan", IS_ENABLED(CONFIG_KCSAN), true },
	{ "kmsan", IS_ENABLED(CONFIG_KMSAN), true },
	{ "debug_net", IS_ENABLED(CONFIG_DEBUG_NET), true },
	{ "debug_vm", IS_ENABLED(CONFIG_DEBUG_VM), true },
	{ "debug_pagealloc", IS_ENABLED(CONFIG_DEBUG_PAGEALLOC), false },
	{ "kmemleak", IS_ENABLED(CONFIG_DEBUG_KMEMLEAK), true },
	{ "dma_api_debug", IS_ENABLED(CONFIG_DMA_API_DEBUG), true },
};

/* " name" of each enabled option that inflates costs, into @buf. */
static size_t time_bench_inflating(char *buf, size_t size, size_t len,
				   const struct time_bench_config_opt *opts,
				   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (opts[i].enabled && opts[i].inflates)
			len += scnprintf(buf + len, size - len, " %s",
					 opts[i].name);
	return len;
}

/* Once per load: numbers from such a kernel are not production costs. */
void time_bench_warn_debug_options(const struct time_bench_suite *s)
{
	char buf[256];
	size_t len;

	buf[0] = '\0';
	len = time_bench_inflating(buf, sizeof(buf), 0, time_bench_config_opts,
				   ARRAY_SIZE(time_bench_config_opts));
	len = time_bench_inflating(buf, sizeof(buf), len, s->config,
				   s->nr_config);
	if (debug_pagealloc_enabled())
		len += scnprintf(buf + len, sizeof(buf) - len,
				 " debug_pagealloc");
	if (len)
		pr_warn("%s: debugging options make %s costs higher than in production:%s; do not compare these numbers with other kernels\n",
			s->name, s->subject, buf);
}

static const char *time_bench_preempt_model(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return "rt";
	if (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC)) {
		if (preempt_model_full())
			return "dynamic_full";
		if (preempt_model_voluntary())
			return "dynamic_voluntary";
		return "dynamic_none";
	}
	if (IS_ENABLED(CONFIG_PREEMPT))
		return "full";
	if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		return "voluntary";
	return "none";
}

const char *time_bench_cpu_model(void)
{
#ifdef CONFIG_X86
	if (boot_cpu_data.x86_model_id[0])
		return boot_cpu_data.x86_model_id;
#endif
	return "unknown";
}

static void time_bench_seq_config(struct seq_file *m,
				  const struct time_bench_config_opt *opts,
				  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		seq_printf(m, " %s=%c", opts[i].name,
			   opts[i].enabled ? 'y' : 'n');
}

void time_bench_seq_fingerprint(struct seq_file *m,
				const struct time_bench_suite *s)
{
	const struct time_bench_state *st = s->state;

	seq_puts(m, "config:");
	time_bench_seq_config(m, time_bench_config_opts,
			      ARRAY_SIZE(time_bench_config_opts));
	time_bench_seq_config(m, s->config, s->nr_config);
	seq_printf(m, " preempt=%s\n", time_bench_preempt_model());
	seq_printf(m, "runtime: init_on_alloc=%d init_on_free=%d debug_pagealloc=%d online_cpus=%u hypervisor=%s\n",
		   want_init_on_alloc(0), want_init_on_free(),
		   debug_pagealloc_enabled(), num_online_cpus(),
		   st->ins.signature);
}
