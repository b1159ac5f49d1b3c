#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest for bench_page_pool_simple: loads the module (-n times), and
# checks every load against what its results file says each test must
# do: that it reported (or said why this kernel cannot run it), ran in
# its context, timed no other task's work, took an accepted path with
# the pages and page_pool counters its row gives, cost less than the
# tests its row names and, counting instructions, what its twin costs;
# optional per-test limits and a regression gate against a baseline; and
# that the kernel printed no warning meanwhile.  -c applies the same
# checks to saved results files.  The wrapper names no test: a new test
# needs no edit here.  Prints KTAP.
# Exit status: 0 all passed, 1 a check failed or a usage error, 4 skipped.
#
# POSIX sh on purpose: it also runs in busybox-only guests.

MODULE=bench_page_pool_simple
HERE=$(cd "$(dirname "$0")" && pwd)
# the benchmark's name, whatever the module file is called
RESULTS=/sys/kernel/debug/bench_page_pool_simple/results

for lib in ktap_lib.sh results_lib.sh env_lib.sh; do
	if [ ! -r "$HERE/$lib" ]; then
		printf '%s: %s is missing\n' "$0" "$HERE/$lib" >&2
		exit 1
	fi
done
# In a kernel tree and its kselftest install, the framework's helpers
# are two levels up; ktap_lib.sh uses them where they serve.
KTAP_HELPERS=$HERE/../../kselftest/ktap_helpers.sh
. "$HERE/ktap_lib.sh"
. "$HERE/results_lib.sh"
. "$HERE/env_lib.sh"

usage() {
	cat <<EOF
usage: $0 [-d DIR] [-n N] [-o DIR] [-e BENCH_E2E [-E OPTIONS]] [-b FILE -p PCT]
       [-r FILE] [-t FILE] [-k] [PARAM=VALUE]...
       $0 -c [-b FILE -p PCT] [-r FILE] [-t FILE] RESULTS_FILE...
Loads $MODULE with the module parameters given (see modinfo), checks
each load against what its results file says and prints KTAP.  The
module comes from -d DIR, else from the $MODULE.ko beside this script
or in page_pool/ beside it (the kselftest install layouts), else from
modprobe; a diagnostic line says which.
  -d DIR   insmod $MODULE.ko from DIR (a build tree)
  -n N     load the module N times (default 1); every check on every load
  -o DIR   keep each load's results file in DIR, as load-NN.results
           (and its kernel log as load-NN.dmesg), numbered on from the
           loads DIR holds already
  -e PROG  after each load, the end-to-end scenarios of bench-e2e PROG
           (tools/e2e, doc/e2e.rst): their rows join the load's results
           and are checked as its tests; veth and pktgen must be loaded
  -E OPTS  bench-e2e's options, words: e.g. "-n 20000 -r 5 -s NAME,..."
  -b FILE  regression gate against a baseline results file of one load
           and the same instrument: a test fails when its cheapest
           repetition (cycles_min) rose more than PCT percent above the
           baseline's
  -p PCT   the gate's margin, a decimal number of percent
  -r FILE  relations to check instead of those the results give (each
           test's cheaper_than), lines "CHEAPER_TEST DEARER_TEST"; also
           \$BENCH_PAGE_POOL_RELATIONS
  -t FILE  upper limits on a test's median per-element cost, in the
           results' clock unit (cycles, or instructions under QEMU
           -icount), lines "TEST_NAME LIMIT"; also
           \$BENCH_PAGE_POOL_THRESHOLDS
  -k       keep the module loaded afterwards (default: remove it); if
           a relation was re-measured, that last load stays
  -c       load nothing: check the results files given (each results
           block one load, as bench-compare reads them)
  -h       this help
With no PARAM given, \$BENCH_PAGE_POOL_PARAMS gives them (for runners
that pass no arguments, such as run_kselftest.sh).
Files may hold "#" comments.  A malformed file is a usage error naming
FILE:LINE, before anything is loaded.
Exit status: 0 all checks passed, 1 a check failed or a usage error,
4 skipped.
EOF
}

usage_error() {
	printf '%s: %s\n' "$0" "$*" >&2
	exit "$KSFT_FAIL"
}

moddir= nloads=1 n_given= outdir= baseline= pct= check_mode= keep=
e2e_prog= e2e_opts=
relations=${BENCH_PAGE_POOL_RELATIONS:-}
thresholds=${BENCH_PAGE_POOL_THRESHOLDS:-}
while getopts d:n:o:e:E:b:p:r:t:kch opt; do
	case $opt in
	e) e2e_prog=$OPTARG ;;
	E) e2e_opts=$OPTARG ;;
	d) moddir=$OPTARG ;;
	n) nloads=$OPTARG n_given=1 ;;
	o) outdir=$OPTARG ;;
	b) baseline=$OPTARG ;;
	p) pct=$OPTARG ;;
	r) relations=$OPTARG ;;
	t) thresholds=$OPTARG ;;
	k) keep=1 ;;
	c) check_mode=1 ;;
	h) usage; exit "$KSFT_PASS" ;;
	*) usage >&2; exit "$KSFT_FAIL" ;;
	esac
done
shift $((OPTIND - 1))

# A runner that passes no arguments (run_kselftest.sh) gives the module
# parameters in the environment instead.
params_from=
if [ -z "$check_mode" ] && [ $# = 0 ] && [ -n "${BENCH_PAGE_POOL_PARAMS:-}" ]; then
	set -f
	# shellcheck disable=SC2086 # words, never patterns
	set -- $BENCH_PAGE_POOL_PARAMS
	set +f
	params_from=" (from \$BENCH_PAGE_POOL_PARAMS)"
fi

# Module parameters are single words: they are passed on as such.
loops_arg=
params=
other_params=
if [ -n "$check_mode" ]; then
	for given in ${moddir:+-d} ${n_given:+-n} ${outdir:+-o} ${keep:+-k} \
		${e2e_prog:+-e}; do
		usage_error "$given is for loading the module; -c checks saved results files"
	done
	[ $# -gt 0 ] || usage_error "-c needs the results files to check"
	for file in "$@"; do
		[ -f "$file" ] && [ -r "$file" ] ||
			usage_error "cannot read results file $file"
	done
	nloads=$#
else
	[ -z "$e2e_opts" ] || [ -n "$e2e_prog" ] ||
		usage_error "-E gives bench-e2e's options: it needs -e"
	[ -z "$e2e_prog" ] || [ -x "$e2e_prog" ] ||
		usage_error "-e $e2e_prog: not an executable bench-e2e"
	for param in "$@"; do
		case $param in
		*[[:space:]]*)
			usage_error "a module parameter holds a space: $param" ;;
		[a-z]*=*) ;;
		*)
			printf '%s: not a module parameter: %s\n' "$0" "$param" >&2
			usage >&2
			exit "$KSFT_FAIL" ;;
		esac
		case $param in
		loops=*) loops_arg=${param#loops=} ;;
		esac
		case $param in
		run_flags=* | tests=* | reps=*) ;;
		*) other_params="$other_params $param" ;;
		esac
	done
	params="$*"
	case $nloads in
	'' | *[!0-9]* | 0 | 0*)
		usage_error "-n $nloads: the number of loads is a whole number from 1" ;;
	esac
	[ "$nloads" -le 1000 ] || usage_error "-n $nloads: at most 1000 loads"
fi
[ -n "$baseline" ] && [ -z "$pct" ] &&
	usage_error "-b needs -p PCT, the margin of the gate in percent"
[ -z "$baseline" ] && [ -n "$pct" ] &&
	usage_error "-p needs -b FILE, the baseline to gate against"
[ -z "$pct" ] || results_is_number "$pct" ||
	usage_error "-p $pct: the margin is a decimal number of percent, such as 2 or 0.5"

# Parameters, names and values are words: never patterns.
set -f
# What the checks read of each test, in test_fields' order.
TEST_FIELDS="invoke_count reps total_invoke_count loops context
	wanted_context path expect_path pages_allocated expect_allocated_max
	pages_released expect_released expect_stats cheaper_than cycles_min
	cycles_median chunks preemptible_chunks retried_chunks
	perturbed_chunks twin reason"
CPU_FIELDS="role invoke_count"
# Lists in a field are split on their commas with IFS, not a process.
IFS_DEFAULT=$IFS

work=$(mktemp -d) || usage_error "cannot create a temporary directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

# A thresholds (-t) or relations (-r) file, parsed strictly: its pairs
# go to $work/thresholds or $work/relations, one a line, or it is
# refused with "FILE:LINE: what is wrong".  Comments start at a "#" at
# the start of a line or after a blank.
read_pairs_file() {	# threshold|relation file
	[ -f "$2" ] && [ -r "$2" ] || usage_error "cannot read $1 file $2"
	: >"$work/$1s"
	why=$(results_strict_awk "$2" '
	{ sub(/^[ \t]*#.*$|[ \t]+#.*$/, "") }
	NF == 0 {
		next
	}
	ENVIRON["KIND"] == "threshold" {
		if (NF == 1)
			bad("\"" $1 "\": the limit is missing (expected TEST_NAME LIMIT)")
		if (NF != 2)
			bad("\"" $0 "\": expected TEST_NAME LIMIT, found " NF " fields")
		if (!name_ok($1))
			bad("\"" $1 "\" is not a test name")
		if ($2 ~ /^-/)
			bad("limit \"" $2 "\" is negative")
		if ($2 !~ /^[0-9]+(\.[0-9]+)?$/)
			bad("limit \"" $2 "\" is not a number" \
			    " (a plain decimal such as 150 or 79.5)")
		if ($1 in seen)
			bad($1 " has a limit already, on line " seen[$1])
	}
	ENVIRON["KIND"] == "relation" {
		if (NF != 2)
			bad("\"" $0 "\": expected CHEAPER_TEST DEARER_TEST, found " \
			    NF " field" (NF > 1 ? "s" : ""))
		if (!name_ok($1))
			bad("\"" $1 "\" is not a test name")
		if (!name_ok($2))
			bad("\"" $2 "\" is not a test name")
		if ($1 == $2)
			bad($1 " cannot be cheaper than itself")
		if (($1 " " $2) in seen)
			bad("the same relation as on line " seen[$1 " " $2])
	}
	{
		seen[ENVIRON["KIND"] == "threshold" ? $1 : $1 " " $2] = NR
		print $1, $2 >ENVIRON["OUT"]
	}
	END {
		exit failed
	}' KIND="$1" OUT="$work/$1s") || usage_error "$why"
}

# What a results file's cycle fields count, as the instruments differ:
# QEMU -icount's instructions, emulated (TCG) cycles, or a CPU's cycles.
unit_of() {	# results file
	u=$(results_header "$1" clock)
	printf '%s\n' "${u:-cycles}"
}

instrument_of() {	# results file
	if [ "$(unit_of "$1")" = instructions ]; then
		printf '%s\n' "instructions (clock: instructions)"
	elif [ "$(results_header "$1" accel)" = tcg ]; then
		printf '%s\n' "emulated cycles (clock: cycles, accel: tcg)"
	else
		accel=$(results_header "$1" accel)
		printf 'CPU cycles (clock: cycles, accel: %s)\n' "${accel:-unknown}"
	fi
}

# Every file is read before the first load.
[ -z "$relations" ] || read_pairs_file relation "$relations"
[ -z "$thresholds" ] || read_pairs_file threshold "$thresholds"
if [ -n "$baseline" ]; then
	[ -f "$baseline" ] && [ -r "$baseline" ] ||
		usage_error "cannot read baseline file $baseline"
	why=$(results_check_load "$baseline" cycles_min) ||
		usage_error "baseline $why"
	baseline_instrument=$(instrument_of "$baseline")
	mkdir "$work/idx.baseline" &&
		results_index "$baseline" "$work/idx.baseline" \
			"$TEST_FIELDS" "$CPU_FIELDS" ||
		usage_error "cannot index the baseline $baseline"
fi

# The baseline and the loads must come from one instrument.
same_instrument() {	# results file
	[ -z "$baseline" ] && return 0
	got=$(instrument_of "$1")
	[ "$got" = "$baseline_instrument" ] && return 0
	printf '%s%s\n' "the baseline $baseline counts $baseline_instrument, " \
		"the results $2count $got: compare results of one instrument"
	return 1
}

# The loads: $work/load.K.path is the results file of load K (1..N),
# verbatim, a "." after it (see use_load); $work/load.K.tests, the
# tests its selected: line names, read once; $work/load.K.ok exists
# when the file is whole and names a test, else $work/load.K.why says
# what went wrong.  Every check of a load is planned from its .tests,
# so a load that is ok has a check per test, whatever its path holds.
set_load_path() {	# k file
	printf '%s.' "$2" >"$work/load.$1.path"
}

set_load_status() {	# k file [name [checked]]
	set_load_path "$1" "$2"
	if [ -z "${4:-}" ] && ! results_check "$2" >"$work/load.$1.why"; then
		return
	elif ! results_tests "$2" >"$work/load.$1.tests" ||
	     [ ! -s "$work/load.$1.tests" ]; then
		printf '%s: no selected: line, or it names no test\n' "${3:-$2}" \
			>"$work/load.$1.why"
	else
		: >"$work/load.$1.ok"
	fi
}

if [ -n "$check_mode" ]; then
	# Each block of a file is a load, as bench-compare reads it: a
	# file of several is checked whole, then each block on its own
	# ($work/load.K.name says which).
	k=0 j=0
	for file in "$@"; do
		j=$((j + 1))
		k=$((k + 1))
		if ! results_check "$file" >"$work/load.$k.why"; then
			set_load_path $k "$file"
			continue
		fi
		k=$((k - 1))
		blocks=$(results_split "$file" "$work/block.$j.")
		b=0
		while [ $b -lt "$blocks" ]; do
			b=$((b + 1)) k=$((k + 1))
			if [ "$blocks" = 1 ]; then
				path=$file name=$file
			else
				path=$work/block.$j.$b
				name="$file, block $b of $blocks"
			fi
			printf '%s.' "$name" >"$work/load.$k.name"
			set_load_status $k "$path" "$name" checked
			if [ -e "$work/load.$k.ok" ]; then
				why=$(same_instrument "$path" "of $name ") ||
					usage_error "$why"
			fi
		done
	done
	nloads=$k
	ktap_print_header
else
	[ -r "$HERE/splat_patterns" ] ||
		usage_error "$HERE/splat_patterns is missing"
	if [ -n "$outdir" ]; then
		mkdir -p "$outdir" 2>/dev/null && [ -w "$outdir" ] ||
			usage_error "-o $outdir: cannot create or write to it"
	fi

	skip_all() {
		ktap_print_header
		ktap_skip_all "$*"
		exit "$KSFT_SKIP"
	}

	[ "$(id -u)" = 0 ] || skip_all "must be run as root"
	grep -qw page_pool_create /proc/kallsyms 2>/dev/null ||
		skip_all "kernel has no page_pool (CONFIG_PAGE_POOL)"
	if [ -n "$moddir" ]; then
		[ -f "$moddir/$MODULE.ko" ] || skip_all "no $MODULE.ko in $moddir"
		source_desc="insmod from $moddir"
	elif [ -f "$HERE/$MODULE.ko" ]; then
		moddir=$HERE
		source_desc="insmod from $HERE (beside this script)"
	elif [ -f "$HERE/page_pool/$MODULE.ko" ]; then
		# net/bench in a kernel tree: TEST_GEN_MODS_DIR is page_pool
		moddir=$HERE/page_pool
		source_desc="insmod from $moddir (the kselftest's module folder)"
	else
		modprobe -n -q $MODULE 2>/dev/null ||
			skip_all "module $MODULE not found (no .ko beside" \
				"this script or in page_pool/ beside it," \
				"none installed; build it, or use -d DIR)"
		source_desc="modprobe $MODULE"
	fi
	grep -qs ' /sys/kernel/debug debugfs ' /proc/mounts ||
		mount -t debugfs none /sys/kernel/debug 2>/dev/null ||
		skip_all "debugfs is not mounted and cannot be"

	ktap_print_header
	ktap_print_msg "modules: $source_desc"
	[ -z "$params_from" ] || ktap_print_msg "parameters: $params$params_from"
fi

loaded() {
	lsmod | grep -q "^$MODULE "
}

load_module() {	# params...
	if [ -n "$moddir" ]; then
		insmod "$moddir/$MODULE.ko" "$@"
	else
		modprobe $MODULE "$@"
	fi
}

kernel_log_since() {	# marker
	dmesg | sed -n "/$1/,\$p" | sed 1d
}

# The first number after the loads DIR holds already.
first_free_number() {	# dir
	n=0
	set +f
	for f in "$1"/load-*.results; do
		f=${f##*/load-}
		f=${f%.results}
		case $f in
		'' | *[!0-9]*) continue ;;
		esac
		f=${f#"${f%%[!0]*}"}
		[ "${f:-0}" -gt $n ] && n=$f
	done
	set -f
	printf '%s\n' $((n + 1))
}

# Every task's CPU time so far, "PID TICKS COMM" a line, from
# /proc/PID/stat (utime and stime, the 14th and 15th fields, counted
# after the ")" that ends the name, which may hold blanks).  cat goes
# on past a task that ended meanwhile; awk would stop there.
task_times() {
	set +f
	cat /proc/[0-9]*/stat 2>/dev/null | awk '{
		e = length($0)
		while (e > 0 && substr($0, e, 1) != ")")
			e--
		s = index($0, "(")
		if (!s || e <= s)
			next
		n = split(substr($0, e + 1), f, " ")
		if (n >= 13 && f[12] ~ /^[0-9]+$/ && f[13] ~ /^[0-9]+$/)
			print $1, f[12] + f[13], substr($0, s + 1, e - s - 1)
	}'
	set -f
}

# The tasks that ran while load K did, most CPU time first, this
# script's own left out: who may have entered a test's windows.
tasks_beside_load() {	# k
	awk -v self=$$ 'NR == FNR { before[$1] = $2; next }
	$1 != self {
		t = $2 - ($1 in before ? before[$1] : 0)
		if (t > 0) {
			name = $0
			sub(/^[0-9]+ [0-9]+ /, "", name)
			print t, name " (pid " $1 ")"
		}
	}' "$work/load.$1.tasks-before" "$work/load.$1.tasks-after" |
		sort -rn | head -n 5 |
		awk '{ t = $1; sub(/^[0-9]+ /, ""); print "  " $0 ": " t " ticks" }'
}

# The end-to-end scenarios' rows into a load's results file; what
# bench-e2e said, as diagnostics.  A scenario that failed has no row:
# its check that it reported fails.
join_e2e() {	# file
	# shellcheck disable=SC2086 # bench-e2e's options, words (set -f)
	"$e2e_prog" -m "$1" -o "$work/e2e.results" $e2e_opts \
		>"$work/e2e.out" 2>&1
	j_rc=$?
	ktap_print_lines <"$work/e2e.out"
	if grep -q '^end: ' "$work/e2e.results" 2>/dev/null; then
		cat "$work/e2e.results" >"$1"
	else
		ktap_print_msg "bench-e2e wrote no results (exit $j_rc)"
	fi
}

if [ -z "$check_mode" ]; then
	loaded && rmmod $MODULE
	marker="$MODULE kselftest $$ $(date +%s)"
	printf '%s\n' "$marker" >/dev/kmsg
	store=${outdir:-$work}
	number=1
	[ -n "$outdir" ] && number=$(first_free_number "$outdir")
	k=0
	while [ $k -lt "$nloads" ]; do
		k=$((k + 1))
		name=$(printf 'load-%02d' "$number")
		number=$((number + 1))
		file=$store/$name.results
		loaded && rmmod $MODULE
		mark="$marker load $k"
		printf '%s\n' "$mark" >/dev/kmsg
		task_times >"$work/load.$k.tasks-before"
		# shellcheck disable=SC2086
		load_module $params </dev/null >"$work/load.out" 2>&1
		rc=$?
		task_times >"$work/load.$k.tasks-after"
		if [ $rc = 0 ] && env_collect "$RESULTS" >"$file" 2>"$work/load.out"; then
			[ -z "$e2e_prog" ] || join_e2e "$file"
			set_load_status $k "$file"
			ktap_print_msg "load $k of $nloads: done${outdir:+, results in $file}"
		else
			rm -f "$file"
			set_load_path $k "$file"
			{
				printf 'loading failed (exit %s):\n' "$rc"
				cat "$work/load.out"
			} >"$work/load.$k.why"
			ktap_print_msg "load $k of $nloads: loading failed (exit $rc)"
		fi
		kernel_log_since "$mark" >"$work/load.$k.dmesg"
		[ -n "$outdir" ] && cp "$work/load.$k.dmesg" "$store/$name.dmesg"
		[ -n "$keep" ] && [ $k = "$nloads" ] || { loaded && rmmod $MODULE; }
		if [ -e "$work/load.$k.ok" ] && ! why=$(same_instrument "$file"); then
			printf '%s: %s\n' "$0" "$why" >&2
			ktap_exit_fail_msg "$why"
		fi
	done
fi

# Where the current check's load is: F its results file, N what to call
# it (-c: the file, and its block if it holds several), U the unit of
# its cycle fields, LABEL what its KTAP lines start with.
use_load() {	# k
	[ "${L:-}" = "$1" ] && return
	L=$1
	F=$(cat "$work/load.$1.path")
	F=${F%.}
	N=$F
	if [ -e "$work/load.$1.name" ]; then
		N=$(cat "$work/load.$1.name")
		N=${N%.}
	fi
	U=cycles ACCEL= PARAMS= CONFIG= STATS= IDX=$work/idx.$1
	if [ -e "$work/load.$1.ok" ]; then
		U=$(unit_of "$F")
		ACCEL=$(results_header "$F" accel)
		PARAMS=$(results_header "$F" params)
		CONFIG=$(results_header "$F" config)
		STATS=$(results_header "$F" page_pool_stats)
		[ -d "$IDX" ] || { mkdir "$IDX" &&
			results_index "$F" "$IDX" "$TEST_FIELDS" "$CPU_FIELDS"; }
	fi
	LABEL=
	[ "$nloads" -gt 1 ] && LABEL="load $1 of $nloads: "
}

# The fields of one test the checks read: T_<field>, and T_kind "test"
# or "skip" (empty: neither line), from the load's index (results_index)
# and read in the shell: a process a field would cost, in a guest, more
# than the test's run.
use_test() {	# test
	[ "${T_KEY:-}" = "$L $1" ] && return
	T_KEY="$L $1"
	test_fields "$IDX" "$1"
}

test_fields() {	# index-dir test
	T_kind= T_invoke_count= T_reps= T_total_invoke_count= T_loops=
	T_context= T_wanted_context= T_path= T_expect_path=
	T_pages_allocated= T_expect_allocated_max= T_pages_released=
	T_expect_released= T_expect_stats= T_cheaper_than= T_cycles_min=
	T_cycles_median= T_chunks= T_preemptible_chunks= T_retried_chunks=
	T_perturbed_chunks= T_twin= T_reason=
	[ -f "$1/$2" ] || return 0
	{
		read -r T_kind; read -r T_invoke_count; read -r T_reps
		read -r T_total_invoke_count; read -r T_loops; read -r T_context
		read -r T_wanted_context; read -r T_path; read -r T_expect_path
		read -r T_pages_allocated; read -r T_expect_allocated_max
		read -r T_pages_released; read -r T_expect_released
		read -r T_expect_stats; read -r T_cheaper_than
		read -r T_cycles_min; read -r T_cycles_median
		read -r T_chunks; read -r T_preemptible_chunks
		read -r T_retried_chunks; read -r T_perturbed_chunks
		read -r T_twin
		IFS= read -r T_reason
	} <"$1/$2"
}

# Whole numbers only, and small enough for the shell's arithmetic.
is_count() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
	[ ${#1} -le 15 ]
}

compare() {	# a op b: decimals; false unless both are numbers
	results_is_number "$1" && results_is_number "$3" || return 1
	awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN {
		exit !(op == "<" ? a + 0 < b + 0 : a + 0 <= b + 0)
	}'
}

# KTAP descriptions carry values read from results files: ktap_lib.sh
# escapes them.
pass() { ktap_test_pass "$LABEL$1"; }
fail() { ktap_test_fail "$LABEL$*"; }
skip() { ktap_test_skip "$LABEL$1" "$2"; }
result() {	# description command...
	r_desc=$1
	shift
	if "$@"; then pass "$r_desc"; else fail "$r_desc"; fi
}

# The checks, one KTAP line each, in the order of the plan below.

check_load() {
	if [ -n "$check_mode" ]; then
		desc="results file is whole ($N)"
	else
		desc="$MODULE loads with: ${params:-defaults}"
	fi
	if [ ! -e "$work/load.$L.ok" ]; then
		fail "$desc"
		ktap_print_lines <"$work/load.$L.why"
		[ -r "$work/load.$L.dmesg" ] && ktap_print_lines <"$work/load.$L.dmesg"
		return
	fi
	pass "$desc"
	grep -E -e '^(kernel|cpu_model|clock|accel|page_pool_stats|config): ' \
		-e '^(runtime|platform|mitigations|params): ' "$F" |
		ktap_print_lines
}

check_skip() {	# test
	use_test "$1"
	skip "$1" "$T_reason"
}

# Every repetition ran the loops asked for (or sized by time).
check_reported() {	# test
	use_test "$1"
	[ -f "$IDX/$1.lines" ] && ktap_print_lines <"$IDX/$1.lines"
	invoke=$T_invoke_count reps=$T_reps total=$T_total_invoke_count
	want=$loops_arg
	# an end-to-end scenario (bench-e2e) sends e2e_packets a repetition
	if [ "$T_wanted_context" = e2e ]; then
		want=
		for word in $PARAMS; do
			case $word in
			e2e_packets=*) want=${word#e2e_packets=} ;;
			esac
		done
	elif [ -z "$want" ]; then
		for word in $PARAMS; do
			case $word in
			loops=*) want=${word#loops=} ;;
			esac
		done
		[ "$want" = - ] && want=
		[ -n "$want" ] || want=$T_loops
	fi
	desc="$1 reported, invoke count ${invoke:-none} == loops ${want:-?}"
	desc="$desc in each of ${reps:-?} reps"
	if is_count "$invoke" && is_count "$reps" && is_count "$total" &&
	   [ "$invoke" != 0 ] && [ "$invoke" = "$want" ] &&
	   [ "$total" = $((invoke * reps)) ]; then
		pass "$desc"
	else
		fail "$desc${total:+, $total in all}"
	fi
}

check_context() {	# test
	use_test "$1"
	desc="$1 ran in ${T_wanted_context:-?} context (${T_context:-none})"
	# a scenario: its XDP program counted every packet on the timed CPU
	[ "$T_wanted_context" != e2e ] ||
		desc="$1 ran every packet on the CPU it times (${T_context:-none})"
	result "$desc" test -n "$T_context" -a "$T_context" = "$T_wanted_context"
}

# The test's windows held its own work only: a timed chunk whose task
# was switched out inside it holds another task's, and counts only if
# it was so on every try (perturbed).  Under PREEMPT_LAZY and FULL the
# engine turns preemption off in process-context windows; under
# PREEMPT_RT it cannot, and the count tells.
check_window() {	# test
	use_test "$1"
	perturbed=$T_perturbed_chunks chunks=$T_chunks
	desc="$1 timed only its own work: ${perturbed:-?} of ${chunks:-?}"
	desc="$desc timed chunks held another task's"
	desc="$desc (${T_retried_chunks:-?} measured again; windows"
	if [ "${T_preemptible_chunks:-0}" = 0 ]; then
		desc="$desc not preemptible)"
	else
		desc="$desc preemptible in $T_preemptible_chunks)"
	fi
	if is_count "$perturbed" && is_count "$chunks" &&
	   is_count "$T_retried_chunks" && [ "$perturbed" = 0 ]; then
		pass "$desc"
		return
	fi
	fail "$desc"
	if [ -n "$check_mode" ]; then
		ktap_print_msg "which tasks ran is not known from saved results"
	elif [ -r "$work/load.$L.tasks-after" ]; then
		ktap_print_msg "tasks that used CPU time during load $L:"
		tasks_beside_load "$L" | ktap_print_lines
	fi
}

# The path the probe saw, and the pages the pool took from and gave back
# to the page allocator, against the bounds of the test's row.
check_path() {	# test
	use_test "$1"
	want=$T_expect_path got=$T_path
	case $want in
	'')
		r_format=$(results_header "$F" format | sed 's/.* //')
		fail "$1 took path ${got:-none}, but the results give no" \
			"expect_path (format $r_format)"
		return ;;
	-)
		result "$1 uses no page_pool (path ${got:-none})" test "$got" = -
		return ;;
	esac
	ok=1
	case ,$want, in
	*,"$got",*) [ -n "$got" ] || ok= ;;
	*) ok= ;;
	esac
	desc="$1 took path ${got:-none} (accepted: $want)"
	max=$T_expect_allocated_max allocated=$T_pages_allocated
	case $max in
	-) ;;
	*)
		desc="$desc, $allocated pages from the page allocator (at most ${max:-?})"
		is_count "$max" && is_count "$allocated" &&
			[ "$allocated" -le "$max" ] || ok= ;;
	esac
	released_want=$T_expect_released released=$T_pages_released
	case $released_want in
	-) ;;
	*)
		desc="$desc, $released pages back to it (want ${released_want:-?})"
		is_count "$released_want" && is_count "$released" &&
			[ "$released" = "$released_want" ] || ok= ;;
	esac
	result "$desc" test -n "$ok"
}

# page_pool's own counters over the timed repetitions: each sum of
# counters the row names has the value it gives.
check_stats() {	# test
	use_test "$1"
	spec=$T_expect_stats
	desc="$1 page_pool counters"
	if [ "$STATS" != yes ]; then
		skip "$desc" "kernel without CONFIG_PAGE_POOL_STATS"
		return
	fi
	[ -n "$spec" ] || { fail "$desc: the results give no expect_stats"; return; }
	ok=1
	# the counters' values, in the order the terms name them
	exec 4<"$IDX/$1.stats"
	IFS=,
	for term in $spec; do
		IFS=$IFS_DEFAULT
		counters=${term%%:*}
		want=${term#*:}
		sum=0
		IFS=+
		for _ in $counters; do
			IFS=$IFS_DEFAULT
			read -r value <&4
			if is_count "$value"; then
				sum=$((sum + value))
			else
				sum="$sum+${value:-none}"
				ok=
			fi
		done
		IFS=$IFS_DEFAULT
		case $term in
		*:*) is_count "$want" && [ "$sum" = "$want" ] || ok= ;;
		*) ok= ;;
		esac
		desc="$desc, $counters=$sum (want $want)"
	done
	IFS=$IFS_DEFAULT
	exec 4<&-
	result "$desc" test -n "$ok"
}

# A test run on several CPUs: one allocates, at least one returns, and
# each side handled every page of the timed repetitions.
check_cpus() {	# test
	use_test "$1"
	total=$T_total_invoke_count
	allocating=0 returning=0 allocated=0 returned=0 ok=1
	[ -f "$IDX/$1.cpu" ] || : >"$IDX/$1.cpu"
	while read -r role count; do
		is_count "$count" || { ok=; continue; }
		case $role in
		alloc) allocating=$((allocating + 1)) allocated=$((allocated + count)) ;;
		return) returning=$((returning + 1)) returned=$((returned + count)) ;;
		*) ok= ;;
		esac
	done <"$IDX/$1.cpu"
	x_desc="$1 ran on $allocating allocating and $returning returning CPU(s),"
	x_desc="$x_desc pages allocated $allocated and returned $returned of ${total:-?}"
	result "$x_desc" \
		test -n "$ok" -a "$allocating" = 1 -a "$returning" -gt 0 -a \
			"$allocated" = "$total" -a "$returned" = "$total"
}

# Relations need an instrument that ranks paths: instruction counts do,
# exactly; so do a real CPU's cycles, cheapest repetition against
# cheapest, since noise only ever adds; emulated cycles do not (make
# check, 6.12 under TCG: bulk 493.69 against ptr_ring 416.85 cycles,
# 563.07 against 413.81 once re-measured, where instruction counts give
# 141.55 against 165.62).  Lock debugging makes every spinlock cost
# thousands of cycles: relations between paths with different locks do
# not hold there.
lock_debugging() {
	for word in $CONFIG; do
		case $word in
		prove_locking=y | debug_lock_alloc=y | lock_stat=y) return 0 ;;
		esac
	done
	return 1
}

# A re-measurement takes the cheapest of at least this many repetitions.
# Measured in a guest of a host busy building a kernel, loops=20000:
# the fast path cost more than the ptr_ring in 4 of 40 single runs, and
# in none of 40 loads of five repetitions (at most 162 against at least
# 190 cycles).
REMEASURE_REPS=5

# Prints the results file of a fresh load that runs only tests a and b,
# with the parameters this run was given otherwise.
remeasure() {	# a b
	remeasure_reps=$REMEASURE_REPS
	for param in $params; do
		case $param in
		reps=*) [ "${param#reps=}" -gt $remeasure_reps ] 2>/dev/null &&
			remeasure_reps=${param#reps=} ;;
		esac
	done
	loaded && rmmod $MODULE
	# shellcheck disable=SC2086
	load_module $other_params "tests=$1,$2" "reps=$remeasure_reps" \
		</dev/null >/dev/null 2>&1 &&
		cat "$RESULTS" >"$work/remeasured" 2>/dev/null ||
		: >"$work/remeasured"
}

check_relation() {	# cheaper dearer
	use_test "$1"
	ca=${T_cycles_min:-none}
	use_test "$2"
	cb=${T_cycles_min:-none}
	desc="$1 cheaper than $2"
	use_test "$1"
	kind_a=$T_kind
	use_test "$2"
	if [ "$kind_a" != test ] || [ "$T_kind" != test ]; then
		skip "$desc" "not both run in this load"
	elif lock_debugging; then
		skip "$desc (min $ca, $cb $U)" "lock debugging distorts relative costs"
	elif [ "$U" = instructions ]; then
		result "$desc (min $ca < $cb instructions)" compare "$ca" "<" "$cb"
	elif [ "$ACCEL" = tcg ]; then
		skip "$desc (min $ca, $cb cycles)" \
			"emulated cycles do not rank paths (clock: cycles, accel: tcg)"
	elif compare "$ca" "<" "$cb"; then
		pass "$desc (min $ca < $cb cycles)"
	elif [ -n "$check_mode" ]; then
		fail "$desc (min $ca < $cb cycles; saved results, not re-measured)"
	else
		# Noise on a busy machine (an interrupt, the host taking the
		# CPU away from a guest) can still disturb a short run as a
		# whole: measure once more, in a load of its own with several
		# repetitions, and fail only if it fails again.
		remeasure "$1" "$2"
		ra=$(results_field "$work/remeasured" "$1" cycles_min)
		rb=$(results_field "$work/remeasured" "$2" cycles_min)
		desc="$desc (min $ca < $cb cycles; re-measured over $remeasure_reps"
		result "$desc reps: ${ra:-none} < ${rb:-none})" \
			compare "$ra" "<" "$rb"
	fi
}

# A test and its twin (its row's: the same code in another context
# when both take the same path) cost the same, counted in instructions:
# other work in one's windows makes them differ (7.2 with its crypto
# self-tests preempting the process context: 228.3 against 75.1).  Half
# an instruction: a load's cheapest repetitions of the two agreed within
# 0.06 on 6.12 and 7.2.
TWIN_MARGIN=0.5

check_twin() {	# test twin
	use_test "$1"
	ma=${T_cycles_min:-none} pa=${T_path:-none}
	use_test "$2"
	mb=${T_cycles_min:-none} pb=${T_path:-none}
	desc="$1 costs what its twin $2 does (min $ma, $mb $U, within $TWIN_MARGIN)"
	if [ "$U" != instructions ]; then
		skip "$desc" "only instruction counts resolve $TWIN_MARGIN (clock: $U)"
	elif [ "$pa" != "$pb" ]; then
		skip "$desc" "the two took different paths ($pa, $pb): not the same code"
	elif results_is_number "$ma" && results_is_number "$mb"; then
		result "$desc" awk -v a="$ma" -v b="$mb" -v m=$TWIN_MARGIN \
			'BEGIN { d = a - b; exit !(d <= m && -d <= m) }'
	else
		fail "$desc"
	fi
}

check_threshold() {	# test limit
	desc="$1 median within $2 $U"
	use_test "$1"
	if [ "$T_kind" != test ]; then
		skip "$desc" "not run in this load"
		return
	fi
	result "$desc (median ${T_cycles_median:-none} $U)" \
		compare "$T_cycles_median" "<=" "$2"
}

# The gate: the cheapest repetition, the per-load value bench-compare
# uses, may exceed the baseline's by at most pct percent.
check_baseline() {	# test
	test_fields "$work/idx.baseline" "$1"
	base=$T_cycles_min
	T_KEY=
	use_test "$1"
	value=$T_cycles_min
	desc="$1 cycles_min within +$pct% of the baseline"
	if [ -z "$base" ]; then
		skip "$desc" "not in the baseline"
		return
	fi
	if ! results_is_number "$value"; then
		fail "$desc ${base} $U (${value:-none})"
		return
	fi
	verdict=$(awk -v v="$value" -v b="$base" -v p="$pct" 'BEGIN {
		rise = b > 0 ? sprintf("%+.2f%%", (v - b) * 100 / b) : (v > 0 ? "from 0" : "+0.00%")
		print (v <= b * (1 + p / 100) ? "ok" : "over"), rise
	}')
	result "$desc $base $U ($value $U, ${verdict#* })" test "${verdict%% *}" = ok
}

# A gate that judged nothing must not pass.
check_gate() {	# tests-in-the-baseline tests-run
	result "$1 of the $2 tests run are in the baseline, which the gate compares with" \
		test "$1" -gt 0
}

check_splats() {
	splats=$(kernel_log_since "$marker" | grep -E -f "$HERE/splat_patterns")
	if [ -z "$splats" ]; then
		ktap_test_pass "no kernel warning during the run"
	else
		ktap_test_fail "no kernel warning during the run"
		kernel_log_since "$marker" | ktap_print_lines
	fi
}

# The plan: one line per check, "CHECK LOAD [ARGS]", in order.
plan_load() {	# k
	use_load "$1"
	printf '%s\n' "load $1"
	[ -e "$work/load.$1.ok" ] || return 0
	ran=" "
	: >"$work/cheaper"
	: >"$work/twins"
	while read -r name; do
		use_test "$name"
		if [ "$T_kind" = test ]; then
			ran="$ran$name "
		elif [ -n "$T_reason" ]; then
			printf '%s\n' "skip $1 $name"
			continue
		fi
		printf '%s\n' "reported $1 $name"
		printf '%s\n' "context $1 $name"
		[ -z "$T_perturbed_chunks" ] ||
			printf '%s\n' "window $1 $name"
		printf '%s\n' "path $1 $name"
		[ "$T_expect_path" = - ] || [ "$T_expect_stats" = - ] ||
			printf '%s\n' "stats $1 $name"
		[ ! -f "$IDX/$name.cpu" ] || printf '%s\n' "cpus $1 $name"
		case $T_twin in
		'' | -) ;;
		*) printf '%s\n' "$name $T_twin" >>"$work/twins" ;;
		esac
		IFS=,
		for b in $T_cheaper_than; do
			IFS=$IFS_DEFAULT
			[ "$b" = - ] || printf '%s\n' "$name $b" >>"$work/cheaper"
		done
		IFS=$IFS_DEFAULT
	done <"$work/load.$1.tests"
	# The relations the results give, between tests this load ran.
	if [ -n "$relations" ]; then
		while read -r a b; do
			printf '%s\n' "relation $1 $a $b"
		done <"$work/relations"
	else
		while read -r a b; do
			case $ran in
			*" $a "*) case $ran in
				*" $b "*) printf '%s\n' "relation $1 $a $b" ;;
				esac ;;
			esac
		done <"$work/cheaper"
	fi
	# Twins that both ran in this load.
	while read -r a b; do
		case $ran in
		*" $a "*) case $ran in
			*" $b "*) printf '%s\n' "twin $1 $a $b" ;;
			esac ;;
		esac
	done <"$work/twins"
	if [ -n "$thresholds" ]; then
		while read -r name limit; do
			printf '%s\n' "threshold $1 $name $limit"
		done <"$work/thresholds"
	fi
	if [ -n "$baseline" ]; then
		common=0 total=0
		for name in $ran; do
			total=$((total + 1))
			test_fields "$work/idx.baseline" "$name"
			[ "$T_kind" != test ] || common=$((common + 1))
		done
		T_KEY=
		printf '%s\n' "gate $1 $common $total"
		for name in $ran; do
			printf '%s\n' "baseline $1 $name"
		done
	fi
}

k=0
while [ $k -lt "$nloads" ]; do
	k=$((k + 1))
	plan_load $k
done >"$work/plan"
[ -n "$check_mode" ] || printf '%s\n' splats >>"$work/plan"
ktap_set_plan "$(wc -l <"$work/plan" | tr -d ' ')"

while read -r check k a b <&3; do
	[ "$check" = splats ] || use_load "$k"
	case $check in
	load) check_load ;;
	skip) check_skip "$a" ;;
	reported) check_reported "$a" ;;
	context) check_context "$a" ;;
	window) check_window "$a" ;;
	path) check_path "$a" ;;
	stats) check_stats "$a" ;;
	cpus) check_cpus "$a" ;;
	relation) check_relation "$a" "$b" ;;
	twin) check_twin "$a" "$b" ;;
	threshold) check_threshold "$a" "$b" ;;
	gate) check_gate "$a" "$b" ;;
	baseline) check_baseline "$a" ;;
	splats) check_splats ;;
	esac
done 3<"$work/plan"

[ -z "$keep" ] && [ -z "$check_mode" ] && loaded && rmmod $MODULE

ktap_finished
