#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One grammar for results files: every reader gives the same verdict on
# the same file.  The strict reader is bench-compare's (--check); the
# shell's results_check (results_lib.sh) and the kselftest wrapper's -c
# read saved files through it; the Python tools' tools/results/results.py reads
# them on its own, and must agree (formats 1 and 2 it leaves to
# bench-compare, saying so).  A corpus of files, each a hand-written
# results file of tests/wrapper_data with one change (e2e.results: make
# run E2E=1 ICOUNT=1 of 6.12, with the end-to-end scenarios' rows), goes
# through bench-compare, through results_check under each shell the
# tests run in (sh, which is dash on Debian, bash, and busybox with its
# own awk, as in a guest) and through the wrapper's -c under sh: a bad
# file is refused by all, naming the same FILE:LINE; a good one is read
# by all (the wrapper, whose checks need format 3, refuses a block of
# format 1 or 2, saying so).  The wrapper's own lines under bash and
# busybox, -c of whole files and hostile ones among them, are
# tests/wrapper_test.sh's.  Prints KTAP.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
DATA=$TOP/tests/wrapper_data
COMPARE=$TOP/tools/compare/bench-compare
BENCH_COMPARE=$COMPARE
export BENCH_COMPARE
. "$TOP/ktap_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
[ -x "$COMPARE" ] || make -s -C "$TOP/tools/compare" >&2 || exit 1
SHELLS="sh bash"
if command -v busybox >/dev/null; then
	SHELLS="$SHELLS busybox"
	mkdir "$dir/busybox" || exit 1
	for tool in sh awk sed grep tr cat wc mktemp rm mkdir cp env find \
		sort tail; do
		ln -s "$(command -v busybox)" "$dir/busybox/$tool" || exit 1
	done
fi

# The data: tests/wrapper_data's files, and "small", icount's block cut
# to its first test (small2 format2's), for the good cases that are not about a whole
# file: the wrapper runs every check of a good file under sh, which
# takes seconds for the 20 tests of a whole one.
mkdir "$dir/data" || exit 1
cp "$DATA"/*.results "$dir/data/" || exit 1
LC_ALL=C awk '/^test: / && !t { t = $0 } /^selected: / { print "selected: for_loop"; next }
	/^(test|skip|cpu):/ { next } /^end: / { print t; print "end: tests=1 skips=0"; next }
	{ print }' "$DATA/icount.results" >"$dir/data/small.results" || exit 1
# and small2, format2's cut to its first test (format 2 has no end:)
LC_ALL=C awk '/^selected: / { print "selected: for_loop"; next }
	/^test: / && !t { t = 1; print; next } /^(test|skip|cpu):/ { next }
	{ print }' "$DATA/format2.results" >"$dir/data/small2.results" || exit 1

# and prof, small made format 4: a profile of its test, two functions
LC_ALL=C awk 'NR == 1 { sub(/3$/, "4") } /^end: / {
	print "profile: l1i=32768:8 l1d=49152:12 llc=1310720:20 line=64"
	print "prof: name=for_loop windows=2 insns=3.003 loads=1.000 stores=0.500 atomics=0.000 l1i_miss=0.002 l1d_miss=0.001 llc_miss=0.000"
	print "prof_fn: name=for_loop fn=bench_for_loop[bench_page_pool_simple] insns=2.002 loads=1.000 stores=0.500 atomics=0.000 l1i_miss=0.001 l1d_miss=0.001 llc_miss=0.000"
	print "prof_fn: name=for_loop fn=time_bench_loop.cold insns=1.001 loads=0.000 stores=0.000 atomics=0.000 l1i_miss=0.001 l1d_miss=0.000 llc_miss=0.000"
} { print }' "$dir/data/small.results" >"$dir/data/prof.results" || exit 1

# COMMAND under shell UNDER; busybox with its own tools first in PATH.
under() {	# shell command...
	u_sh=$1
	shift
	case $u_sh in
	busybox) PATH=$dir/busybox:$PATH busybox sh "$@" ;;
	*) "$u_sh" "$@" ;;
	esac
}

# The cases: NAME, the data file, and an awk program that writes the
# changed file (FIRST is true on the first test: line).
CASES='
bad	duplicate-test	icount	FIRST { print } { print }
bad	duplicate-test	format2	FIRST { print } { print }
bad	duplicate-key	icount	FIRST { print $0 " cycles=1"; next } { print }
bad	duplicate-key	format2	FIRST { print $0 " cycles=1"; next } { print }
bad	indented-test	icount	FIRST { print "  " $0; next } { print }
bad	indented-test	format2	FIRST { print "  " $0; next } { print }
bad	indented-header	icount	NR == 2 { print "\t" $0; next } { print }
bad	text-in-block	icount	FIRST { print "hello world" } { print }
bad	text-in-block	format2	FIRST { print "hello world" } { print }
bad	log-line-in-block	icount	FIRST { print "[    1.0] time_bench: Type:for_loop Per elem: 3 cycles(tsc) 1.0 ns (step:0)" } { print }
bad	line-after-end	icount	{ print } END { print "kernel: x" }
bad	test-line-lost	icount	FIRST { next } { print }
bad	not-a-field	icount	FIRST { print $0 " novalue"; next } { print }
bad	c1-control	icount	NR == 2 { print $0 "\302\233"; next } { print }
bad	not-utf8	icount	NR == 2 { print $0 "\377"; next } { print }
bad	control-char	icount	NR == 2 { print $0 "\033[2J"; next } { print }
bad	bidi-override	icount	NR == 2 { print $0 "\342\200\256"; next } { print }
bad	line-separator	icount	NR == 3 { print $0 "\342\200\250x"; next } { print }
bad	bidi-isolate	format2	NR == 2 { print $0 "\342\201\246"; next } { print }
bad	byte-order-mark	icount	NR == 2 { print $0 "\357\273\277"; next } { print }
bad	arabic-letter-mark	icount	NR == 2 { print $0 "\330\234"; next } { print }
bad	control-in-unknown-key	small	NR == 3 { print "later_key: a\001b" } { print }
bad	escape-in-unknown-key	small	NR == 3 { print "later_key: \033[2J" } { print }
bad	c1-in-unknown-key	small	NR == 3 { print "later_key: \302\233" } { print }
bad	bidi-in-unknown-key	small	NR == 3 { print "later_key: a\342\200\256b" } { print }
bad	key-without-blank	small	NR == 2 { sub(/: /, ":") } { print }
bad	test-key-without-blank	small	FIRST { sub(/: /, ":") } { print }
bad	format-key-without-blank	small	NR == 1 { sub(/: /, ":") } { print }
bad	unknown-key-without-blank	small	NR == 3 { print "later_key:x" } { print }
bad	name-with-dot	small	FIRST { sub(/name=for_loop/, "name=for.loop") } { print }
bad	name-with-bar	small	FIRST { sub(/name=for_loop/, "name=for|loop") } { print }
bad	name-not-ascii	small	FIRST { sub(/name=for_loop/, "name=caf\303\251") } { print }
bad	name-of-65-bytes	small	FIRST { sub(/name=for_loop/, "name=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx") } { print }
good	name-of-64-bytes	small	{ sub(/for_loop/, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"); print }
bad	selected-name	small	/^selected:/ { print $0 ",a.b"; next } { print }
bad	selected-empty-name	small	/^selected:/ { print $0 ",,lock"; next } { print }
bad	skip-name	small	/^end:/ { print "skip: name=a.b run_flags_bit=1 wanted_context=process reason=x"; print "end: tests=1 skips=1"; next } { print }
bad	skip-without-reason	small	/^end:/ { print "skip: name=lock run_flags_bit=0 wanted_context=process"; print "end: tests=1 skips=1"; next } { print }
bad	skip-empty-reason	small	/^end:/ { print "skip: name=lock run_flags_bit=0 reason="; print "end: tests=1 skips=1"; next } { print }
good	skip-line	small	/^selected:/ { print $0 ",lock"; next } /^end:/ { print "skip: name=lock run_flags_bit=0 wanted_context=process reason=not on this kernel: a=b"; print "end: tests=1 skips=1"; next } { print }
bad	cpu-key-twice	tcg	/^cpu:/ { print $0 " cpu=3"; next } { print }
bad	cpu-name	tcg	/^cpu:/ { sub(/name=[^ ]*/, "name=a.b") } { print }
bad	key-with-capital	small	FIRST { print $0 " Foo=1"; next } { print }
bad	key-digit-first	small	FIRST { print $0 " 9a=1"; next } { print }
bad	key-with-dash	small	FIRST { print $0 " fo-o=1"; next } { print }
bad	empty-value	small	FIRST { print $0 " foo="; next } { print }
bad	empty-key	small	FIRST { print $0 " =1"; next } { print }
bad	name-twice	small	FIRST { sub(/name=for_loop/, "name=for_loop name=for_loop") } { print }
bad	unknown-key-twice	small	FIRST { print $0 " foo=1 foo=2"; next } { print }
good	value-with-equals	small	FIRST { print $0 " foo==1"; next } { print }
bad	prof-in-format3	small	FIRST { print; print "prof: name=for_loop windows=1"; next } { print }
bad	format-version-5	small	NR == 1 { sub(/3$/, "5") } { print }
bad	format-version-03	small	NR == 1 { sub(/3$/, "03") } { print }
bad	accel-unknown	small	/^accel:/ { print "accel: qemu"; next } { print }
bad	accel-missing	small	/^accel:/ { next } { print }
bad	clock-missing	small	/^clock:/ { next } { print }
bad	end-missing	small	/^end:/ { next } { print }
bad	end-missing-blank-after	small	/^end:/ { print ""; next } { print } END { print "" }
bad	end-extra-word	small	/^end:/ { print $0 " more=1"; next } { print }
bad	end-words-swapped	small	/^end:/ { print "end: skips=0 tests=1"; next } { print }
good	end-line-in-format2	small2	{ print } END { print "end: tests=99 skips=0" }
good	all-tests-skipped	small	FIRST { print "skip: name=for_loop run_flags_bit=0 wanted_context=process reason=not on this kernel"; next } /^end:/ { print "end: tests=0 skips=1"; next } { print }
good	two-blocks	small	{ l[NR] = $0; print } END { for (i = 1; i <= NR; i++) print l[i] }
good	format2-then-3	small2	{ print } END { while ((getline l <ENVIRON["SMALL"]) > 0) { sub(/^clock: instructions$/, "clock: cycles", l); print l } }
bad	first-block-cut	small	{ l[NR] = $0 } /^end:/ { next } { print } END { for (i = 1; i <= NR; i++) print l[i] }
bad	second-block-cut	small	{ l[NR] = $0; print } END { for (i = 1; i < NR; i++) print l[i] }
bad	second-block-bad-line	small	{ l[NR] = $0; print } END { print l[1]; print "hello"; for (i = 2; i <= NR; i++) print l[i] }
bad	second-block-other-format	small	{ l[NR] = $0; print } END { print "format: other_module 3"; for (i = 2; i <= NR; i++) print l[i] }
bad	second-block-duplicate-test	small	{ l[NR] = $0; print } END { for (i = 1; i <= NR; i++) { if (l[i] ~ /^test:/) print l[i]; print l[i] } }
bad	test-field-missing	small	FIRST { sub(/ ns=[0-9]*/, "") } { print }
bad	test-last-field-missing	small	FIRST { sub(/ cheaper_than=[^ ]*/, "") } { print }
good	format2-field-missing	small2	FIRST { sub(/ cheaper_than=[^ ]*/, "") } { print }
bad	cycles-not-a-number	small	FIRST { sub(/ cycles=[0-9]+/, " cycles=12x") } { print }
bad	invoke-count-signed	small	FIRST { sub(/ invoke_count=/, " invoke_count=+") } { print }
bad	invoke-count-over-64-bits	small	FIRST { sub(/ invoke_count=[0-9]+/, " invoke_count=18446744073709551616") } { print }
bad	invoke-count-zero	small	FIRST { sub(/ invoke_count=[0-9]+/, " invoke_count=0") } { print }
bad	reps-cut	small	FIRST { sub(/ reps=[0-9]+/, " reps=1.") } { print }
bad	ns-total-hex	small	FIRST { sub(/ ns=[0-9]+/, " ns=0x10") } { print }
bad	per-elem-cut	small	FIRST { sub(/ cycles_per_elem=[0-9]+/, "&x") } { print }
bad	per-elem-disagrees	small	FIRST { sub(/ ns_per_elem=[^ ]*/, " ns_per_elem=3.010") } { print }
bad	per-elem-two-values	small	FIRST { sub(/ cycles_per_elem=[^ ]*/, "&,3.003") } { print }
bad	sample-nan	small	FIRST { sub(/ cycles_samples=[^ ]*/, " cycles_samples=nan") } { print }
bad	sample-empty	small	FIRST { sub(/ ns_samples=[^ ]*/, "&,") } { print }
bad	sample-inexact	small	FIRST { sub(/ cycles_samples=[^ ]*/, " cycles_samples=18446744073709551615") } { print }
bad	sample-tiny	small	FIRST { sub(/ cycles_samples=[^ ]*/, " cycles_samples=1e-30") } { print }
bad	sample-too-many-decimals	small	FIRST { sub(/ cycles_samples=[^ ]*/, " cycles_samples=0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000") } { print }
bad	sample-over-range	small	FIRST { sub(/ ns_samples=[^ ]*/, " ns_samples=1e20") } { print }
bad	samples-more-than-reps	small	FIRST { sub(/ cycles_samples=[^ ]*/, "&,3.001") } { print }
bad	samples-counts-differ	small	FIRST { sub(/ reps=1 /, " reps=2 "); sub(/ cycles_samples=[^ ]*/, "&,3.001") } { print }
bad	sample-in-format2	small2	FIRST { sub(/ cycles_samples=[^ ]*/, " cycles_samples=1..5") } { print }
bad	samples-with-exponent	small	FIRST { sub(/ cycles_samples=[^ ]*/, " cycles_samples=3.003e0"); sub(/ ns_samples=[^ ]*/, " ns_samples=0.3008e1") } { print }
good	samples-with-leading-zeros	small	FIRST { sub(/ cycles_samples=[^ ]*/, " cycles_samples=003.003") } { print }
bad	per-elem-two-decimals	small	FIRST { sub(/ cycles_per_elem=[^ ]*/, " cycles_per_elem=3.00") } { print }
bad	pages-not-a-number	small	FIRST { sub(/ pages_allocated=[0-9]+/, " pages_allocated=12x") } { print }
bad	median-three-decimals	small	FIRST { sub(/ cycles_median=[^ ]*/, " cycles_median=3.000") } { print }
bad	cheaper-than-not-a-name	small	FIRST { sub(/ cheaper_than=[^ ]*/, " cheaper_than=a.b") } { print }
bad	path-unknown	small	FIRST { sub(/ path=[^ ]*/, " path=nowhere") } { print }
bad	skip-bit-not-a-number	small	/^end:/ { print "skip: name=lock run_flags_bit=x wanted_context=process reason=x"; print "end: tests=1 skips=1"; next } { print }
bad	cpu-cycles-not-a-number	tcg	/^cpu:/ { sub(/ cycles=[0-9]+/, " cycles=1x") } { print }
good	unknown-field-any-value	small	FIRST { print $0 " later_field=x,y:z"; next } { print }
good	boot-id	small	/^cmdline:/ { print; print "boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21"; next } { print }
good	boot-id-unavailable	small	/^cmdline:/ { print; print "boot_id: unavailable"; next } { print }
good	boot-id-blanks-around	small	/^cmdline:/ { print; print "boot_id:\t2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21 "; next } { print }
good	boot-id-in-format2	small2	/^cmdline:/ { print; print "boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21"; next } { print }
bad	boot-id-uppercase	small	/^cmdline:/ { print; print "boot_id: 2B5E0F8C-6F2E-4C61-9A3E-7D1B4F0C9E21"; next } { print }
bad	boot-id-short	small	/^cmdline:/ { print; print "boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e2"; next } { print }
bad	boot-id-no-dashes	small	/^cmdline:/ { print; print "boot_id: 2b5e0f8c6f2e4c619a3e7d1b4f0c9e21abcd"; next } { print }
bad	boot-id-empty	small	/^cmdline:/ { print; print "boot_id:"; next } { print }
bad	boot-id-two-words	small	/^cmdline:/ { print; print "boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21 x"; next } { print }
bad	boot-id-twice	small	/^cmdline:/ { print; print "boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21"; print "boot_id: 2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21"; next } { print }
bad	boot-id-unavailable-twice	small	/^cmdline:/ { print; print "boot_id: unavailable"; print "boot_id: unavailable"; next } { print }
bad	boot-id-escape	small	/^cmdline:/ { print; print "boot_id: \033[2J"; next } { print }
bad	prof-missing	prof	/^prof/ { next } { print }
bad	prof-twice	prof	/^end:/ { print "prof: name=for_loop windows=2 insns=3.003 loads=1.000 stores=0.500 atomics=0.000 l1i_miss=0.002 l1d_miss=0.001 llc_miss=0.000" } { print }
bad	prof-of-no-test	prof	/^end:/ { print "prof: name=lock windows=2 insns=3.003 loads=1.000 stores=0.500 atomics=0.000 l1i_miss=0.002 l1d_miss=0.001 llc_miss=0.000" } { print }
bad	prof-fn-before-prof	prof	/^prof: / { p = $0; next } /^prof_fn: / && p { print; print p; p = ""; next } { print }
bad	test-after-prof	prof	/^end:/ { print t; print "end: tests=2 skips=0"; next } FIRST { t = $0; sub(/name=for_loop/, "name=lock", t) } { print }
bad	profile-missing	prof	/^profile:/ { next } { print }
bad	profile-twice	prof	/^profile:/ { print } { print }
bad	profile-after-prof	prof	/^profile:/ { p = $0; next } /^end:/ { print p } { print }
bad	profile-without-ways	prof	/^profile:/ { sub(/l1d=49152:12/, "l1d=49152") } { print }
bad	profile-size-zero	prof	/^profile:/ { sub(/line=64/, "line=0") } { print }
bad	prof-count-two-decimals	prof	/^prof: / { sub(/ loads=1.000/, " loads=1.00") } { print }
bad	prof-count-over-2-53	prof	/^prof_fn: .*cold/ { sub(/ insns=1.001/, " insns=9007199254741.000") } { print }
bad	prof-windows-zero	prof	/^prof: / { sub(/ windows=2/, " windows=0") } { print }
bad	prof-windows-not-a-number	prof	/^prof: / { sub(/ windows=2/, " windows=2x") } { print }
bad	prof-field-missing	prof	/^prof: / { sub(/ llc_miss=[^ ]*/, "") } { print }
bad	prof-fn-missing	prof	/^prof_fn: .*cold/ { sub(/ fn=[^ ]*/, "") } { print }
bad	prof-fn-not-a-symbol	prof	/^prof_fn: .*cold/ { sub(/ fn=[^ ]*/, " fn=a[b") } { print }
bad	prof-fn-twice	prof	/^prof_fn: .*cold/ { print } { print }
bad	prof-fns-do-not-add-up	prof	/^prof_fn: .*cold/ { next } { print }
bad	prof-fns-do-not-add-up-second-block	prof	{ l[NR] = $0; print } END { for (i = 1; i <= NR; i++) if (l[i] !~ /cold/) print l[i] }
bad	prof-fn-twice-in-cut-block	prof	/^end:/ { next } /^prof_fn: .*cold/ { print } { print }
good	prof-fn-unknown-code	prof	/^prof_fn: .*cold/ { sub(/ fn=[^ ]*/, " fn=?") } { print }
good	prof-fns-within-rounding	prof	/^prof: / { sub(/ insns=3.003/, " insns=3.004") } { print }
good	prof-as-written	prof	{ print }
good	invoke-count-leading-zero	small	FIRST { sub(/ invoke_count=/, " invoke_count=0") } { print }
bad	end-count-leading-zero	icount	/^end:/ { sub(/tests=20/, "tests=024") } { print }
good	prof-counts-leading-zeros	prof	/^prof: / { sub(/l1i_miss=0.002/, "l1i_miss=0.020") } /^prof_fn: .*bench_for_loop/ { sub(/l1i_miss=0.001/, "l1i_miss=0.015") } /^prof_fn: .*cold/ { sub(/l1i_miss=0.001/, "l1i_miss=0.005") } { print }
bad	line-over-64k	small	NR == 3 { printf "later_key: "; for (i = 11; i <= 65536; i++) printf "x"; print "y" } { print }
good	line-of-64k	small	NR == 3 { printf "later_key: "; for (i = 12; i < 65536; i++) printf "x"; print "y" } { print }
bad	line-of-64k-and-cr	small	NR == 3 { printf "later_key: "; for (i = 12; i < 65536; i++) printf "x"; print "y\r" } { print }
good	blank-lines-first	small	NR == 1 { print ""; print "  " } { print }
good	utf8-text	small	NR == 2 { print $0 " caf\303\251 \342\200\224 \344\270\255"; next } { print }
good	as-written	e2e	{ print }
good	failed-scenario	e2e	/^end: / { print "failed: name=pktgen_veth_drop reason=the XDP program counted 0 of 5000 packets sent" } { print }
bad	duplicate-scenario	e2e	/^test: name=xdp_live_drop / { print } { print }
bad	scenario-cut	e2e	/^test: name=generic_xdp_drop / { print substr($0, 1, 200); next } { print }
good	as-written	icount	{ print }
good	as-written	format2	{ print }
good	blank-lines	small	FIRST { print ""; print "   " } { print }
good	unknown-key	small	NR == 2 { print "later_key: a header line of a later version" } { print }
good	crlf	small	{ print $0 "\r" }
good	window-kinds	small	FIRST { sub(/ perturbed_chunks=0 /, " perturbed_chunks=0 retried_entered=switch:1,irq:2,timer:3,ipi:4,nmi:5,softirq:6,smi:7 perturbed_entered=- ") } { print }
bad	window-kind-unknown	small	FIRST { sub(/ perturbed_chunks=0 /, " perturbed_chunks=0 retried_entered=tick:1 perturbed_entered=- ") } { print }
bad	window-kind-no-count	small	FIRST { sub(/ perturbed_chunks=0 /, " perturbed_chunks=0 retried_entered=timer perturbed_entered=- ") } { print }
'

# FILE:LINE of the first line a reader said, or nothing, in $at; read
# without a process, as it runs for every case.
where() {	# file
	at=
	IFS= read -r at <"$1" || [ -n "$at" ] || return 0
	at=${at#bench-compare: }
	case $at in
	*": "*) at=${at%%: *} ;;
	*) at= ;;
	esac
	case ${at##*:} in
	'' | *[!0-9]*) at= ;;
	esac
}

# The case files, K.results in $dir for case K, and bench-compare's
# verdict on each.  Each other reader then reads them all in one run
# per shell, as starting a shell and the wrapper costs more than their
# checks; the files are named from $dir, so that their names are words
# whatever TMPDIR holds.
cd "$dir" || exit 1
tab=$(printf '\t')
printf '%s' "$CASES" | grep . >"$dir/cases"
k=0
: >"$dir/bad" && : >"$dir/good" || exit 1
while IFS=$tab read -r verdict name data program; do
	k=$((k + 1))
	f=$k.results
	SMALL=$dir/data/small.results LC_ALL=C awk "BEGIN { first = 1 } { FIRST = 0 }
		/^test: / && first { FIRST = 1; first = 0 }
		$program" "$dir/data/$data.results" >"$f" || exit 1
	"$COMPARE" "$f" "$f" </dev/null >/dev/null 2>"$f.compare"
	printf '%s\n' $? >"$f.compare.rc"
	printf '%s\n' "$f" >>"$dir/$verdict"
done <"$dir/cases"

# Under each shell, every file through results_check, in one run; under
# sh, every file through -c too, whose refusal of a file is the line
# bench-compare said, and for which a good file passes every check the
# wrapper has.  (-c of the bad files under three shells was half this
# test's time, and said what results_check says.)
for u in $SHELLS; do
	# shellcheck disable=SC2016,SC2046 # for the shell started; K.results
	under "$u" -c '. "$1/results_lib.sh" || exit 1
		u=$2
		shift 2
		for f; do
			results_check "$f" </dev/null >"$f.check.$u" 2>&1
			printf "%s\n" $? >"$f.check.$u.rc"
		done' sh "$TOP" "$u" $(cat "$dir/bad" "$dir/good")
done
for list in bad good; do
	[ -s "$dir/$list" ] || continue
	# shellcheck disable=SC2046 # the names are K.results
	under sh "$TOP/test_bench_page_pool.sh" -c $(cat "$dir/$list") \
		</dev/null >"$dir/wrapper.$list.sh" 2>&1
done

# The Python tools' reader (tools/results/results.py), one run over every file:
# FILE.python holds "ok", or the FILE:LINE it refused at, or "format"
# for a block of format 1 or 2, which it leaves to bench-compare.
# shellcheck disable=SC2046 # the names are K.results
python3 -c '
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import results
for f in sys.argv[2:]:
    try:
        results.read_file(f)
        said = "ok"
    except results.ResultsError as e:
        why = str(e)
        said = "format" if ": the Python tools read formats 3 and 4" in why \
            else why.split(": ", 1)[0]
    with open(f + ".python", "w") as out:
        out.write(said + "\n")
' "$TOP/tools/results" $(cat "$dir/bad" "$dir/good") || exit 1

# What -c said of each FILE in its run over LIST, into FILE.said.LIST.U:
# "ok", or "not ok" and the FILE:LINE of the line under it (or
# "format" when it refused a block of format 1 or 2).  A file of
# several blocks is several loads, "FILE, block B of N": "ok" if each
# one is.  One awk per run, as one per case and shell cost more than
# the readers.
for u in $SHELLS; do
	for list in bad good; do
		[ -e "wrapper.$list.$u" ] || continue
		W_SUFFIX=.said.$list.$u awk '
		/^# file: / {
			file = substr($0, 9)
			sub(/, block [0-9]+ of [0-9]+$/, "", file)
			next
		}
		said && /^# .*: not a results file of format 3 / {
			if (!(file in at))
				at[file] = "format"
		}
		said && /^# [^ ]*:[0-9]+:/ {
			if (!(file in at)) {
				match($0, /^# [^ ]*:[0-9]+:/)
				at[file] = substr($0, 3, RLENGTH - 3)
			}
		}
		/^(not )?ok [0-9]+ (load [0-9]+: )?results file is whole/ {
			v = $1 == "not" ? "not ok" : "ok"
			if (!(file in verdict) || v == "not ok")
				verdict[file] = v
			said = v == "not ok"
			next
		}
		!/^# / { said = 0 }
		END {
			for (f in verdict) {
				out = f ENVIRON["W_SUFFIX"]
				print verdict[f] (f in at ? " " at[f] : "") >out
				close(out)
			}
		}' "wrapper.$list.$u"
	done
done

# $w: what -c said of FILE over LIST (above), or nothing.
whole() {	# list shell file
	w=
	[ -e "$3.said.$1.$2" ] || return 0
	IFS= read -r w <"$3.said.$1.$2"
}

check_case() {	# k verdict
	f=$1.results
	read -r c_rc <"$f.compare.rc"
	where "$f.compare"
	c_at=$at
	c_ok=0
	if [ "$2" = bad ]; then
		[ "$c_rc" = 2 ] && [ -n "$c_at" ] || c_ok=1
	else
		[ "$c_rc" = 0 ] || c_ok=1
	fi
	said="bench-compare exit $c_rc ${c_at:-}"
	IFS= read -r py <"$f.python"
	said="$said; results.py $py"
	if [ "$2" = bad ]; then
		case $py in "$c_at" | format) ;; *) c_ok=1 ;; esac
	else
		case $py in ok | format) ;; *) c_ok=1 ;; esac
	fi
	for u in $SHELLS; do
		read -r r_rc <"$f.check.$u.rc"
		where "$f.check.$u"
		w=-
		[ "$u" = sh ] && whole "$2" sh "$f"
		said="$said; $u: results_check $r_rc ${at:-}, -c ${w:-nothing}"
		if [ "$2" = bad ]; then
			[ "$r_rc" != 0 ] && [ "$at" = "$c_at" ] &&
				case $w in "not ok $c_at" | -) ;; *) false ;; esac ||
				c_ok=1
			continue
		fi
		# the wrapper's checks may fail on a file written for them
		# to: it refuses only a block of format 1 or 2, saying so
		[ "$r_rc" = 0 ] &&
			case $w in ok | - | "not ok format") ;; *) false ;; esac ||
			c_ok=1
	done
	ktap_print_msg "$name ($data): $said"
	return $c_ok
}

ktap_print_header
ktap_set_plan "$(wc -l <"$dir/cases" | tr -d ' ')"
k=0
while IFS=$tab read -r verdict name data program; do
	k=$((k + 1))
	what="refused by every reader at the same line"
	[ "$verdict" = good ] && what="read by every reader"
	check_case $k "$verdict"
	ktap_test_result "$name ($data): $what" test $? = 0
done <"$dir/cases"
ktap_finished
