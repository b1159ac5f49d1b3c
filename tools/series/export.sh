#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make series-export TREE=/path/to/linux": the series as a tree holds it
# (make series' commits, then edited: git rebase -i, amended messages),
# written back into upstream/series/ (or EXPORT_DIR, which make check
# compares with it): each commit's message without its Signed-off-by,
# and each patch's peel (tools/series/lib.sh), so that the next make
# series gives these commits again.  The last N commits of
# TREE's branch are the series, N the patches upstream/series/ names;
# the commit below them is the base.  The last commit's net/bench must
# be what make series writes of the project (its files are the
# project's; a change there belongs in the project).
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib series

TREE=${TREE:-}
EXPORT_DIR=${EXPORT_DIR:-$SERIES_DIR}
[ -n "$TREE" ] || usage_die "make series-export needs TREE=<the Linux git work tree that holds the series>"
git -C "$TREE" rev-parse --verify -q HEAD >/dev/null ||
	usage_die "TREE=$TREE: not a git work tree with a commit"
names=$(series_names) || exit 1
n=$(printf '%s\n' "$names" | grep -c .)
base=$(git -C "$TREE" rev-parse --verify -q "HEAD~$n") ||
	usage_die "TREE=$TREE: fewer than the $n commits of the series"
mkdir -p "$EXPORT_DIR" || usage_die "EXPORT_DIR=$EXPORT_DIR: cannot create it"
temp_dir tmp

# The files of net/bench in COMMIT, one path a line.
files_of() {	# commit
	git -C "$TREE" ls-tree -r --name-only "$1" -- "$BENCH_REL/" |
		sed "s|^$BENCH_REL/||"
}

# net/bench of COMMIT into the folder DIR, emptied first.
state_into() {	# commit dir
	find "$2" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} + &&
		git -C "$TREE" archive "$1" "$BENCH_REL" |
		tar -x -C "$tmp/archive" &&
		cp -R "$tmp/archive/$BENCH_REL/." "$2/" &&
		rm -rf "$tmp/archive/tools" ||
		die "cannot copy $BENCH_REL of $1"
}

# Lines of "git diff" between two blobs of the tree ("" = none).
diff_size() {	# blob blob
	if [ -z "$1" ] || [ -z "$2" ]; then
		printf '%s\n' 1000000
	else
		git -C "$TREE" diff "$1" "$2" | wc -l
	fi
}

blob_of() {	# commit path
	git -C "$TREE" rev-parse -q --verify "$1:$BENCH_REL/$2" 2>/dev/null
}

mkdir -p "$tmp/archive" "$tmp/state" && git -C "$tmp/state" init -q ||
	die "cannot make a scratch repository in $tmp"
commit=$(git -C "$TREE" rev-parse HEAD)
for name in $(printf '%s\n' "$names" | sort -r); do
	parent=$(git -C "$TREE" rev-parse "$commit~1")
	files_of "$commit" | sort >"$tmp/after"
	files_of "$parent" | sort >"$tmp/before"
	files_of "$base" | sort >"$tmp/base"
	{
		printf '# %s: written by "make series-export"; what\n' "$name.peel"
		printf '# "make series" undoes of patch %s for the state before it.\n' "${name%%-*}"
	} >"$tmp/peel"
	comm -23 "$tmp/after" "$tmp/before" >"$tmp/undo.removes"
	sed 's/^/removes: /' "$tmp/undo.removes" >>"$tmp/peel"
	# files the state before has as the base has them, or closer to
	# the base's than to this state's: from the base, then the diff
	: >"$tmp/undo.base"
	for f in $(comm -12 "$tmp/before" "$tmp/base"); do
		b_before=$(blob_of "$parent" "$f")
		b_after=$(blob_of "$commit" "$f") || b_after=
		b_base=$(blob_of "$base" "$f")
		[ "$b_before" != "$b_after" ] || continue
		[ "$(diff_size "$b_base" "$b_before")" -lt \
		  "$(diff_size "$b_after" "$b_before")" ] || continue
		printf '%s\n' "$f" >>"$tmp/undo.base"
	done
	sed 's/^/base: /' "$tmp/undo.base" >>"$tmp/peel"
	# the diff: from this state with the header undone, as make series
	# undoes it, to the state before
	state_into "$commit" "$tmp/state"
	peel_undo_files "$tmp/state" "$tmp/undo" "$base" "$name.peel"
	git -C "$tmp/state" add -A . &&
		git -C "$tmp/state" -c user.name=export -c user.email=export@example.org \
			commit -q --allow-empty -m after ||
		die "cannot commit in $tmp/state"
	state_into "$parent" "$tmp/state"
	git -C "$tmp/state" add -A . &&
		git -C "$tmp/state" diff --cached --binary HEAD >>"$tmp/peel" ||
		die "cannot diff in $tmp/state"
	git -C "$tmp/state" reset -q --hard
	cp "$tmp/peel" "$EXPORT_DIR/$name.peel" ||
		die "cannot write $EXPORT_DIR/$name.peel"
	# the message, without the sign-off make series adds
	git -C "$TREE" log -1 --format=%B "$commit" |
		awk '{ line[NR] = $0 }
		END {
			n = NR
			while (n > 0 && (line[n] == "" || line[n] ~ /^Signed-off-by: /))
				n--
			for (i = 1; i <= n; i++)
				print line[i]
		}' >"$EXPORT_DIR/$name.msg" ||
		die "cannot write $EXPORT_DIR/$name.msg"
	say "$name: $(grep -c '^removes: ' "$tmp/peel") removed, $(grep -c '^base: ' "$tmp/peel") from the base, $(grep -c '^diff --git ' "$tmp/peel") changed"
	commit=$parent
done
say "$EXPORT_DIR: $n peels and messages from $TREE, base $(git -C "$TREE" rev-parse --short "$base")"
