// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's fingerprint of the machine: what moves the numbers
 * besides the code under test (kernel options, preemption model, page
 * clearing, cpufreq, mitigations, command line), read once per load,
 * warned about and written into the results file.
 */
#include <linux/ctype.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "time_bench_internal.h"

#define TIME_BENCH_CMDLINE_LEN	4096
#define TIME_BENCH_MITIGATIONS_LEN	4096
#define TIME_BENCH_SYSFS_CPU	"/sys/devices/system/cpu"

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

/*
 * Up to @size - 1 bytes of a file the kernel does not export otherwise,
 * such as /proc/cmdline; process context.  Returns the length or an error.
 */
static ssize_t time_bench_read_file(const char *path, char *buf, size_t size)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t len;

	file = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	len = kernel_read(file, buf, size - 1, &pos);
	filp_close(file, NULL);
	buf[len > 0 ? len : 0] = '\0';
	return len;
}

void time_bench_read_cmdline(struct time_bench_state *st)
{
	ssize_t len;

	st->cmdline = kzalloc(TIME_BENCH_CMDLINE_LEN, GFP_KERNEL);
	if (!st->cmdline) {
		st->cmdline_error = -ENOMEM;
		return;
	}
	len = time_bench_read_file("/proc/cmdline", st->cmdline,
				   TIME_BENCH_CMDLINE_LEN);
	if (len < 0)
		st->cmdline_error = len;
	strim(st->cmdline);
}

/* @buf as one token of a "key=value" list: blanks become '_'. */
static void time_bench_tokenize(char *buf)
{
	for (; *buf; buf++)
		if (isspace(*buf))
			*buf = '_';
}

/* A one-line file of sysfs, as one token; false if there is none. */
static __printf(3, 4) bool time_bench_read_value(char *buf, size_t size,
						 const char *fmt, ...)
{
	char path[128];
	va_list args;

	va_start(args, fmt);
	vsnprintf(path, sizeof(path), fmt, args);
	va_end(args);
	if (time_bench_read_file(path, buf, size) <= 0)
		return false;
	strreplace(buf, '\n', '\0');
	time_bench_tokenize(buf);
	return buf[0];
}

/* Turbo/boost: cpufreq's global switch, intel_pstate's inverse one, or
 * the CPU's policy's own (amd-pstate); "none" where none exists.
 */
static void time_bench_read_boost(char *buf, size_t size, int cpu)
{
	char no_turbo[8];

	if (time_bench_read_value(buf, size, TIME_BENCH_SYSFS_CPU "/cpufreq/boost"))
		return;
	if (time_bench_read_value(no_turbo, sizeof(no_turbo),
				  TIME_BENCH_SYSFS_CPU "/intel_pstate/no_turbo")) {
		strscpy(buf, strcmp(no_turbo, "0") ? "0" : "1", size);
		return;
	}
	if (!time_bench_read_value(buf, size,
				   TIME_BENCH_SYSFS_CPU "/cpu%d/cpufreq/boost",
				   cpu))
		strscpy(buf, "none", size);
}

/*
 * What sets the speed of the CPU the tests start on: its cpufreq
 * governor, boost and SMT.  Under QEMU there is no cpufreq: none.
 */
void time_bench_read_platform(struct time_bench_state *st)
{
	char governor[32], boost[8], smt[24];
	int cpu = raw_smp_processor_id();

	if (!time_bench_read_value(governor, sizeof(governor),
				   TIME_BENCH_SYSFS_CPU "/cpu%d/cpufreq/scaling_governor",
				   cpu))
		strscpy(governor, "none", sizeof(governor));
	time_bench_read_boost(boost, sizeof(boost), cpu);
	if (!time_bench_read_value(smt, sizeof(smt),
				   TIME_BENCH_SYSFS_CPU "/smt/control"))
		strscpy(smt, "none", sizeof(smt));
	snprintf(st->platform, sizeof(st->platform),
		 "cpufreq_governor=%s boost=%s smt=%s", governor, boost, smt);
}

#define TIME_BENCH_MAX_VULNS	64
#define TIME_BENCH_VULN_LEN	48

/* The names in a directory, for iterate_dir() */
struct time_bench_dir {
	struct dir_context ctx;
	char (*names)[TIME_BENCH_VULN_LEN];
	unsigned int n;
};

static bool time_bench_dir_entry(struct dir_context *ctx, const char *name,
				 int len, loff_t pos, u64 ino,
				 unsigned int type)
{
	struct time_bench_dir *dir = container_of(ctx, struct time_bench_dir,
						  ctx);

	if (name[0] == '.' || len >= TIME_BENCH_VULN_LEN ||
	    dir->n == TIME_BENCH_MAX_VULNS)
		return true;
	memcpy(dir->names[dir->n], name, len);
	dir->names[dir->n++][len] = '\0';
	return true;
}

static int time_bench_cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The files of a sysfs directory, sorted by name. */
static int time_bench_list_dir(const char *path, struct time_bench_dir *dir)
{
	struct file *file = filp_open(path, O_RDONLY | O_DIRECTORY, 0);
	int ret;

	if (IS_ERR(file))
		return PTR_ERR(file);
	dir->ctx.actor = time_bench_dir_entry;
	ret = iterate_dir(file, &dir->ctx);
	filp_close(file, NULL);
	sort(dir->names, dir->n, TIME_BENCH_VULN_LEN, time_bench_cmp_names,
	     NULL);
	return ret;
}

/*
 * The kernel's CPU vulnerability and mitigation state, one "name=state"
 * per file of /sys/devices/system/cpu/vulnerabilities (an SRSO or
 * retbleed mitigation moves page_pool costs on real hardware).
 */
void time_bench_read_mitigations(struct time_bench_state *st)
{
	struct time_bench_dir dir = { };
	char value[160];
	size_t len = 0;
	unsigned int i;

	st->mitigations = kzalloc(TIME_BENCH_MITIGATIONS_LEN, GFP_KERNEL);
	dir.names = kcalloc(TIME_BENCH_MAX_VULNS, TIME_BENCH_VULN_LEN,
			    GFP_KERNEL);
	if (!st->mitigations || !dir.names)
		goto out;
	time_bench_list_dir(TIME_BENCH_SYSFS_CPU "/vulnerabilities", &dir);
	for (i = 0; i < dir.n; i++) {
		if (!time_bench_read_value(value, sizeof(value),
					   TIME_BENCH_SYSFS_CPU "/vulnerabilities/%s",
					   dir.names[i]))
			strscpy(value, "unreadable", sizeof(value));
		len += scnprintf(st->mitigations + len,
				 TIME_BENCH_MITIGATIONS_LEN - len, "%s%s=%s",
				 len ? " " : "", dir.names[i], value);
	}
out:
	kfree(dir.names);
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
	seq_printf(m, "platform: %s\n", st->platform);
	seq_printf(m, "mitigations: %s\n",
		   st->mitigations && st->mitigations[0] ? st->mitigations :
							   "none");
	if (st->cmdline_error)
		seq_printf(m, "cmdline: unavailable (error %d)\n",
			   st->cmdline_error);
	else
		seq_printf(m, "cmdline: %s\n", st->cmdline);
}
