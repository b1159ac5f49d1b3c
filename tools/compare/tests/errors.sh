# SPDX-License-Identifier: GPL-2.0
#
# bench-compare's error cases (run.sh): every bad input refused with its
# FILE:LINE and exit 2, one case a line, each calling back with
# DESC RC STDERR-LINE ARGS...

# error_cases CALLBACK: CALLBACK DESC RC STDERR-LINE ARGS... per case
error_cases() {
	$1 "legacy cut after Type:" 2 \
		"bench-compare: $E:2: truncated legacy line: no test name" "$E" "$A1"
	$1 "legacy cut after the name" 2 \
		"bench-compare: $E:3: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut in Per elem:" 2 \
		"bench-compare: $E:4: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut after the cycles value" 2 \
		"bench-compare: $E:5: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut in cycles(tsc)" 2 \
		"bench-compare: $E:6: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut after cycles(tsc)" 2 \
		"bench-compare: $E:7: truncated legacy line: no ns" "$E" "$A1"
	$1 "legacy cut in the ns value" 2 \
		"bench-compare: $E:8: truncated legacy line: no ns" "$E" "$A1"
	$1 "legacy cut in the ns unit" 2 \
		"bench-compare: $E:9: truncated legacy line: no ns" "$E" "$A1"
	$1 "legacy line with non-numeric cycles" 2 \
		"bench-compare: $E:10: malformed legacy line: non-numeric cycles" \
		"$E" "$A1"
	$1 "legacy line without Per elem:" 2 \
		"bench-compare: $E:11: malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name" \
		"$E" "$A1"
	$1 "legacy line with invoke count 0" 2 \
		"bench-compare: $E:12: legacy line with invoke count 0" "$E" "$A1"
	$1 "legacy line with non-numeric invoke count" 2 \
		"bench-compare: $E:13: malformed legacy line: non-numeric invoke count" \
		"$E" "$A1"
	$1 "legacy line with an empty name" 2 \
		"bench-compare: $E:14: malformed legacy line: no test name after Type:" \
		"$E" "$A1"
	$1 "a single cut legacy line" 2 \
		"bench-compare: data/legacy_one_err.log:1: truncated legacy line: no cycles" \
		"$B1" data/legacy_one_err.log
	$1 "test: line without name=" 2 \
		"bench-compare: $R:3: test: line without name=TEST first" "$R" "$A1"
	$1 "test: line without cycles" 2 \
		"bench-compare: $R:4: test no_cycles: no cycles (need cycles= and invoke_count=, or cycles_per_elem=)" \
		"$R" "$A1"
	$1 "non-numeric integer field" 2 \
		"bench-compare: $R:5: test bad_int: bad number in cycles=12x" "$R" "$A1"
	$1 "non-numeric decimal field" 2 \
		"bench-compare: $R:6: test bad_double: bad number in cycles_per_elem=1.5.3" \
		"$R" "$A1"
	$1 "samples count differs from reps" 2 \
		"bench-compare: $R:7: test bad_reps: cycles_samples has 4 values, reps=5" \
		"$R" "$A1"
	$1 "invoke_count=0" 2 \
		"bench-compare: $R:8: test zero_invokes: invoke_count=0" "$R" "$A1"
	$1 "empty value in a samples list" 2 \
		"bench-compare: $R:9: test empty_item: bad number in cycles_samples=1,,2" \
		"$R" "$A1"
	$1 "negative value" 2 \
		"bench-compare: $R:10: test negative: bad number in cycles_per_elem=-5" \
		"$R" "$A1"
	$1 "nan is no number" 2 \
		"bench-compare: $R:11: test not_a_number: bad number in cycles_per_elem=nan" \
		"$R" "$A1"
	$1 "field without =" 2 \
		"bench-compare: $R:12: malformed field 'bogus': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"$R" "$A1"
	$1 "ns_samples count differs from reps" 2 \
		"bench-compare: $R:13: test ns_reps: ns_samples has 3 values, reps=2" \
		"$R" "$A1"
	$1 "exponent in an integer field" 2 \
		"bench-compare: $R:14: test bad_ns: bad number in ns=1e5" "$R" "$A1"
	$1 "unknown format number" 2 \
		"bench-compare: data/format5.txt:1: unsupported results format version 5 (supported: 1 to 4)" \
		"$B1" data/format5.txt
	$1 "format line without version" 2 \
		"bench-compare: data/format_noversion.txt:1: bad format line: expected \"format: bench_page_pool_simple N\"" \
		data/format_noversion.txt "$A1"
	$1 "format line of another benchmark" 2 \
		"bench-compare: data/format_other.txt:1: bad format line: expected \"format: bench_page_pool_simple N\"" \
		data/format_other.txt "$A1"
	$1 "test: line before the format: line" 2 \
		"bench-compare: data/test_first.txt:1: test: line before any format: line" \
		data/test_first.txt "$A1"
	$1 "empty file" 2 \
		"bench-compare: no benchmark results in data/empty.txt" \
		data/empty.txt "$A1"
	$1 "file with no results, only dmesg noise" 2 \
		"bench-compare: no benchmark results in data/noise.log" \
		"$B1" data/noise.log
	$1 "missing file" 2 \
		"bench-compare: data/missing.txt: cannot open: No such file or directory" \
		data/missing.txt "$A1"
	$1 "a directory without results files" 2 \
		"bench-compare: data: no *.results file in the directory" data "$A1"
	$1 "all bad files reported, the good one read" 2 \
		"bench-compare: no benchmark results in data/noise.log" \
		data/empty.txt "$B1" -- data/noise.log
	strict_cases "$1"
	words_cases "$1"
	clock_cases "$1"
	boot_cases "$1"
	profile_cases "$1"
	U=data/upstream_err.txt
	$1 "upstream's trimmed line cut short" 2 \
		"bench-compare: $U:1: truncated legacy line: no ns" "$U" "$A1"
	$1 "upstream's trimmed line with more after it" 2 \
		"bench-compare: $U:2: malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name" \
		"$U" "$A1"
	$1 "upstream's dmesg line cut after its ns" 2 \
		"bench-compare: $U:3: truncated legacy line: no step" "$U" "$A1"
	$1 "upstream's trimmed line with non-numeric cycles" 2 \
		"bench-compare: $U:4: malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name" \
		"$U" "$A1"
	$1 "usage: no arguments" 2 \
		"bench-compare: need a BEFORE and an AFTER file"
	$1 "usage: one file" 2 \
		"bench-compare: need a BEFORE and an AFTER file" "$B1"
	$1 "usage: three files without --" 2 \
		"bench-compare: more than two files: separate BEFORE... and AFTER... with --" \
		"$B1" "$A1" "$A1"
	$1 "usage: nothing after --" 2 \
		"bench-compare: no AFTER file after --" "$B1" --
	$1 "usage: nothing before --" 2 \
		"bench-compare: no BEFORE file before --" -- "$A1"
	$1 "usage: unknown format" 2 \
		"bench-compare: unknown format 'html' (text, markdown, org, json or kcidb)" \
		-f html "$B1" "$A1"
	$1 "usage: --alpha 0" 2 \
		"bench-compare: bad --alpha '0': need 0 < A < 1" --alpha 0 "$B1" "$A1"
	$1 "usage: --alpha=1" 2 \
		"bench-compare: bad --alpha '1': need 0 < A < 1" --alpha=1 "$B1" "$A1"
	$1 "usage: --alpha below the smallest accepted (alpha / rows underflowed)" 2 \
		"bench-compare: bad --alpha '5e-324': the smallest accepted is 1e-12" \
		--alpha 5e-324 "$B1" "$A1"
	$1 "usage: --alpha not a number" 2 \
		"bench-compare: bad --alpha '5%': need 0 < A < 1" --alpha 5% "$B1" "$A1"
	$1 "usage: negative --fail-above" 2 \
		"bench-compare: bad --fail-above '-1': need a percentage >= 0" \
		--fail-above -1 "$B1" "$A1"
	$1 "usage: bad --load-stat" 2 \
		"bench-compare: bad --load-stat 'mean': min or median" \
		--load-stat mean "$B1" "$A1"
	$1 "usage: --plot with a bad suffix" 2 \
		"bench-compare: bad --plot 'x.pdf': the name must end in .svg or .png" \
		--plot x.pdf "$B1" "$A1"
	$1 "usage: unknown option" 2 \
		"bench-compare: unknown option '--bogus'" --bogus "$B1" "$A1"
	$1 "usage: option without its value" 2 \
		"bench-compare: option '--alpha' needs a value" "$B1" "$A1" --alpha
}

# One strictness for every parser. Cut lines, numbers beyond
# what a u64 per element can be, NUL bytes and control characters are
# errors naming FILE:LINE, exit 2, no table.
strict_cases() {
	S=data/strict_err.txt
	L=data/legacy_strict.log
	$1 "cycles_per_elem=1e999 is out of range" 2 \
		"bench-compare: $S:2: test big: number out of range in cycles_per_elem=1e999" \
		"$S" "$A1"
	$1 "a value beyond a u64 per element is out of range" 2 \
		"bench-compare: $S:3: test huge: number out of range in cycles_per_elem=18446744073709551617000" \
		"$S" "$A1"
	$1 "an integer field beyond a u64 is out of range" 2 \
		"bench-compare: $S:4: test over_int: number out of range in cycles=99999999999999999999999" \
		"$S" "$A1"
	$1 "cycles_per_elem must agree with cycles/invoke_count" 2 \
		"bench-compare: $S:5: test disagree: cycles_per_elem=99.000 disagrees with cycles/invoke_count = 100.000000" \
		"$S" "$A1"
	$1 "a field given twice" 2 \
		"bench-compare: $S:6: field cycles_per_elem= given twice" "$S" "$A1"
	$1 "a repetition out of range" 2 \
		"bench-compare: $S:7: test bad_sample: number out of range in cycles_samples=1,1e400" \
		"$S" "$A1"
	$1 "a test name that is not ASCII" 2 \
		"bench-compare: $S:8: test name holds the byte 0xc3: a test name is letters, digits, _ and -" \
		"$S" "$A1"
	$1 "an escape sequence in a results line" 2 \
		"bench-compare: $S:9: test: line holds a control or non-printable byte 0x1b at column 13" \
		"$S" "$A1"
	FC=data/format_ctrl.txt
	$1 "U+202E (right-to-left override) in an environment value" 2 \
		"bench-compare: $FC:2: results line holds a Unicode format control U+202E (bidi, invisible or line break) at column 13" \
		"$FC" "$A1"
	$1 "U+2028 (line separator) in an environment value" 2 \
		"bench-compare: $FC:3: results line holds a Unicode format control U+2028 (bidi, invisible or line break) at column 16" \
		"$FC" "$A1"
	$1 "U+FEFF (byte order mark) in an environment value" 2 \
		"bench-compare: $FC:4: results line holds a Unicode format control U+FEFF (bidi, invisible or line break) at column 10" \
		"$FC" "$A1"
	$1 "U+2066 (left-to-right isolate) in an environment value" 2 \
		"bench-compare: $FC:5: results line holds a Unicode format control U+2066 (bidi, invisible or line break) at column 12" \
		"$FC" "$A1"
	$1 "U+061C (Arabic letter mark) in an environment value" 2 \
		"bench-compare: $FC:6: results line holds a Unicode format control U+061C (bidi, invisible or line break) at column 16" \
		"$FC" "$A1"
	$1 "U+200F (right-to-left mark) in an environment value" 2 \
		"bench-compare: $FC:7: results line holds a Unicode format control U+200F (bidi, invisible or line break) at column 13" \
		"$FC" "$A1"
	$1 "a NUL byte in a results line" 2 \
		"bench-compare: $S:10: NUL byte in the line" "$S" "$A1"
	V=data/value_err.txt
	$1 "1e-400 underflows: out of range, as 1e400 is" 2 \
		"bench-compare: $V:2: test under: number out of range in cycles_per_elem=1e-400" \
		"$V" "$A1"
	$1 "a value below one count over a u64 of elements is out of range" 2 \
		"bench-compare: $V:3: test tiny: number out of range in cycles_per_elem=0.00000000000000000001e-10" \
		"$V" "$A1"
	$1 "u64 max is no double: refused, not shown as ...616" 2 \
		"bench-compare: $V:4: test u64max: number a double cannot hold as written (too many digits) in cycles_per_elem=18446744073709551615" \
		"$V" "$A1"
	$1 "a value with more digits than a double holds" 2 \
		"bench-compare: $V:5: test digits: number a double cannot hold as written (too many digits) in ns_per_elem=1.00000000000000001" \
		"$V" "$A1"
	$1 "a legacy ns with more digits than a double holds" 2 \
		"bench-compare: data/legacy_inexact.log:1: malformed legacy line: ns has more digits than a double holds" \
		"$A1" data/legacy_inexact.log
	$1 "1e999 ns in a legacy line is out of range" 2 \
		"bench-compare: $L:1: malformed legacy line: ns out of range" \
		"$A1" "$L"
	$1 "a legacy line's cycles must be floor(tsc_interval/invoke count)" 2 \
		"bench-compare: $L:2: legacy line: 20 cycles(tsc) is not tsc_interval/invoke count = 19" \
		"$A1" "$L"
	$1 "an escape sequence in a legacy test name" 2 \
		"bench-compare: $L:3: legacy line holds a control or non-printable byte 0x1b at column 36" \
		"$A1" "$L"
	$1 "a NUL byte in a legacy line" 2 \
		"bench-compare: $L:4: NUL byte in the line" "$A1" "$L"
	$1 "legacy cycles beyond a u64" 2 \
		"bench-compare: $L:5: malformed legacy line: cycles out of range" \
		"$A1" "$L"
	$1 "a legacy line without its final newline" 2 \
		"bench-compare: data/legacy_eofcut.log:2: legacy line cut short: no newline at its end" \
		"$A1" data/legacy_eofcut.log
	$1 "a results line without its final newline (cut after cycles=5222)" 2 \
		"bench-compare: data/f3_eofcut.txt:16: test: line cut short: no newline at its end" \
		data/f3_eofcut.txt data/f3_after.txt
	$1 "format 3: a test: line without a field the module always writes" 2 \
		"bench-compare: data/f3_nofield.txt:16: test tasklet_page_pool01_fast_path: no ns= (format 3 always has it: cut short?)" \
		data/f3_nofield.txt data/f3_after.txt
	$1 "format 3: a field whose value is not of its type in results.schema" 2 \
		"bench-compare: data/f3_type_err.txt:17: test tasklet_page_pool02_ptr_ring: expect_path=nowhere is not a list of paths (cache, ring, allocator, frag, unknown) or -" \
		data/f3_type_err.txt data/f3_after.txt
	$1 "format 3: a block without its end: line" 2 \
		"bench-compare: data/f3_noend.txt:1: results block cut short: no end: line" \
		data/f3_before.txt -- data/f3_noend.txt
	$1 "format 3: end: counts that disagree" 2 \
		"bench-compare: data/f3_count.txt:19: end: line says tests=3, the block has 2 test: lines (cut short?)" \
		data/f3_count.txt data/f3_after.txt
}

# One grammar with results_lib.sh's results_check. Test names
# are 1 to 64 letters, digits, _ and -; the words of test:, skip:, cpu:
# (and prof:) lines are name=TEST, then key=value, a key of a-z, 0-9
# and _, a value, no key twice; every line of a block is KEY: text.
words_cases() {
	W=data/words_err.txt
	for c in "3|a '.' in a test name|test name holds the byte 0x2e: a test name is letters, digits, _ and -" \
		"4|a test name of 65 bytes|test name of 65 bytes: at most 64" \
		"5|a key with a capital|malformed field 'Foo=1': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"6|an empty value|malformed field 'foo=': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"7|an unknown key twice|field foo= given twice" \
		"8|name= twice|field name= given twice" \
		"9|a skip: line without its reason|skip: line without reason=" \
		"10|a skip: line of a name that is none|test name holds the byte 0x2e: a test name is letters, digits, _ and -" \
		"11|a key twice in a cpu: line|field cpu= given twice" \
		"12|a selected: name that is none|test name holds the byte 0x2f: a test name is letters, digits, _ and -" \
		"13|a control character in a line of an unknown key|results line holds a control or non-printable byte 0x01 at column 13" \
		"14|KEY: without its blank|expected a \"KEY: value\" line in a results block" \
		"16|an empty reason=|malformed field 'reason=': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"17|a key starting with a digit|malformed field '9a=1': expected key=value (a key of a-z, 0-9 and _, a value)"; do
		line=${c%%|*} rest=${c#*|}
		$1 "grammar: ${rest%%|*}" 2 "bench-compare: $W:$line: ${rest#*|}" \
			"$W" "$A1"
	done
	W=data/f3_words_err.txt
	for c in "3|an accel: of no accelerator|unknown accel 'qemu': none, kvm, tcg or other" \
		"7|a format 3 block without accel:|format 3 block without an accel: line" \
		"11|an end: line with a word more|expected \"end: tests=N skips=N\"" \
		"12|format version 03|unsupported results format version 03 (supported: 1 to 4)"; do
		line=${c%%|*} rest=${c#*|}
		$1 "grammar: ${rest%%|*}" 2 "bench-compare: $W:$line: ${rest#*|}" \
			"$W" data/f3_after.txt
	done
}

# The exact profile of format 4: each malformed or misplaced line of
# data/f4_err.txt and data/f4_err2.txt is refused on its own, FILE:LINE.
profile_cases() {
	P=data/f4_err.txt
	Q=data/f4_err2.txt
	$1 "profile: a function given twice for a test in one load" 2 \
		"bench-compare: $P:13: prof_fn: test pa: function f1 given twice in this block (also at line 12)" \
		"$P" data/f4_one.txt
	$1 "profile: a prof: line given twice for a test in one load" 2 \
		"bench-compare: $P:14: prof: test pa given twice in this block (also at line 11)" \
		"$P" data/f4_one.txt
	$1 "profile: a prof: line of a test without a test: line" 2 \
		"bench-compare: $P:15: prof: test nosuch has no test: line in this block" \
		"$P" data/f4_one.txt
	$1 "profile: a count without its three decimals" 2 \
		"bench-compare: $P:16: prof: test pb: bad number in insns=1.5 (a count per element has 3 decimals)" \
		"$P" data/f4_one.txt
	$1 "profile: a count out of range" 2 \
		"bench-compare: $P:17: prof: test pb: number out of range in insns=99999999999999999.000" \
		"$P" data/f4_one.txt
	$1 "profile: a prof: line without one of its counts" 2 \
		"bench-compare: $P:18: prof: test pc: no llc_miss= (format 4 always has it: cut short?)" \
		"$P" data/f4_one.txt
	$1 "profile: a test profiled in no window" 2 \
		"bench-compare: $P:19: prof: test pd: windows=0 (a profiled test ran in a window)" \
		"$P" data/f4_one.txt
	$1 "profile: functions that do not add up to the test (a prof_fn: line lost)" 2 \
		"bench-compare: $P:20: prof: test pe: its functions' insns add up to 4.000, not 10.000 (a prof_fn: line lost?)" \
		"$P" data/f4_one.txt
	$1 "profile: a function that is no kernel symbol" 2 \
		"bench-compare: $P:23: prof_fn: test pg: fn=bad/name is no function (a kernel symbol, [module] after it, or ?)" \
		"$P" data/f4_one.txt
	$1 "profile: a prof_fn: line away from its test's prof: line" 2 \
		"bench-compare: $P:24: prof_fn: test pa after other tests' prof: lines (its prof_fn: lines follow its prof: line)" \
		"$P" data/f4_one.txt
	$1 "profile: a test: line after the prof: lines" 2 \
		"bench-compare: $P:25: test: line after the block's prof: lines (format 4 profiles follow every test: line)" \
		"$P" data/f4_one.txt
	$1 "profile: a second profile: line in one load" 2 \
		"bench-compare: $P:26: profile: line given twice in its block" \
		"$P" data/f4_one.txt
	$1 "profile: a test of a format 4 load without its prof: line" 2 \
		"bench-compare: $Q:9: test qb has no prof: line (format 4 profiles every test of its block)" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof_fn: line before its test's prof: line" 2 \
		"bench-compare: $Q:14: prof_fn: test ra before its prof: line" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof: line of a test of another load only" 2 \
		"bench-compare: $Q:17: prof: test qa has no test: line in this block" \
		"$Q" data/f4_one.txt
	$1 "profile: a format 4 load without its profile: line" 2 \
		"bench-compare: $Q:18: format 4 block without a profile: line" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof: line in a format 3 block" 2 \
		"bench-compare: $Q:23: prof: line in a format 3 block (profiles come with format 4)" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof_fn: line after the end: line" 2 \
		"bench-compare: $Q:25: a line after the end: line" \
		"$Q" data/f4_one.txt
	$1 "profile: the profile: line after the prof: lines" 2 \
		"bench-compare: $Q:32: profile: line after the block's prof: lines" \
		"$Q" data/f4_one.txt
	$1 "profile: a malformed profile: line" 2 \
		"bench-compare: $Q:38: bad profile: line: expected \"profile: l1i=SIZE:WAYS l1d=SIZE:WAYS llc=SIZE:WAYS line=BYTES\"" \
		"$Q" data/f4_one.txt
}

# Numbers of two clocks are never compared.
clock_cases() {
	$1 "results files of two clocks" 2 \
		"bench-compare: loads of different clocks cannot be compared: data/f3_before.txt:1 counts cycles, data/icount_after.txt:1 instructions" \
		data/f3_before.txt data/icount_after.txt
	$1 "a dmesg log without instrument lines against one with them" 2 \
		"bench-compare: loads of different clocks cannot be compared: data/dmesg_ts.log:5 counts cycles, data/dmesg_instrument.log:1 instructions" \
		data/dmesg_ts.log data/dmesg_instrument.log
	$1 "an instrument line with an unknown clock" 2 \
		"bench-compare: data/instrument_err.log:1: malformed instrument line: expected \"instrument: clock=instructions|cycles accel=WORD\"" \
		data/instrument_err.log data/icount_after.txt
	$1 "an instrument line without accel=" 2 \
		"bench-compare: data/instrument_err.log:2: malformed instrument line: expected \"instrument: clock=instructions|cycles accel=WORD\"" \
		data/instrument_err.log data/icount_after.txt
	$1 "format 3: a block without its clock: line" 2 \
		"bench-compare: data/f3_noclock.txt:18: format 3 block without a clock: line" \
		data/f3_noclock.txt data/f3_after.txt
}

# The boot a load ran in: boot_id: is the kernel's boot_id or
# unavailable, once a block; a figure of the PMU is in every load or
# there is no comparison of it.
boot_cases() {
	$1 "boot_id: not as the kernel writes it (uppercase)" 2 \
		"bench-compare: data/boot_id_err.txt:12: bad boot_id '1B4E28BA-2FA1-11D2-883F-0016D3CCA427': expected the kernel's boot_id, a UUID (8-4-4-4-12 lowercase hex digits), or unavailable" \
		data/boot_id_err.txt data/boots_after.txt
	$1 "boot_id: given twice in a block" 2 \
		"bench-compare: data/boot_id_twice.txt:13: boot_id: line given twice in its block" \
		data/boot_id_twice.txt data/boots_after.txt
	$1 "--check: a bad boot_id at its line" 2 \
		"bench-compare: data/boot_id_err.txt:12: bad boot_id '1B4E28BA-2FA1-11D2-883F-0016D3CCA427': expected the kernel's boot_id, a UUID (8-4-4-4-12 lowercase hex digits), or unavailable" \
		--check data/boots_before.txt data/boot_id_err.txt
	$1 "--figure core-cycles: a load without the PMU's figures (pmu=-)" 2 \
		"bench-compare: data/boots_tcg_before.txt:1: --figure core-cycles: this load has no PMU figures for 2 of its 2 tests (pmu=-: the module counted no PMU events here, as in an emulated guest)" \
		--figure core-cycles data/boots_tcg_before.txt data/boots_after.txt
	$1 "--figure instructions: a kernel log has no PMU figures" 2 \
		"bench-compare: data/dmesg_ts.log:5: --figure instructions: this load has no PMU figures for 2 of its 2 tests (a kernel log has none)" \
		--figure instructions data/dmesg_ts.log data/dmesg_plain.log
	$1 "usage: an unknown --figure" 2 \
		"bench-compare: bad --figure 'tsc2': tsc, core-cycles or instructions" \
		--figure tsc2 data/boots_before.txt data/boots_after.txt
	$1 "usage: -f kcidb with a --figure of the PMU" 2 \
		"bench-compare: -f kcidb writes the cycle counter's per-load values: no --figure or --unit" \
		-f kcidb --figure instructions data/boots_before.txt
	$1 "usage: an unknown --unit" 2 \
		"bench-compare: bad --unit 'boots': auto, boot or load" \
		--unit boots data/boots_before.txt data/boots_after.txt
}

count_case() {
	nr_errors=$((nr_errors + 1))
}
