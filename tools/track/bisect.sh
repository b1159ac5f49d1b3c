#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make bisect TREE=... GOOD=... BAD=... TEST=NAME [MOVED_BY=N]": the
# first commit (first parent) between GOOD and BAD whose count of TEST
# moved, found by "git bisect run" with the exact count as the oracle
# (QEMU -icount, LOADS loads a commit, bench-compare against GOOD), in
# make track's clone of TREE: the developer's checkout and any bisect
# of theirs stay as they were.
#
#   TREE, CONFIG_FRAGMENT  as make track's
#   GOOD, BAD  commits; GOOD an ancestor of BAD
#   TEST       the test (or scenario, with E2E) whose count decides
#   MOVED_BY   the least move per element that counts, a decimal
#              (default: any "change" bench-compare sees)
#   ARGS       more module parameters (default: tests=TEST)
#   LOADS      loads per commit (default 6), in one guest
#   PROFILE    1: the functions that moved, from exact profiles
#   OUT        new or empty folder (default: build/bisect-YYYYmmdd-HHMMSS)
# A commit that does not build or boot is skipped (git bisect's 125),
# with its reason.  Exit status: 0 found; 1 not found (BAD does not
# differ from GOOD, or only skipped commits are left, or the oracle
# failed), or found from a load whose windows held another task's work;
# 2 bad input.
set -u

# git bisect run's oracle is this script with BISECT_STEP=1, run here
# so that only its verdicts reach git (0 as at GOOD, 1 moved, 125
# skip): any other end of it (an error, a signal) aborts the bisect
# (128) instead of marking the commit bad.
if [ "${BISECT_STEP:-}" = 1 ] && [ -z "${BISECT_ORACLE:-}" ]; then
	BISECT_ORACLE=1 sh "$0"
	case $? in
	0) exit 0 ;;
	10) exit 1 ;;
	125) exit 125 ;;
	*) exit 128 ;;
	esac
fi
. "$(dirname "$0")/../lib.sh"
bench_lib guest e2e
. "$BENCH_TOP/results_lib.sh"
. "$BENCH_TOP/tools/track/lib.sh"

COMPARE=$BENCH_TOP/tools/compare/bench-compare
TREE=${TREE:-}
GOOD=${GOOD:-}
BAD=${BAD:-}
TEST=${TEST:-}
MOVED_BY=${MOVED_BY:-}
OUT=${OUT:-$BENCH_TOP/build/bisect-$(date +%Y%m%d-%H%M%S)}

[ -n "$TREE" ] && [ -n "$GOOD" ] && [ -n "$BAD" ] && [ -n "$TEST" ] ||
	usage_die "make bisect needs TREE=<a kernel git work tree>, GOOD=, BAD= and TEST=<a test's name>"
case $TEST in
*[!A-Za-z0-9_-]*) usage_die "TEST=$TEST: a test name is letters, digits, '_' and '-'" ;;
esac
[ -z "$MOVED_BY" ] || results_is_number "$MOVED_BY" ||
	usage_die "MOVED_BY=$MOVED_BY: accepted: a plain decimal number of instructions per element, e.g. 2 or 0.5"
# the oracle's calls (BISECT_STEP=1) share the first call's OUT; they
# run in the clone, so every path they are given is absolute
[ "${BISECT_STEP:-}" = 1 ] || check_new_folder OUT "$OUT"
case ${CONFIG_FRAGMENT:-/} in
/*) ;;
*) CONFIG_FRAGMENT=$PWD/$CONFIG_FRAGMENT ;;
esac
LOADS=${LOADS:-6}
check_whole LOADS "$LOADS" 1
LOADS_PER_GUEST=$LOADS
[ "${ICOUNT:-1}" = 1 ] ||
	usage_die "ICOUNT=$ICOUNT: make bisect's oracle is an exact count (QEMU -icount)"
ACCEL=tcg
ARGS="tests=$TEST${ARGS:+ $ARGS}"
guest_vars 1
e2e_vars
need_packages git jq
make -s -C "$BENCH_TOP/tools/compare" >&2 || die "cannot build bench-compare"
track_repo "$TREE"
BISECT_GOOD=$(track_commit "$GOOD") ||
	usage_die "GOOD=$GOOD is no commit of $TRACK_TOP$(track_shallow_hint)"
BISECT_BAD=$(track_commit "$BAD") ||
	usage_die "BAD=$BAD is no commit of $TRACK_TOP$(track_shallow_hint)"
[ "$BISECT_GOOD" != "$BISECT_BAD" ] ||
	usage_die "GOOD and BAD are one commit: nothing to bisect"
git -C "$TRACK_TOP" merge-base --is-ancestor "$BISECT_GOOD" "$BISECT_BAD" ||
	usage_die "GOOD=$GOOD is not an ancestor of BAD=$BAD"
mkdir -p "$OUT" || usage_die "OUT=$OUT: cannot create it"
OUT=$(cd "$OUT" && pwd) || usage_die "OUT=$OUT: cannot enter it"
guest_packages
choose_accel

# The loads of commit ID in OUT/ID12: 0, or 125 with the reason in
# its folder's status when it does not build or boot.
bisect_loads() {	# id
	b_dir=$OUT/$(printf '%.12s' "$1")
	if [ -f "$b_dir/status" ]; then
		[ "$(cat "$b_dir/status")" = ok ] && return 0
		return 125
	fi
	mkdir -p "$b_dir" || die "cannot create $b_dir"
	if ! track_kernel "$1"; then
		printf '%s\n' "$TK_WHY" >"$b_dir/status"
		return 125
	fi
	if ! track_loads "$b_dir"; then
		printf '%s\n' "$T_WHY" >"$b_dir/status"
		return 125
	fi
	printf 'ok\n' >"$b_dir/status"
}

# TEST's row of bench-compare of commit A's loads against B's: "VERDICT
# DIFF BEFORE AFTER", or nothing when TEST is in neither.
bisect_row() {	# a b
	"$COMPARE" -f json "$OUT/$(printf '%.12s' "$1")"/load-*.results -- \
		"$OUT/$(printf '%.12s' "$2")"/load-*.results \
		>"$OUT/compare.json" 2>"$OUT/compare.err" ||
		die "bench-compare failed: $(head -n 1 "$OUT/compare.err")"
	jq -r --arg t "$TEST" '.settings.clock as $c | .rows[]
		| select(.test == $t)
		| "\(.verdict) \(.[$c].diff) \(.[$c].before) \(.[$c].after)"' \
		"$OUT/compare.json"
}

# Did TEST move from GOOD to commit ID, as MOVED_BY says?
bisect_moved() {	# id
	set -- $(bisect_row "$BISECT_GOOD" "$1")
	[ "${1:-}" = change ] || return 1
	[ -z "$MOVED_BY" ] && return 0
	awk -v d="$2" -v m="$MOVED_BY" 'BEGIN { exit !(d >= m || -d >= m) }'
}

# The oracle: 0 good, 10 bad (moved), 125 skip; the commit is git
# bisect's BISECT_HEAD (it never checks out: make track's builds check
# out the clone's work tree, under their lock).
if [ "${BISECT_STEP:-}" = 1 ]; then
	b_id=$(git -C "$TRACK_SRC" rev-parse --verify BISECT_HEAD) ||
		die "no BISECT_HEAD in $TRACK_SRC"
	bisect_loads "$b_id"
	b_rc=$?
	if [ $b_rc = 125 ]; then
		say "$(printf '%.12s' "$b_id"): skipped: $(cat "$OUT/$(printf '%.12s' "$b_id")/status")"
		exit 125
	fi
	if bisect_moved "$b_id"; then
		say "$(printf '%.12s' "$b_id"): $TEST moved: $(bisect_row "$BISECT_GOOD" "$b_id")"
		exit 10
	fi
	say "$(printf '%.12s' "$b_id"): $TEST as at GOOD: $(bisect_row "$BISECT_GOOD" "$b_id")"
	exit 0
fi

bisect_loads "$BISECT_GOOD" ||
	{ say "error: GOOD=$GOOD does not build or boot: $(cat "$OUT/$(printf '%.12s' "$BISECT_GOOD")/status")"; exit 2; }
bisect_loads "$BISECT_BAD" ||
	{ say "error: BAD=$BAD does not build or boot: $(cat "$OUT/$(printf '%.12s' "$BISECT_BAD")/status")"; exit 2; }
[ -n "$(bisect_row "$BISECT_GOOD" "$BISECT_BAD")" ] ||
	usage_die "TEST=$TEST: no such row in the loads of GOOD and BAD (see modinfo bench_page_pool, or E2E=)"
if ! bisect_moved "$BISECT_BAD"; then
	say "$TEST did not move from GOOD to BAD ($(bisect_row "$BISECT_GOOD" "$BISECT_BAD")${MOVED_BY:+, MOVED_BY=$MOVED_BY}): nothing to bisect"
	exit 1
fi

# git bisect in our clone, with this script as its oracle.
track_clone
(
	flock 9 || exit 1
	git -C "$TRACK_SRC" bisect reset HEAD >/dev/null 2>&1
	git -C "$TRACK_SRC" bisect start --no-checkout --first-parent \
		"$BISECT_BAD" "$BISECT_GOOD" >"$OUT/bisect.log" 2>&1 &&
	BISECT_STEP=1 OUT=$OUT TREE=$TRACK_TOP TEST=$TEST MOVED_BY=$MOVED_BY \
		ARGS=${ARGS#"tests=$TEST"} LOADS=$LOADS PROFILE=$PROFILE \
		GOOD=$BISECT_GOOD BAD=$BISECT_BAD \
		CONFIG_FRAGMENT=${CONFIG_FRAGMENT:-} BENCH_CACHE=$BENCH_CACHE \
		git -C "$TRACK_SRC" bisect run sh "$BENCH_TOP/tools/track/bisect.sh" \
		>>"$OUT/bisect.log" 2>&1
	b_rc=$?
	git -C "$TRACK_SRC" bisect log >"$OUT/bisect-steps.log" 2>&1
	git -C "$TRACK_SRC" rev-parse --verify -q refs/bisect/bad \
		>"$OUT/first-bad" 2>/dev/null
	git -C "$TRACK_SRC" bisect reset HEAD >/dev/null 2>&1
	exit $b_rc
) 9>"$(dirname "$TRACK_SRC")/.bisect-lock"
b_rc=$?
grep -E '^[0-9a-f]{12}: ' "$OUT/bisect.log" >&2
if [ $b_rc != 0 ] || ! grep -q 'is the first bad commit' "$OUT/bisect.log"; then
	say "git bisect found no single commit (exit $b_rc): $(grep -m 1 -E 'only skipped|cannot|error|failed|^usage' "$OUT/bisect.log")"
	say "its log: $OUT/bisect.log"
	exit 1
fi
b_first=$(cat "$OUT/first-bad")
b_parent=$(git -C "$TRACK_TOP" rev-parse "$b_first^1")
bisect_loads "$b_parent" ||
	{ say "its parent $(printf '%.12s' "$b_parent") does not build or boot: $(cat "$OUT/$(printf '%.12s' "$b_parent")/status")"; exit 1; }
set -- $(bisect_row "$b_parent" "$b_first")
b_clock=$(jq -r .settings.clock "$OUT/compare.json")
printf 'first commit whose %s moved%s: %s %s\n' "$TEST" \
	"${MOVED_BY:+ by $MOVED_BY or more}" "$b_first" "$(track_subject "$b_first")"
printf '  %s: %s -> %s %s per element (%s, %s) against its parent %.12s\n' \
	"$TEST" "$3" "$4" "$b_clock" "$(awk -v d="$2" 'BEGIN { printf "%+.3f", d }')" \
	"$1" "$b_parent"
if [ "$PROFILE" = 1 ]; then
	printf '  functions that moved:\n'
	jq -r --arg t "$TEST" '.rows[] | select(.test == $t)
		| (.profile.moved // [])[]
		| [.function, .counts.insns.diff, .counts.loads.diff,
		   .counts.stores.diff, .counts.atomics.diff,
		   .counts.l1d_miss.diff] | @tsv' "$OUT/compare.json" |
		awk -F '\t' "$TRACK_MOVED_AWK"'
		{ print "    " moved_text($1, $2, $3, $4, $5, $6) }'
fi
printf '  %s commits tested, %s skipped; git bisect log: %s\n' \
	"$(grep -c '^[0-9a-f]\{12\}: ' "$OUT/bisect.log")" \
	"$(grep -c '^[0-9a-f]\{12\}: skipped' "$OUT/bisect.log")" \
	"$OUT/bisect-steps.log"
# an oracle's count that held another task's work (doc/windows.rst)
b_pert=$(for b_dir in "$OUT"/*/; do
		set -- "$b_dir"load-*.results
		[ -f "$1" ] || continue
		perturbed_loads "$@" | sed "s/^ /$(basename "$b_dir")/"
	 done)
if [ -n "$b_pert" ]; then
	say "error: timed windows that held another task's work (perturbed_chunks):"
	printf '%s\n' "$b_pert" >&2
	exit 1
fi
