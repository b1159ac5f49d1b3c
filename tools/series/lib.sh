# SPDX-License-Identifier: GPL-2.0
# The series' patches as peels; sourced by tools/series/series.sh and
# tools/series/export.sh, after lib.sh.  POSIX sh.
#
# upstream/series/ holds one NN-NAME.msg per patch (its commit message)
# and one NN-NAME.peel: what turns the state of net/bench after patch NN
# back into the state before it.  The last state is the project's own
# files (make series writes them); each peel, undone from the last to
# the first, gives the state before its patch, and the first gives the
# tree's own net/bench.  A peel is:
#
#   # comment lines
#   removes: PATH        a file the patch adds
#   base: PATH           a file the state before has as the tree's base
#                        has it (before the diff below, if any, applies)
#   diff --git ...       git diff of the rest, from the patch's state to
#                        the one before
#
# PATHs are relative to net/bench.  A file is written once, in the
# project; only what differs between two states is in a peel, so a
# change of the project that touches a peel's context stops make series
# at that peel, and "make series-export" writes the peels again from a
# tree whose series was fixed by hand (git rebase -i).

SERIES_DIR=$BENCH_TOP/upstream/series
BENCH_REL=tools/testing/selftests/net/bench

# The patches' names, NN-NAME, in order.
series_names() {
	for s_msg in "$SERIES_DIR"/[0-9][0-9]-*.msg; do
		[ -f "$s_msg" ] || die "no patch messages in $SERIES_DIR"
		s_msg=${s_msg##*/}
		printf '%s\n' "${s_msg%.msg}"
	done
}

# The header of a peel, strictly: "removes:" and "base:" lines into the
# files $1.removes and $1.base, the diff after them into $1.diff.
peel_parse() {	# peel out-prefix
	awk -v out="$2" '
	function bad(why) {
		printf "%s:%d: %s\n", FILENAME, NR, why >"/dev/stderr"
		exit 2
	}
	BEGIN {
		printf "" >(out ".removes")
		printf "" >(out ".base")
		printf "" >(out ".diff")
	}
	diff { print >(out ".diff"); next }
	/^diff --git / { diff = 1; print >(out ".diff"); next }
	/^#/ || /^$/ { next }
	/^(removes|base): / {
		path = $0
		sub(/^[a-z]+: /, "", path)
		if (path !~ /^[A-Za-z0-9_][A-Za-z0-9_.\/-]*$/ || path ~ /(^|\/)\.\.?(\/|$)/)
			bad("\"" path "\" is no path inside net/bench")
		print path >(out "." ($0 ~ /^removes/ ? "removes" : "base"))
		next
	}
	{ bad("expected \"removes: PATH\", \"base: PATH\" or the diff") }
	' "$1"
}

# A peel's header undone on the state in DIR: the files PREFIX.removes
# lists go, those PREFIX.base lists are written as TREE's commit BASE
# has them.  What is said of a wrong line names the peel, LABEL.
peel_undo_files() {	# dir prefix base label
	while read -r p_path; do
		[ -f "$1/$p_path" ] ||
			die "$4: removes $p_path, which the state after it has not"
		rm -f "$1/$p_path"
	done <"$2.removes"
	while read -r p_path; do
		mkdir -p "$(dirname "$1/$p_path")" &&
			git -C "$TREE" show "$3:$BENCH_REL/$p_path" >"$1/$p_path" ||
			die "$4: the tree's base has no $BENCH_REL/$p_path"
	done <"$2.base"
}
