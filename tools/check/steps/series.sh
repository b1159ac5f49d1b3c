# SPDX-License-Identifier: GPL-2.0
#
# make check's steps of the upstream series, sourced by tools/check/check.sh:
# make series into 7.2's tree, netdev's per-patch checks, each
# commit's W=1 build, the kselftest run as NIPA runs it, the cover
# letter's numbers.

# make series in Debian's 7.2 tree, which has upstream's net/bench: on a
# copy of the prepared tree (hard links; net/bench, MAINTAINERS and
# .gitignore are files of its own, and the series writes new files, so
# the cached tree never changes), in a git repository of those files.
# Each patch adds at most SERIES_MAX_ADDED lines (git's count) and
# passes netdev's per-patch checks as its robot runs them
# (tools/series/netdev-checks.py: checkpatch --strict --codespell at 80
# columns with NIPA's ignore list, the selftest layout, inline, the
# shell and kernel-doc checks, sign-off), deprecated_api's module_param
# finding allowed where the message says why; every commit whose
# page_pool/ differs from the one before builds with W=1
# (the tree's sparse wants a newer one than Debian 12's); make
# series-export of the tree gives upstream/series/ again; and
# run_kselftest.sh runs, in one 7.2 guest, the kselftest of the
# SERIES_SAMPLES patches and of the last: upstream's script (bash) up to
# the wrapper, on the module's defaults, then the wrapper on the
# out-of-tree original's seven bits (upstream's four and the softirq
# three), briefly.
SERIES_PARAMS="tests=legacy time_ms=20"
SERIES_MAX_ADDED=1000
# the engine with upstream's tests; the results file; every test
# before the wrapper (the last patch, the wrapper, is run too)
SERIES_SAMPLES="2 6 11"
# upstream's tests (bits 0-3), which "legacy" selects with bits 4-6
SERIES_UPSTREAM_TESTS="for_loop atomic_inc lock no-softirq-page_pool01 no-softirq-page_pool02 no-softirq-page_pool03"
SERIES_REL=tools/testing/selftests/net/bench

# make series' fix of kselftest's ktap_helpers.sh (for linux-kselftest):
# under dash, a description with a glob, two blanks and a backslash
# printed as given by the patched file, not by the tree's own.
ktap_fix_prints() {	# tree patch
	k_dir=$(mktemp -d) || return 1
	k_rel=tools/testing/selftests/kselftest/ktap_helpers.sh
	mkdir -p "$k_dir/${k_rel%/*}" && cp "$1/$k_rel" "$k_dir/$k_rel" &&
		cp "$1/$k_rel" "$k_dir/unpatched.sh" &&
		git -C "$k_dir" apply "$2" || { rm -rf "$k_dir"; return 1; }
	# shellcheck disable=SC2016 # expanded by dash
	k_prog='. "$1"; ktap_test_pass "a *  b \c"; ktap_test_skip "x  y"'
	k_want='ok 1 a *  b \c
ok 2 x  y # SKIP'
	k_new=$(cd "$k_dir" && dash -c "$k_prog" dash "$k_dir/$k_rel")
	k_old=$(cd "$k_dir" && dash -c "$k_prog" dash "$k_dir/unpatched.sh")
	rm -rf "$k_dir"
	say "ktap_helpers.sh patched: $(printf '%s' "$k_new" | tr '\n' '|'); the tree's: $(printf '%s' "$k_old" | tr '\n' '|')"
	[ "$k_new" = "$k_want" ] && [ "$k_old" != "$k_want" ]
}

# tools/series/netdev-checks.py on BASE..HEAD of TREE into OUT, its exit
# status; kept in the cache by what it reads (each commit's author,
# message and diff, the tree's checkpatch, spelling list and
# kernel-doc, codespell's and shellcheck's versions and the script), so
# that a series that did not change is not checked again (a minute of
# checkpatch with --codespell).
netdev_checks() {	# tree base head out
	n_key=$({
		git -C "$1" log -p --format='%an <%ae>%n%B' "$2..$3"
		cat "$1/scripts/checkpatch.pl" "$1/scripts/spelling.txt" \
			"$1/scripts/kernel-doc" "$BENCH_TOP/tools/series/netdev-checks.py"
		codespell --version 2>/dev/null
		shellcheck --version
	} | md5sum | cut -c1-16) || return 1
	n_file=$BENCH_CACHE/netdev-checks/$n_key
	if [ -f "$n_file.rc" ] && cp "$n_file.out" "$4" 2>/dev/null; then
		say "netdev's checks of this series: cached ($n_file.out)"
		return "$(cat "$n_file.rc")"
	fi
	python3 "$BENCH_TOP/tools/series/netdev-checks.py" "$1" "$2" "$3" >"$4" 2>&1
	n_rc=$?
	mkdir -p "${n_file%/*}" && cp "$4" "$n_file.out" &&
		printf '%s\n' "$n_rc" >"$n_file.rc"
	return $n_rc
}

# The cache key of a build of PATH at COMMIT in TREE: its git tree, and
# the kernel and compiler it is built against.
series_build_key() {	# tree commit path
	{
		git -C "$1" rev-parse "$2:$3"
		printf '%s\n' "$KDIR"
		cat "$KDIR/include/config/kernel.release" 2>/dev/null
		gcc --version
	} | md5sum | cut -c1-16
}

# A commit's page_pool/ built with W=1 against KDIR; a folder that
# built clean before (its tree id, the kernel tree, the compiler) is
# not built again.
series_build() {	# tree commit log
	b_key=$(series_build_key "$1" "$2" "$SERIES_REL/page_pool") || return 1
	b_ok=$BENCH_CACHE/series-builds/$b_key.ok
	if [ -f "$b_ok" ]; then
		say "$(git -C "$1" log -1 --format=%h "$2"): page_pool/ built clean before (cached)"
		return 0
	fi
	quiet_build "$3" make -C "$1/$SERIES_REL/page_pool" -j"$(nproc)" \
		KDIR="$KDIR" W=1 || return 1
	mkdir -p "${b_ok%/*}" && : >"$b_ok"
}

# The kselftest of COMMIT built (its module with W=1) and installed
# into DIR, or the install of a commit whose selftests, KDIR and
# compiler were the same, from the cache (12 s a build here).
series_kselftest() {	# tree commit dir log
	k_key=$(series_build_key "$1" "$2" tools/testing/selftests) || return 1
	k_cache=$BENCH_CACHE/series-kselftest/$k_key
	if [ -d "$k_cache" ]; then
		say "$(git -C "$1" log -1 --format=%h "$2"): its kselftest built and installed before (cached)"
		cp -a "$k_cache" "$3"
		return
	fi
	quiet_build "$4" make -C "$1/tools/testing/selftests" -j"$(nproc)" \
		TARGETS=net/bench KDIR="$KDIR" W=1 install INSTALL_PATH="$3" ||
		return 1
	mkdir -p "${k_cache%/*}" && rm -rf "$k_cache.tmp" &&
		cp -a "$3" "$k_cache.tmp" && mv "$k_cache.tmp" "$k_cache"
}

series_tree() {
	s_dir=$LOGDIR/series-$KERNEL_RELEASE
	s_tree=$s_dir/linux
	rm -rf "$s_dir"
	mkdir -p "$s_dir" && cp -al "$KDIR" "$s_tree" || return 1
	(
		cd "$s_tree" || exit 1
		rm -rf "$SERIES_REL" MAINTAINERS .gitignore &&
		cp -R "$KDIR/$SERIES_REL" "$SERIES_REL" &&
		cp "$KDIR/MAINTAINERS" MAINTAINERS &&
		# Debian's packaging ignores every top-level path
		grep -vx -e '/\*' -e '!/debian/' "$KDIR/.gitignore" >.gitignore &&
		git init -q && git add "$SERIES_REL" MAINTAINERS LICENSES &&
		git -c user.name=Debian -c user.email=debian@example.org \
			commit -q -m "linux-source-7.2 as Debian ships it"
	) || return 1
	s_t=$(date +%s)
	s_base=$(git -C "$s_tree" rev-parse HEAD) || return 1
	# upstream's module, for the cover letter's "before"
	mkdir -p "$s_dir/upstream" &&
		quiet_build "$s_dir/build-upstream.log" \
			make -C "$s_tree/$SERIES_REL/page_pool" KDIR="$KDIR" &&
		cp "$s_tree/$SERIES_REL/page_pool/bench_page_pool.ko" \
			"$s_dir/upstream/" || return 1
	make -s -C "$s_tree/$SERIES_REL/page_pool" KDIR="$KDIR" clean
	TREE=$s_tree SERIES_OUT=$s_dir/patches \
		sh "$BENCH_TOP/tools/series/series.sh" || return 1
	ktap_fix_prints "$s_tree" "$s_dir/patches"/ksft-*.patch || return 1
	ok=0
	# the peels, written again from the tree, are the ones stored
	TREE=$s_tree EXPORT_DIR=$s_dir/export \
		sh "$BENCH_TOP/tools/series/export.sh" 2>/dev/null &&
		diff -r "$BENCH_TOP/upstream/series" "$s_dir/export" >&2 ||
		{ say "make series-export of the series' tree differs from upstream/series"; ok=1; }
	# netdev's per-patch checks beside the builds: they read the
	# commits, never the work tree the builds check out
	netdev_checks "$s_tree" "$s_base" "$(git -C "$s_tree" rev-parse HEAD)" \
		"$s_dir/netdev-checks.txt" &
	s_checkpatch=$!
	say "copy, series and export: $(($(date +%s) - s_t)) s"
	s_t=$(date +%s)
	s_n=$(git -C "$s_tree" rev-list --count "$s_base..HEAD")
	s_built=0 s_k=0 s_prev=$s_base
	mkdir -p "$s_dir/ksft"
	for c in $(git -C "$s_tree" rev-list --reverse "$s_base..HEAD"); do
		s_k=$((s_k + 1))
		s_added=$(git -C "$s_tree" diff --numstat "$c~1" "$c" |
			awk '{ n += $1 } END { print n + 0 }')
		[ "$s_added" -le "$SERIES_MAX_ADDED" ] ||
			{ say "patch $s_k adds $s_added lines, more than $SERIES_MAX_ADDED"; ok=1; }
		git -C "$s_tree" checkout -q "$c" || return 1
		# kbuild rebuilds what the checkout changed (fixdep tracks
		# the headers); a sampled patch's install builds its module
		# (with W=1)
		case " $SERIES_SAMPLES $s_n " in
		*" $s_k "*)
			series_kselftest "$s_tree" "$c" "$s_dir/ksft/$s_k" \
				"$s_dir/kselftest-$s_k.log" ||
				{ say "patch $s_k: the kselftest build or install failed"; ok=1; }
			s_built=$((s_built + 1)) s_prev=$c ;;
		*)
			git -C "$s_tree" diff --quiet "$s_prev" "$c" -- "$SERIES_REL/page_pool" || {
				series_build "$s_tree" "$c" "$s_dir/build-$s_k.log" ||
					{ say "patch $s_k does not build with W=1"; ok=1; }
				s_built=$((s_built + 1)) s_prev=$c
			} ;;
		esac
		say "patch $s_k: $s_added lines added"
	done
	make -s -C "$s_tree/$SERIES_REL/page_pool" KDIR="$KDIR" clean
	git -C "$s_tree" checkout -q - 2>/dev/null || git -C "$s_tree" checkout -q master
	wait "$s_checkpatch" ||
		{ say "netdev's checks are not OKAY (deprecated_api aside)"; ok=1; }
	cat "$s_dir/netdev-checks.txt" >&2
	# the PAGE POOL entry covers net/bench, whose files the series adds
	awk -v bench="$SERIES_REL/" '$0 == "PAGE POOL" { e = 1 } e && $0 == "" { exit }
		e && $0 == "F:\t" bench { f = 1 } END { exit !f }' "$s_tree/MAINTAINERS" ||
		{ say "MAINTAINERS: PAGE POOL does not cover $SERIES_REL"; ok=1; }
	say "$s_n patches, $s_built builds and netdev's checks: $(($(date +%s) - s_t)) s"
	[ $ok = 0 ] || return 1
	s_t=$(date +%s)
	{
		printf '%s\n' ': >/tmp/runner.out'
		for k in $SERIES_SAMPLES $s_n; do
			printf '%s\n' "printf '%s\\n' '=== patch $k' >>/tmp/runner.out" \
				"(cd /bench/$k && BENCH_PAGE_POOL_PARAMS='$SERIES_PARAMS' ./run_kselftest.sh) >>/tmp/runner.out 2>&1" \
				"printf '%s\\n' \"=== patch $k: exit \$?\" >>/tmp/runner.out"
		done
		printf '%s\n' 'cat /tmp/runner.out'
	} >"$s_dir/payload.sh"
	set --
	for k in $SERIES_SAMPLES $s_n; do
		set -- "$@" -D "$s_dir/ksft/$k"
	done
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -t 600 -b /bin/bash \
		-p "$s_dir/payload.sh" -o "$s_dir/guest" "$@" || ok=1
	say "guest: $(($(date +%s) - s_t)) s"
	s_out=$s_dir/guest/output.txt
	sed 's/^/# /' "$s_out" >&2
	for k in $SERIES_SAMPLES $s_n; do
		series_sample_check "$s_out" "$k" || ok=1
	done
	[ $ok = 0 ] || return 1
	series_cover "$s_base"
}

# The kselftest of patch K in the guest's output: it passed, upstream's
# script printing the three lines it greps for, or the wrapper checking
# every test of the results it loaded with the parameters given.
series_sample_check() {	# output k
	sed -n "/^=== patch $2\$/,/^=== patch $2: exit /p" "$1" >"$1.$2"
	grep -qx "=== patch $2: exit 0" "$1.$2" &&
		grep -qx 'ok 1 selftests: net/bench: test_bench_page_pool.sh' "$1.$2" &&
		! grep -q '^# not ok' "$1.$2" ||
		{ say "patch $2: run_kselftest.sh did not pass"; return 1; }
	if ! grep -q '^# # modules: ' "$1.$2"; then
		for t in no-softirq-page_pool01 no-softirq-page_pool02 no-softirq-page_pool03; do
			grep -Eq "^# $t Per elem: [0-9]+ cycles\(tsc\) [0-9]+\.[0-9]+ ns\$" "$1.$2" ||
				{ say "patch $2: upstream's script printed no line of $t"; return 1; }
		done
		say "patch $2: upstream's script passed, its three lines printed"
		return 0
	fi
	grep -qxF "# # modules: insmod from /bench/$2/net/bench/page_pool" "$1.$2" &&
	grep -qxF "# # parameters: $SERIES_PARAMS (from \$BENCH_PAGE_POOL_PARAMS)" "$1.$2" ||
		{ say "patch $2: the wrapper did not load the kselftest's module with the parameters"; return 1; }
	# the tree's ktap_helpers.sh printed the totals: only its
	# ktap_print_totals counts the skips (the relations, on TCG) so
	grep -q '^# # [0-9]* skipped test(s) detected\.' "$1.$2" ||
		{ say "patch $2: the wrapper did not use the tree's ktap_helpers.sh"; return 1; }
	# every test of the results passed its own check, its figures
	# after " # ", and upstream's are among them
	s_tests=$(sed -n 's/^# # test: name=\([^ ]*\) .*/\1/p' "$1.$2")
	for t in $s_tests; do
		grep -q "^# ok [0-9]* $t # value=[0-9.]* unit=cycles instrument=tcg " "$1.$2" ||
			{ say "patch $2: $t has no passed check with its figures"; return 1; }
	done
	for t in $SERIES_UPSTREAM_TESTS; do
		printf '%s\n' "$s_tests" | grep -qxF "$t" ||
			{ say "patch $2: upstream's $t did not run"; return 1; }
	done
	say "patch $2: the wrapper passed, $(printf '%s\n' "$s_tests" | grep -c .) tests run and reported"
}

# The last patch's kselftest run as NIPA's contest runs it (the
# install's run_kselftest.sh nests its output as "make run_tests" does;
# the guest has no make; a pipe, as there: its runner reopens
# /dev/stdout, which would truncate a file), counting instructions, read with NIPA's rules
# (tools/results/ktap-ci.py nipa): with the default parameters a skip, the
# cross-CPU test's checks the only skipped subtests (vCPUs take turns
# under -icount); without that test a pass, every check judged; with a
# limit below the fast path's cost a fail, that check's subtest the one
# not ok.
SERIES_NIPA_JUDGED="tests=for_loop,atomic_inc,lock,no-softirq*,tasklet*,napi*"
SERIES_NIPA_LIMIT="tasklet_page_pool01_fast_path 10"

series_nipa() {	# guest-output-dir
	n_ok=0
	for run in default judged limit; do
		n_rc=$(cat "$1/nipa-$run.rc" 2>/dev/null)
		python3 "$BENCH_TOP/tools/results/ktap-ci.py" nipa "$1/nipa-$run.out" \
			"${n_rc:-1}" >"$1/nipa-$run.txt" || n_ok=1
		n_run=$(sed -n 's/^run //p' "$1/nipa-$run.txt")
		n_sub=$(grep -c '^subtest ' "$1/nipa-$run.txt")
		say "NIPA, $run: exit ${n_rc:-none}, run $n_run, $n_sub subtests: $(sed -n 's/^subtest [^ ]* //p' "$1/nipa-$run.txt" | sort | uniq -c | tr -s ' \n' ' ')"
		grep '^subtest .* \(fail\|skip\)$' "$1/nipa-$run.txt" |
			sed 's/^/#   /' >&2
		case $run/$n_rc/$n_run in
		default/0/skip | judged/0/pass | limit/1/fail) ;;
		*) n_ok=1 ;;
		esac
		[ "$n_sub" -gt 100 ] || n_ok=1
	done
	# default: only the cross-CPU test's checks skipped, none failed
	grep '^subtest .* skip$' "$1/nipa-default.txt" |
		grep -qv '^subtest cross-cpu-page-pool01-return' && n_ok=1
	grep -q '^subtest cross-cpu-page-pool01-return-cpus skip$' \
		"$1/nipa-default.txt" || n_ok=1
	! grep -q '^subtest .* fail$' "$1/nipa-default.txt" || n_ok=1
	# judged: nothing skipped or failed; limit: one check failed
	! grep -q '^subtest .* \(skip\|fail\)$' "$1/nipa-judged.txt" || n_ok=1
	[ "$(grep '^subtest .* fail$' "$1/nipa-limit.txt")" = \
	  "subtest tasklet-page-pool01-fast-path-median-within-limit fail" ] ||
		n_ok=1
	return $n_ok
}

# The cover letter's numbers, measured: upstream's tests by upstream's
# module and by the series' (the last patch's kselftest install), one load each
# in a guest counting instructions; then make series again from the
# base with them as NUMBERS, and the cover letter must carry them.
SERIES_LOOPS=100000

series_cover() {	# base
	c_dir=$s_dir/numbers
	rm -rf "$c_dir" "$c_dir.payload"
	mkdir -p "$c_dir.payload"
	printf '%s\n' 'mark() { printf "%s\n" "$1" >/dev/kmsg; }' \
		'mark series-upstream' \
		"insmod /bench/upstream/bench_page_pool.ko loops=$SERIES_LOOPS && rmmod bench_page_pool || exit 1" \
		'mark series-after' \
		"insmod /bench/$s_n/net/bench/page_pool/bench_page_pool.ko tests=$(printf '%s' "$SERIES_UPSTREAM_TESTS" | tr ' ' ,) loops=$SERIES_LOOPS reps=1 && rmmod bench_page_pool || exit 1" \
		'dmesg >"$BENCH_OUT/numbers.dmesg"' \
		'nipa() { { (cd /bench/'"$s_n"' && ./run_kselftest.sh) 2>&1; echo $? >"$BENCH_OUT/nipa-$1.rc"; } | cat >"$BENCH_OUT/nipa-$1.out"; }' \
		'nipa default' \
		"(export BENCH_PAGE_POOL_PARAMS='$SERIES_NIPA_JUDGED'; nipa judged)" \
		"printf '%s\\n' '$SERIES_NIPA_LIMIT' >/tmp/limit" \
		'(export BENCH_PAGE_POOL_THRESHOLDS=/tmp/limit; nipa limit)' \
		>"$c_dir.payload/payload.sh"
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -i -s 1 -t 300 \
		-p "$c_dir.payload/payload.sh" -o "$c_dir" \
		-D "$s_dir/ksft/$s_n" -D "$s_dir/upstream" || return 1
	# "PREFIX: Type:NAME Per elem: ... (invoke count:K tsc_interval:Z)"
	# per module: Z/K, counted instructions per element
	awk -v tests="$SERIES_UPSTREAM_TESTS" -v loops=$SERIES_LOOPS \
		-v release="$KERNEL_RELEASE" '
	/ series-upstream$/ { side = "before"; next }
	/ series-after$/ { side = "after"; next }
	side != "" && / Type:[^ ]+ Per elem: / &&
	match($0, /\(invoke count:[0-9]+ tsc_interval:[0-9]+\)$/) {
		name = $0
		sub(/.* Type:/, "", name)
		sub(/ .*/, "", name)
		split(substr($0, RSTART + 14), w, /[ :)]/)
		if (!((side, name) in value))
			value[side, name] = sprintf("%.2f", w[3] / w[1])
	}
	END {
		print "Upstream'"'"'s tests before the series (its module) and after it,"
		print "instructions per element: QEMU -icount, Debian'"'"'s " release ","
		print "one load of each module, loops=" loops ":"
		print ""
		printf "  %-24s %10s %10s\n", "test", "before", "after"
		n = split(tests, t, " ")
		for (i = 1; i <= n; i++) {
			if (!(("before", t[i]) in value) || !(("after", t[i]) in value))
				exit 1
			printf "  %-24s %10s %10s\n", t[i], value["before", t[i]],
			       value["after", t[i]]
		}
	}' "$c_dir/numbers.dmesg" >"$c_dir/numbers.txt" ||
		{ say "not every upstream test printed its line in both loads"; return 1; }
	sed 's/^/# /' "$c_dir/numbers.txt" >&2
	series_nipa "$c_dir" || return 1
	git -C "$s_tree" reset -q --hard "$1" || return 1
	# a table that is no text is refused in one line, nothing committed
	printf 'before\001after\n' >"$c_dir/bad.txt"
	c_out=$(TREE=$s_tree NUMBERS=$c_dir/bad.txt \
		sh "$BENCH_TOP/tools/series/series.sh" 2>&1)
	c_rc=$?
	say "NUMBERS with a control character: exit $c_rc, $c_out"
	[ $c_rc = 2 ] && [ "$(git -C "$s_tree" rev-parse HEAD)" = "$1" ] &&
		[ "$c_out" = "error: $c_dir/bad.txt:1: accepted: 1 to 60 lines of printable ASCII, each 200 bytes or less" ] ||
		return 1
	# a folder that holds patches is refused, a new one used
	TREE=$s_tree SERIES_OUT=$s_dir/patches NUMBERS=$c_dir/numbers.txt \
		sh "$BENCH_TOP/tools/series/series.sh" 2>&1 |
		grep -q ": holds patches already" || return 1
	TREE=$s_tree SERIES_OUT=$c_dir/patches NUMBERS=$c_dir/numbers.txt \
		sh "$BENCH_TOP/tools/series/series.sh" >/dev/null || return 1
	c_letter=$c_dir/patches/0000-cover-letter.patch
	grep -q "^Subject: \\[PATCH net-next 0*0/$s_n\\] selftests: net: page_pool: " "$c_letter" &&
		grep -qxF "$(sed -n 5p "$c_dir/numbers.txt")" "$c_letter" &&
		grep -q '^  selftests: net: page_pool: check each test in' "$c_letter" &&
		grep -q '^  selftests: net: page_pool: add time_bench.s loop driver' "$c_letter" ||
		{ say "$c_letter: no subject, numbers or shortlog of the series"; return 1; }
	say "cover letter: $c_letter"
}
