# SPDX-License-Identifier: GPL-2.0
#
# wrapper_test.sh's part on env_lib.sh and results_lib.sh, sourced by
# it: env_lines and env_collect on a machine of fixtures under sh, bash
# and busybox; results_lib's readers and its check of a whole block.

# A machine of fixtures: ROOT/proc and ROOT/sys as env_lines reads them.
fake=$dir/machine
fake_cpu=$fake/sys/devices/system/cpu
fake_put() {	# path (under fake_cpu, or /proc/...) text
	case $1 in
	/*) f=$fake$1 ;;
	*) f=$fake_cpu/$1 ;;
	esac
	mkdir -p "${f%/*}" && printf '%s' "$2" >"$f" || exit 1
}
fake_put /proc/cmdline ' console=ttyS0  a=\c b=%s\n
'
fake_put cpu0/cpufreq/scaling_governor 'performance
'
fake_put cpu1/cpufreq/scaling_governor 'performance
'
fake_put cpu0/cpufreq/boost '1
'
fake_put cpu1/cpufreq/boost '1
'
fake_put smt/control 'on
'
fake_put vulnerabilities/spectre_v2 'Mitigation: Retpolines; STIBP: disabled
second line'
fake_put vulnerabilities/Zeta 'Not affected
'
fake_put vulnerabilities/meltdown 'Not affected
'
fake_put vulnerabilities/empty ''
fake_put /proc/sys/kernel/random/boot_id '0f3c8a2e-71d4-4b9e-a5c6-9d2e8f1b7c40
'
env_want='platform: cpufreq_governor=performance boost=1 smt=on
mitigations: Zeta=Not_affected empty=unreadable meltdown=Not_affected spectre_v2=Mitigation:_Retpolines;_STIBP:_disabled
cmdline: console=ttyS0  a=\c b=%s\n
boot_id: 0f3c8a2e-71d4-4b9e-a5c6-9d2e8f1b7c40'
for UNDER in sh bash busybox; do
	if [ $UNDER = busybox ] && ! command -v busybox >/dev/null; then
		ktap_test_skip "$UNDER: env_lib.sh" "no busybox"
		continue
	fi
	env_sh() {	# script args...
		e_script=$1
		shift
		case $UNDER in
		busybox) PATH=$dir/busybox:$PATH busybox sh -c \
			". \"\$0\"; $e_script" "$dir/env_lib.sh" "$@" ;;
		*) "$UNDER" -c ". \"\$0\"; $e_script" "$dir/env_lib.sh" "$@" ;;
		esac
	}
	is "$UNDER: env_lines: each CPU's governor and boost, tokens sorted in C order, the command line as it is" \
		"$env_want" env_sh 'env_lines "$1"' "$fake"
	is "$UNDER: env_lines: the same under set -f, as the wrapper runs" \
		"$env_want" env_sh 'set -f; env_lines "$1"' "$fake"
	fake_put cpu1/cpufreq/scaling_governor 'powersave'
	fake_put intel_pstate/no_turbo '1'
	is "$UNDER: env_lines: CPUs that differ are mixed, intel_pstate's no_turbo is inverted" \
		"platform: cpufreq_governor=mixed boost=0 smt=on" \
		env_sh 'env_lines "$1" | sed -n 1p' "$fake"
	fake_put cpufreq/boost '1'
	is "$UNDER: env_lines: cpufreq's global boost comes first" \
		"platform: cpufreq_governor=mixed boost=1 smt=on" \
		env_sh 'env_lines "$1" | sed -n 1p' "$fake"
	rm -rf "$fake_cpu/cpufreq" "$fake_cpu/intel_pstate"
	fake_put cpu1/cpufreq/scaling_governor 'performance'
	is "$UNDER: env_lines: an empty root has none of them" \
		"platform: cpufreq_governor=none boost=none smt=none
mitigations: none
cmdline: unavailable
boot_id: unavailable" env_sh 'env_lines "$1"' "$dir/nothing"
	fake_put /proc/sys/kernel/random/boot_id '0F3C8A2E-71D4-4B9E-A5C6-9D2E8F1B7C40
'
	is "$UNDER: env_lines: a boot_id not as the kernel writes it is unavailable" \
		"boot_id: unavailable" \
		env_sh 'env_lines "$1" | sed -n 4p' "$fake"
	fake_put /proc/sys/kernel/random/boot_id '0f3c8a2e-71d4-4b9e-a5c6-9d2e8f1b7c40
'
	is "$UNDER: env_collect: the lines after runtime:, the rest as it was" \
		"format: bench_page_pool_simple 3
runtime: online_cpus=1
$env_want
params: loops=-
end: tests=0 skips=0" env_sh 'printf "%s\n" "format: bench_page_pool_simple 3" \
			"runtime: online_cpus=1" "params: loops=-" \
			"end: tests=0 skips=0" >"$2/m.results" &&
		env_collect "$2/m.results" "$1"' "$fake" "$dir"
	is "$UNDER: env_collect: a file it cannot read fails" "failed" \
		env_sh 'env_collect "$2/nosuch" "$1" 2>/dev/null || echo failed' \
		"$fake" "$dir"
done
UNDER=sh

# --- results_lib.sh -----------------------------------------------------

two=$(file two.results "format: bench_page_pool_simple 3" \
	"kernel:   6.12 x" "clock: instructions" \
	"selected: a.b,c-d" \
	"test: name=a.b cycles=1 cycles_min=2.50 path=ring" \
	"skip: name=c-d run_flags_bit=3 wanted_context=napi reason=needs 2 online CPUs, 1 online" \
	"cpu: name=a.b cpu=0 role=alloc invoke_count=7" \
	"cpu: name=a.b cpu=1 role=return" \
	"format: bench_page_pool_simple 3" "kernel: second" \
	"test: name=x cycles=9")
printf 'format: bench_page_pool_simple 2\r\nkernel: crlf\r\n' >"$dir/crlf.results"
is "results_header: a KEY: line's value, leading blanks dropped" "6.12 x" \
	results_header "$two" kernel
is "results_header: CR of CRLF files dropped" "crlf" \
	results_header "$dir/crlf.results" kernel
is "results_header: a missing key is empty" "" results_header "$two" accel
is "results_tests: the selected: names, one a line" "a.b
c-d" results_tests "$two"
is "results_field: a test: line's field, not one it prefixes" "1" \
	results_field "$two" a.b cycles
is "results_field: names are strings, not patterns (a.b is not axb)" "" \
	results_field "$two" axb cycles
is "results_field: the first block only" "" results_field "$two" x cycles
is "results_field: a skip: line's reason keeps its spaces" \
	"needs 2 online CPUs, 1 online" results_field "$two" c-d reason
is "results_fields: several, one a line, an empty line when missing" "2.50

ring" results_fields "$two" a.b cycles_min nosuch path
is "results_ran: a test: line, not a skip: line" "yes no" \
	sh -c '. "$1"; results_ran "$2" a.b && a=yes || a=no
		results_ran "$2" c-d && b=yes || b=no; printf "%s\n" "$a $b"' sh \
	"$TOP/results_lib.sh" "$two"
is "results_cpu_field: per cpu: line, - when missing" "alloc 7
return -" results_cpu_field "$two" a.b role invoke_count
is "results_rows: per test: line, ? when missing" "a.b 2.50 ?" \
	results_rows "$two" cycles_min nosuch
idx=$dir/idx
sed 's/a\.b/a_b/' "$two" >"$dir/index.results" &&
	mkdir "$idx" && results_index "$dir/index.results" "$idx" \
		"cycles_min path reason" "role" || exit 1
is "results_index: a test's kind and fields, a skip's reason, its cpu: lines" \
	"test 2.50 ring | skip needs 2 online CPUs, 1 online | alloc return" \
	eval 'printf "%s | %s | %s\n" "$(tr "\n" " " <"$idx/a_b" | sed "s/ *$//")" \
		"$(head -n 1 "$idx/c-d") $(tail -n 1 "$idx/c-d")" \
		"$(tr "\n" " " <"$idx/a_b.cpu" | sed "s/ $//")"'
numbers=
for v in 12 79.06 0 1e9 1e9x -5 .5 5. 1.2.3 "" "1 2" 0x10; do
	results_is_number "$v" && numbers="$numbers $v"
done
is "results_is_number: plain decimals only" " 12 79.06 0" printf '%s\n' "$numbers"
is "results_whole: a whole block of format 3" "" results_whole "$ICOUNT"
cut=$(variant cut.results '/^end:/d')
is "results_whole: without end: it is cut" \
	"$cut:36: no end: line: the block is cut" results_whole "$cut"
short=$(variant short.results '/name=lock /d')
is "results_whole: an end: line that disagrees" \
	"$short:36: the end: line disagrees with the block (tests=19 skips=1)" \
	results_whole "$short"
cat "$ICOUNT" "$ICOUNT" >"$dir/twice.results"
is "results_whole: one block only" \
	"$dir/twice.results:38: a second results block: one load is read here" \
	results_whole "$dir/twice.results"
is "results_whole: format 2 is not what the checks read" \
	"$DATA/format2.results:1: not a results file of format 3 of bench_page_pool_simple" \
	results_whole "$DATA/format2.results"
noname=$(variant noname.results 's/^test: name=lock /test: lock /')
is "results_whole: a test: line without name= first" \
	"$noname:18: test: line without name=TEST first" results_whole "$noname"
nofield=$(variant nofield.results '/name=lock /s/ path=- / /')
is "results_whole: a test: line without a field format 3 always has" \
	"$nofield:18: test: lock has no path= (cut short?)" results_whole "$nofield"
is "results_check: bench-compare --check's first complaint, without its name" \
	"$cut:1: results block cut short: no end: line" results_check "$cut"
is "results_check_load: one block" \
	"$dir/twice.results:38: a second results block: this reader takes one load" \
	results_check_load "$dir/twice.results"
is "results_blocks, results_split: two blocks, each as it was" "2 2" \
	eval 'printf "%s %s" "$(results_blocks "$dir/twice.results")" \
		"$(results_split "$dir/twice.results" "$dir/block.")"
		cmp -s "$dir/block.1" "$ICOUNT" && cmp -s "$dir/block.2" "$ICOUNT" ||
		printf " not the blocks"'
