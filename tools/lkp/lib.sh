# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # its variables are its users'
#
# The LKP program's library (sourced after tools/lib.sh; POSIX sh):
# its name, the files make lkp writes into a clone of lkp-tests
# (tools/lkp/ holds their sources), the parser made from its template
# and results.schema, the rule of samples LKP's lib/stats.rb applies,
# and the real results files the stats fixtures are made of.
# tools/lkp/lkp.sh (make lkp) and tests/lkp_test.sh use it.

LKP_PROGRAM=bench-page-pool
LKP_SRC_DIR=$BENCH_TOP/tools/lkp
# The fixtures, spec/fixtures/stats/bench-page-pool/N: real runs of
# this project, in this order (N from 1): counting instructions, timing
# cycles (TCG), counting instructions with the end-to-end rows, and six
# loads counting instructions (the lower median of loads).
LKP_FIXTURES="tests/wrapper_data/icount.results
tests/wrapper_data/tcg.results
tests/wrapper_data/e2e.results
tools/compare/tests/data/icount_before.txt"

# The parser: tools/lkp/parse.rb with results.schema's declarations in
# place of its "@results.schema@" line (the schema's lines less its
# comments), so parse types every field as the project's readers do.
lkp_make_parse() {	# output
	LC_ALL=C awk -v schema="$BENCH_TOP/results.schema" '
		$0 == "  @results.schema@" {
			while ((getline l < schema) > 0)
				if (l != "" && l !~ /^#/) { print "  " l; n++ }
			if (!n) exit 3
			found = 1
			next
		}
		{ print }
		END { if (!found) exit 4 }' "$LKP_SRC_DIR/parse.rb" >"$1" ||
		die "cannot make the parser from tools/lkp/parse.rb and results.schema"
	chmod 755 "$1" || die "cannot chmod $1"
}

# The fewest samples a side lib/stats.rb judges a key on (its
# skip_regular_stat?: "cols_a < N && cols_b < N"), read from the clone.
lkp_min_samples() {	# lkp-tests
	l_n=$(sed -n 's/.*cols_a < \([0-9][0-9]*\) && cols_b < \([0-9][0-9]*\).*/\1 \2/p' \
		"$1/lib/stats.rb" | sort -u)
	case $l_n in
	[1-9]" "[1-9] | [1-9][0-9]" "[1-9][0-9]) ;;
	*) die "$1/lib/stats.rb: no rule of samples a side (cols_a < N && cols_b < N) found" ;;
	esac
	[ "${l_n% *}" = "${l_n#* }" ] ||
		die "$1/lib/stats.rb: the sides' rules of samples differ ($l_n)"
	printf '%s\n' "${l_n% *}"
}
