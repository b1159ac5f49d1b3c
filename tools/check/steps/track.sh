# SPDX-License-Identifier: GPL-2.0
#
# make check's steps of make track and make bisect, sourced by
# tools/check/check.sh: tests/track's series on a git tree of
# linux-source-6.12, its small kernels, the table and its kcidb.json,
# the bisection, the developer's tree left as it was.

# The constructed series of tests/track/ (a comment, three instructions,
# a cold load, an atomic, the revert of the three) committed on Debian's
# linux-source-6.12 in a git tree of the cache, tagged track-base and
# track-head: cached by the source and the patches.  The git tree takes
# hard links of the unpacked source; the file the series changes and
# the one the developer's edit appends to get copies of their own first.
TRACK_CHECK=$BENCH_CACHE/track-check

track_check_tree() {
	t_key=$({ ls -l --time-style=+%s /usr/src/linux-source-6.12.tar.* 2>/dev/null
		  cat "$BENCH_TOP"/tests/track/*.patch; } | md5sum | cut -c1-12)
	TRACK_TREE=$TRACK_CHECK/linux
	[ -f "$TRACK_CHECK/.key" ] && [ "$(cat "$TRACK_CHECK/.key")" = "$t_key" ] &&
		return 0
	cache_miss "committing linux-source-6.12 and tests/track/*.patch into $TRACK_TREE"
	rm -rf "$TRACK_CHECK"
	mkdir -p "$TRACK_CHECK" && cp -al "$SRC" "$TRACK_TREE" || return 1
	(
		cd "$TRACK_TREE" || exit 1
		rm -f .unpacked .gitignore net/core/page_pool.c README &&
		cp "$SRC/net/core/page_pool.c" net/core/page_pool.c &&
		cp "$SRC/README" README &&
		# Debian's packaging lines ignore every top-level path
		grep -vx -e '/\*' -e '!/debian/' "$SRC/.gitignore" >.gitignore &&
		git init -q && git add -A &&
		git -c user.name=Debian -c user.email=debian@example.org \
			commit -q -m "Linux 6.12 as Debian's linux-source-6.12 ships it" &&
		git tag track-base &&
		git -c user.name=Bench -c user.email=bench@example.org \
			am -q "$BENCH_TOP"/tests/track/*.patch &&
		git tag track-head
	) >"$TRACK_CHECK/git.log" 2>&1 ||
		{ tail -n 20 "$TRACK_CHECK/git.log" >&2; return 1; }
	printf '%s\n' "$t_key" >"$TRACK_CHECK/.key"
}

# Every commit's kernel of that tree, as make track builds them; the
# base's and the cold load's images (three instructions and three more a
# cached page), and the build tree, for the make ab comparisons below
# (the series changes one .c file: the modules built against the tree
# load in every one).
track_kernels() {
	track_check_tree || return 1
	(
		. "$BENCH_TOP/tools/track/lib.sh"
		track_repo "$TRACK_TREE"
		for c in $(git -C "$TRACK_TREE" rev-parse track-base) \
			 $(git -C "$TRACK_TREE" rev-list --reverse track-base..track-head); do
			track_kernel "$c" || { say "$c: $TK_WHY"; exit 1; }
			printf '%s %s\n' "$(git -C "$TRACK_TREE" log -1 --format=%h "$c")" "$TK_IMAGE"
		done
		printf 'kdir %s\n' "$TRACK_BUILD"
	) >"$LOGDIR/track-kernels" || return 1
	cat "$LOGDIR/track-kernels" >&2
	set -- $(sed -n '1p; 3p; 4p; $p' "$LOGDIR/track-kernels")
	# a build tree for make ab's module builds, even where every kernel
	# came from the cache (the series changes no header)
	if [ $# = 8 ] && [ ! -f "$8/include/generated/utsrelease.h" ]; then
		(
			. "$BENCH_TOP/tools/track/lib.sh"
			track_repo "$TRACK_TREE"
			track_build "$(git -C "$TRACK_TREE" rev-parse track-head)" \
				"$LOGDIR/track-head-build.log"
		) || { tail -n 20 "$LOGDIR/track-head-build.log" >&2; return 1; }
	fi
	[ $# = 8 ] || return 1
	AB_BASE=$2 AB_THREE=$4 AB_SIX=$6 AB_KDIR=$8
}

# The small kernels are built in the host lane once its checks are
# done: from an empty cache they take a quarter of an hour of both
# cores, beside the kernels' builds there.  Built in the second line,
# which starts after those, they made it end last (2,411 s from an
# empty cache).  The second line waits for them and reads what they
# are from the cache.
small_kernels_wanted() {
	[ "$AB" = 1 ] && [ "$SUITE_ICOUNT" = 1 ]
}

small_kernels_build() {
	# in a subshell: whatever ends it, the second line hears of it
	(track_kernels)
	s_rc=$?
	printf '%s\n' "$s_rc" >"$LOGDIR/small-kernels.rc"
	return "$s_rc"
}

small_kernels_wait() {
	until [ -e "$LOGDIR/small-kernels.rc" ]; do
		sleep 2
	done
	[ "$(cat "$LOGDIR/small-kernels.rc")" = 0 ] || {
		say "the host lane's build of the small kernels failed"
		return 1
	}
	track_kernels
}

# The developer's state of a tree, as make track and make bisect must
# leave it: HEAD, branch, index, status, an edit's content and a bisect
# under way.
tree_state() {	# tree
	git -C "$1" rev-parse HEAD
	git -C "$1" symbolic-ref -q HEAD || printf 'detached\n'
	# after git status, which may refresh the index's stat data
	git -C "$1" status --porcelain
	md5sum <"$1/.git/index"
	md5sum <"$1/README"
	git -C "$1" bisect log 2>&1
}

# COMMAND on the series' tree with a developer's state around it (a
# bisect of theirs under way, an edit, an untracked file), its output
# in LOGDIR/NAME.out and its status in DEV_RC; 1 when that state did
# not stay as it was.
with_developer_state() {	# name command...
	d_name=$1
	shift
	g=$TRACK_TREE
	git -C "$g" bisect start track-head track-base >/dev/null 2>&1 &&
		printf '\nan edit of the developer\n' >>"$g/README" &&
		: >"$g/untracked-of-the-developer" || return 1
	tree_state "$g" >"$LOGDIR/$d_name-state.before"
	"$@" >"$LOGDIR/$d_name.out" 2>&1
	DEV_RC=$?
	tree_state "$g" >"$LOGDIR/$d_name-state.after"
	git -C "$g" bisect reset >/dev/null 2>&1
	git -C "$g" checkout -q -- README
	rm -f "$g/untracked-of-the-developer"
	sed 's/^/# /' "$LOGDIR/$d_name.out" >&2
	diff "$LOGDIR/$d_name-state.before" "$LOGDIR/$d_name-state.after" >&2 ||
		{ say "the developer's tree changed"; return 1; }
}

# make track PROFILE=1 of the series, with the developer's state around
# it; one guest made to panic once, booted again.
TRACK_ARGS="tests=$AB_CACHE_TEST,$AB_OTHER_TESTS time_ms=5"

track_run() {
	fail_once_runner "$LOGDIR/fail-once-runner.sh"
	rm -rf "$LOGDIR/track" "$LOGDIR/fail-once.record" \
		"$LOGDIR/fail-once.record.failed"
	with_developer_state track \
		run_child env BENCH_GUEST_RUNNER="$LOGDIR/fail-once-runner.sh" \
		REAL_RUNNER="$BENCH_TOP/tools/guest/guest.sh" FAIL_GUEST=guest-1 \
		RECORD="$LOGDIR/fail-once.record" \
		TREE="$TRACK_TREE" RANGE=track-base..track-head PROFILE=1 \
		LOADS=6 ALPHA=0.01 FAIL_ABOVE=2 ARGS="$TRACK_ARGS" \
		OUT="$LOGDIR/track" sh "$BENCH_TOP/tools/track/track.sh" || return 1
	say "make track: exit $DEV_RC (FAIL_ABOVE=2 must name a commit: 1)"
	[ $DEV_RC = 1 ]
}

# Commit INDEX of the track: TEST's verdict, and its profile as
# EXPECTATION says (tools/profile/expect.py), or untouched.
track_expect() {	# index test verdict [expectation...]
	e_json=$LOGDIR/track-$1.json
	jq --argjson i "$1" '{rows: [.commits[] | select(.index == $i) | .rows[]]}' \
		"$LOGDIR/track/track.json" >"$e_json" || return 1
	e_got=$(jq -r --arg t "$2" '.rows[] | select(.test == $t) | .verdict' "$e_json")
	say "[$1] $2: $e_got (want $3)"
	[ "$e_got" = "$3" ] || return 1
	e_i=$1 e_t=$2
	shift 2
	if [ "$1" = change ]; then
		shift
		python3 "$BENCH_TOP/tools/profile/expect.py" "$e_json" \
			--changed "$e_t" "$@" >&2
	else
		python3 "$BENCH_TOP/tools/profile/expect.py" "$e_json" \
			--untouched "$e_t" >&2
	fi
}

# What the table of the series must say: "change" at the constructed
# commits with the constructed counts and functions, "noise" and no
# function moved elsewhere.  gcc 12 inlines page_pool_recycle_in_cache()
# into its caller until the atomic: then it stops (+17 instructions in
# it, -7 in the caller, +10 in all), and ptr_ring moves by about one
# instruction in page_pool_put_unrefed_netmem(), which it shares, for
# no call of the changed function: what the profile is for.
track_table_check() {
	ok=0
	for t in $AB_CACHE_TEST $(echo $AB_OTHER_TESTS | tr , ' '); do
		track_expect 1 $t noise || ok=1
		w=$(jq -r --arg t "$t" '.rows[] | select(.test == $t) | .instructions.ci | .[1] - .[0]' \
			"$LOGDIR/track-1.json")
		say "[1] $t: interval $w wide (under one instruction)"
		awk -v w="$w" 'BEGIN { exit !(w < 1) }' || ok=1
	done
	track_expect 2 $AB_CACHE_TEST change insns=3 || ok=1
	track_expect 3 $AB_CACHE_TEST change insns=3 loads=1 l1d_miss=1 || ok=1
	track_expect 4 $AB_CACHE_TEST change insns=10 loads=2 stores=2 atomics=1 || ok=1
	track_expect 4 tasklet_page_pool02_ptr_ring change --tolerance 0.1 insns=1 || ok=1
	track_expect 5 $AB_CACHE_TEST change insns=-3 || ok=1
	for i in 2 3 5; do
		for t in $(echo $AB_OTHER_TESTS | tr , ' '); do
			track_expect $i $t noise || ok=1
		done
	done
	track_expect 4 tasklet_page_pool03_slow noise || ok=1
	# kcidb.json: KCIDB's rules, one checkout a commit that built and
	# booted, each with the fast path's count in instructions
	python3 "$BENCH_TOP/tools/results/kcidb-check.py" "$LOGDIR/track/kcidb.json" >&2 ||
		ok=1
	jq -e --slurpfile t "$LOGDIR/track/track.json" --arg f "$AB_CACHE_TEST" '
		([.checkouts[].git_commit_hash] | sort) ==
		([$t[0].base.id] + [$t[0].commits[] | select(.status == "ok") | .id] |
		 sort) and
		([.tests[] | select(.path == "net.bench.page_pool." + $f and
			.number.unit == "instructions")] | length) ==
		(.checkouts | length)' "$LOGDIR/track/kcidb.json" >/dev/null ||
		{ say "kcidb.json: not one checkout per commit measured, each with $AB_CACHE_TEST"; ok=1; }
	# the gate names the three instructions, the first commit over 2%
	grep -q "^\[2\] [0-9a-f]\{12\} page_pool: three instructions more on the direct-recycle path: $AB_CACHE_TEST 3.6[0-9]% (82.0[0-9]* -> 85.0[0-9]* instructions)$" \
		"$LOGDIR/track.out" || { say "FAIL_ABOVE=2 did not name [2]"; ok=1; }
	# the panicked guest was booted again and its loads kept
	boots=$(grep -c '/00-[0-9a-f]*/guest-1$' "$LOGDIR/fail-once.record")
	say "the base's first guest booted $boots times"
	[ "$boots" = 2 ] && grep -q 'the guest failed (log: .*); booting it again (2 of 3)$' \
		"$LOGDIR/track.out" || ok=1
	return $ok
}

# make bisect of the fast path over the series names the three
# instructions, with the developer's state around it.
track_bisect() {
	rm -rf "$LOGDIR/bisect"
	with_developer_state bisect \
		run_child env TREE="$TRACK_TREE" GOOD=track-base BAD=track-head \
		TEST=$AB_CACHE_TEST ARGS=time_ms=2 OUT="$LOGDIR/bisect" \
		sh "$BENCH_TOP/tools/track/bisect.sh" || return 1
	want=$(git -C "$TRACK_TREE" rev-list --reverse track-base..track-head | sed -n 2p)
	[ $DEV_RC = 0 ] &&
		grep -q "^first commit whose $AB_CACHE_TEST moved: $want page_pool: three instructions more on the direct-recycle path$" \
			"$LOGDIR/bisect.out"
}
