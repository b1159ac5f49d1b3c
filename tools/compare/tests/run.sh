#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of bench-compare, printing KTAP (../../../ktap_lib.sh): its unit
# tests as a subtest, then end-to-end cases on the inputs in data/
# (grouping into loads, parsers, verdicts, output formats, exit status).
#
#   sh tests/run.sh BENCH_COMPARE UNIT_TEST FUZZ
#
# The plan is counted before anything runs: every function named in
# TESTS reports exactly one result, and so does every line of
# error_cases; ktap_finished fails if that count was wrong.  The cases
# live by area in the files sourced below; TESTS is their plan.

# The test functions are called through $TESTS and error_cases' $1.
# shellcheck disable=SC2317

[ $# -eq 3 ] || { echo "usage: $0 BENCH_COMPARE UNIT_TEST FUZZ" >&2; exit 2; }
abspath() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$(pwd)/$1" ;;
	esac
}
BIN=$(abspath "$1")
UNIT=$(abspath "$2")
FUZZ=$(abspath "$3")
cd "$(dirname "$0")" || exit 2
# shellcheck source=../../../ktap_lib.sh
. ../../../ktap_lib.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

B1=data/before_f1.txt
A1=data/after_f1.txt
B2=data/before_f2.txt
A2=data/after_f2.txt
AB=data/ab_before.txt
AA=data/ab_after.txt
DO=data/dmesg_overhead.log
E=data/legacy_err.log
R=data/results_err.txt
FAST=tasklet_page_pool01_fast_path

# The helpers, then the cases by area: each t_* reports one result.
for r_part in helpers errors cases-loads cases-formats cases-machine \
	cases-boots; do
	# shellcheck source=/dev/null
	. "./$r_part.sh"
done

TESTS="t_unit t_golden t_option_forms t_text_header t_org_valid t_md_rule
t_loads_results t_loads_dmesg_overhead t_loads_dmesg_repeat t_loads_files
t_loads_mixed t_ignored_lines t_need_loads t_change_noise t_env t_env_many
t_precision
t_fail_above t_fail_above_within t_gate_nothing t_half_units t_no_overflow
t_level t_alpha_edges t_load_stat t_plot t_plot_hostile
t_plot_cannot t_plot_many t_formats_1 t_legacy_cut t_format3
t_all_legacy_errors t_format3_quiet t_many_errors t_binary t_stdin_twice
t_empty_stdin t_help t_nothing_common t_fuzz_detects t_instructions
t_plot_instructions t_dir_side t_env_new_lines t_upstream_dmesg
t_upstream_script t_seed_org t_org_formula t_json t_cell_escape t_json_hostile
t_format4 t_profile_ignored t_profile_ab t_profile_aa t_profile_one_side
t_profile_json t_line_limit t_dev_zero t_read_error t_ns_some_loads
t_ns_some_loads_gate t_ns_some_loads_json t_kcidb t_check
t_boots_verdict t_boots_split t_boots_one t_boots_each_own
t_boots_instructions t_figure"

nr_errors=0
error_cases count_case
nr_tests=0
for t in $TESTS; do
	nr_tests=$((nr_tests + 1))
done

ktap_print_header
ktap_set_plan $((nr_tests + nr_errors))
for t in $TESTS; do
	"$t"
done
error_cases expect_error
ktap_finished
