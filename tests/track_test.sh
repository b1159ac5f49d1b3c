#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make track's and make bisect's bad input, on the host: each is refused
# with one line and exit 2 before any kernel is built or any guest
# boots, and the developer's tree (a small git repository shaped as a
# kernel tree, with a merge, an edit and a bisect under way) is as it
# was.  MERGE of folders of two ranges, or missing a commit, is refused
# the same way.  A posted series (MBOX=): hostile mailboxes refused in
# one line, a mangled one (CRLF, two versions, a reply, a MIME subject
# of control bytes and shell syntax) applied to the commits the range
# has; the reports of hostile subjects well-formed.  Prints KTAP.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/ktap_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
# make track's own cache, of this test alone
export BENCH_CACHE="$dir/cache"
# its builds are of its own cache, not make check's to report
unset BENCH_BUILT
G="git -c user.name=Dev -c user.email=dev@example.org"

# A tree shaped as a kernel's: main line A-B-M, M merging C (off B's
# side branch).
tree=$dir/linux
mkdir -p "$tree/net/core" && cd "$tree" || exit 1
git init -q
printf 'obj-y += net/\n' >Kbuild
printf 'all:\n\t@false\n' >Makefile
printf 'int x;\n' >net/core/page_pool.c
$G add -A && $G commit -q -m A && git tag A
printf 'int y;\n' >>net/core/page_pool.c
$G commit -q -am B && git tag B
git checkout -q -b side A
printf 'int z;\n' >net/core/skbuff.c
$G add -A && $G commit -q -m C && git tag C
git checkout -q master
$G merge -q --no-edit side && git tag M
for c in D E F G; do
	printf 'int %s;\n' "$c" >>net/core/page_pool.c
	$G commit -q -am "$c" && git tag "$c"
done
# the developer's state: a bisect under way, an edit, an untracked file
git bisect start M A >/dev/null 2>&1
printf 'edit\n' >>Kbuild
: >untracked
cd "$TOP" || exit 1

tree_state() {
	git -C "$tree" rev-parse HEAD
	git -C "$tree" status --porcelain
	md5sum <"$tree/.git/index"
	git -C "$tree" bisect log 2>&1
	git -C "$tree" worktree list
}
tree_state >"$dir/state.before"

report() {	# status description
	if [ "$1" = 0 ]; then
		ktap_test_pass "$2"
	else
		ktap_test_fail "$2"
	fi
}

# The command exits with 2 and says one line that matches PATTERN, and
# builds nothing.  (The tree's make has no tinyconfig: nothing of it
# builds.)
refused() {	# description pattern script variable...
	desc=$1 pattern=$2 script=$3
	shift 3
	built=$(ls "$BENCH_CACHE/track/kernels" 2>/dev/null)
	env "$@" OUT="$dir/out" sh "$TOP/tools/track/$script" >"$dir/said" 2>&1
	rc=$?
	lines=$(grep -c . "$dir/said")
	if [ $rc = 2 ] && [ "$lines" = 1 ] && grep -Eq -- "$pattern" "$dir/said" &&
	   [ "$(ls "$BENCH_CACHE/track/kernels" 2>/dev/null)" = "$built" ]; then
		ktap_test_pass "$desc"
	else
		ktap_print_msg "exit $rc, $lines line(s), want 2 and one matching '$pattern':"
		sed 's/^/#   /' "$dir/said"
		ktap_test_fail "$desc"
	fi
	rm -rf "$dir/out"
}

ktap_print_header
ktap_set_plan 50
refused "make track: no TREE" 'needs TREE=' track.sh RANGE=A..B
refused "make track: TREE is no folder" 'TREE=/nonexistent: no such folder' \
	track.sh TREE=/nonexistent RANGE=A..B
refused "make track: TREE is no git work tree" 'not a git work tree' \
	track.sh TREE="$dir" RANGE=A..B
mkdir -p "$dir/notkernel" && git -C "$dir/notkernel" init -q
refused "make track: TREE is no kernel tree" 'not a Linux kernel tree' \
	track.sh TREE="$dir/notkernel" RANGE=A..B
refused "make track: no RANGE" 'needs RANGE=BASE..HEAD' track.sh TREE="$tree"
refused "make track: RANGE without two dots" 'expected BASE..HEAD' \
	track.sh TREE="$tree" RANGE=A
refused "make track: RANGE with three dots" 'BASE..HEAD with two dots' \
	track.sh TREE="$tree" RANGE=A...M
refused "make track: RANGE naming no commit" "'nosuch' is no commit" \
	track.sh TREE="$tree" RANGE=nosuch..M
refused "make track: an option for a base" "'--all' is no commit" \
	track.sh TREE="$tree" RANGE=--all..M
refused "make track: an empty RANGE" 'is empty' \
	track.sh TREE="$tree" RANGE=M..M
refused "make track: a BASE off HEAD's first-parent line" \
	"C is not on M's first-parent line" track.sh TREE="$tree" RANGE=C..M
refused "make track: SHARD=3/2" 'SHARD=3/2: accepted: K/N' \
	track.sh TREE="$tree" RANGE=A..M SHARD=3/2
refused "make track: SHARD=0/2" 'SHARD=0/2: accepted: K/N' \
	track.sh TREE="$tree" RANGE=A..M SHARD=0/2
refused "make track: ICOUNT=0" 'counts instructions' \
	track.sh TREE="$tree" RANGE=A..M ICOUNT=0
# two shards' folders of different ranges, and one missing a commit
for r in one two; do
	mkdir -p "$dir/$r"
	printf '0\tA\tA\n1\tB\tB\n' >"$dir/$r/commits.tsv"
	printf 'A..B\n' >"$dir/$r/range"
	: >"$dir/$r/own"
done
printf '1\tX\tX\n' >>"$dir/two/commits.tsv"
refused "make track MERGE: folders of two ranges" 'another range' \
	track.sh MERGE="$dir/one $dir/two"
refused "make track MERGE: a commit no folder measured" \
	'measured commit\(s\) 1 of the range' track.sh MERGE="$dir/one"
# Two shards' folders of one range of three commits, as make track
# writes them: MERGE gives the one table, each commit from its owner.
row() {	# test verdict diff pct
	printf '{"test": "%s", "instructions": {"before": 82.000, "after": %s, "diff": %s, "ci": [%s, %s]}, "pct_change": %s, "verdict": "%s"}' \
		"$1" "$(awk -v d="$3" 'BEGIN { printf "%.3f", 82 + d }')" "$3" "$3" "$3" "$4" "$2"
}
for s in a b; do
	mkdir -p "$dir/shard-$s"
	printf '0\tc0\tbase\n1\tc1\tone\n2\tc2\ttwo\n3\tc3\tthree\n' \
		>"$dir/shard-$s/commits.tsv"
	printf 'A..B\n' >"$dir/shard-$s/range"
done
printf '1\n3\n' >"$dir/shard-a/own"
printf '2\n' >"$dir/shard-b/own"
for i in 1 2 3; do
	s=a
	[ $i = 2 ] && s=b
	d=$dir/shard-$s/0$i-c$i
	mkdir -p "$d"
	printf 'ok\n' >"$d/status"
	printf '%s\n' $((i - 1)) >"$d/parent"
	v=noise diff=0 pct=0.00
	[ $i = 2 ] && v=change diff=3 pct=3.66
	printf '{"settings": {"clock": "instructions"}, "loads": {"before": 6, "after": 6}, "rows": [%s]}\n' \
		"$(row tasklet_page_pool01_fast_path $v $diff $pct)" >"$d/compare.json"
done
env MERGE="$dir/shard-a $dir/shard-b" OUT="$dir/merged" \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
got=$(jq -r '[.commits[] | "\(.index):\(.id):\(.rows[0].verdict)"] | join(" ")' \
	"$dir/merged/track.json" 2>/dev/null)
cells=$(awk '$1 == "tasklet_page_pool01_fast_path" { $1 = ""; print }' "$dir/merged/track.txt" 2>/dev/null)
ktap_print_msg "MERGE: exit $rc; commits $got; cells$cells"
[ $rc = 0 ] && [ "$got" = "1:c1:noise 2:c2:change 3:c3:noise" ] &&
	[ "$cells" = " 82.000 . +3.000 ." ]
report $? "make track MERGE: two shards' folders give the one table, each commit from the shard that owns it"
# The gate on them: the first commit over the budget is named; a
# commit none of whose rows could be judged fails it.
env MERGE="$dir/shard-a $dir/shard-b" OUT="$dir/gate" FAIL_ABOVE=2 \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
ktap_print_msg "FAIL_ABOVE=2: exit $rc: $(grep '%' "$dir/said" | tr '\n' ' ')"
[ $rc = 1 ] && [ "$(grep -c '%' "$dir/said")" = 2 ] &&
	grep -q '^FAIL_ABOVE=2: the first commit slower by more than 2% with a change verdict:$' "$dir/said" &&
	grep -qx '\[2\] c2 two: tasklet_page_pool01_fast_path 3.66% (82 -> 85 instructions)' "$dir/said"
report $? "make track FAIL_ABOVE=2: exit 1 naming the first commit and row over 2%"
sed 's/"noise"/"n\/a"/' "$dir/shard-a/03-c3/compare.json" >"$dir/na.json" &&
	mv "$dir/na.json" "$dir/shard-a/03-c3/compare.json"
env MERGE="$dir/shard-a $dir/shard-b" OUT="$dir/gate-na" FAIL_ABOVE=50 \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
ktap_print_msg "FAIL_ABOVE=50, [3] n/a: exit $rc: $(grep '^FAIL_ABOVE' "$dir/said")"
[ $rc = 1 ] && grep -qx 'FAIL_ABOVE=50: \[3\] c3 three: no row could be judged (every row n/a: too few loads, or no % change)' "$dir/said"
report $? "make track FAIL_ABOVE: a commit none of whose rows was judged fails the gate"
refused "make track: FAIL_ABOVE=0x10" 'FAIL_ABOVE=0x10: accepted: a percentage' \
	track.sh MERGE="$dir/shard-a" FAIL_ABOVE=0x10
refused "make bisect: GOOD not an ancestor of BAD" 'is not an ancestor' \
	bisect.sh TREE="$tree" GOOD=C BAD=B TEST=for_loop
refused "make bisect: a TEST that is no name" 'a test name is letters' \
	bisect.sh TREE="$tree" GOOD=A BAD=M TEST='a;b'
refused "make bisect: MOVED_BY no number" 'MOVED_BY=x: accepted' \
	bisect.sh TREE="$tree" GOOD=A BAD=M TEST=for_loop MOVED_BY=x
refused "make bisect: GOOD and BAD one commit" 'one commit' \
	bisect.sh TREE="$tree" GOOD=M BAD=M TEST=for_loop

# A shard: SHARD=2/3 of A..G (B M D E F G, M a merge) owns the 2nd and
# 5th commits and measures them with their parents; none builds here,
# each says why, the run goes on and ends with exit 1.
env TREE="$tree" RANGE=A..G SHARD=2/3 OUT="$dir/shard" \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
own=$(tr '\n' ' ' <"$dir/shard/own")
measure=$(tr '\n' ' ' <"$dir/shard/measure")
failed=$(grep -c "^    build failed: make: \*\*\* No rule to make target 'tinyconfig'" \
	"$dir/shard/track.txt")
ktap_print_msg "SHARD=2/3: exit $rc, own $own, measure $measure, $failed columns 'build failed'"
[ $rc = 1 ] && [ "$own" = "2 5 " ] && [ "$measure" = "1 2 4 5 " ] &&
	[ "$failed" = 2 ] && grep -q 'holds 1 merge(s): each is measured against its first parent' "$dir/said"
report $? "make track SHARD=2/3: its own commits and their parents, a merge said, a commit that does not build says why, exit 1"
env TREE="$tree" RANGE=A..G OUT="$dir/base" \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
grep -q "^error: the base, [0-9a-f]\{12\}, does not build: build failed: make: " "$dir/said" &&
	[ $rc = 2 ] && ! ls "$dir/base"/*/guest-1 >/dev/null 2>&1
report $? "make track: a base that does not build ends the run with exit 2 before any guest"
env TREE="$tree" RANGE=A..G OUT="$dir/base2" \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
! grep -q '^building ' "$dir/said"
report $? "make track: a rerun builds nothing, not even what did not build"

# A shallow clone, whose history stops after the base: refused, saying
# so.  A tree whose path has blanks and quotes: read and cloned as any
# other, to the base's build (which fails here, exit 2).
git clone -q --depth 1 "file://$tree" "$dir/shallow" || exit 1
refused "make track: a shallow clone without the base" \
	"'A' is no commit of .*shallow \\(a shallow clone: git -C .* fetch --unshallow\\)" \
	track.sh TREE="$dir/shallow" RANGE=A..G
quoted="$dir/the developer's \"linux\" tree"
git clone -q "$tree" "$quoted" || exit 1
env TREE="$quoted" RANGE=A..G OUT="$dir/quoted-out" \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
[ $rc = 2 ] &&
	grep -q "^error: the base, [0-9a-f]\{12\}, does not build: build failed: make: " "$dir/said" &&
	[ -z "$(git -C "$quoted" status --porcelain)" ]
report $? "make track: a tree whose path has blanks and quotes, read, cloned and built as any other"

# --- a series as posted: MBOX= ---------------------------------------

# The series D..G on M, as git format-patch writes it for the list.
git -C "$tree" format-patch -q --cover-letter --base=M -o "$dir/posted" M..G ||
	exit 1
cat "$dir/posted"/*.patch >"$dir/series.mbox"
mbox() {	# name: a mailbox of the files given on stdin's lines
	while read -r m_f; do cat "$m_f"; done >"$dir/$1.mbox"
	printf '%s\n' "$dir/$1.mbox"
}
refused "make track MBOX: with a RANGE" 'takes no RANGE' \
	track.sh TREE="$tree" RANGE=A..M MBOX="$dir/series.mbox"
refused "make track MBOX: a file that is not there" 'no such file' \
	track.sh TREE="$tree" MBOX="$dir/nosuch.mbox"
printf 'From x\nSubject: [PATCH] a\n\n\000\n' >"$dir/nul.mbox"
refused "make track MBOX: a binary file" 'nul.mbox:4: a NUL byte' \
	track.sh TREE="$tree" MBOX="$dir/nul.mbox"
refused "make track MBOX: /dev/zero, read up to its limit" \
	'MBOX=/dev/zero: more than 16 MiB' track.sh TREE="$tree" MBOX=/dev/zero
printf 'a page of text\n' >"$dir/text.mbox"
refused "make track MBOX: text that is no mailbox" 'no mailbox \(git mailsplit' \
	track.sh TREE="$tree" MBOX="$dir/text.mbox"
git -C "$tree" format-patch -q -o "$dir/nobase" M..G || exit 1
refused "make track MBOX: no base-commit: trailer, no BASE" \
	'no base-commit: trailer .*give BASE=' track.sh TREE="$tree" \
	MBOX="$(ls "$dir/nobase"/*.patch | mbox nobase)"
sed 's/^base-commit: .*/base-commit: 0123456789abcdef0123456789abcdef01234567/' \
	"$dir/series.mbox" >"$dir/otherbase.mbox"
refused "make track MBOX: a base the tree has not" \
	'base-commit 0123456789ab is not in' track.sh TREE="$tree" \
	MBOX="$dir/otherbase.mbox"
refused "make track MBOX: BASE naming no commit" 'BASE=nosuch: no commit' \
	track.sh TREE="$tree" MBOX="$dir/series.mbox" BASE=nosuch
refused "make track: BASE with a RANGE" 'BASE=M is the base of an MBOX' \
	track.sh TREE="$tree" RANGE=A..M BASE=M
ls "$dir/posted"/*.patch | sed 3d | mbox missing >/dev/null
refused "make track MBOX: a patch missing" '\[PATCH 2/4\] is missing' \
	track.sh TREE="$tree" MBOX="$dir/missing.mbox"
{ ls "$dir/posted"/*.patch; ls "$dir/posted"/0003-*.patch; } |
	mbox twice >/dev/null
refused "make track MBOX: a patch twice" '\[PATCH 3/4\] twice$' \
	track.sh TREE="$tree" MBOX="$dir/twice.mbox"
refused "make track MBOX: more patches than MAX_COMMITS" \
	'4 patches, more than MAX_COMMITS=3' track.sh TREE="$tree" \
	MBOX="$dir/series.mbox" MAX_COMMITS=3
refused "make track: a RANGE longer than MAX_COMMITS, the time said" \
	'6 commits, about 1 h .*MAX_COMMITS=5 a run: raise it, or .*SHARD=K/N' \
	track.sh TREE="$tree" RANGE=A..G MAX_COMMITS=5
refused "make track: a reversed RANGE" \
	'is empty: A is [0-9]+ commit\(s\) before G \(reversed\?\)' \
	track.sh TREE="$tree" RANGE=G..A
# a hunk whose context the tree has not: the second patch
for f in "$dir/posted"/*.patch; do
	case $f in
	*/0002-*) sed 's/^ int / long /' "$f" ;;
	*) cat "$f" ;;
	esac
done >"$dir/noapply.mbox"
refused "make track MBOX: a patch that does not apply, named as the series names it" \
	'\[PATCH 2/4\] E: does not apply to [0-9a-f]{12}: error: patch failed: net/core/page_pool.c' \
	track.sh TREE="$tree" MBOX="$dir/noapply.mbox"
clone=$(ls -d "$BENCH_CACHE"/track/repos/*/src)
[ "$(git -C "$clone" rev-parse HEAD)" = "$(git -C "$tree" rev-parse M)" ] &&
	[ ! -d "$clone/.git/rebase-apply" ] &&
	[ -z "$(git -C "$clone" status --porcelain)" ]
report $? "make track MBOX: after a patch that does not apply, nothing stays applied in make track's clone"
# The series mangled as lists and mailers do: CRLF line ends, a first
# version of two patches before it, a reply quoting a patch, and the
# third patch's subject MIME-encoded with quotes, shell syntax, markup,
# a backslash and a control byte.
git -C "$tree" format-patch -q --base=M -o "$dir/v1" M..E &&
	git -C "$tree" format-patch -q -v2 --cover-letter --base=M \
		-o "$dir/v2" M..G || exit 1
{
	cat "$dir/v1"/*.patch
	printf 'From dev Mon Sep 17 00:00:00 2001\nFrom: R <r@example.org>\nSubject: Re: [PATCH 1/4] D\n\n> --- a/net/core/page_pool.c\n> +int D;\nLooks fine.\n'
	sed 's/^Subject: \[PATCH v2 3\/4\] F$/Subject: [PATCH v2 3\/4] =?UTF-8?q?page=5Fpool=3A_=22F=22_=24=28rm_-rf_=2F=29_=3Cb=3Ebold=3C=2Fb=3E_=5C_=07bel?=/' \
		"$dir/v2"/*.patch
} | sed 's/$/\r/' >"$dir/mangled.mbox"
env TREE="$tree" MBOX="$dir/mangled.mbox" OUT="$dir/mangled" \
	sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
got=$(cut -f2 "$dir/mangled/commits.tsv" | while read -r c; do
	git -C "$clone" rev-parse "$c^{tree}"
done | tr '\n' ' ')
want=$(for c in M D E F G; do git -C "$tree" rev-parse "$c^{tree}"; done |
	tr '\n' ' ')
ktap_print_msg "mangled mailbox: exit $rc; $(head -n 1 "$dir/said")"
sed 's/^/#   /' "$dir/mangled/series.tsv"
[ $rc = 2 ] && [ "$got" = "$want" ] &&
	grep -qxF "MBOX=$dir/mangled.mbox holds v1 v2 of the series: v2 is measured" "$dir/said"
report $? "make track MBOX: CRLF, two versions and a reply: the newest version applied, the commits the range has"
grep -q "^3	3/4	page_pool: \"F\" \$(rm -rf /) <b>bold</b> \\\\ ?bel$" "$dir/mangled/series.tsv" &&
	! LC_ALL=C grep -q '[^ -~	]' "$dir/mangled/commits.tsv" "$dir/mangled/series.tsv"
report $? "make track MBOX: a MIME subject decoded, its control byte made \"?\", nothing of it run"

# The reports of commits whose subjects are hostile: track.txt, the
# JSON, the SVG, KCIDB and the reply well-formed, the reply ASCII in 80
# columns.
h=$dir/hostile
mkdir -p "$h"
hs1='page_pool: "quoted" $(rm -rf /) `id` <b>&amp;</b> \n\\'
hs2='page_pool: ]]> --><!-- %s %n {"a": 1} ? a very long subject that goes on past eighty columns of a mail'
printf '0\t%040d\tbase\n1\t%040d\t%s\n2\t%040d\t%s\n' 0 1 "$hs1" 2 "$hs2" \
	>"$h/commits.tsv"
printf '1\t1/2\t%s\n2\t2/2\t%s\n' "$hs1" "$hs2" >"$h/series.tsv"
printf '%s\n' "[PATCH 0/2] <script>alert(1)</script> & \"x\"" >"$h/title"
printf 'Measured: a sentence.\n' >"$h/measured.txt"
printf 'A..B\n' >"$h/range"
printf '1\n2\n' >"$h/own"
for i in 0 1 2; do
	d=$h/0$i-c$i
	mkdir -p "$d"
	printf 'ok\n' >"$d/status"
	cp "$TOP/tests/wrapper_data/icount.results" "$d/load-01.results"
	[ $i = 0 ] && continue
	printf '%s\n' $((i - 1)) >"$d/parent"
	printf '{"settings": {"clock": "instructions"}, "loads": {"before": 6, "after": 6}, "rows": [%s]}\n' \
		"$(row tasklet_page_pool01_fast_path change 3 3.66)" >"$d/compare.json"
done
env MERGE="$h" OUT="$dir/hostile-out" sh "$TOP/tools/track/track.sh" >"$dir/said" 2>&1
rc=$?
o=$dir/hostile-out
ktap_print_msg "hostile subjects: exit $rc"
sed 's/^/#   /' "$o/reply.txt" 2>/dev/null
[ $rc = 0 ] && jq -e '.commits[0].subject | contains("$(rm -rf /)")' "$o/track.json" >/dev/null &&
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$o/track.svg" &&
	python3 "$TOP/tools/results/kcidb-check.py" "$o/kcidb.json" >/dev/null &&
	jq -e '[.checkouts[].git_commit_name] | index("page_pool: \"quoted\" $(rm -rf /) `id` <b>&amp;</b> \\n\\\\") != null' "$o/kcidb.json" >/dev/null
report $? "make track: hostile subjects in the JSON, the SVG and the KCIDB document, each well-formed"
[ -s "$o/reply.txt" ] && ! LC_ALL=C grep -q '[^ -~]' "$o/reply.txt" &&
	! grep -q '^From \|^>\| $' "$o/reply.txt" &&
	[ "$(awk 'length > 80' "$o/reply.txt" | wc -l)" = 0 ] &&
	grep -q '^1/2 page_pool: "quoted" \$(rm -rf /)' "$o/reply.txt" &&
	grep -q '^tasklet_page_pool01_fast_path  *82\.000  *+3\.000  *+3\.000$' "$o/reply.txt"
report $? "make track: reply.txt ASCII in 80 columns, no line a list would strip or quote, the series' numbers"

tree_state >"$dir/state.after"
if cmp -s "$dir/state.before" "$dir/state.after"; then
	ktap_test_pass "the developer's HEAD, index, files, bisect and worktrees are as they were"
else
	diff "$dir/state.before" "$dir/state.after" | sed 's/^/#   /'
	ktap_test_fail "the developer's HEAD, index, files, bisect and worktrees are as they were"
fi
ktap_finished
