# SPDX-License-Identifier: GPL-2.0
#
# make check's steps that boot the module's guests, sourced by
# tools/check/check.sh: the guest suite per kernel and CPU model, counting
# instructions or timing cycles, the cross-CPU test, PREEMPT_RT's hog;
# then what they wrote read by bench-compare and KCIDB, the KTAP names
# compared across guests, doc/tests.rst and results.schema.

# The files a guest of the kselftest needs in /bench: what the kselftest
# installs, but for the modules (the guest has them) and its settings;
# as guest.sh options, one a line.
guest_kselftest_files() {
	for f in $(project_files installed); do
		case $f in
		*.ko | config | settings) ;;
		*) printf '%s\n' "-f" "$BENCH_TOP/$f" ;;
		esac
	done
}

# Runs tests/guest/suite.sh in a guest of KERNEL_IMAGE with MODS, into
# LOGDIR/RELEASE-NAME.  Its suite.conf (see suite.sh) gets the
# KEY=VALUE arguments before "--"; guest.sh gets the options after it.
guest_suite() {	# name [KEY=VALUE]... [-- guest.sh-option...]
	dir=$LOGDIR/$KERNEL_RELEASE-$1
	shift
	rm -rf "$dir" "$dir.conf"
	mkdir -p "$dir.conf"
	: >"$dir.conf/suite.conf"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		printf '%s\n' "$1" >>"$dir.conf/suite.conf"
		shift
	done
	[ $# -gt 0 ] && shift
	files=$(guest_kselftest_files)
	set -f
	IFS=$nl
	# shellcheck disable=SC2086
	set -- $files "$@"
	unset IFS
	set +f
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -m "$MODS" \
		-t 1500 -p "$BENCH_TOP/tests/guest/suite.sh" -o "$dir" \
		-f "$dir.conf/suite.conf" -f "$BENCH_TOP/tests/guest/checks.sh" \
		-b "$(command -v perf)" \
		-b "$BENCH_COMPARE" -f "$BENCH_COMPARE" "$@"
	rc=$?
	sed 's/^/# /' "$dir/output.txt" >&2
	return $rc
}

# The cross-CPU test with two returning CPUs, on three vCPUs: the
# kselftest checks its path and that every page came back.  It needs
# vCPUs that run at once: never under -icount.
cross_cpu() {
	dir=$LOGDIR/$KERNEL_RELEASE-xcpu
	rm -rf "$dir" "$dir.payload"
	mkdir -p "$dir.payload"
	printf '%s\n' 'sh ./test_bench_page_pool.sh -d "/lib/modules/$(uname -r)/extra" tests=cross_cpu_page_pool01_return return_cpus=2' \
		>"$dir.payload/payload.sh"
	files=$(guest_kselftest_files)
	set -f
	IFS=$nl
	# shellcheck disable=SC2086
	set -- $files
	unset IFS
	set +f
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -m "$MODS" \
		-s 3 -t 600 -p "$dir.payload/payload.sh" -o "$dir" "$@"
	rc=$?
	sed 's/^/# /' "$dir/output.txt" >&2
	[ $rc = 0 ] && grep -q '^ok .*cross_cpu_page_pool01_return' "$dir/output.txt"
}

# bench-compare on what the guests of one kernel produced: the run the
# guest suite keeps for it (bench-compare.results and .dmesg in its
# folder).  Per CPU model, the results file against the kernel messages
# of the same load (one row per test); across two models, the same
# where their clocks agree, and a refusal where one counted
# instructions and the other cycles.
compare_guests() {	# cpu-model...
	ok=0
	for cpu in "$@"; do
		dir=$LOGDIR/$KERNEL_RELEASE-$cpu
		want=$(results_ran_tests "$dir/bench-compare.results" |
			sort -u | wc -l)
		compared "$cpu: results file against dmesg" "$want" \
			"$dir/bench-compare.results" "$dir/bench-compare.dmesg" || ok=1
		# as KernelCI's KCIDB takes it: its schema's rules, a test
		# object a test, the skipped ones too
		"$BENCH_TOP/tools/compare/bench-compare" -f kcidb \
			"$dir/bench-compare.results" >"$dir/kcidb.json" &&
			python3 "$BENCH_TOP/tools/results/kcidb-check.py" "$dir/kcidb.json" >&2 &&
			[ "$(jq '.tests | length' "$dir/kcidb.json")" = \
			  "$(results_tests "$dir/bench-compare.results" | sort -u | wc -l)" ] ||
			{ say "$cpu: bench-compare -f kcidb of the results file is no KCIDB document of every test"; ok=1; }
	done
	# The -o folder of the guest that counted instructions: two loads
	# of one kernel, read as a side; against a cycles load, refused.
	loads=$LOGDIR/$KERNEL_RELEASE-$1-icount/loads
	if [ -d "$loads" ]; then
		"$BENCH_TOP/tools/compare/bench-compare" "$loads" "$loads" \
			>"$LOGDIR/compare-loads.out" 2>&1 &&
			grep -q '^loads: before 2, after 2;' "$LOGDIR/compare-loads.out" &&
			grep -q '^test  *instructions before ' "$LOGDIR/compare-loads.out" ||
			{ say "the -o folder as a side:"; cat "$LOGDIR/compare-loads.out" >&2; ok=1; }
		"$BENCH_TOP/tools/compare/bench-compare" "$loads" \
			"$LOGDIR/$KERNEL_RELEASE-$1/bench-compare.results" \
			>"$LOGDIR/compare-clocks.out" 2>&1
		rc=$?
		say "instructions (-o folder) against cycles: exit $rc: $(head -n 1 "$LOGDIR/compare-clocks.out")"
		[ $rc = 2 ] && [ "$(grep -c . "$LOGDIR/compare-clocks.out")" = 1 ] || ok=1
	fi
	[ $# -ge 2 ] || return $ok
	a=$LOGDIR/$KERNEL_RELEASE-$1/bench-compare.results
	b=$LOGDIR/$KERNEL_RELEASE-$2/bench-compare.results
	ca=$(results_header "$a" clock)
	cb=$(results_header "$b" clock)
	if [ "${ca:-cycles}" = "${cb:-cycles}" ]; then
		compared "$1 against $2" "$want" "$a" "$b" || ok=1
	else
		"$BENCH_TOP/tools/compare/bench-compare" "$a" "$b" \
			>"$LOGDIR/compare-clocks.out" 2>&1
		rc=$?
		say "$1 ($ca) against $2 ($cb): exit $rc: $(head -n 1 "$LOGDIR/compare-clocks.out")"
		[ $rc = 2 ] && [ "$(grep -c . "$LOGDIR/compare-clocks.out")" = 1 ] || ok=1
	fi
	return $ok
}

# The test table of doc/tests.rst against a results file of every test:
# each row's bit, context and path as the module says them, and no test
# missing on either side.  The page's kinds name the probe's paths:
# any is cache or ring, frag the cache, xcpu the ring.
doc_tests_table() {	# results-file
	awk '/^[0-9]+ +``[^`]+`` +[a-z]+ +[^ ]+/ {
		gsub(/`/, "")
		path = $4 == "any" ? "cache,ring" : $4 == "frag" ? "cache" : \
		       $4 == "xcpu" ? "ring" : $4
		print $2, $1, $3, path
	}' "$BENCH_TOP/doc/tests.rst" | sort >"$LOGDIR/doc-tests"
	for t in $(results_tests "$1"); do
		printf '%s %s\n' "$t" "$(results_fields "$1" "$t" run_flags_bit \
			wanted_context expect_path | tr '\n' ' ')"
	done | awk '{ $1 = $1; print }' | sort >"$LOGDIR/module-tests"
	say "doc/tests.rst: $(wc -l <"$LOGDIR/doc-tests") rows, the module: $(wc -l <"$LOGDIR/module-tests") tests"
	# a test the kernel skipped has no expect_path: its row's path is
	# not compared
	awk 'NR == FNR { doc[$1] = $0; next }
	     { want = $0; got = doc[$1]
	       if (NF == 3) { split(got, g, " "); got = g[1] " " g[2] " " g[3] }
	       if (got != want) { print "module: " want; print "doc:    " got; bad = 1 }
	       seen[$1] = 1 }
	     END { for (t in doc) if (!(t in seen)) { print "doc only: " t; bad = 1 }
		   exit bad }' "$LOGDIR/doc-tests" "$LOGDIR/module-tests" >&2
}

# bench-compare's table of two inputs must have WANT rows.
compared() {	# what want before after
	out=$LOGDIR/compare-$(printf '%s' "$1" | tr -c 'a-zA-Z0-9' -).md
	[ "$2" -gt 0 ] || { say "$1: no test: lines from the guest"; return 1; }
	"$BENCH_TOP/tools/compare/bench-compare" -f markdown "$3" "$4" \
		>"$out" || return 1
	sed 's/^/# /' "$out" >&2
	rows=$(($(grep -c '^| [a-z]' "$out") - 1))
	say "$1: $rows rows, $2 tests"
	[ "$rows" = "$2" ]
}

# results.schema's generated parts, the documentation and the readers
# agree with it, and the tool finds what it must on copies
# (tests/schema_test.sh).
schema_sources() {
	/usr/bin/python3 "$BENCH_TOP/tools/results/schema.py" check-sources &&
		sh "$BENCH_TOP/tests/schema_test.sh"
}

# Every block the module, its collectors and bench-e2e wrote in this
# run's guests follows results.schema (the copies of the checkout
# in "with space" are the project's own test data, not guests' output).
schema_written() {
	w_list=$LOGDIR/schema-files.txt
	find "$LOGDIR" -name '*.results' ! -path "$LOGDIR/with space/*" \
		>"$w_list" || return 1
	[ -s "$w_list" ] || { say "no results file in $LOGDIR"; return 1; }
	# one name a line, never split on blanks
	tr '\n' '\0' <"$w_list" |
		xargs -0 /usr/bin/python3 "$BENCH_TOP/tools/results/schema.py" check
}

# A CPU hog beside the module on PREEMPT_RT, counting instructions on
# one vCPU (tests/guest/suite.sh, hog_check).
rt_hog() {
	KERNEL_IMAGE=$RT_IMAGE KERNEL_RELEASE=$RT_RELEASE MODS=$RT_MODS
	guest_suite hog HOG_ONLY=1 -- -c "$(first_cpu)" -i -s 1
}

# The CPU models a kernel's guest suites run with: all of CPUS on the
# first kernel, the first model on the others.  A second model (qemu64:
# no RDTSCP) tests the engine's cycle counter, which no kernel changes.
kernel_cpus() {	# series
	k_series=$1
	set -- $KERNELS
	k_first=$1
	set -- $CPUS
	[ "$k_series" = "$k_first" ] || set -- "$1"
	printf '%s\n' "$@"
}

first_cpu() {
	set -- $CPUS
	printf '%s\n' "$1"
}

# Counting instructions, what needs their precision, in one vCPU: a
# second one's work would count into the first's tests.  The regression
# gate on the first kernel only.
icount_suite() {	# series
	set -- "$1" $KERNELS
	i_gate=0
	[ "$1" = "$2" ] && i_gate=1
	guest_suite "$(first_cpu)-icount" PRECISE=1 GATE=$i_gate -- \
		-c "$(first_cpu)" -i -s 1
}

# Whether a kernel's instruction-counting suite runs in the second line:
# 7.2's and 6.1's do, which the first line could not also hold within
# make check's time (no load of the machine moves an instruction count).
icount_beside() {	# series
	case $1 in 7.2 | 6.1) ;; *) return 1 ;; esac
	[ "$SUITE_ICOUNT" = 1 ] &&
		case " $KERNELS " in *" $1 "*) true ;; *) false ;; esac
}

# The kselftest's check names, kept by CI: the same in every guest's
# default run, whatever the kernel, the CPU model or the instrument
# (the series' in-tree run counting instructions among them).
ktap_names() {
	set --
	for f in "$LOGDIR"/*/ksft-default.ktap "$LOGDIR"/series-*/numbers/nipa-default.out; do
		[ ! -f "$f" ] || set -- "$@" "$f"
	done
	say "default runs: $*"
	[ $# -ge 2 ] && python3 "$BENCH_TOP/tools/results/ktap-ci.py" names "$@" >&2
}
