#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make track TREE=<kernel git work tree> RANGE=BASE..HEAD", or
# "MBOX=<a posted series>": the module's tests counted in instructions
# (QEMU -icount) on the kernel of BASE and of every commit of the range
# (first parent) or patch of the series, each compared with the one
# before by bench-compare; a table of what each changed, OUT/track.json,
# OUT/track.svg, OUT/kcidb.json for KernelCI and OUT/reply.txt, the
# table for a reply on the list.  doc/track.rst says how.
#
#   TREE       a git work tree of a Linux kernel; only read (tools/track/lib.sh)
#   RANGE      BASE..HEAD, as git takes it; BASE on HEAD's first-parent line
#   MBOX       a series as posted (git format-patch's or b4 am's mailbox),
#              applied with git am in make track's own clone of TREE
#              (tools/track/mbox.sh); instead of RANGE
#   BASE       the commit the MBOX series applies to (default: its
#              base-commit: trailer)
#   MAX_COMMITS  the most commits a run measures (default 50: about a
#              minute each, its kernel and its loads); SHARD= splits more
#   ARGS       module parameters of every load (default: every test)
#   E2E, E2E_PACKETS, E2E_REPS  the end-to-end scenarios, as make ab's
#   PROFILE    1: each load with its exact profile; the functions that
#              moved under the table
#   CONFIG_FRAGMENT  kernel options merged after the project's
#   LOADS      loads per commit (default 6: with Holm over 20 rows,
#              2/C(12,6) = 0.0022 < 0.05/20)
#   LOADS_PER_GUEST  loads a guest (default: LOADS)
#   ALPHA      bench-compare's significance level (default 0.05)
#   FAIL_ABOVE exit 1 naming the first commit and row that got slower by
#              more than this many percent with a "change" verdict
#   SHARD      K/N: only every Nth commit of the range from the Kth,
#              with the parent each needs, for a CI job matrix
#   MERGE      "DIR..." the OUT folders of the shards of one range: the
#              one table of them all (no TREE, nothing measured)
#   OUT        new or empty folder (default: build/track-YYYYmmdd-HHMMSS)
#   ORIGIN     the KCIDB origin of kcidb.json's ids, a-z, 0-9 and _
#              (default bench_page_pool)
#   TIMEOUT    seconds before a guest counts as hung (default: 900)
# Exit status: 0; 1 when a commit did not build or boot, a load's timed
# windows held another task's work, or the FAIL_ABOVE gate failed; 2 for
# bad input, before any guest, or a base that does not build or boot.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib guest e2e
. "$BENCH_TOP/results_lib.sh"
. "$BENCH_TOP/tools/track/lib.sh"
. "$BENCH_TOP/tools/track/report.sh"
. "$BENCH_TOP/tools/track/mbox.sh"

COMPARE=$BENCH_TOP/tools/compare/bench-compare

OUT=${OUT:-$BENCH_TOP/build/track-$(date +%Y%m%d-%H%M%S)}
FAIL_ABOVE=${FAIL_ABOVE:-}
ALPHA=${ALPHA:-}
ORIGIN=${ORIGIN:-bench_page_pool}
MERGE=${MERGE:-}
SHARD=${SHARD:-1/1}
check_new_folder OUT "$OUT"
need_packages git jq
make -s -C "$BENCH_TOP/tools/compare" >&2 || die "cannot build bench-compare"
err=$("$COMPARE" --dry-run ${ALPHA:+--alpha "$ALPHA"} \
	${FAIL_ABOVE:+--fail-above "$FAIL_ABOVE"} --origin "$ORIGIN" \
	2>&1 >/dev/null) ||
	usage_die "${ALPHA:+ALPHA=$ALPHA }${FAIL_ABOVE:+FAIL_ABOVE=$FAIL_ABOVE }ORIGIN=$ORIGIN (bench-compare's options): $(printf '%s\n' "$err" | head -n 1)"
# the gate reads it as a JSON number (track_gate)
[ -z "$FAIL_ABOVE" ] || results_is_number "$FAIL_ABOVE" ||
	usage_die "FAIL_ABOVE=$FAIL_ABOVE: accepted: a percentage as a plain decimal number, e.g. 2 or 0.5"

if [ -n "$MERGE" ]; then
	[ -z "${TREE:-}" ] && [ -z "${RANGE:-}" ] ||
		usage_die "MERGE= joins the OUT folders of shards: it takes no TREE or RANGE"
	mkdir -p "$OUT" || usage_die "OUT=$OUT: cannot create it"
	# shellcheck disable=SC2086 # folders, one a word
	TRACK_MERGE=1 track_report "$OUT" $MERGE
	exit
fi

# --- what to measure, every input checked before the first build ---
TREE=${TREE:-}
RANGE=${RANGE:-}
MBOX=${MBOX:-}
[ -n "$TREE" ] || usage_die "make track needs TREE=<a kernel git work tree> and RANGE=BASE..HEAD or MBOX=<a posted series>"
if [ -n "$MBOX" ]; then
	[ -z "$RANGE" ] || usage_die "MBOX=$MBOX takes no RANGE: the series is the mailbox's patches on their base"
else
	[ -n "$RANGE" ] || usage_die "make track needs RANGE=BASE..HEAD (e.g. RANGE=net-next/main..HEAD) or MBOX="
	[ -z "${BASE:-}" ] || usage_die "BASE=$BASE is the base of an MBOX= series; a RANGE names its own"
fi
t_k=${SHARD%/*} t_n=${SHARD#*/}
case $SHARD in
*[!0-9/]* | */*/* | 0* | */0*) t_k= ;;
[0-9]*/[0-9]*) ;;
*) t_k= ;;
esac
[ -n "$t_k" ] && [ "${#t_k}" -le 4 ] && [ "${#t_n}" -le 4 ] &&
	[ "$t_k" -le "$t_n" ] ||
	usage_die "SHARD=$SHARD: accepted: K/N with 1 <= K <= N, e.g. 2/4"
LOADS=${LOADS:-6}
check_whole LOADS "$LOADS" 1
MAX_COMMITS=${MAX_COMMITS:-50}
check_whole MAX_COMMITS "$MAX_COMMITS" 1
LOADS_PER_GUEST=${LOADS_PER_GUEST:-$LOADS}
check_whole LOADS_PER_GUEST "$LOADS_PER_GUEST" 1
[ "${ICOUNT:-1}" = 1 ] ||
	usage_die "ICOUNT=$ICOUNT: make track counts instructions (QEMU -icount): exact per commit, which cycles are not"
ACCEL=tcg
guest_vars 1
e2e_vars
track_repo "$TREE"

if [ -n "$MBOX" ]; then
	temp_dir t_mbox
	track_mbox "$MBOX" "$t_mbox"
	t_base=$TM_BASE t_head=$TM_HEAD
	RANGE=$(printf '%.12s..%.12s' "$t_base" "$t_head")
	# the series' commits are our clone's: the tree read from here on
	TRACK_TOP=$TRACK_SRC
fi
case $RANGE in
*...*) usage_die "RANGE=$RANGE: BASE..HEAD with two dots: the commits after BASE up to HEAD" ;;
?*..?*) ;;
*) usage_die "RANGE=$RANGE: expected BASE..HEAD" ;;
esac
t_base=$(track_commit "${RANGE%%..*}") ||
	usage_die "RANGE=$RANGE: '${RANGE%%..*}' is no commit of $TRACK_TOP$(track_shallow_hint)"
t_head=$(track_commit "${RANGE#*..}") ||
	usage_die "RANGE=$RANGE: '${RANGE#*..}' is no commit of $TRACK_TOP$(track_shallow_hint)"
t_list=$(git -C "$TRACK_TOP" rev-list --first-parent --reverse \
	"$t_base..$t_head") || usage_die "RANGE=$RANGE: git rev-list failed"
[ -n "$t_list" ] || {
	t_back=$(git -C "$TRACK_TOP" rev-list --count "$t_head..$t_base")
	[ "$t_back" = 0 ] ||
		usage_die "RANGE=$RANGE is empty: ${RANGE#*..} is $t_back commit(s) before ${RANGE%%..*} (reversed?)"
	usage_die "RANGE=$RANGE is empty: no commit after BASE up to HEAD"
}
# shellcheck disable=SC2086 # commit ids, one a word
t_count=$(printf '%s\n' $t_list | grep -c .)
[ "$t_count" -le $((MAX_COMMITS * t_n)) ] ||
	usage_die "RANGE=$RANGE: $t_count commits, about $(((t_count + 59) / 60)) h to measure at a minute each (a kernel and its loads); at most MAX_COMMITS=$MAX_COMMITS a run: raise it, or give each CI job SHARD=K/N"
set -- $t_list
[ "$(git -C "$TRACK_TOP" rev-parse "$1^1" 2>/dev/null)" = "$t_base" ] ||
	usage_die "RANGE=$RANGE: ${RANGE%%..*} is not on ${RANGE#*..}'s first-parent line (the first commit after it, $(printf '%.12s' "$1"), has another first parent)"
t_merges=$(git -C "$TRACK_TOP" rev-list --first-parent --merges --count \
	"$t_base..$t_head")
[ "$t_merges" = 0 ] ||
	say "RANGE=$RANGE holds $t_merges merge(s): each is measured against its first parent"

mkdir -p "$OUT" || usage_die "OUT=$OUT: cannot create it"
# The range, every commit of it and which this shard measures: the
# commit's index, id and subject, tab-separated ("0" is the base).
t_i=0
for t_c in $t_base $t_list; do
	printf '%s\t%s\t%s\n' $t_i "$t_c" "$(track_subject "$t_c")"
	t_i=$((t_i + 1))
done >"$OUT/commits.tsv"
printf '%s\n' "$RANGE" >"$OUT/range"
printf '%s\n' "$SHARD" >"$OUT/shard"
# what the reply says of the series and of the measurement
if [ -n "$MBOX" ]; then
	cp "$t_mbox/series.tsv" "$OUT/series.tsv" &&
		printf '%s\n' "$TM_TITLE" | track_printable >"$OUT/title" ||
		die "cannot write $OUT/series.tsv"
fi
printf 'Measured: the kernels of the base, %.12s, and of each commit: tinyconfig + tests/track/small.config%s; %s loads a kernel of bench_page_pool%s, QEMU -icount, one vCPU; bench-compare'"'"'s verdicts%s.\n' \
	"$t_base" "${CONFIG_FRAGMENT:+ + $(basename "$CONFIG_FRAGMENT")}" \
	"$LOADS" "${ARGS:+ ($ARGS)}$([ "${E2E:-0}" = 0 ] || printf ', E2E=%s' "$E2E")" \
	"${ALPHA:+ at alpha $ALPHA}" | track_printable >"$OUT/measured.txt" ||
	die "cannot write $OUT/measured.txt"
t_last=$((t_i - 1))
# Commits of this shard (own), and with the parents they need (measure)
: >"$OUT/own"
t_i=1
while [ $t_i -le $t_last ]; do
	[ $(((t_i - 1) % t_n)) = $((t_k - 1)) ] &&
		printf '%s\n' $t_i >>"$OUT/own"
	t_i=$((t_i + 1))
done
awk '{ print $1 - 1; print $1 }' "$OUT/own" | sort -un >"$OUT/measure"
say "make track: $t_last commit(s) after $(printf '%.12s' "$t_base") in $TRACK_TOP; shard $SHARD measures $(grep -c . "$OUT/measure") kernel(s), $LOADS loads each, into $OUT"

guest_packages
choose_accel

# --- each commit: its kernel, then its loads ---

# The id and folder of commit INDEX: m_id, m_dir.
track_pick() {	# index
	m_id=$(sed -n "$(($1 + 1))p" "$OUT/commits.tsv" | cut -f2)
	m_dir=$OUT/$(printf '%02d-%.12s' "$1" "$m_id")
}

# Commit INDEX's kernel and modules: built, or its status says why not.
# The first that builds checks ARGS against its module.
t_args_checked=
track_kernel_of() {	# index
	track_pick "$1"
	mkdir -p "$m_dir" || die "cannot create $m_dir"
	m_t0=$(date +%s)
	if ! track_kernel "$m_id"; then
		say "$(printf '%.12s' "$m_id"): $TK_WHY"
		printf '%s\n' "$TK_WHY" >"$m_dir/status"
		return 1
	fi
	say "$(printf '%.12s' "$m_id"): kernel $TK_RELEASE in $(($(date +%s) - m_t0)) s"
	if [ -z "$t_args_checked" ]; then
		check_module_args ARGS "$TK_MODS" "$ARGS"
		t_args_checked=1
	fi
	printf 'built\n' >"$m_dir/status"
}

# Commit INDEX's LOADS loads into its folder; its status "ok", or why
# not.
track_measure() {	# index
	track_pick "$1"
	[ "$(cat "$m_dir/status")" = built ] || return 0
	track_kernel "$m_id" || die "$m_id: its kernel is gone from $TK_DIR"
	m_t1=$(date +%s)
	if ! track_loads "$m_dir"; then
		say "$(printf '%.12s' "$m_id"): $T_WHY"
		printf '%s\n' "$T_WHY" >"$m_dir/status"
		return
	fi
	printf 'ok\n' >"$m_dir/status"
	say "$(printf '%.12s' "$m_id"): $LOADS loads in $(($(date +%s) - m_t1)) s"
}

# Every kernel first: a base that does not build ends the run before
# any guest, and ARGS are checked against the first module built.
t_start=$(date +%s)
for t_i in $(cat "$OUT/measure"); do
	if ! track_kernel_of "$t_i" && [ "$t_i" = 0 ]; then
		say "error: the base, $(printf '%.12s' "$t_base"), does not build: $TK_WHY"
		exit 2
	fi
done
for t_i in $(cat "$OUT/measure"); do
	track_measure "$t_i"
	# nothing to compare the next commits with
	[ "$t_i" = 0 ] && [ "$(cat "$OUT/00-"*/status)" != ok ] &&
		{ say "error: the base, $(printf '%.12s' "$t_base"), was not measured: $(cat "$OUT/00-"*/status)"; exit 2; }
done

# --- each commit against the nearest earlier commit measured ---
track_compare_all "$OUT"
say "measured in $(($(date +%s) - t_start)) s"
track_report "$OUT" "$OUT"
