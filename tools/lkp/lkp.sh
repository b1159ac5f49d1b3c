#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make lkp LKP=/path/to/lkp-tests": writes the benchmark as a program
# of 0-day's LKP into a clone of intel/lkp-tests, as one commit on a
# branch of its own (LKP_BRANCH, default bench-page-pool) made from the
# clone's HEAD: the clone's current branch, index and work tree stay as
# they were (the commit is built in an index of its own; nothing is
# checked out).  The commit holds:
#
#   programs/bench-page-pool/{run,parse,meta.yaml,pkg/PKGBUILD,pkg/depends}
#   jobs/bench-page-pool.yaml      (performance governor, every test; the
#                                  runs a verdict needs, from lib/stats.rb)
#   spec/fixtures/stats/bench-page-pool/N, N.yaml
#                                  (real results files of this project and
#                                  what parse prints of them)
#   etc/perf-metrics-prefixes      (+ "bench-page-pool.": every key a
#                                  performance metric, under 5% too)
#
# BENCH_GIT is the project's git URL the package is built from (default:
# this checkout's origin, else its path).  doc/lkp.rst says more.
set -u
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tools/lkp/lib.sh
bench_lib lkp

LKP=${LKP:-}
LKP_BRANCH=${LKP_BRANCH:-$LKP_PROGRAM}
P=programs/$LKP_PROGRAM

[ -n "$LKP" ] || usage_die "make lkp needs LKP=<a git clone of intel/lkp-tests>"
[ -d "$LKP" ] || usage_die "LKP=$LKP: no such folder (git clone https://github.com/intel/lkp-tests)"
top=$(git -C "$LKP" rev-parse --show-toplevel 2>/dev/null) ||
	usage_die "LKP=$LKP: not a git work tree (a clone of intel/lkp-tests)"
[ "$(cd "$top" && pwd -P)" = "$(cd "$LKP" && pwd -P)" ] ||
	usage_die "LKP=$LKP: not the top of a git work tree (a clone of intel/lkp-tests)"
for f in lib/stats.rb spec/unit/lib/stats_spec.rb etc/perf-metrics-prefixes \
	lib/tests/pkgbuild.sh; do
	[ -f "$LKP/$f" ] || usage_die "LKP=$LKP: no $f: not a clone of lkp-tests"
done
[ -z "$(git -C "$LKP" status --porcelain 2>/dev/null)" ] ||
	usage_die "LKP=$LKP: the work tree has changes (git status): commit or stash them first"
git check-ref-format --branch "$LKP_BRANCH" >/dev/null 2>&1 ||
	usage_die "LKP_BRANCH=$LKP_BRANCH: not a branch name"
! git -C "$LKP" rev-parse -q --verify "refs/heads/$LKP_BRANCH" >/dev/null ||
	usage_die "LKP=$LKP: branch $LKP_BRANCH exists already: delete it or give LKP_BRANCH"
base=$(git -C "$LKP" rev-parse -q --verify 'HEAD^{commit}') ||
	usage_die "LKP=$LKP: no commit to start from"
[ -z "$(git -C "$LKP" ls-tree --name-only "$base" -- "$P" "jobs/$LKP_PROGRAM.yaml")" ] ||
	usage_die "LKP=$LKP: its HEAD has $P already"
git -C "$LKP" var GIT_COMMITTER_IDENT >/dev/null 2>&1 ||
	usage_die "LKP=$LKP: git has no identity to commit as (user.name and user.email)"
command -v ruby >/dev/null ||
	usage_die "make lkp needs ruby (LKP's language) to write the fixtures with parse"

BENCH_GIT=${BENCH_GIT:-$(git -C "$BENCH_TOP" remote get-url origin 2>/dev/null || printf '%s' "$BENCH_TOP")}
case $BENCH_GIT in
*[![:graph:]]* | *'"'* | *'$'* | *'`'* | *\\* | '')
	usage_die "BENCH_GIT=$BENCH_GIT: accepted: a git URL or path without blanks, quotes, \$, \` or \\" ;;
esac
# makepkg takes a local path as a file:// URL
case $BENCH_GIT in
/*) source_url=file://$BENCH_GIT ;;
*) source_url=$BENCH_GIT ;;
esac
runs=$(lkp_min_samples "$LKP")

temp_dir tmp
# shellcheck disable=SC2154 # tmp: set by temp_dir
out=$tmp/tree
mkdir -p "$out/$P/pkg" "$out/jobs" "$out/spec/fixtures/stats/$LKP_PROGRAM" "$out/etc" ||
	die "cannot create $out"

# Our sources, their placeholders filled (sed's replacement: & and |
# escaped; BENCH_GIT holds neither quote nor blank).
fill() {	# source destination
	f_url=$(printf '%s' "$BENCH_GIT" | sed 's/[&|\\]/\\&/g')
	f_src=$(printf '%s' "$source_url" | sed 's/[&|\\]/\\&/g')
	sed -e "s|@homepage@|$f_url|g" -e "s|@source@|$f_src|g" -e "s|@runs@|$runs|g" \
		"$LKP_SRC_DIR/$1" >"$out/$2" || die "cannot write $2"
}
fill run "$P/run"
chmod 755 "$out/$P/run" || die "cannot chmod $P/run"
lkp_make_parse "$out/$P/parse"
fill meta.yaml "$P/meta.yaml"
fill pkg/PKGBUILD "$P/pkg/PKGBUILD"
fill pkg/depends "$P/pkg/depends"
fill job.yaml "jobs/$LKP_PROGRAM.yaml"

# The fixtures: each real results file, and what parse prints of it
# (LKP's stats spec runs "parse < N" and compares it with N.yaml).
need_bench_compare
n=0
for f in $LKP_FIXTURES; do
	n=$((n + 1))
	fx=$out/spec/fixtures/stats/$LKP_PROGRAM/$n
	cp "$BENCH_TOP/$f" "$fx" || die "cannot copy $f"
	BENCH_COMPARE=$BENCH_COMPARE ruby "$out/$P/parse" <"$fx" >"$fx.yaml" ||
		die "parse refused $f, a fixture"
	[ -s "$fx.yaml" ] || die "parse printed nothing of $f"
done

# The prefix, in the list's order (the list is sorted; ours goes before
# the first entry that sorts after it).
git -C "$LKP" show "$base:etc/perf-metrics-prefixes" >"$tmp/prefixes" ||
	die "cannot read etc/perf-metrics-prefixes of $base"
LC_ALL=C awk -v p="$LKP_PROGRAM." '
	!done && $0 > p { print p; done = 1 }
	$0 == p { done = 1 }
	{ print }
	END { if (!done) print p }' "$tmp/prefixes" >"$out/etc/perf-metrics-prefixes" ||
	die "cannot write etc/perf-metrics-prefixes"

# The commit, in an index of our own: the clone's own index, work tree
# and branch are not touched; the branch is created, never moved.
bench_rev=$(git -C "$BENCH_TOP" rev-parse --short HEAD 2>/dev/null || printf 'unknown')
{
	printf '%s\n\n' "$LKP_PROGRAM: page_pool micro-benchmarks of bench_page_pool"
	printf '%s\n' "The bench_page_pool module's tests (page_pool's fast path, ptr_ring," \
		"slow path, NAPI and DMA variants), built against the kernel under test" \
		"and loaded once per boot through the project's kselftest wrapper." \
		"parse prints one key per test and figure, the unit in the key" \
		"(cycles, instructions, ns), and refuses a malformed results file." \
		"A verdict needs $runs runs (boots) a kernel; the keys are performance" \
		"metrics (etc/perf-metrics-prefixes), so changes under 5% count." \
		"" "Generated by make lkp of bench_page_pool $bench_rev."
} >"$tmp/msg"
GIT_INDEX_FILE=$tmp/index
export GIT_INDEX_FILE
git -C "$LKP" read-tree "$base" || die "git read-tree failed in $LKP"
(cd "$out" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/files" ||
	die "cannot list $out"
while IFS= read -r path; do
	mode=100644
	[ ! -x "$out/$path" ] || mode=100755
	sha=$(git -C "$LKP" hash-object -w -- "$out/$path") ||
		die "git hash-object failed on $path"
	git -C "$LKP" update-index --add --cacheinfo "$mode,$sha,$path" ||
		die "git update-index failed on $path"
done <"$tmp/files"
tree=$(git -C "$LKP" write-tree) || die "git write-tree failed in $LKP"
commit=$(git -C "$LKP" commit-tree "$tree" -p "$base" -F "$tmp/msg") ||
	die "git commit-tree failed in $LKP"
unset GIT_INDEX_FILE
git -C "$LKP" update-ref -m "make lkp" "refs/heads/$LKP_BRANCH" "$commit" "" ||
	die "cannot create branch $LKP_BRANCH in $LKP"
say "$LKP: branch $LKP_BRANCH, commit $(git -C "$LKP" rev-parse --short "$commit"): $P, jobs/$LKP_PROGRAM.yaml, $n fixtures, etc/perf-metrics-prefixes"
