#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make series TREE=/path/to/linux": writes the project into upstream's
# page_pool benchmark of a kernel tree (a git work tree with
# tools/testing/selftests/net/bench/page_pool), as the series
# upstream/series/ lists, one commit per patch on the tree's current
# branch: the messages are upstream/series/NN-*.msg, and each patch's
# files are the project's, less what the later patches add
# (upstream/series/NN-*.peel, tools/series/lib.sh).  The peels, undone
# from the last patch to the first, must give the tree's net/bench as it
# is: a series is cut for one upstream state of it.
#
# In the tree the compat header keeps only the branches the tree's
# headers choose, and the shell files leave out their parts between
# "# out of tree" and "# end of out of tree" lines (what needs the
# project's other tools) and the markers of results.schema's generated
# part; page_pool/.gitignore names the objects the build makes.
#
# Then the patches, into SERIES_OUT (default build/series of the
# project, whose *.patch files are replaced; another folder must hold
# none): git format-patch of the commits with a cover letter whose
# subject and text are upstream/0-cover.msg's, with the table of
# NUMBERS=FILE (text a measurement printed, such as bench-compare's)
# when given; and, apart from the series, for linux-kselftest, the fix
# of kselftest/ktap_helpers.sh (upstream/ktap_helpers.diff, .msg) as
# ksft-0001-*.patch, when the tree's file still needs it.
#
# Each message ends with the Signed-off-by of SIGNOFF ("Name
# <address>"), who is also the author.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib kernel
bench_lib series

SERIES_PLACEHOLDER="Page Pool Developer <developer@example.org>"
TREE=${TREE:-}
SIGNOFF=${SIGNOFF:-$SERIES_PLACEHOLDER}
SERIES_OUT=${SERIES_OUT:-$BENCH_TOP/build/series}
NUMBERS=${NUMBERS:-}
KTAP_HELPERS=tools/testing/selftests/kselftest/ktap_helpers.sh
UP=$BENCH_TOP/upstream

[ -n "$TREE" ] || usage_die "make series needs TREE=<a Linux git work tree with $BENCH_REL>"
case $SIGNOFF in
*[![:print:]]* | *'<'*'<'* | *'>'*'>'*)
	usage_die "SIGNOFF=$SIGNOFF: accepted: one line \"Name <address>\"" ;;
?*' <'?*@?*'>') ;;
*) usage_die "SIGNOFF=$SIGNOFF: accepted: \"Name <address>\"" ;;
esac
# the author and committer of the commits, the sender of the cover letter
s_name=${SIGNOFF% <*}
s_mail=${SIGNOFF##* <}
s_mail=${s_mail%>}
[ -d "$TREE/$BENCH_REL/page_pool" ] ||
	usage_die "TREE=$TREE: no $BENCH_REL/page_pool (upstream's benchmark, which the series replaces; older trees: make copy-to-tree)"
[ ! -f "$TREE/$BENCH_REL/page_pool/time_bench_math.c" ] ||
	usage_die "TREE=$TREE: $BENCH_REL has this project's files already (an earlier make series); start from upstream's"
[ -f "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh" ] &&
	grep -q TEST_GEN_MODS_DIR "$TREE/tools/testing/selftests/lib.mk" ||
	usage_die "TREE=$TREE: its kselftest framework lacks ktap_helpers.sh or TEST_GEN_MODS_DIR"
# The table goes into a mail as it is: lines of printable text.
if [ -n "$NUMBERS" ]; then
	[ -f "$NUMBERS" ] && [ -r "$NUMBERS" ] ||
		usage_die "NUMBERS=$NUMBERS: cannot read it"
	bad=$(LC_ALL=C awk '/[^\t -~]/ || length($0) > 200 { bad = NR; exit }
		END { print (bad ? bad : NR == 0 ? 1 : NR > 60 ? 61 : "") }' "$NUMBERS")
	[ -z "$bad" ] ||
		usage_die "$NUMBERS:$bad: accepted: 1 to 60 lines of printable ASCII, each 200 bytes or less"
fi
top=$(git -C "$TREE" rev-parse --show-toplevel 2>/dev/null) &&
	[ "$(cd "$top" && pwd -P)" = "$(cd "$TREE" && pwd -P)" ] ||
	usage_die "TREE=$TREE: not the top of a git work tree (git init, add and commit it first)"
git -C "$TREE" diff --cached --quiet ||
	usage_die "TREE=$TREE: its index holds staged changes; the series' commits would take them"
[ -z "$(git -C "$TREE" status --porcelain -- "$BENCH_REL" MAINTAINERS)" ] ||
	usage_die "TREE=$TREE: $BENCH_REL or MAINTAINERS has uncommitted changes"

# The tree's Makefiles repeat what the project's Makefile lists once:
# they must agree, or the tree would build or install something else.
module_objs=$(make -s --no-print-directory -C "$BENCH_TOP" print-module-objs) ||
	die "cannot get the module's objects from $BENCH_TOP/Makefile"
tree_objs=$(sed -n '/^bench_page_pool-y :=/,/[^\\]$/p' "$UP/page_pool.mk" |
	tr -d '\\' | sed 's/^bench_page_pool-y :=//' | tr -s ' \t\n' ' ')
[ "$(printf '%s' "$tree_objs" | xargs)" = "$(printf '%s' "$module_objs" | xargs)" ] ||
	die "upstream/page_pool.mk's bench_page_pool-y ($tree_objs) differs from the Makefile's bench_module_objs ($module_objs)"
ksft_files=$(sed -n '/^TEST_FILES := \\$/,/^# end of TEST_FILES$/s/^\t\([^ ]*\) \\$/\1/p' \
	"$UP/bench.mk" | xargs)
[ "$ksft_files" = "$(make -s --no-print-directory -C "$BENCH_TOP" print-files FILES=libraries | xargs)" ] ||
	die "upstream/bench.mk's TEST_FILES ($ksft_files) differs from the Makefile's BENCH_KSELFTEST_FILES"

# git -C TREE would take a relative SERIES_OUT from the tree
mkdir -p "$SERIES_OUT" && SERIES_OUT=$(cd "$SERIES_OUT" && pwd) ||
	die "SERIES_OUT=$SERIES_OUT: cannot create it"
# the patches of an earlier run go; nobody else's
if [ "$SERIES_OUT" = "$(mkdir -p "$BENCH_TOP/build/series" &&
			cd "$BENCH_TOP/build/series" && pwd)" ]; then
	rm -f "$SERIES_OUT"/*.patch ||
		die "cannot empty $SERIES_OUT of its patches"
else
	for p in "$SERIES_OUT"/*.patch; do
		[ ! -e "$p" ] ||
			usage_die "SERIES_OUT=$SERIES_OUT: holds patches already (${p##*/}); give a folder without any"
	done
fi
temp_dir tmp
DEST=$TREE/$BENCH_REL

# cp writes into an existing file; a tree of hard links (make check's)
# must get new files instead.
put() {	# source destination
	rm -f "$2" && cp "$1" "$2" || die "cannot write $2"
}

# A compat header (the family's or the engine's) with only the branches
# the tree's headers choose: the Makefile's feature tests, run on TREE,
# and the tree's unifdef.
compat_for_tree() {	# header output
	c_name=$1 c_in=$BENCH_TOP/$1 c_out=$2
	[ -x "$tmp/unifdef" ] ||
		gcc -O2 -w -o "$tmp/unifdef" "$TREE/scripts/unifdef.c" ||
		die "cannot build $TREE/scripts/unifdef.c"
	have=$(make -s --no-print-directory -C "$BENCH_TOP" print-features \
		TREE="$(cd "$TREE" && pwd -P)") || die "feature tests on $TREE failed"
	set --
	for name in $(grep -o 'BENCH_HAVE_[A-Z0-9_]*' "$c_in" | sort -u); do
		case " $(printf '%s' "$have" | xargs) " in
		*" -D$name "*) set -- "$@" "-D$name" ;;
		*)
			# a name the header defines itself is a value, not a test
			grep -q "^#define $name\\b" "$c_in" ||
				set -- "$@" "-U$name"
			;;
		esac
	done
	# the page_pool headers' own macros the family's header tests:
	# 6.1's flag for fragments, gone since, and the refill batch
	for c_macro in PP_FLAG_PAGE_FRAG PP_ALLOC_CACHE_REFILL; do
		if grep -qsE "#define $c_macro([[:space:]]|\$)" \
			"$TREE/include/net/page_pool/types.h" "$TREE/include/net/page_pool.h"; then
			set -- "$@" "-D$c_macro"
		else
			set -- "$@" "-U$c_macro"
		fi
	done
	say "$c_name for this tree: $*"
	# unifdef exits 1 when it changed something, 2 on trouble
	"$tmp/unifdef" "$@" -o "$tmp/compat.h" "$c_in"
	[ $? -le 1 ] || die "unifdef failed on $c_name"
	put "$tmp/compat.h" "$c_out"
}

# The PAGE POOL entry of MAINTAINERS covers net/bench (7.2's does not):
# else the first patch adds an F: line for it, after the entry's others.
maintainers_entry() {
	m_file=$TREE/MAINTAINERS
	grep -qx 'PAGE POOL' "$m_file" 2>/dev/null || {
		say "MAINTAINERS has no PAGE POOL entry: left as it is"
		return 0
	}
	awk -v bench="$BENCH_REL/" '
		$0 == "PAGE POOL" { entry = 1 }
		entry && $0 == "" { exit }
		entry && /^F:\t.*\/$/ && index(bench, substr($0, 4)) == 1 { found = 1 }
		END { exit !found }
	' "$m_file" && return 0
	awk -v bench="$BENCH_REL/" '
		$0 == "PAGE POOL" { entry = 1 }
		entry && $0 == "" { print "F:\t" bench; entry = 0 }
		{ print }
	' "$m_file" >"$tmp/MAINTAINERS" || die "cannot edit $m_file"
	put "$tmp/MAINTAINERS" "$m_file"
	git -C "$TREE" add MAINTAINERS || die "git add MAINTAINERS failed in $TREE"
}

# What is staged in REPO as a commit of SIGNOFF with MESSAGE-FILE.
commit_in() {	# repo message-file
	{
		cat "$2"
		printf '\nSigned-off-by: %s\n' "$SIGNOFF"
	} >"$tmp/msg"
	! git -C "$1" diff --cached --quiet ||
		die "$(head -n 1 "$2"): nothing to commit, the tree has it already"
	GIT_AUTHOR_NAME=$s_name GIT_AUTHOR_EMAIL=$s_mail \
	GIT_COMMITTER_NAME=$s_name GIT_COMMITTER_EMAIL=$s_mail \
		git -C "$1" commit -q -F "$tmp/msg" ||
		die "git commit failed in $1"
}

commit() {	# message-file
	git -C "$TREE" add -A -- "$BENCH_REL" || die "git add failed in $TREE"
	# a tree whose top .gitignore ignores ".*" without the kernel's
	# exception for .gitignore (Debian's linux-source) takes it too
	[ ! -f "$DEST/page_pool/.gitignore" ] ||
		git -C "$TREE" add -f -- "$BENCH_REL/page_pool/.gitignore" ||
		die "git add failed in $TREE"
	commit_in "$TREE" "$1"
	say "committed: $(head -n 1 "$1")"
}

# The scratch repository of the states: net/bench at its top, one
# commit per state, the last patch's first.
state_commit() {	# name
	git -C "$STATES" add -A . &&
		git -C "$STATES" -c user.name=series -c user.email=series@example.org \
			commit -q --allow-empty -m "$1" ||
		die "cannot commit the state $1 in $STATES"
}

# A shell file as the tree has it: without its out-of-tree parts and
# the markers of results.schema's generated part (results_lib.sh).
in_tree_shell() {	# file out
	sed -e '/^[[:space:]]*# out of tree/,/^[[:space:]]*# end of out of tree$/d' \
		-e '/^# results\.schema: generated by tools\/results\/schema\.py/d' \
		-e '/^# end of the generated part$/d' "$1" >"$tmp/in-tree" &&
		put "$tmp/in-tree" "$2"
}

# The state after the last patch: the project's files as the tree has
# them.
last_state() {
	mkdir -p "$STATES/page_pool" || die "cannot create $STATES"
	for f in $(project_files module); do
		case $f in
		Kconfig | Makefile) ;;
		*_compat.h) compat_for_tree "$f" "$STATES/page_pool/$f" ;;
		*) put "$BENCH_TOP/$f" "$STATES/page_pool/$f" ;;
		esac
	done
	put "$UP/page_pool.mk" "$STATES/page_pool/Makefile"
	# the objects and the module the build makes, one a line, sorted
	{
		printf '# SPDX-License-Identifier: GPL-2.0\n'
		{ printf '%s\n' bench_page_pool.ko; printf '%s\n' $module_objs; } |
			LC_ALL=C sort
	} >"$STATES/page_pool/.gitignore" || die "cannot write the .gitignore"
	for f in $(make -s --no-print-directory -C "$BENCH_TOP" print-files FILES=libraries); do
		case $f in
		*.sh) in_tree_shell "$BENCH_TOP/$f" "$STATES/$f" ;;
		*) put "$BENCH_TOP/$f" "$STATES/$f" ;;
		esac
	done
	put "$UP/bench.mk" "$STATES/Makefile"
	put "$BENCH_TOP/settings" "$STATES/settings"
	# the Kconfig symbol is the lib/ copy's, veth the out-of-tree
	# end-to-end scenarios': the kselftest needs neither
	grep -v -e '^CONFIG_BENCH_PAGE_POOL_SIMPLE=' -e '^CONFIG_VETH=' \
		"$BENCH_TOP/config" >"$tmp/config" &&
		put "$tmp/config" "$STATES/config"
	in_tree_shell "$BENCH_TOP/test_bench_page_pool.sh" \
		"$STATES/test_bench_page_pool.sh"
	chmod +x "$STATES/test_bench_page_pool.sh"
}

# The state before patch NAME, from the state after it (the work tree).
undo_patch() {	# name
	u_peel=$SERIES_DIR/$1.peel
	[ -f "$u_peel" ] || die "upstream/series/$1.msg has no $1.peel"
	peel_parse "$u_peel" "$tmp/peel" || exit 2
	peel_undo_files "$STATES" "$tmp/peel" "$base" "upstream/series/$1.peel"
	if [ -s "$tmp/peel.diff" ] &&
	   ! git -C "$STATES" apply --whitespace=nowarn "$tmp/peel.diff" 2>"$tmp/apply.err"; then
		sed 's/^/  /' "$tmp/apply.err" >&2
		die "upstream/series/$1.peel does not apply to the project's files any more: make the series from the last commit it applied to, change its patches as the project changed (git rebase -i) and write them back with make series-export (doc/in-tree.rst)"
	fi
	state_commit "before $1"
}

# The ktap_helpers.sh fix as a patch of its own: a commit in a scratch
# repository of the tree's file, through git format-patch.
ktap_helpers_fix() {
	if git -C "$TREE" apply --reverse --check "$UP/ktap_helpers.diff" 2>/dev/null; then
		say "$KTAP_HELPERS: fixed already; no patch for linux-kselftest"
		return 0
	fi
	if ! git -C "$TREE" apply --check "$UP/ktap_helpers.diff" 2>/dev/null; then
		say "$KTAP_HELPERS differs from the file upstream/ktap_helpers.diff fixes: no patch for linux-kselftest (port the fix by hand)"
		return 0
	fi
	k_repo=$tmp/ktap
	mkdir -p "$k_repo/${KTAP_HELPERS%/*}" &&
		cp "$TREE/$KTAP_HELPERS" "$k_repo/$KTAP_HELPERS" &&
		git -C "$k_repo" init -q && git -C "$k_repo" add . &&
		git -C "$k_repo" -c user.name=tree -c user.email=tree@example.org \
			commit -q -m "the tree's $KTAP_HELPERS" &&
		git -C "$k_repo" apply --index "$UP/ktap_helpers.diff" ||
		die "cannot apply upstream/ktap_helpers.diff to a copy of $KTAP_HELPERS"
	commit_in "$k_repo" "$UP/ktap_helpers.msg"
	k_patch=$(git -C "$k_repo" format-patch -1 -o "$tmp/ksft") &&
		mv "$k_patch" "$SERIES_OUT/ksft-${k_patch##*/}" ||
		die "cannot write the ktap_helpers.sh patch into $SERIES_OUT"
	say "for linux-kselftest, apart from the series: $SERIES_OUT/ksft-${k_patch##*/}"
}

# git format-patch of the series, its cover letter's subject and blurb
# from upstream/0-cover.msg and NUMBERS (through the environment: text,
# never code).
series_patches() {	# base
	# netdev's rule: the tree a series is for, in its subject
	GIT_COMMITTER_NAME=$s_name GIT_COMMITTER_EMAIL=$s_mail \
		git -C "$TREE" format-patch -q --cover-letter -o "$SERIES_OUT" \
		--subject-prefix="PATCH net-next" "$1..HEAD" ||
		die "git format-patch failed in $TREE"
	c_file=$SERIES_OUT/0000-cover-letter.patch
	{
		sed 1,2d "$UP/0-cover.msg"
		if [ -n "$NUMBERS" ]; then
			printf '\n'
			cat "$NUMBERS"
		fi
	} >"$tmp/blurb" || die "cannot write the cover letter's text"
	SUBJECT=$(sed -n 1p "$UP/0-cover.msg") BLURB_FILE=$tmp/blurb awk '
		/^Subject: .*\*\*\* SUBJECT HERE \*\*\*$/ {
			sub(/\*\*\* SUBJECT HERE \*\*\*$/, "")
			print $0 ENVIRON["SUBJECT"]
			subject = 1
			next
		}
		$0 == "*** BLURB HERE ***" {
			while ((getline line <ENVIRON["BLURB_FILE"]) > 0)
				print line
			blurb = 1
			next
		}
		{ print }
		END { exit !(subject && blurb) }
	' "$c_file" >"$tmp/cover" && mv "$tmp/cover" "$c_file" ||
		die "git format-patch's cover letter has no subject or blurb to fill"
}

base=$(git -C "$TREE" rev-parse HEAD) || die "TREE=$TREE: no commit to build on"

names=$(series_names) || exit 1
n=$(printf '%s\n' "$names" | grep -c .)
temp_dir STATES
git -C "$STATES" init -q || die "cannot create a repository in $STATES"
last_state
state_commit last
for name in $(printf '%s\n' "$names" | sort -r); do
	undo_patch "$name"
done
base_tree=$(git -C "$TREE" rev-parse "$base:$BENCH_REL") ||
	die "TREE=$TREE: no $BENCH_REL in its last commit"
if [ "$(git -C "$STATES" rev-parse 'HEAD^{tree}')" != "$base_tree" ]; then
	git -C "$STATES" diff --stat HEAD "$base_tree" >&2 2>/dev/null
	die "TREE=$TREE: its $BENCH_REL is not the one upstream/series was cut for (above: how the state before the first patch differs from it)"
fi

# The states as commits of the tree, the first patch's first (the
# state after patch K is K commits above the first state); the first
# also puts net/bench under PAGE POOL in MAINTAINERS if need be.
k=1
for name in $names; do
	git -C "$TREE" rm -q -r -- "$BENCH_REL" &&
		mkdir -p "$DEST" &&
		git -C "$STATES" archive "HEAD~$k" | tar -x -C "$DEST" ||
		die "cannot write the state after $name into $DEST"
	[ "$k" != 1 ] || maintainers_entry
	commit "$SERIES_DIR/$name.msg"
	k=$((k + 1))
done

series_patches "$base"
ktap_helpers_fix

n=$(git -C "$TREE" rev-list --count "$base..HEAD")
say "$n commits on $TREE's $(git -C "$TREE" rev-parse --abbrev-ref HEAD), signed off by $SIGNOFF"
[ "$SIGNOFF" != "$SERIES_PLACEHOLDER" ] ||
	say "the sign-off is a placeholder: SIGNOFF=\"Your Name <you@example.org>\" signs as you"
[ -n "$NUMBERS" ] ||
	say "the cover letter has no numbers: NUMBERS=FILE puts a measured table into it"
say "the patches and their cover letter: $SERIES_OUT; netdev's per-patch checks of the commits: python3 $BENCH_TOP/tools/series/netdev-checks.py $TREE $base"
