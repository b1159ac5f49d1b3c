#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of the kselftest wrapper, of env_lib.sh and of
# results_lib.sh, which need no module: results_lib's readers and its
# check of a whole block; the wrapper's usage errors, file errors
# (FILE:LINE, before anything is loaded) and skips, as the project has
# it and as a kernel tree has it (make series' in-tree shell); and,
# with -c on results files of format 3 (tests/wrapper_data), every
# check it applies to a load, each shown passing and failing, with the
# stable names and the figures CI keeps (doc/ci.rst).  Prints KTAP.
# Its parts are in tests/wrapper/; the helpers and fixtures here.
#
# The wrapper runs from a copy in a fresh folder that every user may
# enter, as the kselftest install would be: the checkout itself may sit
# where other users cannot (a 0700 home, a mktemp -d folder), and the
# "not root" case runs it as nobody.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
DATA=$TOP/tests/wrapper_data
BENCH_COMPARE=$TOP/tools/compare/bench-compare
export BENCH_COMPARE
[ -x "$BENCH_COMPARE" ] || make -s -C "$TOP/tools/compare" >&2 || exit 1
. "$TOP/ktap_lib.sh"
. "$TOP/results_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
chmod 755 "$dir"
for f in test_bench_page_pool.sh \
	$(make -s --no-print-directory -C "$TOP" print-files FILES=libraries); do
	cp "$TOP/$f" "$dir/" && chmod 644 "$dir/$f" || exit 1
done
WRAPPER=$dir/test_bench_page_pool.sh
ICOUNT=$DATA/icount.results	# QEMU -icount: clock instructions
TCG=$DATA/tcg.results		# TCG without -icount: emulated cycles
out=$dir/out

show() {	# why
	ktap_print_msg "$1; output:"
	sed 's/^/#   /' "$out"
}

# The command exits with STATUS and prints a line matching PATTERN.
expect() {	# description status pattern command...
	desc=$1 want=$2 pattern=$3
	shift 3
	"$@" >"$out" 2>&1
	got=$?
	if [ "$got" = "$want" ] && grep -Eq -- "$pattern" "$out"; then
		ktap_test_pass "$desc"
	else
		show "exit $got, want $want and a line matching '$pattern'"
		ktap_test_fail "$desc"
	fi
}

# The wrapper's KTAP: exit STATUS, exactly NOT_OK failed lines, one line
# matching PATTERN (empty: any), and a plan that agrees with what ran.
expect_ktap() {	# description status not_ok pattern wrapper-args...
	e_desc=$1 e_want=$2 e_not_ok=$3 e_pattern=$4
	shift 4
	wrapper "$@" >"$out" 2>&1
	judge_ktap "$e_desc" "$e_want" "$e_not_ok" "$e_pattern" $?
}

# expect_ktap's judgement of a run made before, its KTAP in FILE: one
# run of a whole file serves every case about it.
expect_ran() {	# description status not_ok pattern file exit
	e_out=$out
	out=$5
	judge_ktap "$1" "$2" "$3" "$4" "$6"
	out=$e_out
}

judge_ktap() {	# description status not_ok pattern exit
	desc=$1 want=$2 not_ok=$3 pattern=$4 got=$5
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out")
	ran=$(grep -Ec '^(not )?ok [0-9]+ ' "$out")
	failed=$(grep -c '^not ok ' "$out")
	if [ "$got" = "$want" ] && [ "$failed" = "$not_ok" ] &&
	   [ "$plan" = "$ran" ] &&
	   { [ -z "$pattern" ] || grep -Eq -- "$pattern" "$out"; }; then
		ktap_test_pass "$desc"
	else
		show "exit $got (want $want), $failed not ok (want $not_ok), plan ${plan:-none} for $ran, pattern '$pattern'"
		ktap_test_fail "$desc"
	fi
}

# The command just run exited $rc, STATUS wanted, and its output, $out,
# has a line matching PATTERN.
expect_file() {	# description status pattern
	if [ "$rc" = "$2" ] && grep -Eq -- "$3" "$out"; then
		ktap_test_pass "$1"
	else
		show "exit $rc, want $2 and a line matching '$3'"
		ktap_test_fail "$1"
	fi
}

# The wrapper under $UNDER: sh (dash on Debian), bash, or busybox with
# its own tools first in PATH, as in a guest.
UNDER=sh
wrapper() {	# wrapper-args...
	case $UNDER in
	busybox) PATH=$dir/busybox:$PATH busybox sh "$WRAPPER" "$@" ;;
	*) "$UNDER" "$WRAPPER" "$@" ;;
	esac
}

# A copy of a results file with a sed script applied: a hand-made fault.
variant() {	# name sed-script [source]
	sed "$2" "${3:-$ICOUNT}" >"$dir/$1" || exit 1
	cmp -s "$dir/$1" "${3:-$ICOUNT}" &&
		{ echo "variant $1: the edit changed nothing" >&2; exit 1; }
	printf '%s\n' "$dir/$1"
}

# SOURCE with only the named tests' lines (test:, skip:, cpu:), its
# selected: and end: lines to match: a case about a test or two need
# not run every check of twenty (-c of a whole file takes half a second
# here, of one test a sixth).
only() {	# name source test...
	o_name=$1 o_source=$2
	shift 2
	LC_ALL=C awk -v keep="$*" '
	BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
	/^(test|skip|cpu): / {
		name = substr($2, 6)
		if (!(name in want))
			next
		tests += $1 == "test:"
		skips += $1 == "skip:"
	}
	/^selected: / {
		m = split(substr($0, 11), s, ",")
		line = ""
		for (i = 1; i <= m; i++)
			if (s[i] in want)
				line = line (line == "" ? "" : ",") s[i]
		print "selected: " line
		next
	}
	/^end: / { print "end: tests=" tests + 0 " skips=" skips + 0; next }
	{ print }' "$o_source" >"$dir/$o_name" || exit 1
	printf '%s\n' "$dir/$o_name"
}

# Text file under the test folder.
file() {	# name lines...
	f=$dir/$1
	shift
	printf '%s\n' "$@" >"$f"
	printf '%s\n' "$f"
}

is() {	# description expected command...
	desc=$1 want=$2
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then
		ktap_test_pass "$desc"
	else
		ktap_print_msg "got '$got', want '$want'"
		ktap_test_fail "$desc"
	fi
}

if command -v busybox >/dev/null; then
	mkdir "$dir/busybox"
	for tool in sh awk sed grep tr cat wc mktemp rm mkdir cp env find \
		sort tail mv; do
		ln -s "$(command -v busybox)" "$dir/busybox/$tool"
	done
fi

ktap_print_header

# The parts, by what they test: env_lib.sh and results_lib.sh; the
# wrapper's usage errors and skips; its checks on saved results (-c).
for w_part in libs usage checks; do
	# shellcheck source=/dev/null
	. "$TOP/tests/wrapper/$w_part.sh"
done

ktap_finished
