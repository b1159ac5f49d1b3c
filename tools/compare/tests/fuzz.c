// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz step of bench-compare: mutations of the sample inputs, fed
 * to a build with AddressSanitizer and UBSan.
 *
 *   fuzz -b BENCH_COMPARE -n CASES -s SEED -t SECONDS -o FINDINGS SEED_FILE...
 *
 * Each case picks one to three seed files per side, mutates them (byte
 * flips, inserted bytes such as NUL, ESC and CR, cuts, deleted,
 * repeated and swapped lines, numbers replaced by extreme ones, lines
 * of other formats spliced in), picks options, and runs bench-compare
 * on them with a time limit. A finding is a sanitizer report, a crash,
 * a hang, an exit status other than 0, 1 or 2, "inf" or "nan" in what
 * it printed (unless the input holds that word, e.g. as a test name),
 * or, with -f json and jq at hand, output that jq cannot parse. The
 * cases of findings are kept under FINDINGS with the command line that
 * reproduces them. Everything follows from SEED:
 * the same cases every run. The output is KTAP, one result.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SEEDS	256
#define MAX_FILES	3	/* per side */
#define MAX_MUTATIONS	8
#define MAX_KEPT	20	/* findings whose cases are kept */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct buf {
	char *p;
	size_t len;
};

static struct buf seeds[MAX_SEEDS];
static const char *seed_names[MAX_SEEDS];
static int nr_seeds;
static unsigned long long rng;

static unsigned long long next_rand(void)
{
	unsigned long long z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t below(size_t n)
{
	return n ? (size_t)(next_rand() % n) : 0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("fuzz: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

/* Replaces @len bytes at @at of @b with the @n bytes at @s. */
static void splice_in(struct buf *b, size_t at, size_t len, const char *s,
		      size_t n)
{
	char *p = xmalloc(b->len - len + n);

	memcpy(p, b->p, at);
	memcpy(p + at, s, n);
	memcpy(p + at + n, b->p + at + len, b->len - at - len);
	free(b->p);
	b->p = p;
	b->len = b->len - len + n;
}

/* The start of the line that holds @at, and the length of that line. */
static size_t line_at(const struct buf *b, size_t at, size_t *len)
{
	size_t s = at, e = at;

	while (s > 0 && b->p[s - 1] != '\n')
		s--;
	while (e < b->len && b->p[e] != '\n')
		e++;
	*len = e < b->len ? e - s + 1 : e - s;
	return s;
}

/* bytes that parsers must refuse, escape or split on */
static const char bytes[] = {
	'\0', '\x1b', '\r', '\n', '\t', '|', '"', '\\', '`', '\'', '$', '=',
	',', ':', ';', ' ', '.', '-', '+', 'e', '0', '1', '5', '9', '\x7f',
	'\xff', '\xc3', '\xa9', '\xc2', '\x9b',
};

static const char * const numbers[] = {
	"0", "1", "1e999", "1.5e308", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999", "4.9e-324",
	"1e-400", "0.000000001", "nan", "inf", "-1", "", "1.", ".5",
	"12345678901234567890123456789012345678901234567890",
};

static const char * const lines[] = {
	"format: bench_page_pool_simple 3\n",
	"format: bench_page_pool_simple 1\n",
	"format: bench_page_pool_simple 2\n",
	"format: bench_page_pool_simple 4\n",
	"profile: l1i=32768:8 l1d=49152:12 llc=1310720:20 line=64\n",
	"prof: name=x windows=1 insns=2.000 loads=0.500 stores=0.000 atomics=0.000 l1i_miss=0.000 l1d_miss=0.001 llc_miss=0.000\n",
	"prof_fn: name=x fn=f[m] insns=1.500 loads=0.500 stores=0.000 atomics=0.000 l1i_miss=0.000 l1d_miss=0.001 llc_miss=0.000\n",
	"prof_fn: name=x fn=? insns=0.500 loads=0.000 stores=0.000 atomics=0.000 l1i_miss=0.000 l1d_miss=0.000 llc_miss=0.000\n",
	"end: tests=1 skips=0\n",
	"end: tests=0 skips=0\n",
	"clock: instructions\n",
	"clock: cycles\n",
	"accel: kvm\n",
	"bench_page_pool_simple: instrument: clock=instructions accel=tcg\n",
	"bench_page_pool_simple: instrument: clock=cycles accel=none\n",
	"bench_page_pool_simple: overhead: cycle counter read 24.100 cycles\n",
	"skip: name=x reason=y\n",
	"test: name=x cycles_per_elem=1 ns_per_elem=1\n",
	"test: name=inf cycles_per_elem=1e19\n",
	"no-softirq-page_pool01 Per elem: 11 cycles(tsc) 4.368 ns\n",
	"# no-softirq-page_pool02 Per elem: 43 cycles(tsc) 17.102 ns\n",
	"[ 1.0] bench_page_pool: Type:for_loop Per elem: 0 cycles(tsc) 0.300 ns (step:0) - (measurement period time:0.030000000 sec time_interval:30000) - (invoke count:100000 tsc_interval:30000)\n",
	"config: a=b a=c\n",
	"kernel: \xc3\xa9\x1b[31m\n",
};

/* One mutation of @b. */
static void mutate(struct buf *b)
{
	size_t at = below(b->len + 1), len, s, n;
	char c;

	switch (below(11)) {
	case 0:		/* a byte changed */
		if (b->len)
			b->p[below(b->len)] = (char)next_rand();
		break;
	case 1:		/* bytes that parsers must refuse or escape */
		n = 1 + below(4);
		while (n--) {
			c = bytes[below(sizeof(bytes))];
			splice_in(b, at, 0, &c, 1);
		}
		break;
	case 2:		/* a range deleted */
		len = below(64);
		splice_in(b, at, at + len > b->len ? b->len - at : len, "", 0);
		break;
	case 3:		/* cut short */
		b->len = at;
		break;
	case 4:		/* a line repeated */
		if (b->len) {
			s = line_at(b, below(b->len), &len);
			splice_in(b, at, 0, b->p + s, len);
		}
		break;
	case 5:		/* a line deleted */
		if (b->len) {
			s = line_at(b, below(b->len), &len);
			splice_in(b, s, len, "", 0);
		}
		break;
	case 6:		/* a number replaced */
		for (s = at; s < b->len && !isdigit((unsigned char)b->p[s]);)
			s++;
		for (n = s; n < b->len && (isdigit((unsigned char)b->p[n]) ||
					   b->p[n] == '.');)
			n++;
		len = below(ARRAY_SIZE(numbers));
		splice_in(b, s, n - s, numbers[len], strlen(numbers[len]));
		break;
	case 7:		/* a line of another format */
		s = line_at(b, at < b->len ? at : 0, &len);
		n = below(ARRAY_SIZE(lines));
		splice_in(b, s, 0, lines[n], strlen(lines[n]));
		break;
	default:	/* a piece of another seed */
		n = below((size_t)nr_seeds);
		s = below(seeds[n].len + 1);
		len = below(seeds[n].len - s + 1);
		if (len > 4096)
			len = 4096;
		splice_in(b, at, 0, seeds[n].p + s, len);
		break;
	}
}

static bool write_file(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return false;
	fwrite(b->p, 1, b->len, f);
	return !fclose(f);
}

/*
 * Whether @s holds the word inf, nan or infinity (any case, a sign in
 * front or % behind allowed) between bytes of @seps.
 */
static bool has_inf_nan(const char *s, size_t len, const char *seps)
{
	size_t i = 0;

	while (i < len) {
		size_t j = i, n;
		const char *w;

		while (j < len && s[j] && !strchr(seps, s[j]))
			j++;
		w = s + i;
		n = j - i;
		if (n && (*w == '+' || *w == '-'))
			w++, n--;
		if (n && w[n - 1] == '%')
			n--;
		if ((n == 3 && (!strncasecmp(w, "inf", 3) ||
				!strncasecmp(w, "nan", 3))) ||
		    (n == 8 && !strncasecmp(w, "infinity", 8)))
			return true;
		i = j + 1;
	}
	return false;
}

struct fuzz_case {
	char dir[64];
	char *argv[32];
	int argc;
	struct buf in[2 * MAX_FILES];	/* the inputs, for judge() */
	int nr_in;
};

static const char *pick(const char * const *v, size_t n)
{
	return v[below(n)];
}

/* A mutated seed file, written to @path and kept in the case. */
static void make_input(struct fuzz_case *fc, const char *path)
{
	struct buf *b = &fc->in[fc->nr_in++];
	size_t s = below((size_t)nr_seeds), m;

	b->len = seeds[s].len;
	b->p = xmalloc(b->len);
	memcpy(b->p, seeds[s].p, b->len);
	for (m = 1 + below(MAX_MUTATIONS); m; m--)
		mutate(b);
	if (!write_file(path, b)) {
		perror("fuzz: writing a case");
		exit(2);
	}
}

/*
 * One side: one to MAX_FILES mutated files, or, one time in six, a
 * directory of them named N.results.
 */
static void make_side(struct fuzz_case *fc, int side)
{
	int f, nr = 1 + (int)below(MAX_FILES);
	bool dir = !below(6);
	char *path;

	if (dir) {
		if (asprintf(&path, "%s/%cd", fc->dir, side ? 'a' : 'b') < 0 ||
		    mkdir(path, 0700)) {
			perror("fuzz: making a case");
			exit(2);
		}
		fc->argv[fc->argc++] = path;
	}
	for (f = 0; f < nr; f++) {
		if (asprintf(&path, dir ? "%s/%cd/%d.results" : "%s/%c%d",
			     fc->dir, side ? 'a' : 'b', f) < 0) {
			perror("fuzz: making a case");
			exit(2);
		}
		make_input(fc, path);
		if (dir)
			free(path);
		else
			fc->argv[fc->argc++] = path;
	}
}

/* The options and input files of one case, written into its directory. */
static void make_case(struct fuzz_case *fc, const char *bin)
{
	static const char * const fmts[] = { "text", "markdown", "org", "json" };
	static const char * const alphas[] = { "0.05", "0.5", "1e-12", "0.999" };

	fc->argc = 0;
	fc->nr_in = 0;
	fc->argv[fc->argc++] = strdup(bin);
	fc->argv[fc->argc++] = strdup("-f");
	fc->argv[fc->argc++] = strdup(pick(fmts, 4));
	if (below(3) == 0) {
		fc->argv[fc->argc++] = strdup("--alpha");
		fc->argv[fc->argc++] = strdup(pick(alphas, 4));
	}
	if (below(3) == 0)
		fc->argv[fc->argc++] = strdup("--load-stat=median");
	if (below(3) == 0)
		fc->argv[fc->argc++] = strdup("--fail-above=5");
	make_side(fc, 0);
	fc->argv[fc->argc++] = strdup("--");
	make_side(fc, 1);
	fc->argv[fc->argc] = NULL;
}

/* Runs the case with a time limit: its wait status, -1 if it hung. */
static int run_case(struct fuzz_case *fc, double timeout)
{
	struct timespec t0, t, nap = { 0, 2000000 };
	char path[96];
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fuzz: fork");
		exit(2);
	}
	if (!pid) {
		snprintf(path, sizeof(path), "%s/stdout", fc->dir);
		if (!freopen(path, "w", stdout))
			_exit(126);
		snprintf(path, sizeof(path), "%s/stderr", fc->dir);
		if (!freopen(path, "w", stderr))
			_exit(126);
		execv(fc->argv[0], fc->argv);
		_exit(127);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 > timeout) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	return status;
}

static bool read_file(const char *path, struct buf *b)
{
	FILE *f = fopen(path, "r");
	long n = -1;

	b->p = NULL;
	b->len = 0;
	if (!f)
		return false;
	if (!fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return false;
	}
	b->p = xmalloc((size_t)n + 1);
	b->len = fread(b->p, 1, (size_t)n, f);
	b->p[b->len] = '\0';
	fclose(f);
	return true;
}

static bool have_jq;

/* A JSON report that jq cannot parse (when jq is there to ask). */
static bool bad_json(const struct fuzz_case *fc, int status)
{
	char *cmd;
	bool bad;
	int i;

	if (!have_jq || status < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 1)
		return false;
	for (i = 0; i < fc->argc && strcmp(fc->argv[i], "json"); i++)
		;
	if (i == fc->argc || asprintf(&cmd, "jq . %s/stdout >/dev/null 2>&1",
				      fc->dir) < 0)
		return false;
	bad = system(cmd) != 0;
	free(cmd);
	return bad;
}

/* What is wrong with the case's run, or NULL. */
static const char *judge(struct fuzz_case *fc, int status)
{
	static const char * const reports[] = {
		"AddressSanitizer", "LeakSanitizer", "runtime error:",
		"UndefinedBehaviorSanitizer",
	};
	const char *why = NULL;
	struct buf out, err;
	char path[96];
	size_t i;
	int f;

	snprintf(path, sizeof(path), "%s/stdout", fc->dir);
	read_file(path, &out);
	snprintf(path, sizeof(path), "%s/stderr", fc->dir);
	read_file(path, &err);
	if (status == -1)
		why = "hang";
	else if (WIFSIGNALED(status))
		why = "crash (signal)";
	else if (WEXITSTATUS(status) > 2)
		why = "exit status above 2";
	for (i = 0; !why && err.p && i < ARRAY_SIZE(reports); i++)
		if (strstr(err.p, reports[i]))
			why = "sanitizer report";
	if (!why && bad_json(fc, status))
		why = "output not valid JSON";
	if (!why && out.p && has_inf_nan(out.p, out.len, " \t\n|,:;[]{}()\"")) {
		why = "inf or nan printed";
		for (f = 0; f < fc->nr_in; f++)
			if (has_inf_nan(fc->in[f].p, fc->in[f].len,
					" \t\n|,:;[]{}()\"=\r"))
				why = NULL;
	}
	free(out.p);
	free(err.p);
	return why;
}

/* Keeps a finding's case and prints how to run it again. */
static void keep(struct fuzz_case *fc, const char *findings, long n,
		 const char *why, int kept)
{
	char *dst;
	int i;

	printf("# finding: case %ld: %s\n", n, why);
	if (kept >= MAX_KEPT || (mkdir(findings, 0755) && errno != EEXIST) ||
	    asprintf(&dst, "%s/case-%ld", findings, n) < 0)
		return;
	if (rename(fc->dir, dst)) {
		printf("#   kept in %s (cannot move: %s)\n", fc->dir,
		       strerror(errno));
		free(dst);
		return;
	}
	snprintf(fc->dir, sizeof(fc->dir), "%s", "");
	printf("#   inputs in %s; run:", dst);
	for (i = 0; i < fc->argc; i++)
		printf(" %s", fc->argv[i]);
	printf("\n#   (paths under %s)\n", dst);
	free(dst);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Frees the case and removes its directory, unless it was kept. */
static void cleanup(struct fuzz_case *fc)
{
	int i;

	for (i = 0; i < fc->argc; i++)
		free(fc->argv[i]);
	for (i = 0; i < fc->nr_in; i++)
		free(fc->in[i].p);
	if (*fc->dir)
		nftw(fc->dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

static int bad_args(void)
{
	fputs("usage: fuzz -b BENCH_COMPARE -n CASES -s SEED -t SECONDS -o FINDINGS SEED_FILE...\n",
	      stderr);
	return 2;
}

static void load_seeds(int argc, char **argv)
{
	struct stat st;
	int i;

	for (i = 0; i < argc && nr_seeds < MAX_SEEDS; i++) {
		if (stat(argv[i], &st) || !S_ISREG(st.st_mode))
			continue;
		if (!read_file(argv[i], &seeds[nr_seeds])) {
			perror(argv[i]);
			exit(2);
		}
		seed_names[nr_seeds++] = argv[i];
	}
}

struct fuzz_args {
	const char *bin, *findings;
	long cases;
	unsigned long long seed;
	double timeout;
};

/* The options into @fa, the seed files into seeds[]; false if bad. */
static bool parse_args(int argc, char **argv, struct fuzz_args *fa)
{
	int opt;

	while ((opt = getopt(argc, argv, "b:n:s:t:o:")) != -1) {
		if (opt == 'b')
			fa->bin = optarg;
		else if (opt == 'n')
			fa->cases = strtol(optarg, NULL, 10);
		else if (opt == 's')
			fa->seed = strtoull(optarg, NULL, 0);
		else if (opt == 't')
			fa->timeout = strtod(optarg, NULL);
		else if (opt == 'o')
			fa->findings = optarg;
		else
			return false;
	}
	load_seeds(argc - optind, argv + optind);
	return fa->bin && fa->findings && fa->cases > 0 && fa->timeout > 0 &&
	       nr_seeds;
}

/* Case @n: made, run, judged, kept if it is a finding; true then. */
static bool fuzz_one(const struct fuzz_args *fa, long n, long found)
{
	const char *tmp = getenv("TMPDIR");
	struct fuzz_case fc;
	const char *why;

	rng = fa->seed * 0x100000001b3ULL + (unsigned long long)n;
	memset(&fc, 0, sizeof(fc));
	snprintf(fc.dir, sizeof(fc.dir), "%s/bcfuzz.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(fc.dir)) {
		perror("fuzz: mkdtemp");
		exit(2);
	}
	make_case(&fc, fa->bin);
	why = judge(&fc, run_case(&fc, fa->timeout));
	if (why)
		keep(&fc, fa->findings, n, why, (int)found);
	cleanup(&fc);
	return why;
}

int main(int argc, char **argv)
{
	struct fuzz_args fa = { .seed = 1, .timeout = 10 };
	struct timespec t0, t1;
	long n, bad = 0;
	double secs;

	if (!parse_args(argc, argv, &fa))
		return bad_args();
	have_jq = !system("jq -n . >/dev/null 2>&1");
	setenv("ASAN_OPTIONS", "detect_leaks=1:exitcode=86", 1);
	setenv("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=87", 1);
	printf("TAP version 13\n1..1\n");
	printf("# fuzz: %s, seed %llu, %ld cases, %d seed files, %g s per case at most\n",
	       fa.bin, fa.seed, fa.cases, nr_seeds, fa.timeout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (n = 0; n < fa.cases; n++)
		bad += fuzz_one(&fa, n, bad);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# fuzz: %ld cases in %.1f s, %ld findings\n", fa.cases, secs,
	       bad);
	printf("%s 1 - fuzz: %ld mutated inputs under ASan and UBSan, seed %llu\n",
	       bad ? "not ok" : "ok", fa.cases, fa.seed);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n",
	       !bad, !!bad);
	return bad ? 1 : 0;
}
