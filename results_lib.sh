# SPDX-License-Identifier: GPL-2.0
#
# The one reader of bench_page_pool_simple's results file (formats 1 to
# 4, see the module's /sys/kernel/debug/bench_page_pool_simple/results)
# for the project's shell code: the kselftest wrapper, the guest suite
# and the host tools source it.  POSIX sh and awk; runs under busybox.
#
# A file holds blocks, each from a "format:" line and each one load;
# these functions read the first (results_split gives each its own
# file, results_check_load refuses a second).  Lines are "KEY: value";
# test:, skip: and cpu: lines are "KIND: name=TEST key=value ...",
# where a skip: line's reason= takes the rest of the line.  Unknown keys
# and lines are ignored: new ones are only ever added.  Names and keys
# are compared as strings, never used as patterns or as code (they reach
# awk through the environment).
#
#   results_header FILE KEY          value of the KEY: line
#   results_tests FILE               the selected: tests, one a line
#   results_field FILE TEST FIELD    FIELD of TEST's test: (or skip:) line
#   results_fields FILE TEST FIELD...  several, one a line (empty: none)
#   results_skip_reason FILE TEST    the reason of TEST's skip: line
#   results_ran FILE TEST            does TEST have a test: line?
#   results_ran_tests FILE           the tests with a test: line, in order
#   results_prof FILE TEST FIELD...  FIELDs of TEST's prof: line (format 4)
#   results_prof_fns FILE TEST FIELD...  per prof_fn: line of TEST, the
#                                    FIELDs' values ("-" if missing)
#   results_cpu_field FILE TEST FIELD...  per cpu: line of TEST, the
#                                    FIELDs' values ("-" if missing)
#   results_check FILE [FIELD...]    is it whole, well-formed blocks?
#   results_check_load FILE [FIELD...]  the same, and one block (load)
#   results_blocks FILE              how many blocks (loads) it holds
#   results_split FILE PREFIX        block N to PREFIXN; prints how many
#   results_rows FILE FIELD...       per test: line, "TEST VALUE...", "?"
#                                    for a missing FIELD
#   results_cpu_tests FILE           the tests with cpu: lines, one a line
#   results_index FILE DIR FIELDS CPU_FIELDS  every test's fields in
#                                    files of DIR, for a reader that reads
#                                    many (after results_check_load)
#   results_is_number VALUE          a plain decimal such as 12 or 79.06?
#   results_strict_awk FILE PROGRAM [NAME=VALUE...]  awk over untrusted text
#
# The readers print nothing when there is nothing (no such line or
# field); results_check is what tells a whole file from a cut or a
# forged one, and should come first where the file is untrusted.

# Prepended to every reader: drop a CR (files that crossed a serial
# line or a mail client) and stop at the second block.
__RESULTS_FIRST_BLOCK='
{ sub(/\r$/, "") }
$1 == "format:" && results_blocks++ { exit }
'

results_header() {	# file key
	RESULTS_KEY=$2 awk "$__RESULTS_FIRST_BLOCK"'
	index($0, ENVIRON["RESULTS_KEY"] ":") == 1 {
		v = substr($0, length(ENVIRON["RESULTS_KEY"]) + 2)
		sub(/^[ \t]+/, "", v)
		print v
		exit
	}' <"$1"
}

results_tests() {	# file
	awk "$__RESULTS_FIRST_BLOCK"'
	$1 == "selected:" {
		n = split(substr($0, index($0, ":") + 1), names, ",")
		for (i = 1; i <= n; i++) {
			gsub(/^[ \t]+|[ \t]+$/, "", names[i])
			if (names[i] != "")
				print names[i]
		}
		exit
	}' <"$1"
}

results_field() {	# file test field
	results_fields "$1" "$2" "$3"
}

# One read for many fields: their values one a line, in the order
# asked, an empty line for each one that is missing.
results_fields() {	# file test field...
	r_file=$1 r_test=$2
	shift 2
	RESULTS_TEST=$r_test RESULTS_FIELDS="$*" awk "$__RESULTS_FIRST_BLOCK"'
	BEGIN {
		nkeys = split(ENVIRON["RESULTS_FIELDS"], keys, " ")
	}
	($1 == "test:" || $1 == "skip:") && $2 == "name=" ENVIRON["RESULTS_TEST"] {
		for (i = 2; i <= NF; i++) {
			# reason= is the last field and may hold spaces
			if ($1 == "skip:" && index($i, "reason=") == 1) {
				value["reason"] = substr($0, index($0, " reason=") + 8)
				break
			}
			eq = index($i, "=")
			key = substr($i, 1, eq - 1)
			if (eq > 1 && !(key in value))
				value[key] = substr($i, eq + 1)
		}
		exit
	}
	END {
		for (k = 1; k <= nkeys; k++)
			print value[keys[k]]
	}' <"$r_file"
}

# The exact profile (format 4): the FIELDs of TEST's prof: line, one a
# line; and of each of its prof_fn: lines, one line a function, the
# values space-separated ("-" for one that is missing).
results_prof() {	# file test field...
	r_file=$1 r_test=$2
	shift 2
	RESULTS_TEST=$r_test RESULTS_FIELDS="$*" awk "$__RESULTS_FIRST_BLOCK$__RESULTS_WORDS"'
	$1 == "prof:" && $2 == "name=" ENVIRON["RESULTS_TEST"] {
		words()
		for (k = 1; k <= nkeys; k++)
			print value[keys[k]]
		exit
	}' <"$r_file"
}

results_prof_fns() {	# file test field...
	__results_each_line prof_fn: "$@"
}

# Per KIND line of TEST (cpu:, prof_fn:), the FIELDs' values on a line.
__results_each_line() {	# kind file test field...
	r_kind=$1 r_file=$2 r_test=$3
	shift 3
	RESULTS_KIND=$r_kind RESULTS_TEST=$r_test RESULTS_FIELDS="$*" \
		awk "$__RESULTS_FIRST_BLOCK$__RESULTS_WORDS"'
	$1 == ENVIRON["RESULTS_KIND"] && $2 == "name=" ENVIRON["RESULTS_TEST"] {
		words()
		line = ""
		for (k = 1; k <= nkeys; k++)
			line = line (k > 1 ? " " : "") \
			       (keys[k] in value ? value[keys[k]] : "-")
		print line
	}' <"$r_file"
}

# value[KEY] of the line's key=value words; keys[] the FIELDs asked.
__RESULTS_WORDS='
BEGIN {
	nkeys = split(ENVIRON["RESULTS_FIELDS"], keys, " ")
}
function words(   i, eq) {
	delete value
	for (i = 2; i <= NF; i++) {
		eq = index($i, "=")
		if (eq > 1 && !(substr($i, 1, eq - 1) in value))
			value[substr($i, 1, eq - 1)] = substr($i, eq + 1)
	}
}
'

results_skip_reason() {	# file test
	results_field "$1" "$2" reason
}

results_ran() {	# file test
	RESULTS_TEST=$2 awk "$__RESULTS_FIRST_BLOCK"'
	$1 == "test:" && $2 == "name=" ENVIRON["RESULTS_TEST"] {
		found = 1
		exit
	}
	END {
		exit !found
	}' <"$1"
}

results_ran_tests() {	# file
	awk "$__RESULTS_FIRST_BLOCK"'
	$1 == "test:" && index($2, "name=") == 1 {
		print substr($2, 6)
	}' <"$1"
}

results_cpu_field() {	# file test field...
	__results_each_line cpu: "$@"
}

# Per test: line, the test's name and the FIELDs' values on one line,
# "?" for one that is missing: a table of the block in one process.
results_rows() {	# file field...
	r_file=$1
	shift
	RESULTS_FIELDS="$*" awk "$__RESULTS_FIRST_BLOCK$__RESULTS_WORDS"'
	$1 == "test:" && index($2, "name=") == 1 {
		words()
		line = substr($2, 6)
		for (k = 1; k <= nkeys; k++)
			line = line " " (keys[k] in value ? value[keys[k]] : "?")
		print line
	}' <"$r_file"
}

results_cpu_tests() {	# file
	awk "$__RESULTS_FIRST_BLOCK"'
	$1 == "cpu:" && index($2, "name=") == 1 && !(substr($2, 6) in seen) {
		seen[substr($2, 6)] = 1
		print substr($2, 6)
	}' <"$1"
}

# For a reader of many fields of every test (the wrapper reads dozens
# a test, in guests where a process costs more than a test's run): one
# pass writes, for the first test: or skip: line of each TEST,
#   DIR/TEST        "test" or "skip", then each of FIELDS' values one a
#                   line (empty: missing), as results_fields gives them
#   DIR/TEST.stats  the values of the counters its expect_stats names,
#                   one a line, in the order named
#   DIR/TEST.cpu    per cpu: line of TEST, CPU_FIELDS' values ("-" if
#                   missing), as results_cpu_field gives them
#   DIR/TEST.lines  its test: and cpu: lines
# Test names become file names: call it on a block results_check_load
# has passed (names of letters, digits, "_" and "-"); others are left
# out.
results_index() {	# file dir "field..." "cpu-field..."
	RESULTS_DIR=$2 RESULTS_FIELDS=$3 RESULTS_CPU_FIELDS=$4 \
		awk "$__RESULTS_FIRST_BLOCK"'
	BEGIN {
		nkeys = split(ENVIRON["RESULTS_FIELDS"], keys, " ")
		ncpukeys = split(ENVIRON["RESULTS_CPU_FIELDS"], cpukeys, " ")
	}
	$1 !~ /^(test|skip|cpu):$/ || $2 !~ /^name=[A-Za-z0-9_-]+$/ {
		next
	}
	{
		out = ENVIRON["RESULTS_DIR"] "/" substr($2, 6)
		delete value
		for (i = 3; i <= NF; i++) {
			# reason= is the last field and may hold spaces
			if ($1 == "skip:" && index($i, "reason=") == 1) {
				value["reason"] = substr($0, index($0, " reason=") + 8)
				break
			}
			eq = index($i, "=")
			if (eq > 1 && !(substr($i, 1, eq - 1) in value))
				value[substr($i, 1, eq - 1)] = substr($i, eq + 1)
		}
	}
	$1 != "skip:" {
		print >>(out ".lines")
		close(out ".lines")
	}
	$1 == "cpu:" {
		line = ""
		for (k = 1; k <= ncpukeys; k++)
			line = line (k > 1 ? " " : "") \
			       (cpukeys[k] in value ? value[cpukeys[k]] : "-")
		print line >>(out ".cpu")
		close(out ".cpu")
		next
	}
	!(out in written) {
		written[out] = 1
		print substr($1, 1, 4) >out
		for (k = 1; k <= nkeys; k++)
			print value[keys[k]] >out
		close(out)
		printf "" >(out ".stats")	# there, even with nothing named
		n = split(value["expect_stats"], terms, ",")
		for (t = 1; t <= n; t++) {
			sub(/:.*/, "", terms[t])
			m = split(terms[t], counters, "+")
			for (c = 1; c <= m; c++)
				print value[counters[c]] >>(out ".stats")
		}
		close(out ".stats")
	}' <"$1"
}

results_is_number() {	# value
	case $1 in
	'' | *[!0-9.]* | .* | *. | *.*.*) return 1 ;;
	esac
}

# Succeeds when FILE is whole, well-formed results: blocks, each a
# "format: bench_page_pool_simple N" line (N 1 to 4; the first line
# that is not blank is one) and "KEY: ..." lines only, each from its first column, no control
# character, test:/skip:/cpu: (and format 4's prof:/prof_fn:) lines of
# "name=TEST key=value" words, a key of a-z, 0-9 and "_" (not a digit
# first), a value of a byte or more, no key twice, with test names of 1
# to 64 letters, digits, "_" and "-" (the selected: ones too), each
# test: name once in its block, a skip: reason, and from format 3 on a
# clock: and accel: line and the end: line whose counts agree with the
# block.  The numbers of a test: line are read as bench-compare reads
# them (__RESULTS_NUMBERS): a bad one is said, naming its field, at its
# line; and format 4's profile lines as it reads them
# (__RESULTS_PROFILE).  Each block is one load, as bench-compare reads it.  Each
# FIELD named must be a plain decimal number on every test: line.
# Otherwise prints "FILE:LINE: what is wrong" and fails.
results_check() {	# file [field...]
	__results_check "" "$@"
}

# The same, and one block only, for the readers that take one load (a
# second block is said at its format: line).
results_check_load() {	# file [field...]
	__results_check 1 "$@"
}

__results_check() {	# one-block file [field...]
	r_one=$1 r_file=$2
	shift 2
	if [ ! -f "$r_file" ] || [ ! -r "$r_file" ]; then
		printf '%s: cannot read it\n' "$r_file"
		return 1
	fi
	results_strict_awk "$r_file" "$__RESULTS_NUMBERS$__RESULTS_PROFILE"'
	BEGIN {
		numbers = split(ENVIRON["RESULTS_NUMBERS"], number, " ")
		# what bench-compare reads of a test: line (results.c)
		nrequired = split("run_flags_bit context cpu reps loops" \
			" invoke_count total_invoke_count cycles ns" \
			" cycles_per_elem ns_per_elem cycles_samples ns_samples" \
			" path pages_allocated pages_released expect_path" \
			" expect_allocated_max expect_released expect_stats" \
			" cheaper_than", required, " ")
	}
	# blank lines may come first, then the first block
	!block && $0 !~ /^[ \t]*$/ && !(/^format:/ && $1 == "format:") {
		bad("not a results file of bench_page_pool_simple" \
		    " (expected \"format: bench_page_pool_simple N\")")
	}
	# a block: from its format: line to the next one, each checked alike
	/^format:/ && $1 == "format:" {
		if (block && ENVIRON["RESULTS_ONE"] != "")
			bad("a second results block: this reader takes one load")
		if (format == 4)
			prof_close(0)
		if (format >= 3 && !ended)
			bad_at(block, "no end: line: the block is cut")
		if ($2 != "bench_page_pool_simple" || NF != 3)
			bad((!block ? "not a results file of bench_page_pool_simple" : \
				      "bad format line") \
			    " (expected \"format: bench_page_pool_simple N\")")
		if ($3 !~ /^[1-4]$/)
			bad("unsupported results format version " $3 " (supported: 1 to 4)")
		delete test_line
		delete prof_line
		tests = skips = clock = accel = ended = 0
		caches = prof_started = 0
		format = $3 + 0
		block = NR
		next
	}
	$0 ~ /^[ \t]*$/ {
		next
	}
	/^[ \t]/ {
		bad("a line starting with a blank (a results line starts at its key)")
	}
	$1 !~ /^[a-z_]+:$/ {
		bad("expected a \"KEY: value\" line")
	}
	ended {
		bad("a line after the end: line")
	}
	$1 == "selected:" && NF > 1 {
		n = split(substr($0, index($0, ":") + 1), sel, ",")
		for (i = 1; i <= n; i++) {
			gsub(/^[ \t]+|[ \t]+$/, "", sel[i])
			if (!name_ok(sel[i]))
				bad("selected: \"" sel[i] "\" is not a test name")
		}
	}
	$1 == "clock:" {
		if (NF != 2 || ($2 != "instructions" && $2 != "cycles"))
			bad("clock: must be instructions or cycles")
		clock = 1
	}
	$1 == "accel:" {
		if (NF != 2 || $2 !~ /^(none|kvm|tcg|other)$/)
			bad("accel: must be none, kvm, tcg or other")
		accel = 1
	}
	format == 3 && ($1 == "profile:" || $1 == "prof:" || $1 == "prof_fn:") {
		bad($1 " line in a format 3 block (profiles come with format 4)")
	}
	$1 == "test:" || $1 == "skip:" || $1 == "cpu:" ||
	(format == 4 && ($1 == "prof:" || $1 == "prof_fn:")) {
		if (index($2, "name=") != 1 || !name_ok(substr($2, 6)))
			bad($1 " line without name=TEST first")
		delete seen
		seen["name="] = 1
		for (i = 3; i <= NF; i++) {
			if ($1 == "skip:" && $i ~ /^reason=./)
				break
			if ($i !~ /^[a-z_][a-z0-9_]*=./)
				bad("\"" $i "\" is not a key=value field")
			key = substr($i, 1, index($i, "="))
			if (key in seen)
				bad("field " key " given twice")
			seen[key] = 1
		}
		if ($1 == "skip:" && i > NF)
			bad("skip: line without reason=")
	}
	format == 4 && $1 == "test:" && prof_started {
		bad("test: line after the block\047s prof: lines" \
		    " (format 4 profiles follow every test: line)")
	}
	format == 4 && $1 == "profile:" {
		profile_line()
	}
	format == 4 && ($1 == "prof:" || $1 == "prof_fn:") {
		prof_started = 1
		if ($1 == "prof:")
			prof_close(1)
		prof_take()
	}
	format == 4 && $1 == "end:" {
		prof_end()
	}
	# a field the module always writes missing: the line was cut
	$1 == "test:" && format >= 3 {
		for (i = 1; i <= nrequired; i++)
			if (!((required[i] "=") in seen))
				bad("test: " substr($2, 6) " has no " required[i] "= (format 3" \
				    " always has it: cut short?)")
	}
	$1 == "test:" {
		name = substr($2, 6)
		if (name in test_line)
			bad("test " name ": appears twice in one results block" \
			    " (also at line " test_line[name] ")")
		test_line[name] = NR
		if (!(name in test_id))
			test_id[name] = ++nr_test_ids
		tests++
		test_numbers()
		for (j = 1; j <= numbers; j++) {
			v = ""
			for (i = 3; i <= NF; i++)
				if (index($i, number[j] "=") == 1) {
					v = substr($i, length(number[j]) + 2)
					break
				}
			if (v !~ /^[0-9]+(\.[0-9]+)?$/)
				bad("test: " substr($2, 6) " has no " number[j] "=NUMBER")
		}
	}
	$1 == "skip:" {
		skips++
	}
	$1 == "end:" && format >= 3 {
		if (!clock)
			bad("no clock: line (format " format ")")
		if (!accel)
			bad("no accel: line (format " format ")")
		if (NF != 3 || $2 !~ /^tests=[0-9]+$/ || $3 !~ /^skips=[0-9]+$/)
			bad("expected \"end: tests=N skips=N\"")
		if (dec(substr($2, 7)) != tests || dec(substr($3, 7)) != skips)
			bad("end: says " $2 " " $3 ", the block has tests=" \
			    tests + 0 " skips=" skips + 0 ": lines are missing")
		ended = 1
	}
	END {
		if (failed)
			exit 1
		if (format == 4)
			prof_close(0)
		if (!block)
			bad("empty file")
		if (format >= 3 && !ended)
			bad_at(block, "no end: line: the block is cut")
	}' RESULTS_NUMBERS="$*" RESULTS_ONE="$r_one"
}

# The numbers of a test: line ($0, its fields in seen[]), read as
# bench-compare reads them (tools/compare/results.c, read_test()):
# invoke_count, reps, cycles and ns whole numbers of 64 bits; the
# per-element values and samples plain decimals ("12", "1.5", "1.5e3")
# from 2^-64 (or 0) to 2^64 - 1, of at most 99 decimals, that a double
# holds as written (util.c, parse_value()); a per-element value within a
# unit of its last digit of its total / invoke_count; as many samples as
# reps.  Each error names the field, at the line.
__RESULTS_NUMBERS='
function field(key,   i) {
	if (!((key "=") in seen))
		return ""
	for (i = 3; i <= NF; i++)
		if (index($i, key "=") == 1)
			return substr($i, length(key) + 2)
}
function number_bad(key, v, why) {
	bad("test " substr($2, 6) ": " why " in " key "=" v)
}
# a whole number of 64 bits, as parse_ull()
function whole(key, v,   w) {
	w = v
	sub(/^0+/, "", w)
	match(w, /^[0-9]*/)
	if (RLENGTH > 20 || (RLENGTH == 20 && substr(w, 1, 20) > "18446744073709551615"))
		number_bad(key, v, "number out of range")
	if (v !~ /^[0-9]+$/)
		number_bad(key, v, "bad number")
	return dec(v)
}
# the plain decimal S as printf("%.Df") writes it, "" if that takes
# over 200 digits (util.c, number_written())
function written(s, d,   m, ex, i, c, num, frac, z, out) {
	m = s
	ex = 0
	if (match(s, /[eE]/)) {
		m = substr(s, 1, RSTART - 1)
		ex = dec(substr(s, RSTART + 1))
	}
	frac = -1
	num = ""
	for (i = 1; i <= length(m); i++) {
		c = substr(m, i, 1)
		if (c == ".") {
			frac = 0
			continue
		}
		if (num != "" || c != "0")
			num = num c
		if (frac >= 0)
			frac++
	}
	if (frac < 0)
		frac = 0
	z = num != "" ? ex - frac + d : 0
	if (z < 0 || z > 200 || length(num) > 200)
		return ""
	for (; z > 0; z--)
		num = num "0"
	out = ""
	while (length(out) + length(num) < d + 1)
		out = out "0"
	out = out num
	if (d)
		out = substr(out, 1, length(out) - d) "." substr(out, length(out) - d + 1)
	return out
}
# the values of FIELD (a comma-separated list) into vals[1..n], their
# most decimals in vals_d; returns n (parse_value() on each)
function values(key, v,   n, list, i, s, x, d, f, e) {
	n = split(v, list, ",")
	if (substr(v, length(v)) == ",")
		n++
	vals_d = 0
	for (i = 1; i <= n; i++) {
		s = list[i]
		if (s !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/)
			number_bad(key, v, "bad number")
		x = dec(s)
		f = s
		sub(/[eE].*/, "", f)
		d = index(f, ".") ? length(f) - index(f, ".") : 0
		e = 0
		if (match(s, /[eE]/))
			e = dec(substr(s, RSTART + 1))
		d -= e
		if (d < 0)
			d = 0
		if (x < 1 / 18446744073709551615 && s ~ /^[0.]*[1-9]/)
			number_bad(key, v, "number out of range")
		if (x > 18446744073709551615 || d > 99)
			number_bad(key, v, "number out of range")
		if (written(s, d) != sprintf("%." d "f", x))
			number_bad(key, v, "number a double cannot hold" \
			    " as written (too many digits)")
		vals[i] = x
		if (d > vals_d)
			vals_d = d
	}
	return n
}
# metric M (cycles or ns): its repetitions counted in reps_of[M]
function metric(m,   tot, inv, pe, t, q, n, diff) {
	tot = field(m)
	inv = field("invoke_count")
	pe = field(m "_per_elem")
	q = ""
	if (tot != "" && inv != "") {
		t = whole(m, tot)
		if (invokes == 0)
			bad("test " substr($2, 6) ": invoke_count=0")
		q = t / invokes
		if (pe != "") {
			n = values(m "_per_elem", pe)
			diff = vals[1] - q
			if (diff < 0)
				diff = -diff
			if (n != 1 || diff > ("1e-" vals_d) * (1 + 1 / 1e9))
				bad("test " substr($2, 6) ": " m "_per_elem=" pe \
				    " disagrees with " m "/invoke_count = " sprintf("%.6f", q))
		}
	}
	reps_of[m] = 0
	if (field(m "_samples") != "")
		reps_of[m] = values(m "_samples", field(m "_samples"))
	else if (q != "")
		reps_of[m] = 1
	else if (pe != "")
		reps_of[m] = values(m "_per_elem", pe)
}
function test_numbers(   inv, r) {
	inv = field("invoke_count")
	if (inv != "")
		invokes = whole("invoke_count", inv)
	r = field("reps")
	if (r != "")
		r = whole("reps", r)
	metric("cycles")
	metric("ns")
	if (!reps_of["cycles"])
		bad("test " substr($2, 6) ": no cycles" \
		    " (need cycles= and invoke_count=, or cycles_per_elem=)")
	if (r != "" && field("cycles_samples") != "" && reps_of["cycles"] != r)
		bad("test " substr($2, 6) ": cycles_samples has " reps_of["cycles"] " values," \
		    " reps=" r)
	if (r != "" && field("ns_samples") != "" && reps_of["ns"] != r)
		bad("test " substr($2, 6) ": ns_samples has " reps_of["ns"] " values, reps=" r)
	if (field("cycles_samples") != "" && field("ns_samples") != "" &&
	    reps_of["cycles"] != reps_of["ns"])
		bad("test " substr($2, 6) ": cycles_samples has " reps_of["cycles"] \
		    " values, ns_samples " reps_of["ns"])
}
'

# Format 4's profile lines, read as bench-compare reads them
# (tools/compare/results.c, parse_caches() and parse_prof()): one
# profile: line before the prof: lines; after the test: lines, one
# prof: line per test of the block, its prof_fn: lines after it, each
# field there, windows a whole number above 0, the counts DIGITS.DDD
# (at most 2^53 - 1 thousandths), fn a kernel symbol, [module] after it
# or "?", a function once per test, the functions adding up to their
# test within half a thousandth a line.  Errors come where and when
# bench-compare says them: a group's at the next prof: line, end: line
# or block (its sums not at a block cut short).
__RESULTS_PROFILE='
function profile_line(   i, key, w, n) {
	if (caches || prof_started)
		bad("profile: line " (caches ? "given twice in its block" : \
		    "after the block\047s prof: lines"))
	caches = 1
	split("l1i= l1d= llc= line=", key, " ")
	n = split(substr($0, index($0, ":") + 1), w, " ")
	for (i = 1; i <= 4; i++)
		if (n != 4 || index(w[i], key[i]) != 1 ||
		    !size_ok(substr(w[i], length(key[i]) + 1), i < 4))
			bad("bad profile: line: expected \"profile:" \
			    " l1i=SIZE:WAYS l1d=SIZE:WAYS llc=SIZE:WAYS line=BYTES\"")
}
# why V is no whole number of 64 bits, as parse_ull() says it, or ""
function ull_status(v,   w) {
	match(v, /^[0-9]*/)
	w = substr(v, 1, RLENGTH)
	sub(/^0+/, "", w)
	if (length(w) > 20 || (length(w) == 20 && w > "18446744073709551615"))
		return "number out of range"
	return v ~ /^[0-9]+$/ ? "" : "bad number"
}
function ull_ok(v,   w) {
	w = v
	sub(/^0+/, "", w)
	return v ~ /^[0-9]+$/ && (length(w) < 20 ||
	    (length(w) == 20 && w <= "18446744073709551615"))
}
function size_ok(v, ways,   c) {
	if (!ways)
		return ull_ok(v) && dec(v) > 0
	c = index(v, ":")
	return c && ull_ok(substr(v, 1, c - 1)) && dec(substr(v, 1, c - 1)) > 0 &&
	    ull_ok(substr(v, c + 1)) && dec(substr(v, c + 1)) > 0
}
function prof_field(key,   i) {
	for (i = 3; i <= NF; i++)
		if (index($i, key "=") == 1)
			return substr($i, length(key) + 2)
	return ""
}
function prof_take(   what, fn, name, f, k, v, w, c) {
	what = $1
	fn = what == "prof_fn:"
	name = substr($2, 6)
	if (!(name in test_line))
		bad(what " test " name " has no test: line in this block")
	split((fn ? "fn" : "windows") \
	      " insns loads stores atomics l1i_miss l1d_miss llc_miss", k, " ")
	for (f = 1; f <= 8; f++)
		if (!((k[f] "=") in seen))
			bad(what " test " name ": no " k[f] "= (format 4" \
			    " always has it: cut short?)")
	if (fn) {
		v = prof_field("fn")
		if (v != "?" && v !~ /^[A-Za-z0-9_.$]+(\[[A-Za-z0-9_]+\])?$/)
			bad(what " test " name ": fn=" v " is no function" \
			    " (a kernel symbol, [module] after it, or ?)")
	} else {
		v = prof_field("windows")
		if (ull_status(v) != "")
			bad(what " test " name ": " ull_status(v) " in windows=" v)
		if (dec(v) == 0)
			bad(what " test " name ": windows=0 (a profiled test ran in a window)")
	}
	for (f = 2; f <= 8; f++) {
		v = prof_field(k[f])
		if (v !~ /^[0-9]+\.[0-9][0-9][0-9]$/)
			bad(what " test " name ": bad number in " k[f] "=" v \
			    " (a count per element has 3 decimals)")
		w = substr(v, 1, length(v) - 4)
		sub(/^0+/, "", w)
		c = dec(w) * 1000 + dec(substr(v, length(v) - 2))
		if (length(w) > 13 || c > 9007199254740991)
			bad(what " test " name ": number out of range in " k[f] "=" v)
		count[f] = c
	}
	if (!fn) {
		if (name in prof_line)
			bad("prof: test " name " given twice in this block" \
			    " (also at line " prof_line[name] ")")
		prof_line[name] = NR
		group = name
		nr_fns = 0
		for (f = 2; f <= 8; f++)
			total[f] = count[f]
		return
	}
	if (group != name) {
		if (!(name in prof_line))
			bad("prof_fn: test " name " before its prof: line")
		bad("prof_fn: test " name " after other tests\047 prof: lines" \
		    " (its prof_fn: lines follow its prof: line)")
	}
	v = prof_field("fn")
	if (!(v in fn_id))
		fn_id[v] = ++nr_fn_ids
	nr_fns++
	fn_name[nr_fns] = v
	fn_at[nr_fns] = NR
	for (f = 2; f <= 8; f++)
		fn_count[nr_fns, f] = count[f]
}
# the open prof: group ended: a function once, and (SUMS) the counts
function prof_close(sums,   i, j, dup, first, f, k, sum, d) {
	if (group == "")
		return
	dup = 0
	for (i = 1; i <= nr_fns; i++)
		for (j = 1; j < i; j++)
			if (fn_name[j] == fn_name[i] &&
			    (!dup || fn_id[fn_name[i]] < fn_id[fn_name[dup]])) {
				dup = i
				first = j
			}
	if (dup) {
		group_name = group
		group = ""
		bad_at(fn_at[dup], "prof_fn: test " group_name ": function " fn_name[dup] \
		       " given twice in this block (also at line " fn_at[first] ")")
	}
	split("- insns loads stores atomics l1i_miss l1d_miss llc_miss", k, " ")
	for (f = 2; sums && f <= 8; f++) {
		sum = 0
		for (i = 1; i <= nr_fns; i++)
			sum += fn_count[i, f]
		d = total[f] - sum
		if (d < 0)
			d = -d
		if (d > int((nr_fns + 1) / 2))
			bad_at(prof_line[group], "prof: test " group ": its functions\047 " k[f] \
			       " add up to " sprintf("%.3f", sum / 1000) ", not " \
			       sprintf("%.3f", total[f] / 1000) " (a prof_fn: line lost?)")
	}
	group = ""
}
function prof_end(   name, best) {
	prof_close(1)
	if (!caches)
		bad("format 4 block without a profile: line")
	best = ""
	for (name in test_line)
		if (!(name in prof_line) &&
		    (best == "" || test_id[name] < test_id[best]))
			best = name
	if (best != "")
		bad("test " best " has no prof: line (format 4 profiles every test of its block)")
}
'

# How many blocks (loads) a file holds: its format: lines.
results_blocks() {	# file
	awk '/^format:/ && $1 == "format:" { n++ } END { print n + 0 }' <"$1"
}

# Writes each block of FILE (checked whole first) to PREFIX1, PREFIX2,
# ..., verbatim, and prints how many there are.
results_split() {	# file prefix
	RESULTS_PREFIX=$2 awk '
	/^format:/ && $1 == "format:" {
		if (n++)
			close(out)
		out = ENVIRON["RESULTS_PREFIX"] n
	}
	n {
		print >out
	}
	END {
		print n + 0
	}' <"$1"
}

# How parsers of untrusted text read it: awk PROGRAM runs over FILE
# with a NUL, any control character but a tab, a C1 control, a Unicode
# format control (bidi, invisible, line separators) and bytes that are
# not UTF-8 refused, a line longer than bench-compare reads (65536
# bytes, its newline not counted) too, and a final CR dropped; PROGRAM
# may call bad(MESSAGE), which prints "FILE:LINE: MESSAGE" and fails,
# bad_at(LINE, MESSAGE) for an earlier line, and name_ok(S), true for
# a test name (1 to 64 letters, digits, "_" and "-").  Its END should
# start with "if (failed) exit 1".  NAME=VALUE arguments reach it in
# ENVIRON.
__RESULTS_STRICT='
function bad(msg) {
	bad_at(NR, msg)
}
function bad_at(line, msg) {
	printf "%s:%d: %s\n", ENVIRON["RESULTS_FILE"], line, msg
	failed = 1
	exit 1
}
function name_ok(s) {
	return s ~ /^[A-Za-z0-9_-]+$/ && length(s) <= 64
}
# the number a decimal S says: busybox awk reads "010" as octal 8
function dec(s,   sign) {
	sign = ""
	if (s ~ /^[-+]/) {
		sign = substr(s, 1, 1)
		s = substr(s, 2)
	}
	sub(/^0+/, "", s)
	if (s == "" || s ~ /^[eE]/)
		return 0
	return (sign s) + 0
}
BEGIN {
	# printable text: ASCII but controls (tab allowed), and UTF-8 of
	# U+00A0 and up, without overlongs or surrogates; C1 controls,
	# stray or cut sequences are not, as bench-compare judges them
	# c1, c2, c3: one, two, three continuation bytes
	c1 = "[\200-\277]"
	c2 = c1 c1
	c3 = c2 c1
	utf8_text = "^([\t -~]|\302[\240-\277]|[\303-\337]" c1 \
		"|\340[\240-\277]" c1 "|[\341-\354\356\357]" c2 \
		"|\355[\200-\237]" c1 "|\360[\220-\277]" c2 \
		"|[\361-\363]" c3 "|\364[\200-\217]" c2 ")*$"
	# Unicode format controls, as bench-compare refuses them (util.c,
	# is_format_control): soft hyphen U+00AD, U+061C, U+180E, U+200B to
	# U+200F, line and paragraph separators and bidi embeddings U+2028
	# to U+202E, U+2060 to U+206F (bidi isolates among them), U+FEFF,
	# U+FFF9 to U+FFFB and tags U+E0000 to U+E007F
	format_ctrl = "\302\255|\330\234|\341\240\216|\342\200[\213-\217\250-\256]" \
		"|\342\201[\240-\257]|\357\273\277|\357\277[\271-\273]" \
		"|\363\240[\200\201]"
}
# the longest line bench-compare reads (INPUT_LINE_MAX), a CR counted
length($0) > 65536 {
	bad("line longer than the limit of 65536 bytes")
}
{ sub(/\r$/, "") }
/[\001-\010\013-\037\177]/ {
	bad("control character in the line")
}
$0 !~ utf8_text {
	bad("a byte that is not printable text (a C1 control, or not UTF-8)")
}
$0 ~ format_ctrl {
	bad("a Unicode format control (bidi, invisible or line break) in the line")
}
'

results_strict_awk() {	# file program [name=value...]
	r_file=$1 r_program=$2
	shift 2
	# A NUL would end a line early in some awks: it becomes a control
	# character, which is refused.
	tr '\000' '\001' <"$r_file" |
		env LC_ALL=C RESULTS_FILE="$r_file" "$@" awk "$__RESULTS_STRICT$r_program"
}
