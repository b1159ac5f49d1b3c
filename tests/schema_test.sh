#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/results/schema.py on copies of the project's files: the
# generated parts found stale and written, the documentation's order
# checked, a schema that does not parse refused at its line, and the
# writers' lines checked field by field against a schema of its own.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/ktap_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
out=$dir/out

# A tree of the files the tool reads and writes, under ROOT.
tree() {	# root
	mkdir -p "$1/tools/compare" "$1/tools/results" "$1/tools/e2e" "$1/doc" || exit 1
	for f in results.schema results_lib.sh tools/results/schema.py \
		 tools/compare/results_fields.h doc/output.rst \
		 test_bench_page_pool.sh tools/compare/results.c \
		 tools/e2e/expect.py tools/results/results.py; do
		cp "$TOP/$f" "$1/$f" || exit 1
	done
}

# The tool in ROOT exits with STATUS and prints a line matching PATTERN.
expect() {	# description root status pattern args...
	desc=$1 root=$2 want=$3 pattern=$4
	shift 4
	python3 "$root/tools/results/schema.py" "$@" >"$out" 2>&1
	got=$?
	if [ "$got" = "$want" ] && grep -Eq -- "$pattern" "$out"; then
		ktap_test_pass "$desc"
	else
		ktap_print_msg "exit $got, want $want and a line matching '$pattern'; output:"
		sed 's/^/#   /' "$out"
		ktap_test_fail "$desc"
	fi
}

ktap_print_header

a=$dir/a
tree "$a"
expect "check-sources: the project's files agree with results.schema" \
	"$a" 0 'agree with it' check-sources
# total_invoke_count no longer required: both generated parts are stale
sed -i 's/^\(test\ttotal_invoke_count\t*uint\t*\)required$/\1always/' \
	"$a/results.schema"
expect "check-sources: results_lib.sh's block stale after a schema change" \
	"$a" 1 'results_lib.sh: its generated block differs' check-sources
grep -q 'results_fields.h: differs' "$out"
ktap_test_result "check-sources: tools/compare/results_fields.h stale too" \
	test $? = 0
expect "write: both parts written" "$a" 0 'wrote tools/compare/results_fields.h' write
expect "check-sources: current again" "$a" 0 'agree with it' check-sources
grep -q 'F_TOTAL_INVOKE_COUNT' "$a/tools/compare/results_fields.h" ||
	grep -q "total_invoke_count" "$a/results_lib.sh"
ktap_test_result "write: the field left the generated lists" test $? = 1
# the documented test: line with two fields swapped
sed -i '/^   test: name=</s/ cpu=<n> cpu_moves=<n> / cpu_moves=<n> cpu=<n> /' \
	"$a/doc/output.rst"
expect "check-sources: doc/output.rst's test: line out of order" "$a" 1 \
	'doc/output.rst:[0-9]+: test: lists .* cpu_moves cpu ' check-sources
sed -i '/^   test: name=</s/ cpu_moves=<n> cpu=<n> / cpu=<n> cpu_moves=<n> /' \
	"$a/doc/output.rst"
# the format block's cmdline: line dropped
sed -i '/^   cmdline: </d' "$a/doc/output.rst"
expect "check-sources: doc/output.rst's format block without cmdline:" "$a" 1 \
	"doc/output.rst:[0-9]+: the format block's lines are .* mitigations boot_id params " check-sources
sed -i '/^   mitigations: </a\   cmdline: <the kernel command line, or "unavailable">' "$a/doc/output.rst"
# the format block's boot_id: line dropped
sed -i '/^   boot_id: </d' "$a/doc/output.rst"
expect "check-sources: doc/output.rst's format block without boot_id:" "$a" 1 \
	"doc/output.rst:[0-9]+: the format block's lines are .* mitigations cmdline params " check-sources
# readers that name what the schema lacks
r=$dir/r
tree "$r"
printf '%s\n' 'x=$(results_fields "$F" "$t" path \' '	nosuch_field)' \
	>>"$r/test_bench_page_pool.sh"
expect "check-sources: a reader's field the schema lacks, at its line" "$r" 1 \
	'^test_bench_page_pool.sh:[0-9]+: results_fields nosuch_field: not in results.schema$' \
	check-sources
r2=$dir/r2
tree "$r2"
sed -i 's/ cpus reason"$/ cpus colour reason"/' "$r2/test_bench_page_pool.sh"
sed -i 's/{ "clock", HDR_CLOCK }/{ "clock", HDR_TEXT }/' "$r2/tools/compare/results.c"
expect "check-sources: the wrapper's TEST_FIELDS with a field the schema lacks" "$r2" 1 \
	'^test_bench_page_pool.sh: TEST_FIELDS colour: not in results.schema$' check-sources
grep -q '^tools/compare/results.c: clock read as HDR_TEXT; results.schema: clock$' "$out"
ktap_test_result "check-sources: bench-compare reading clock: as text" test $? = 0
printf 'test\tx\tuint\tsometimes\n' >>"$a/results.schema"
expect "a schema line that does not parse: FILE:LINE, exit 2" "$a" 2 \
	'results.schema:[0-9]+: presence sometimes: accepted' check-sources

# The writers' check, against a small schema of its own.
b=$dir/b
tree "$b"
cat >"$b/results.schema" <<'EOF'
line	format		format		required
line	clock		clock		required
line	platform	words		collected
line	cmdline		text		collected
line	boot_id		uuid_or_unavailable	collected
line	selected	names		always
line	end		end		required
test	name		name		required
test	context		word		required
test	loops		uint		required
test	cycles_min	milli2		always
test	retried		uint		module
test	pmu		dash		nopmu
test	ipc		milli2		pmu
test	alloc_fast	uint		stats
test	alloc_slow	uint		stats
test	other_ns	uint		e2e
test	pp_refills	uint		e2e_path
test	twin		name_or_dash	module
skip	name		name		required
skip	reason		text		required
cpu	name		name		required
cpu	role		word		always
failed	name		name		e2e
failed	reason		text		e2e
EOF
good=$dir/good.results
printf '%s\n' 'format: bench_page_pool_simple 3' 'clock: instructions' \
	'platform: boost=none' 'cmdline: console=ttyS0 a=\c' \
	'boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21' 'selected: t1,t2,e,t3,f' \
	'test: name=t1 context=softirq loops=7 cycles_min=3.00 retried=0 pmu=- twin=-' \
	'test: name=t2 context=napi loops=7 cycles_min=3.00 retried=0 ipc=1.25 alloc_fast=1 alloc_slow=2 twin=t1' \
	'test: name=e context=e2e loops=5 cycles_min=9.50 pmu=- other_ns=4 pp_refills=3' \
	'skip: name=t3 reason=needs 2 online CPUs, 1 online' \
	'cpu: name=t2 role=alloc' 'failed: name=f reason=no packet came' \
	'end: tests=3 skips=1' >"$good"
sed 's/^boot_id: .*/boot_id: unavailable/' "$good" >"$dir/noboot.results" || exit 1
expect "check: boot_id: unavailable, where the collector could not read it" "$b" 0 \
	'follow it' check "$dir/noboot.results"
expect "check: the module's and bench-e2e's lines that follow it" "$b" 0 \
	'^results.schema: 1 blocks of 1 files follow it, 6 test:, skip:, cpu: and failed: lines \(4 of the module, 2 of tools/e2e\)$' check "$good"
n=0
for bad in 's/ twin=t1//;no twin= .the module always writes it.' \
	   's/ loops=7 cycles_min=3.00 retried/ cycles_min=3.00 loops=7 retried/;loops out of results.schema.s order' \
	   's/cycles_min=9.50/cycles_min=9.5/;cycles_min=9.5 is no milli2' \
	   's/ alloc_slow=2//;stats fields: alloc_fast of alloc_fast alloc_slow' \
	   's/ ipc=1.25//;expected pmu=- or the PMU.s fields' \
	   's/ pmu=- other_ns=4 / retried=1 pmu=- other_ns=4 /;retried= is not the e2e.s to write' \
	   's/ retried=0 pmu=- twin=-/ retried=0 pmu=- pp_refills=1 twin=-/;pp_refills= is not the module.s to write' \
	   's/ twin=-/ twin=- colour=red/;colour is not a test: field' \
	   's/ loops=7 / loops=7 loops=7 /;loops given twice' \
	   's/^skip: name=t3 reason=.*/skip: name=t3/;no reason=' \
	   's/^failed: name=f reason=.*/failed: name=f/;no reason=' \
	   '/^clock:/d;no clock: line' \
	   's/^clock: instructions/clock: ticks/;clock: ticks is no clock' \
	   '/^cmdline:/d;collected lines: platform boot_id of platform cmdline boot_id' \
	   '/^boot_id:/d;collected lines: platform cmdline of platform cmdline boot_id' \
	   's/^boot_id: .*/boot_id: 2B5E0F8C-6F2E-4C61-9A3E-7D1B4F0C9E21/;boot_id: 2B5E0F8C-6F2E-4C61-9A3E-7D1B4F0C9E21 is no uuid_or_unavailable' \
	   's/^boot_id: .*/boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e2/;boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e2 is no uuid_or_unavailable' \
	   's/^selected:/colour: red\nselected:/;colour: is not a line of results.schema' \
	   '/^format:/a selected: t1;clock: out of results.schema.s order' \
	   '/^cpu:/a a stray line;not a "KEY: value" line'; do
	n=$((n + 1))
	sed "${bad%%;*}" "$good" >"$dir/bad$n.results" || exit 1
	expect "check: refused at its line: ${bad#*;}" "$b" 1 \
		"bad$n.results:[0-9]+: ${bad#*;}" check "$dir/bad$n.results"
done
printf 'format: bench_page_pool_simple 3\n' >"$dir/empty.results"
expect "check: a file without a line to check fails" "$b" 1 \
	'no block with a test:, skip:, cpu: or failed: line' check "$dir/empty.results"
expect "usage: check without files, exit 2" "$b" 2 'results/schema.py write' check
# coverage: what no writer wrote, given the files of every writer
expect "coverage: every line and field declared is in a file" "$b" 0 \
	'^results.schema: every line and field it declares is in the 1 files given$' \
	coverage "$good"
sed '/context=e2e/d' "$good" >"$dir/no-e2e.results" || exit 1
expect "coverage: the scenario's fields in none of the files" "$b" 1 \
	'^results.schema: test: other_ns= \(e2e\) is in none of the files given$' \
	coverage "$dir/no-e2e.results"
expect "usage: coverage without files, exit 2" "$b" 2 'results/schema.py coverage' coverage

ktap_finished
