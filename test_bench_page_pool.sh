#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2154 # T_<field>: test_fields reads them
#
# kselftest of bench_page_pool: loads the module (-n times) and checks
# what each test did against what its results say it must: it reported
# its figure (or why this kernel cannot run it), ran in its context,
# timed no other task's work, took an accepted path with the pages and
# page_pool counters its row gives, cost less than the tests its row
# names and what its twin costs; limits when asked; no kernel warning.
# KTAP, a line a check, its description the same on every run, its
# figures after " # " as key=value words.  Exit 0,
# 1 (a check failed, a usage error) or 4 (skipped).  POSIX sh.

MODULE=bench_page_pool
HERE=$(cd "$(dirname "$0")" && pwd)
# the benchmark's name, which its debugfs folder carries
RESULTS=/sys/kernel/debug/bench_page_pool_simple/results

# in a kernel tree and its install, the framework's helpers
KTAP_HELPERS=$HERE/../../kselftest/ktap_helpers.sh
. "$HERE/ktap_lib.sh"
. "$HERE/results_lib.sh"
. "$HERE/env_lib.sh"

usage() {
	cat <<EOF
usage: $0 [-d DIR] [-n N] [-o DIR] [-t FILE] [-k] [PARAM=VALUE]...
Loads $MODULE (from -d DIR, beside this script, in page_pool/ beside
it, else modprobe) with the module parameters given, checks each load
and prints KTAP.
  -n N     load it N times (default 1)
  -o DIR   keep each load's results in DIR, load-NN.results
  -t FILE  limits on a test's median, "TEST LIMIT" lines
           (\$BENCH_PAGE_POOL_THRESHOLDS)
  -k       keep the module loaded afterwards
Without PARAMs, \$BENCH_PAGE_POOL_PARAMS gives them.
EOF
	# out of tree: what needs the benchmark's other tools
	cat <<EOF
  -c FILE...  check saved results files, each block a load
  -b FILE  gate against a baseline load: fail a test whose cheapest
           repetition rose more than -p PCT percent above it
  -r FILE  relations to check, "CHEAPER DEARER" lines
           (\$BENCH_PAGE_POOL_RELATIONS)
  -e PROG  bench-e2e's scenarios after each load (-E: its options)
Saved results (-c, -b) are read by bench-compare --check first
(tools/compare, or \$BENCH_COMPARE).
EOF
	# end of out of tree
}

usage_error() {
	printf '%s: %s\n' "$0" "$*" >&2
	exit "$KSFT_FAIL"
}

need_file() {	# file what
	[ -f "$1" ] && [ -r "$1" ] && return
	usage_error "cannot read $2 $1"
}

moddir='' outdir='' check_mode='' keep='' relations='' nloads=1
thresholds=${BENCH_PAGE_POOL_THRESHOLDS:-}
options=d:n:o:t:kh
# out of tree
relations=${BENCH_PAGE_POOL_RELATIONS:-}
baseline='' pct='' e2e_prog='' e2e_opts=''
options=${options}cb:p:r:e:E:
# end of out of tree
while getopts "$options" opt; do
	case $opt in
	d) moddir=$OPTARG ;;
	n) nloads=$OPTARG ;;
	o) outdir=$OPTARG ;;
	t) thresholds=$OPTARG ;;
	k) keep=1 ;;
	# out of tree
	c) check_mode=1 ;;
	b) baseline=$OPTARG ;;
	p) pct=$OPTARG ;;
	r) relations=$OPTARG ;;
	e) e2e_prog=$OPTARG ;;
	E) e2e_opts=$OPTARG ;;
	# end of out of tree
	h) usage; exit "$KSFT_PASS" ;;
	*) usage >&2; exit "$KSFT_FAIL" ;;
	esac
done
shift $((OPTIND - 1))

params_from=
if [ -z "$check_mode" ] && [ $# = 0 ] &&
   [ -n "${BENCH_PAGE_POOL_PARAMS:-}" ]; then
	set -f
	# shellcheck disable=SC2086 # words, never patterns
	set -- $BENCH_PAGE_POOL_PARAMS
	set +f
	params_from=" (from \$BENCH_PAGE_POOL_PARAMS)"
fi

# Module parameters are single words, passed on as they are.
loops_arg=
other_params=
for param in "$@"; do
	[ -z "$check_mode" ] || break
	case $param in
	*[[:space:]]*) usage_error "a module parameter holds a space: $param" ;;
	loops=*) loops_arg=${param#loops=} ;;
	run_flags=* | tests=* | reps=*) ;;
	[a-z]*=*) other_params="$other_params $param" ;;
	*)
		printf '%s: not a module parameter: %s\n' "$0" "$param" >&2
		usage >&2
		exit "$KSFT_FAIL" ;;
	esac
done
case $nloads in
'' | *[!0-9]* | 0 | 0*)
	usage_error "-n $nloads: the number of loads is a whole number" \
		"from 1" ;;
esac
[ "$nloads" -le 1000 ] || usage_error "-n $nloads: at most 1000 loads"
params="$*"
# out of tree
if [ -n "$check_mode" ]; then
	[ "$nloads" = 1 ] || usage_error "-n is for loading the module;" \
		"-c checks saved results files"
	for given in ${moddir:+-d} ${outdir:+-o} ${keep:+-k} ${e2e_prog:+-e}
	do
		usage_error "$given is for loading the module;" \
			"-c checks saved results files"
	done
	[ $# -gt 0 ] || usage_error "-c needs the results files to check"
fi
[ -z "$e2e_opts" ] || [ -n "$e2e_prog" ] ||
	usage_error "-E gives bench-e2e's options: it needs -e"
[ -z "$e2e_prog" ] || [ -x "$e2e_prog" ] ||
	usage_error "-e $e2e_prog: not an executable bench-e2e"
[ -z "$baseline" ] || [ -n "$pct" ] ||
	usage_error "-b needs -p PCT, the margin of the gate in percent"
[ -n "$baseline" ] || [ -z "$pct" ] ||
	usage_error "-p needs -b FILE, the baseline to gate against"
[ -z "$pct" ] || results_is_number "$pct" ||
	usage_error "-p $pct: the margin is a decimal number of percent," \
		"such as 2 or 0.5"
# end of out of tree

# Names and values are words, never patterns, from here on.
set -f
# What the checks read of each test, in test_fields' order.
TEST_FIELDS="invoke_count reps total_invoke_count loops context
	wanted_context path expect_path pages_allocated expect_allocated_max
	pages_released expect_released expect_stats cheaper_than cycles_min
	cycles_median cycles_stddev cycles_max ns_min chunks
	preemptible_chunks retried_chunks perturbed_chunks retried_entered
	perturbed_entered twin cpus reason"
CPU_FIELDS="role invoke_count"
IFS_DEFAULT=$IFS

work=$(mktemp -d) || usage_error "cannot create a temporary directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

# A limits file (-t; out of tree, relations: -r), read strictly into
# $work/thresholds, or refused at FILE:LINE.  "#" starts a comment at
# the start of a line or after a blank.
# shellcheck disable=SC2016 # awk's own $fields
read_pairs_file() {	# threshold|relation file
	need_file "$2" "$1 file"
	: >"$work/$1s"
	why=$(results_strict_awk "$2" '
	{ sub(/^[ \t]*#.*$|[ \t]+#.*$/, "") }
	NF == 0 { next }
	NF != 2 && ENVIRON["KIND"] == "threshold" {
		bad("\"" $0 "\": expected TEST_NAME LIMIT")
	}
	# out of tree
	NF != 2 { bad("\"" $0 "\": expected CHEAPER_TEST DEARER_TEST") }
	# end of out of tree
	!name_ok($1) { bad("\"" $1 "\" is not a test name") }
	ENVIRON["KIND"] == "threshold" {
		if ($2 !~ /^[0-9]+(\.[0-9]+)?$/)
			bad("limit \"" $2 "\" is not a number" \
			    " (a plain decimal such as 150 or 79.5)")
		key = $1
	}
	# out of tree
	ENVIRON["KIND"] == "relation" {
		if (!name_ok($2))
			bad("\"" $2 "\" is not a test name")
		if ($1 == $2)
			bad($1 " cannot be cheaper than itself")
		key = $1 " " $2
	}
	# end of out of tree
	key in seen { bad("\"" key "\" already on line " seen[key]) }
	{
		seen[key] = NR
		print $1, $2 >ENVIRON["OUT"]
	}
	END { exit failed }' KIND="$1" OUT="$work/$1s") || usage_error "$why"
}

# What counted a results file's figures (its clock: QEMU -icount's
# instructions, else cycles): icount, tcg (emulated cycles), or a CPU's
# cycles in a KVM guest (kvm), on bare metal (metal) or elsewhere.
instrument_of() {	# results file
	case $(results_header "$1" clock)/$(results_header "$1" accel) in
	instructions/*) printf '%s\n' icount ;;
	*/tcg) printf '%s\n' tcg ;;
	*/kvm) printf '%s\n' kvm ;;
	*/none) printf '%s\n' metal ;;
	*) printf '%s\n' other ;;
	esac
}

[ -z "$thresholds" ] || read_pairs_file threshold "$thresholds"

# Load K: $work/load.K.path its results file (verbatim, a "." after
# it), .tests its selected tests, .ok when it is whole and names a
# test, else .why says what is wrong; -c: .name what to call it.
set_load_path() {	# k file
	printf '%s.' "$2" >"$work/load.$1.path"
}

set_load_status() {	# k file
	set_load_path "$1" "$2"
	if ! results_whole "$2" >"$work/load.$1.why"; then
		return
	elif ! results_tests "$2" >"$work/load.$1.tests" ||
	     [ ! -s "$work/load.$1.tests" ]; then
		printf '%s: no selected: line, or it names no test\n' "$2" \
			>"$work/load.$1.why"
	else
		: >"$work/load.$1.ok"
	fi
}

# out of tree
[ -z "$relations" ] || read_pairs_file relation "$relations"

# The baseline and the loads come from one instrument.
same_instrument() {	# results file [what it is]
	[ -z "$baseline" ] && return 0
	s_ins=$(instrument_of "$1")
	[ "$s_ins" = "$base_instrument" ] && return 0
	printf 'the baseline %s counts with %s, the results %scount with %s\n' \
		"$baseline" "$base_instrument" "${2:+of $2 }" "$s_ins"
	return 1
}


# Saved results are read by bench-compare --check first: its first
# complaint, "FILE:LINE: why", is the file's.
saved_check() {	# file
	s_out=$("$BENCH_COMPARE" --check "$1" 2>&1 >/dev/null) && return 0
	printf '%s\n' "${s_out:-bench-compare --check failed}" |
		sed '1!d; s/^bench-compare: //'
	return 1
}

if [ -n "$check_mode$baseline" ]; then
	for c in "${BENCH_COMPARE:-}" "$HERE/tools/compare/bench-compare" \
		"$(command -v bench-compare)"; do
		[ -n "$c" ] && [ -x "$c" ] && BENCH_COMPARE=$c && break
	done
	[ -x "${BENCH_COMPARE:-}" ] || usage_error \
		"${check_mode:+-c}${baseline:+ -b} reads saved results with" \
		"bench-compare --check: name it in \$BENCH_COMPARE"
fi
if [ -n "$baseline" ]; then
	need_file "$baseline" "baseline file"
	why=$(saved_check "$baseline" && results_whole "$baseline") ||
		usage_error "baseline $why"
	base_instrument=$(instrument_of "$baseline")
	mkdir "$work/idx.baseline" || exit "$KSFT_FAIL"
	results_index "$baseline" "$work/idx.baseline" "$TEST_FIELDS" \
		"$CPU_FIELDS"
fi

if [ -n "$check_mode" ]; then
	# Each block of a file is a load, as bench-compare reads it.
	k=0
	j=0
	for file in "$@"; do
		j=$((j + 1))
		need_file "$file" "results file"
		if ! saved_check "$file" >"$work/why"; then
			k=$((k + 1))
			set_load_path $k "$file"
			mv "$work/why" "$work/load.$k.why"
			printf '%s.' "$file" >"$work/load.$k.name"
			continue
		fi
		blocks=$(results_split "$file" "$work/block.$j.")
		awk '$1 == "format:" { print NR - 1 }' "$file" >"$work/offsets"
		b=0
		while [ $b -lt "$blocks" ]; do
			b=$((b + 1))
			k=$((k + 1))
			name="$file, block $b of $blocks"
			[ "$blocks" != 1 ] || name=$file
			printf '%s.' "$name" >"$work/load.$k.name"
			block=$work/block.$j.$b
			set_load_status $k "$block"
			if [ -e "$work/load.$k.ok" ]; then
				why=$(same_instrument "$block" "$name") ||
					usage_error "$why"
				continue
			fi
			# the why names the file and its line, not the block's
			awk -v block="$block:" -v file="$file" \
				-v off="$(sed -n "${b}p" "$work/offsets")" '
				index($0, block) == 1 {
					rest = substr($0, length(block) + 1)
					n = rest + off
					sub(/^[0-9]+/, "", rest)
					$0 = file ":" n rest
				} 1' "$work/load.$k.why" >"$work/why" &&
				mv "$work/why" "$work/load.$k.why"
		done
	done
	nloads=$k
fi

# bench-e2e's scenarios' rows join a load's results file; what it said
# becomes diagnostics.  A failed scenario has no row: its check fails.
join_e2e() {	# file
	# shellcheck disable=SC2086 # bench-e2e's options, words
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

# end of out of tree
skip_all() {
	ktap_print_header
	ktap_skip_all "$*"
	exit "$KSFT_SKIP"
}

# The module: insmod of a .ko (-d DIR, beside this script, or the
# kselftest's page_pool/), else modprobe.  Its old name is said.
find_module() {
	old=bench_page_pool_simple
	set -- "$HERE" "$HERE/page_pool"
	[ -z "$moddir" ] || set -- "$moddir"
	for dir in "$@"; do
		if [ -f "$dir/$MODULE.ko" ]; then
			moddir=$dir
			source_desc="insmod from $dir"
			return
		fi
		[ ! -f "$dir/$old.ko" ] || usage_error "$dir/$old.ko:" \
			"the module's old name; it is $MODULE.ko now"
	done
	[ -z "$moddir" ] || skip_all "no $MODULE.ko in $moddir"
	source_desc="modprobe $MODULE"
	modprobe -n -q "$MODULE" 2>/dev/null && return
	! modprobe -n -q "$old" 2>/dev/null ||
		skip_all "$old is installed: the module's old name;" \
			"install $MODULE.ko"
	skip_all "module $MODULE not found: build it, or use -d DIR"
}

if [ -z "$check_mode" ]; then
	[ -r "$HERE/splat_patterns" ] ||
		usage_error "$HERE/splat_patterns is missing"
	if [ -n "$outdir" ]; then
		{ mkdir -p "$outdir" && [ -w "$outdir" ]; } 2>/dev/null ||
			usage_error "-o $outdir: cannot create or write to it"
	fi
	[ "$(id -u)" = 0 ] || skip_all "must be run as root"
	grep -qw page_pool_create /proc/kallsyms 2>/dev/null ||
		skip_all "kernel has no page_pool (CONFIG_PAGE_POOL)"
	find_module
	grep -qs ' /sys/kernel/debug debugfs ' /proc/mounts ||
		mount -t debugfs none /sys/kernel/debug 2>/dev/null ||
		skip_all "debugfs is not mounted and cannot be"
fi
ktap_print_header
[ -n "$check_mode" ] || ktap_print_msg "modules: $source_desc"
[ -z "$params_from" ] || ktap_print_msg "parameters: $params$params_from"

loaded() {
	lsmod | grep -q "^$MODULE "
}

load_module() {	# params...
	if [ -n "$moddir" ]; then
		insmod "$moddir/$MODULE.ko" "$@"
	else
		modprobe "$MODULE" "$@"
	fi
}

kernel_log_since() {	# marker
	dmesg | sed -n "/$1/,\$p" | sed 1d
}

# The first number after the loads DIR holds already.
first_free_number() {	# dir
	find "$1" -maxdepth 1 -name 'load-*.results' | sed -n \
		's|.*/load-0*\([0-9][0-9]*\)\.results$|\1|p' | sort -n |
		awk '{ n = $1 } END { print n + 1 }'
}

# out of tree: which tasks ran beside a load, for a window check that
# failed on PREEMPT_RT
# Every task's CPU time, "PID TICKS COMM" a line (utime and stime of
# /proc/PID/stat, after the ")" that ends a name that may hold blanks).
task_times() {
	set +f
	cat /proc/[0-9]*/stat 2>/dev/null | awk '{
		e = length($0)
		while (e > 0 && substr($0, e, 1) != ")")
			e--
		s = index($0, "(")
		n = split(substr($0, e + 1), f, " ")
		if (s && e > s && n >= 13 && f[12] f[13] ~ /^[0-9]+$/)
			print $1, f[12] + f[13], substr($0, s + 1, e - s - 1)
	}'
	set -f
}

# The tasks that ran while load K did, most CPU time first, this
# script's own left out: who may have entered a test's windows.
tasks_beside_load() {	# k
	awk -v self=$$ 'NR == FNR { before[$1] = $2; next }
	$1 != self && $2 > before[$1] {
		name = $0
		sub(/^[0-9]+ [0-9]+ /, "", name)
		print $2 - before[$1], name " (pid " $1 ")"
	}' "$work/load.$1.tasks-before" "$work/load.$1.tasks-after" |
		sort -rn | head -n 5 |
		awk '{ t = $1; sub(/^[0-9]+ /, "")
			print "  " $0 ": " t " ticks" }'
}

# end of out of tree
if [ -z "$check_mode" ]; then
	! loaded || rmmod "$MODULE"
	marker="$MODULE kselftest $$ $(date +%s)"
	printf '%s\n' "$marker" >/dev/kmsg
	number=1
	[ -z "$outdir" ] || number=$(first_free_number "$outdir")
	k=0
	while [ $k -lt "$nloads" ]; do
		k=$((k + 1))
		name=$(printf 'load-%02d' "$number")
		number=$((number + 1))
		file=${outdir:-$work}/$name.results
		printf '%s\n' "$marker load $k" >/dev/kmsg
		# out of tree
		task_times >"$work/load.$k.tasks-before"
		# end of out of tree
		# shellcheck disable=SC2086 # module parameters, words
		load_module $params </dev/null >"$work/load.out" 2>&1
		rc=$?
		# out of tree
		task_times >"$work/load.$k.tasks-after"
		# end of out of tree
		if [ $rc = 0 ] &&
		   env_collect "$RESULTS" >"$file" 2>"$work/load.out"; then
			# out of tree
			[ -z "$e2e_prog" ] || join_e2e "$file"
			# end of out of tree
			set_load_status $k "$file"
			kept=
			[ -z "$outdir" ] || kept=", results in $file"
			ktap_print_msg "load $k of $nloads: done$kept"
		else
			rm -f "$file"
			set_load_path $k "$file"
			{
				printf 'loading failed (exit %s):\n' "$rc"
				cat "$work/load.out"
			} >"$work/load.$k.why"
			ktap_print_msg "load $k of $nloads: loading failed" \
				"(exit $rc)"
		fi
		kernel_log_since "$marker load $k" >"$work/load.$k.dmesg"
		[ -z "$outdir" ] ||
			cp "$work/load.$k.dmesg" "$outdir/$name.dmesg"
		if [ -z "$keep" ] || [ $k != "$nloads" ]; then
			! loaded || rmmod "$MODULE"
		fi
		# out of tree
		if [ -e "$work/load.$k.ok" ] &&
		   ! why=$(same_instrument "$file"); then
			printf '%s: %s\n' "$0" "$why" >&2
			ktap_exit_fail_msg "$why"
		fi
		# end of out of tree
	done
fi

# The current load: F its results file, U the unit of its figures, I
# its instrument, IDX its index (results_index), LABEL what its KTAP
# lines start with when there are several.
use_load() {	# k
	L=$1
	F=$(cat "$work/load.$1.path")
	F=${F%.}
	U=cycles I='' ACCEL='' CONFIG='' STATS='' IDX=$work/idx.$1
	if [ -e "$work/load.$1.ok" ]; then
		U=$(results_header "$F" clock)
		U=${U:-cycles}
		I=$(instrument_of "$F")
		ACCEL=$(results_header "$F" accel)
		# out of tree: -c reads the loops= of saved results
		PARAMS=$(results_header "$F" params)
		# end of out of tree
		CONFIG=$(results_header "$F" config)
		STATS=$(results_header "$F" page_pool_stats)
		mkdir "$IDX" &&
			results_index "$F" "$IDX" "$TEST_FIELDS" "$CPU_FIELDS"
	fi
	LABEL=
	[ "$nloads" = 1 ] || LABEL="load $1: "
}

# A test's fields, T_<field>, and T_kind "test" or "skip" (empty:
# neither line), from an index, read in the shell: a process a field
# would cost a guest more than the test's run.
test_fields() {	# index-dir test
	for t_field in kind $TEST_FIELDS; do
		eval "T_$t_field="
	done
	[ -f "$1/$2" ] || return 0
	exec 5<"$1/$2"
	for t_field in kind $TEST_FIELDS; do
		# a name of the list, never data: eval names a variable
		eval "IFS= read -r T_$t_field <&5"
	done
	exec 5<&-
}

# Whole numbers, small enough for the shell's arithmetic.
is_count() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	[ ${#1} -le 15 ]
}

compare() {	# a op b: decimals; false unless both are numbers
	results_is_number "$1" && results_is_number "$3" || return 1
	awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN {
		exit !(op == "<" ? a + 0 < b + 0 : a + 0 <= b + 0)
	}'
}

# Two numbers at most MARGIN apart.
within() {	# a b margin
	results_is_number "$1" && results_is_number "$2" &&
		awk -v a="$1" -v b="$2" -v m="$3" \
			'BEGIN { exit !(a - b <= m + 0 && b - a <= m + 0) }'
}

# A check's KTAP line: its description, the load's label first, and
# its figures, or a skip's reason.
pass() { ktap_test_pass "$LABEL$1" "${2:-}"; }
fail() { ktap_test_fail "$LABEL$1" "${2:-}"; }
skip() { ktap_test_skip "$LABEL$1" "$2"; }
result() {	# description figures command...
	r_desc=$1
	r_figures=$2
	shift 2
	if "$@"; then
		pass "$r_desc" "$r_figures"
	else
		fail "$r_desc" "$r_figures"
	fi
}

# The checks of a test, on its fields (test_fields), a KTAP line each.

# The test's own line: it reported every repetition of the loops asked
# (or sized by time), and its figures: the cheapest repetition's cost
# per element, the value bench-compare compares, and their spread.
check_test() {	# test
	if [ "$T_kind" = skip ]; then
		skip "$1" "${T_reason:-skipped}"
		return
	fi
	[ ! -f "$IDX/$1.lines" ] || ktap_print_lines <"$IDX/$1.lines"
	want=$loops_arg
	# out of tree: saved results give their loops=, and a scenario
	# sends e2e_packets a repetition
	[ "$T_wanted_context" != e2e ] || want=
	for word in $PARAMS; do
		case $T_wanted_context/$want/$word in
		e2e//e2e_packets=*) want=${word#e2e_packets=} ;;
		e2e/*) ;;
		*//loops=[0-9]*) want=${word#loops=} ;;
		esac
	done
	# end of out of tree
	[ -n "$want" ] || [ "$T_wanted_context" = e2e ] || want=$T_loops
	figures="value=${T_cycles_min:--} unit=$U instrument=$I stat=min"
	figures="$figures median=${T_cycles_median:--}"
	figures="$figures stddev=${T_cycles_stddev:--} max=${T_cycles_max:--}"
	[ "$U" = instructions ] || figures="$figures ns=${T_ns_min:--}"
	figures="$figures reps=${T_reps:--} loops=${T_invoke_count:--}"
	if is_count "$T_invoke_count" && is_count "$T_reps" &&
	   [ "$T_invoke_count" != 0 ] && [ "$T_invoke_count" = "$want" ] &&
	   [ "$T_total_invoke_count" = $((T_invoke_count * T_reps)) ] &&
	   results_is_number "$T_cycles_min"; then
		pass "$1" "$figures"
		return
	fi
	fail "$1" "$figures"
	ktap_print_msg "$1: invoke count ${T_invoke_count:-none}, want" \
		"${want:-?}, in each of ${T_reps:-?} repetitions" \
		"(${T_total_invoke_count:-none} in all)"
}

# Where it ran; a scenario's program counted every packet on the timed
# CPU (context e2e).
check_context() {	# test
	result "$1 context" "context=${T_context:--} want=$T_wanted_context" \
		test -n "$T_context" -a "$T_context" = "$T_wanted_context"
}

# The windows held the test's own work only: a timed chunk that other
# work entered (its task switched out, an interrupt, a softirq, an NMI
# or SMI, counted on its CPU around the window) is measured again, and
# counts only if it was so on every try (perturbed).  Under
# PREEMPT_LAZY and FULL the engine turns preemption off in
# process-context windows; under PREEMPT_RT it cannot, and the count
# tells.  What entered, by kind: of the chunks measured again
# (retried_entered), of those kept (perturbed_entered).
check_window() {	# test
	figures="perturbed=${T_perturbed_chunks:--} chunks=${T_chunks:--}"
	figures="$figures retried=${T_retried_chunks:--}"
	figures="$figures preemptible=${T_preemptible_chunks:--}"
	[ -z "$T_retried_entered" ] ||
		figures="$figures retried_entered=$T_retried_entered"
	[ -z "$T_perturbed_entered" ] ||
		figures="$figures perturbed_entered=$T_perturbed_entered"
	if [ -z "$T_perturbed_chunks$T_retried_chunks$T_preemptible_chunks" ]
	then
		skip "$1 windows unperturbed" "results without window counts"
		return
	fi
	if is_count "$T_perturbed_chunks" && is_count "$T_chunks" &&
	   is_count "$T_retried_chunks" && [ "$T_perturbed_chunks" = 0 ]; then
		pass "$1 windows unperturbed" "$figures"
		return
	fi
	fail "$1 windows unperturbed" "$figures"
	ktap_print_msg "$1: $T_perturbed_chunks of ${T_chunks:-?} timed" \
		"chunks in its figure held other work on each try:" \
		"${T_perturbed_entered:-not said (results without it)}"
	case ${T_perturbed_entered:-switch} in
	*switch*) ;;
	*) return ;;
	esac
	# out of tree
	if [ -n "$check_mode" ]; then
		ktap_print_msg "which tasks ran is not known from saved results"
	else
		ktap_print_msg "tasks that used CPU time during load $L:"
		tasks_beside_load "$L" | ktap_print_lines
	fi
	# end of out of tree
}

# The path the probe saw, and the pages the pool took from and gave
# back to the page allocator, against the bounds of the test's row.
check_path() {	# test
	got=${T_path:--}
	figures="path=$got accepted=${T_expect_path:--}"
	ok=1
	case ,$T_expect_path, in
	,,) ok= ;;
	,-,) [ "$got" = - ] || ok= ;;
	*,"$got",*) [ "$got" != - ] || ok= ;;
	*) ok= ;;
	esac
	max=${T_expect_allocated_max:--}
	if [ "$max" != - ]; then
		figures="$figures allocated=${T_pages_allocated:--}"
		figures="$figures allocated_max=$max"
		{ is_count "$max" && is_count "$T_pages_allocated" &&
		  [ "$T_pages_allocated" -le "$max" ]; } || ok=
	fi
	released=${T_expect_released:--}
	if [ "$released" != - ]; then
		figures="$figures released=${T_pages_released:--}"
		figures="$figures want_released=$released"
		{ is_count "$released" &&
		  [ "$T_pages_released" = "$released" ]; } || ok=
	fi
	result "$1 path" "$figures" test -n "$ok"
	[ -n "$T_expect_path" ] ||
		ktap_print_msg "$1: the results give no expect_path"
}

# page_pool's own counters over the timed repetitions: each sum of
# counters the row names has the value it gives.
check_stats() {	# test
	if [ "$STATS" != yes ]; then
		skip "$1 page_pool counters" \
			"kernel without CONFIG_PAGE_POOL_STATS"
		return
	fi
	spec=$T_expect_stats
	ok=1
	case $spec in
	'' | - | *[!a-z_+:,0-9]* | *[!0-9]) ok='' spec=- ;;
	esac
	figures=
	exec 4<"$IDX/$1.stats"
	IFS=,
	for term in ${spec#-}; do
		IFS=+
		sum=0
		for _ in ${term%%:*}; do
			read -r value <&4
			is_count "$value" || { sum=none ok=''; break; }
			sum=$((sum + value))
		done
		IFS=,
		[ "$sum" = "${term#*:}" ] || ok=
		figures="$figures${term%%:*}=$sum "
	done
	IFS=$IFS_DEFAULT
	exec 4<&-
	result "$1 page_pool counters" "${figures}want=$spec" test -n "$ok"
}

# A test of several CPUs: one allocates, at least one returns, and each
# side handled every page of the timed repetitions.
check_cpus() {	# test
	alloc=0 ret=0 allocated=0 returned=0 ok=1
	[ -f "$IDX/$1.cpu" ] || : >"$IDX/$1.cpu"
	while read -r role count; do
		is_count "$count" || ok=
		case $role/$ok in
		alloc/1)
			alloc=$((alloc + 1)) allocated=$((allocated + count)) ;;
		return/1) ret=$((ret + 1)) returned=$((returned + count)) ;;
		*) ok= ;;
		esac
	done <"$IDX/$1.cpu"
	total=${T_total_invoke_count:--}
	figures="alloc_cpus=$alloc return_cpus=$ret allocated=$allocated"
	result "$1 cpus" "$figures returned=$returned total=$total" \
		test -n "$ok" -a "$alloc" = 1 -a "$ret" -gt 0 -a \
		"$allocated" = "$total" -a "$returned" = "$total"
}

# Every check of a selected test, whether it ran or not (a skipped
# test's are skips): its row says which, so that the same selection has
# the same names on every run.  Its relations and twin come later.
check_selected() {	# test
	test_fields "$IDX" "$1"
	checks=context
	if [ -n "$T_perturbed_chunks" ] || [ "$T_wanted_context" != e2e ]; then
		checks="$checks window"
	fi
	checks="$checks path"
	case ${T_expect_path:--}/$T_wanted_context in
	-/* | */e2e) ;;
	*) checks="$checks stats" ;;
	esac
	if [ -f "$IDX/$1.cpu" ] ||
	   { is_count "$T_cpus" && [ "$T_cpus" -gt 1 ]; }; then
		checks="$checks cpus"
	fi
	check_test "$1"
	for check in $checks; do
		if [ "$T_kind" = test ]; then
			"check_$check" "$1"
			continue
		fi
		case $check in
		window) desc="$1 windows unperturbed" ;;
		stats) desc="$1 page_pool counters" ;;
		*) desc="$1 $check" ;;
		esac
		skip "$desc" "not run in this load${T_reason:+: $T_reason}"
	done
	IFS=,
	for b in ${T_cheaper_than:--}; do
		[ "$b" = - ] || printf '%s\n' "relation $1 $b" >>"$work/pairs"
	done
	IFS=$IFS_DEFAULT
	[ "${T_twin:--}" = - ] ||
		printf '%s\n' "twin $1 $T_twin" >>"$work/twins"
}

# Relations need an instrument that ranks paths: instruction counts,
# or a real CPU's cycles, cheapest repetition against cheapest (noise
# only adds); emulated cycles do not (6.12 under TCG: bulk 493.69
# against ptr_ring 416.85 cycles, 141.55 against 165.62 instructions).
# Lock debugging makes each lock cost thousands of cycles.
lock_debugging() {
	case " $CONFIG " in
	*" prove_locking=y "* | *" debug_lock_alloc=y "* | *" lock_stat=y "*)
		return 0 ;;
	esac
	return 1
}

# A re-measurement takes the cheapest of at least 5 repetitions (beside
# a kernel build the fast path cost more than the ptr_ring in 4 of 40
# single runs, in none of 40 loads of five): $ra and $rb, of a and b.
remeasure() {	# a b
	reps=5
	for param in $params; do
		case $param in
		reps=*) [ "${param#reps=}" -le "$reps" ] 2>/dev/null ||
			reps=${param#reps=} ;;
		esac
	done
	! loaded || rmmod "$MODULE"
	r_idx=$work/idx.remeasured
	rm -rf "$r_idx" && mkdir "$r_idx" || return
	# shellcheck disable=SC2086 # module parameters, words
	load_module $other_params "tests=$1,$2" "reps=$reps" \
		</dev/null >/dev/null 2>&1 &&
		results_index "$RESULTS" "$r_idx" "$TEST_FIELDS" "$CPU_FIELDS"
	test_fields "$r_idx" "$1"
	ra=$T_cycles_min
	test_fields "$r_idx" "$2"
	rb=$T_cycles_min
}

check_relation() {	# cheaper dearer
	desc="$1 cheaper than $2"
	test_fields "$IDX" "$1"
	ca=${T_cycles_min:--}
	kind=$T_kind
	test_fields "$IDX" "$2"
	cb=${T_cycles_min:--}
	figures="cheaper=$ca dearer=$cb unit=$U stat=min"
	if [ "$kind" != test ] || [ "$T_kind" != test ]; then
		skip "$desc" "not both run in this load"
	elif lock_debugging; then
		skip "$desc" "lock debugging distorts relative costs"
	elif [ "$U" = instructions ]; then
		result "$desc" "$figures" compare "$ca" "<" "$cb"
	elif [ "$ACCEL" = tcg ]; then
		skip "$desc" "emulated cycles do not rank paths"
	elif compare "$ca" "<" "$cb"; then
		pass "$desc" "$figures"
	# out of tree
	elif [ -n "$check_mode" ]; then
		fail "$desc" "$figures"
		ktap_print_msg "saved results are not measured again"
	# end of out of tree
	else
		# A busy machine can disturb a short run as a whole:
		# measure once more, in a load of its own with several
		# repetitions, and fail only if it fails again.
		remeasure "$1" "$2"
		figures="$figures remeasured_reps=$reps"
		figures="$figures remeasured_cheaper=${ra:--}"
		result "$desc" "$figures remeasured_dearer=${rb:--}" \
			compare "$ra" "<" "$rb"
	fi
}

# A test and its twin (its row's: the same code in another context
# when both take the same path) cost the same, counted in instructions:
# other work in one's windows makes them differ (7.2 with its crypto
# self-tests preempting the process context: 228.3 against 75.1).  Half
# an instruction: a load's cheapest repetitions of the two agreed
# within 0.06 on 6.12 and 7.2.
TWIN_MARGIN=0.5

check_twin() {	# test twin
	desc="$1 costs what $2 does"
	test_fields "$IDX" "$1"
	ma=${T_cycles_min:--}
	pa=${T_path:--}
	kind=$T_kind
	test_fields "$IDX" "$2"
	if [ "$kind" != test ] || [ "$T_kind" != test ]; then
		skip "$desc" "not both run in this load"
	elif [ "$U" != instructions ]; then
		skip "$desc" "only instruction counts resolve $TWIN_MARGIN"
	elif [ "$pa" != "${T_path:--}" ]; then
		skip "$desc" "the two took different paths ($pa, $T_path)"
	else
		figures="cost=$ma twin_cost=${T_cycles_min:--}"
		result "$desc" "$figures margin=$TWIN_MARGIN unit=$U" \
			within "$ma" "$T_cycles_min" "$TWIN_MARGIN"
	fi
}

check_threshold() {	# test limit
	test_fields "$IDX" "$1"
	if [ "$T_kind" != test ]; then
		skip "$1 median within limit" "not run in this load"
		return
	fi
	result "$1 median within limit" \
		"median=${T_cycles_median:--} limit=$2 unit=$U" \
		compare "$T_cycles_median" "<=" "$2"
}

# out of tree
# The gate: the cheapest repetition, the per-load value bench-compare
# uses, exceeds the baseline's by at most pct percent; a gate that
# judged nothing fails.
check_gate() {
	common=0
	total=0
	while read -r name; do
		test_fields "$IDX" "$name"
		[ "$T_kind" = test ] || continue
		total=$((total + 1))
		[ ! -f "$work/idx.baseline/$name" ] || common=$((common + 1))
	done <"$work/load.$L.tests"
	result "baseline covers the tests run" \
		"in_baseline=$common run=$total" test "$common" -gt 0
	while read -r name; do
		test_fields "$work/idx.baseline" "$name"
		base=$T_cycles_min
		test_fields "$IDX" "$name"
		if [ "$T_kind" != test ]; then
			skip "$name within the gate" \
				"not run in this load${T_reason:+: $T_reason}"
			continue
		fi
		if [ -z "$base" ]; then
			skip "$name within the gate" "not in the baseline"
			continue
		fi
		set -- - -
		if results_is_number "$T_cycles_min" &&
		   results_is_number "$base"; then
			# shellcheck disable=SC2046 # two numbers
			set -- $(awk -v v="$T_cycles_min" -v b="$base" \
				-v p="$pct" 'BEGIN {
				rise = b > 0 ? (v - b) * 100 / b : 0
				printf "%+.2f %.6f\n", rise, b * (1 + p / 100)
			}')
		fi
		figures="value=${T_cycles_min:--} baseline=$base rise_pct=$1"
		figures="$figures margin_pct=$pct unit=$U"
		result "$name within the gate" "$figures" \
			compare "$T_cycles_min" "<=" "$2"
	done <"$work/load.$L.tests"
}

# end of out of tree
# Load K's checks: whole, then every selected test's, the relations and
# twins between selected tests, the limits.
check_load() {	# k
	use_load "$1"
	desc="$MODULE loads"
	[ -z "$check_mode" ] || desc="results file is whole"
	# out of tree
	if [ -e "$work/load.$L.name" ]; then
		# a path may hold any byte, a newline too: one line
		shown=$(cat "$work/load.$L.name")
		printf '# file: %s\n' "$(__ktap_text "${shown%.}")"
	fi
	# end of out of tree
	if [ ! -e "$work/load.$L.ok" ]; then
		fail "$desc"
		ktap_print_lines <"$work/load.$L.why"
		[ ! -r "$work/load.$L.dmesg" ] ||
			ktap_print_lines <"$work/load.$L.dmesg"
		return
	fi
	kernel=$(results_header "$F" kernel | tr -c 'A-Za-z0-9._+~\n-' _)
	end=$(results_header "$F" end)
	pass "$desc" "kernel=$kernel instrument=$I unit=$U $end"
	grep -E -e '^(kernel|cpu_model|clock|accel|page_pool_stats): ' \
		-e '^(config|runtime|platform|mitigations|params): ' "$F" |
		ktap_print_lines
	: >"$work/pairs"
	: >"$work/twins"
	while read -r name <&3; do
		check_selected "$name"
	done 3<"$work/load.$L.tests"
	# out of tree
	[ -z "$relations" ] || sed 's/^/relation /' "$work/relations" \
		>"$work/pairs"
	# end of out of tree
	cat "$work/pairs" "$work/twins" >"$work/between"
	while read -r check a b <&3; do
		if [ -n "$relations" ] && [ "$check" = relation ] ||
		   grep -qxF "$b" "$work/load.$L.tests"; then
			"check_$check" "$a" "$b"
		fi
	done 3<"$work/between"
	if [ -n "$thresholds" ]; then
		while read -r name limit <&3; do
			check_threshold "$name" "$limit"
		done 3<"$work/thresholds"
	fi
	# out of tree
	[ -z "$baseline" ] || check_gate
	# end of out of tree
}

k=0
while [ $k -lt "$nloads" ]; do
	k=$((k + 1))
	check_load $k
done
if [ -z "$check_mode" ]; then
	if kernel_log_since "$marker" | grep -Eq -f "$HERE/splat_patterns"
	then
		ktap_test_fail "no kernel warning during the run"
		kernel_log_since "$marker" | ktap_print_lines
	else
		ktap_test_pass "no kernel warning during the run"
	fi
	[ -n "$keep" ] || ! loaded || rmmod "$MODULE"
fi
ktap_finished
