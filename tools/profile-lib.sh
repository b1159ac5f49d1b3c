# SPDX-License-Identifier: GPL-2.0
#
# The host side of the exact profile (doc/profile.rst); sourced by the
# host tools after lib.sh.  POSIX sh and awk.
#
#   profile_merge RAW RESULTS KALLSYMS [RESULTS KALLSYMS]...
#	The plugin's profile of one guest (RAW: tools/profile's
#	bench_profile.so output), section K to the K-th load's results
#	file, named with that load's symbols: each results file gets its
#	tests' profiles (format 4, doc/output.rst).  Anything that does
#	not parse, a window left open, a test that ran without a window,
#	a section without its load, is refused with FILE:LINE; exit 2.
#   profile_table RESULTS TEST
#	The functions of TEST by instructions per element, as make perf
#	PROFILE=1 prints them.
#   profile_summary RESULTS
#	One line per test: its profile's totals per element.

# Reads the plugin's output strictly.  SECTION selects one section; the
# blocks of its windows go out as "row vaddr16 counts..." lines, its
# windows as "window row count".
__PROFILE_RAW='
function need(cond, msg) {
	if (!cond)
		bad(msg)
}
function num(kv, key,	v) {
	need(index(kv, key "=") == 1, "expected " key "=N, found \"" kv "\"")
	v = substr(kv, length(key) + 2)
	need(v ~ /^[0-9]+$/ && length(v) <= 15, key "=" v " is not a count")
	return v
}
NR == 1 {
	need($0 == "bench-profile 1", "not a profile of tools/profile (expected \"bench-profile 1\")")
	next
}
ended {
	bad("a line after the end line")
}
$1 == "geometry" {
	need(NF == 5 && $2 ~ /^l1i=[0-9]+:[0-9]+$/ && $3 ~ /^l1d=[0-9]+:[0-9]+$/ &&
	     $4 ~ /^llc=[0-9]+:[0-9]+$/ && $5 ~ /^line=[0-9]+$/,
	     "expected \"geometry l1i=SIZE:WAYS l1d=SIZE:WAYS llc=SIZE:WAYS line=BYTES\"")
	print "geometry", $2, $3, $4, $5 >ENVIRON["OUT"]
	next
}
$1 == "window" {
	need(NF == 4, "expected \"window section=S row=R count=N\"")
	s = num($2, "section"); r = num($3, "row"); n = num($4, "count")
	if (s + 0 == ENVIRON["SECTION"] + 0) {
		need(!((r + 0) in windows), "row " r " has two window lines")
		windows[r + 0] = n
		print "window", r + 0, n >ENVIRON["OUT"]
	}
	sections[s + 0] = 1
	next
}
$1 == "block" {
	need(NF == 11, "expected \"block section=S row=R vaddr=0xHEX insns=N loads=N stores=N atomics=N l1i_miss=N l1d_miss=N llc_miss=N\"")
	s = num($2, "section"); r = num($3, "row")
	need($4 ~ /^vaddr=0x[0-9a-f]+$/ && length($4) <= 24, "\"" $4 "\" is not vaddr=0xHEX")
	a = substr($4, 9)
	while (length(a) < 16)
		a = "0" a
	line = num($5, "insns")
	line = line " " num($6, "loads") " " num($7, "stores") " " num($8, "atomics")
	line = line " " num($9, "l1i_miss") " " num($10, "l1d_miss") " " num($11, "llc_miss")
	if (s + 0 == ENVIRON["SECTION"] + 0)
		print "block", r + 0, a, line >ENVIRON["OUT"]
	next
}
$1 == "open" {
	bad("a window still open when QEMU exited (" $2 " " $3 "): the guest stopped inside a test")
}
$1 == "end" {
	ended = 1
	next
}
{
	bad("unknown line")
}
END {
	if (failed)
		exit 1
	if (!ended)
		bad("no end line: the profile is cut (QEMU did not exit normally?)")
	for (s in sections)
		if (s + 0 > ENVIRON["SECTIONS"] + 0)
			bad("section " s " has no load: " ENVIRON["SECTIONS"] " loads were given")
}
'

# The profile lines of one load: per test a prof: line and a prof_fn:
# line per function, per element (the test's timed invocations).
__PROFILE_JOIN='
function bad(msg) {
	printf "%s: %s\n", ENVIRON["WHAT"], msg
	failed = 1
	exit 1
}
FILENAME == ENVIRON["SYMS"] {
	nsym++
	saddr[nsym] = $1
	sname[nsym] = $3 ($4 != "" ? $4 : "")
	next
}
FILENAME == ENVIRON["RESULTS"] {
	if ($1 != "test:")
		next
	name = ""; row = ""; total = ""
	for (i = 2; i <= NF; i++) {
		if (index($i, "name=") == 1) name = substr($i, 6)
		if (index($i, "row=") == 1) row = substr($i, 5)
		if (index($i, "total_invoke_count=") == 1) total = substr($i, 20)
	}
	if (row == "")
		bad("test " name " has no row= (a module older than the profile markers)")
	test_of[row + 0] = name
	elems[row + 0] = total
	order[++ntests] = row + 0
	next
}
$1 == "geometry" {
	geometry = $2 " " $3 " " $4 " " $5
	next
}
$1 == "window" {
	windows[$2] = $3
	next
}
$1 == "block" {
	row = $2
	if (!(row in test_of))
		bad("the profile has windows of row " row ", which no test: line of this load has")
	# the symbol at or below the block: binary search on fixed-width hex
	lo = 1; hi = nsym; fn = "?"
	while (lo <= hi) {
		mid = int((lo + hi) / 2)
		if ((saddr[mid] "") <= ($3 "")) {
			fn = sname[mid]
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	key = row SUBSEP fn
	if (!(key in fins))
		fnames[row, ++nfn[row]] = fn
	for (k = 1; k <= 7; k++) {
		fins[key, k] += $(3 + k)
		tot[row, k] += $(3 + k)
	}
	fins[key] = 1
	next
}
END {
	if (failed)
		exit 1
	split("insns loads stores atomics l1i_miss l1d_miss llc_miss", field, " ")
	printf "profile: %s\n", geometry
	for (t = 1; t <= ntests; t++) {
		row = order[t]
		if (!(row in windows))
			bad("test " test_of[row] " ran, but no profile window of it was seen (its chunks never reached the markers)")
		if (elems[row] + 0 == 0)
			bad("test " test_of[row] ": no timed invocations to divide by")
		line = "prof: name=" test_of[row] " windows=" windows[row]
		for (k = 1; k <= 7; k++)
			line = line sprintf(" %s=%.3f", field[k], tot[row, k] / elems[row])
		print line
		for (f = 1; f <= nfn[row]; f++) {
			fn = fnames[row, f]
			line = "prof_fn: name=" test_of[row] " fn=" fn
			for (k = 1; k <= 7; k++)
				line = line sprintf(" %s=%.3f", field[k], fins[row SUBSEP fn, k] / elems[row])
			print line
		}
	}
}
'

profile_merge() {	# raw results kallsyms [results kallsyms]...
	p_raw=$1
	shift
	[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] ||
		{ say "profile_merge: RESULTS KALLSYMS pairs expected"; return 2; }
	p_sections=$(($# / 2))
	temp_dir p_tmp
	p_k=0
	while [ $# -ge 2 ]; do
		p_k=$((p_k + 1))
		p_res=$1 p_syms=$2
		shift 2
		why=$(results_check_load "$p_res") || { say "$why"; return 2; }
		why=$(results_strict_awk "$p_raw" "$__PROFILE_RAW" \
			SECTION=$p_k SECTIONS=$p_sections OUT="$p_tmp/sec") ||
			{ say "$why"; return 2; }
		# kallsyms: "ADDR TYPE NAME (TYPE a letter, or ? where the kernel cannot tell)[\t[MODULE]]", addresses of 16
		# hex digits, so that strings sort and compare as numbers;
		# the text symbols (t, T) name the blocks
		why=$(results_strict_awk "$p_syms" '
		NF < 3 || NF > 4 || length($1) != 16 || $1 !~ /^[0-9a-f]+$/ ||
		    $2 !~ /^([A-Za-z]|[?])$/ || $3 !~ /^[A-Za-z0-9_.$]+$/ ||
		    (NF == 4 && $4 !~ /^\[[A-Za-z0-9_]+\]$/) {
			bad("not a symbol line of /proc/kallsyms")
		}
		$2 == "t" || $2 == "T" {
			print $1, $2, $3, $4 >ENVIRON["OUT"]
			text++
		}
		END {
			if (failed)
				exit 1
			if (!text)
				bad("no text symbols")
		}' OUT="$p_tmp/syms.unsorted") || { say "$why"; return 2; }
		LC_ALL=C sort -k1,1 "$p_tmp/syms.unsorted" >"$p_tmp/syms"
		grep -v '^end:' "$p_res" | grep -v '^profile:\|^prof:\|^prof_fn:' |
			sed '1s/^format: bench_page_pool_simple 3$/format: bench_page_pool_simple 4/' \
			>"$p_tmp/new"
		LC_ALL=C WHAT="$p_raw (section $p_k, $p_res)" SYMS="$p_tmp/syms" \
			RESULTS="$p_res" awk "$__PROFILE_JOIN" \
			"$p_tmp/syms" "$p_res" "$p_tmp/sec" >>"$p_tmp/new" ||
			{ say "$(tail -n 1 "$p_tmp/new")"; return 2; }
		grep '^end:' "$p_res" >>"$p_tmp/new"
		mv "$p_tmp/new" "$p_res" || return 2
	done
}

# make perf PROFILE=1's table: TEST's functions by instructions.
profile_table() {	# results test
	RESULTS_TEST=$2 awk '
	$1 == "profile:" {
		geometry = substr($0, 10)
	}
	($1 == "prof:" || $1 == "prof_fn:") && $2 == "name=" ENVIRON["RESULTS_TEST"] {
		delete v
		for (i = 3; i <= NF; i++) {
			eq = index($i, "=")
			v[substr($i, 1, eq - 1)] = substr($i, eq + 1)
		}
		if ($1 == "prof:") {
			total = v["insns"]
			summary = sprintf("%-46s %12s %7s %8s %8s %8s %8s %8s %8s", "total (" v["windows"] " windows)", v["insns"], "100.0%", v["loads"], v["stores"], v["atomics"], v["l1i_miss"], v["l1d_miss"], v["llc_miss"])
			next
		}
		n++
		fn[n] = v["fn"]; ins[n] = v["insns"]
		rest[n] = sprintf("%8s %8s %8s %8s %8s %8s", v["loads"], v["stores"], v["atomics"], v["l1i_miss"], v["l1d_miss"], v["llc_miss"])
	}
	END {
		if (summary == "")
			exit 1
		printf "%-46s %12s %7s %8s %8s %8s %8s %8s %8s\n", "function (per element)", "instructions", "share", "loads", "stores", "atomics", "L1I miss", "L1D miss", "LLC miss"
		# by instructions, most first; ties by name
		for (i = 1; i <= n; i++)
			idx[i] = i
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && (ins[idx[j]] + 0 > ins[idx[j - 1]] + 0 ||
			     (ins[idx[j]] + 0 == ins[idx[j - 1]] + 0 && fn[idx[j]] < fn[idx[j - 1]])); j--) {
				t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t
			}
		# what is under 0.01 of everything per element is interrupt
		# work that landed in a window (a timer tick every few
		# milliseconds): summed on one line
		for (i = 1; i <= n; i++) {
			k = idx[i]
			small = ins[k] + 0 < 0.01
			split(rest[k], r, " ")
			for (j = 1; j <= 6; j++)
				if (r[j] + 0 >= 0.01)
					small = 0
			if (small) {
				nsmall++
				small_ins += ins[k]
				for (j = 1; j <= 6; j++)
					small_rest[j] += r[j]
				continue
			}
			printf "%-46s %12s %6.1f%% %s\n", fn[k], ins[k], (total > 0 ? 100 * ins[k] / total : 0), rest[k]
		}
		if (nsmall)
			printf "%-46s %12.3f %6.1f%% %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f\n", "(" nsmall " more, each under 0.01)", small_ins, (total > 0 ? 100 * small_ins / total : 0), small_rest[1], small_rest[2], small_rest[3], small_rest[4], small_rest[5], small_rest[6]
		print summary
		print "instructions, loads, stores, atomics and modelled misses per element (QEMU -icount, tools/profile; caches: " geometry ")"
	}' "$1"
}

profile_summary() {	# results
	awk '
	BEGIN {
		printf "%-34s %8s %12s %8s %8s %8s %8s %8s %8s\n", "test", "windows", "instructions", "loads", "stores", "atomics", "L1I miss", "L1D miss", "LLC miss"
	}
	$1 == "prof:" {
		delete v
		for (i = 2; i <= NF; i++) {
			eq = index($i, "=")
			v[substr($i, 1, eq - 1)] = substr($i, eq + 1)
		}
		printf "%-34s %8s %12s %8s %8s %8s %8s %8s %8s\n", v["name"], v["windows"], v["insns"], v["loads"], v["stores"], v["atomics"], v["l1i_miss"], v["l1d_miss"], v["llc_miss"]
	}' "$1"
}
