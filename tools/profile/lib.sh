# SPDX-License-Identifier: GPL-2.0
#
# The host side of the exact profile (doc/profile.rst); sourced through
# bench_lib (tools/lib.sh), not run.  POSIX sh and awk.
#
#   profile_plugin
#	Builds the QEMU plugin (tools/profile); prints its path.
#   profile_args_check PLUGIN
#	PROFILE_ARGS checked by the plugin itself, before a guest boots.
#   profile_symbols IMAGE RELEASE
#	The text symbols of the kernel IMAGE, once per image, in the
#	cache: from its System.map where a real one lies beside it (the
#	kernels of make track, a built tree), else read from
#	/proc/kallsyms in a guest of its own (Debian ships a stub
#	System.map).  Sets PROFILE_SYMS to the file.
#   profile_merge RAW SYMS MODDIR RESULTS SECTIONS [RESULTS SECTIONS]...
#	The plugin's profile of one guest (RAW: tools/profile's
#	bench_profile.so output), section K to the K-th load's results
#	file, its blocks named with that load's symbols: the kernel's
#	(SYMS of profile_symbols, moved as SECTIONS's _text says) and the
#	module's (MODDIR's .ko at SECTIONS's addresses).  Each
#	results file gets its tests' profiles (format 4, doc/output.rst).
#	Anything that does not parse, a window left open, a test that ran
#	without a window, a section without its load, is refused with
#	FILE:LINE; exit 2.
#   profile_table RESULTS TEST
#	The functions of TEST by instructions per element, as make perf
#	PROFILE=1 prints them.
#   profile_summary RESULTS
#	One line per test: its profile's totals per element.
bench_lib kernel

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

profile_merge() {	# raw syms moddir results sections [results sections]...
	need_bench_compare
	p_raw=$1 p_ksyms=$2 p_mods=$3
	shift 3
	[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] ||
		{ say "profile_merge: RESULTS SECTIONS pairs expected"; return 2; }
	p_sections=$(($# / 2))
	temp_dir p_tmp
	# the modules' functions: one set for every load of the guest
	profile_modsyms "$p_mods" >"$p_tmp/modsyms" || return 2
	p_k=0
	while [ $# -ge 2 ]; do
		p_k=$((p_k + 1))
		p_res=$1 p_secs=$2
		shift 2
		why=$(results_check_load "$p_res") || { say "$why"; return 2; }
		why=$(results_strict_awk "$p_raw" "$__PROFILE_RAW" \
			SECTION=$p_k SECTIONS=$p_sections OUT="$p_tmp/sec") ||
			{ say "$why"; return 2; }
		profile_kallsyms "$p_secs" "$p_ksyms" "$p_tmp/modsyms" \
			>"$p_tmp/syms.unsorted" || return 2
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

# 64-bit addresses as 16 hex digits, added and subtracted modulo 2^64
# in four 16-bit pieces: exact in awk's doubles.
__PROFILE_HEX='
function hex4(s,	i, v) {
	v = 0
	for (i = 1; i <= 4; i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function hexop(a, b, sign,	i, v, c, out) {
	c = 0
	out = ""
	for (i = 13; i >= 1; i -= 4) {
		v = hex4(substr(a, i, 4)) + sign * hex4(substr(b, i, 4)) + c
		c = 0
		if (v >= 65536) {
			v -= 65536
			c = 1
		} else if (v < 0) {
			v += 65536
			c = -1
		}
		out = sprintf("%04x", v) out
	}
	return out
}
function hex16(s) {
	return length(s) == 16 && s ~ /^[0-9a-f]+$/
}
'

# The text symbols of IMAGE into the cache; PROFILE_SYMS names the file,
# whose first line is "_text ADDR" as IMAGE booted then.
profile_symbols() {	# image release
	p_key=$(md5sum <"$1" | cut -c1-32)
	PROFILE_SYMS=$BENCH_CACHE/symbols/$p_key.syms
	[ -s "$PROFILE_SYMS" ] && return 0
	mkdir -p "$BENCH_CACHE/symbols" || die "cannot create $BENCH_CACHE/symbols"
	p_map=$(dirname "$1")/System.map
	temp_dir p_stmp
	# Debian's System.map is a one-line stub
	p_lines=$(grep -c . "$p_map" 2>/dev/null) || p_lines=0
	if [ "$p_lines" -gt 1000 ]; then
		cp "$p_map" "$p_stmp/kallsyms" || return 1
	else
		cache_miss "reading the text symbols of $2 in a guest of its own (once per kernel image)"
		printf '%s\n' 'gzip -c /proc/kallsyms >"$BENCH_OUT/kallsyms.gz"' \
			>"$p_stmp/payload.sh"
		run_guest -k "$1" -r "$2" -A tcg -s 2 -t 300 \
			-p "$p_stmp/payload.sh" -o "$p_stmp/guest" ||
			die "the guest that reads $2's symbols failed (log: $p_stmp/guest)"
		gunzip -c "$p_stmp/guest/kallsyms.gz" >"$p_stmp/kallsyms" ||
			die "bad kallsyms from the guest of $2"
	fi
	# its own text symbols: a module's have a "[module]" column; a
	# guest's kallsyms is read as strictly as any guest output
	why=$(results_strict_awk "$p_stmp/kallsyms" "$__PROFILE_HEX"'
	NF == 3 && $3 == "_text" {
		text = $1
	}
	NF == 3 && ($2 == "t" || $2 == "T") {
		if (!hex16($1) || $3 !~ /^[A-Za-z0-9_.$]+$/)
			bad("not a text symbol line of System.map or /proc/kallsyms")
		print >ENVIRON["OUT"]
	}
	END {
		if (!failed && text == "")
			bad("no _text symbol")
		if (!failed)
			print "_text", text >ENVIRON["TEXT"]
	}' OUT="$p_stmp/syms" TEXT="$p_stmp/text") || die "$why"
	cat "$p_stmp/text" "$p_stmp/syms" >"$PROFILE_SYMS.$$" &&
		mv "$PROFILE_SYMS.$$" "$PROFILE_SYMS" ||
		die "cannot write $PROFILE_SYMS"
}

# The text symbols of the module in MODDIR (objdump -t), a line each:
# "MODULE SECTION OFFSET t|T NAME".
profile_modsyms() {	# moddir
	p_m=bench_page_pool
	[ -f "$1/$p_m.ko" ] || { say "$1: no $p_m.ko"; return 1; }
	objdump -t "$1/$p_m.ko" | awk -v m="$p_m" -F '\t' '
	# "VALUE FLAGS SECTION<tab>SIZE NAME" of a function
	{
		n = split($1, left, " ")
		split($2, right, " ")
		if (n >= 3 && left[n - 1] == "F" && left[n] ~ /^\.text/)
			print m, left[n], left[1], (left[2] == "g" ? "T" : "t"), right[2]
	}'
}

# A load's symbols as /proc/kallsyms would give them: the kernel's text
# symbols of SYMS moved by the load's _text, and the modules' of
# MODSYMS (profile_modsyms) at their sections' addresses, from the
# guest's SECTIONS file, read strictly.
profile_kallsyms() {	# sections syms modsyms
	why=$(results_strict_awk "$1" "$__PROFILE_HEX"'
	NR == 1 {
		if (NF != 2 || $1 != "_text" || !hex16($2))
			bad("expected \"_text ADDRESS\" (16 hex digits) first")
		print >ENVIRON["OUT"]
		next
	}
	NF != 3 || $1 != "bench_page_pool" ||
	    $2 !~ /^\.[A-Za-z0-9_.-]+$/ || !hex16($3) {
		bad("expected \"bench_page_pool .SECTION ADDRESS\"")
	}
	{
		print >ENVIRON["OUT"]
	}
	END {
		if (!failed && NR < 2)
			bad("no module section")
	}' OUT="$p_tmp/secs") || { say "$why"; return 1; }
	LC_ALL=C SECS="$p_tmp/secs" SYMS="$2" awk "$__PROFILE_HEX"'
	FILENAME == ENVIRON["SECS"] {
		if (FNR == 1)
			loaded = $2
		else
			base[$1 " " $2] = $3
		next
	}
	FILENAME == ENVIRON["SYMS"] {
		if (FNR == 1) {
			delta = hexop(loaded, $2, -1)
			next
		}
		print hexop($1, delta, 1), $2, $3
		next
	}
	($1 " " $2) in base && hex16($3) {
		print hexop(base[$1 " " $2], $3, 1), $4, $5, "[" $1 "]"
	}' "$p_tmp/secs" "$2" "$3"
}

# make perf PROFILE=1's table: TEST's functions by instructions, read
# through results_lib.sh (results_prof, results_prof_fns).
profile_table() {	# results test
	p_geometry=$(results_header "$1" profile)
	p_total=$(results_prof "$1" "$2" windows insns loads stores atomics \
		l1i_miss l1d_miss llc_miss | tr '\n' ' ')
	[ -n "$p_geometry" ] && [ -n "${p_total%% *}" ] || return 1
	results_prof_fns "$1" "$2" fn insns loads stores atomics l1i_miss \
		l1d_miss llc_miss |
		P_TOTAL=$p_total P_GEOMETRY=$p_geometry awk '
	{
		n++
		fn[n] = $1; ins[n] = $2
		rest[n] = sprintf("%8s %8s %8s %8s %8s %8s", $3, $4, $5, $6, $7, $8)
	}
	END {
		split(ENVIRON["P_TOTAL"], v, " ")
		total = v[2]
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
		printf "%-46s %12s %7s %8s %8s %8s %8s %8s %8s\n", "total (" v[1] " windows)", v[2], "100.0%", v[3], v[4], v[5], v[6], v[7], v[8]
		print "instructions, loads, stores, atomics and modelled misses per element (QEMU -icount, tools/profile; caches: " ENVIRON["P_GEOMETRY"] ")"
	}'
}

# One line per test: its profile's totals per element (results_lib.sh's
# results_prof_rows).
profile_summary() {	# results
	printf '%-34s %8s %12s %8s %8s %8s %8s %8s %8s\n' test windows \
		instructions loads stores atomics "L1I miss" "L1D miss" "LLC miss"
	results_prof_rows "$1" windows insns loads stores atomics l1i_miss \
		l1d_miss llc_miss |
		awk '{ printf "%-34s %8s %12s %8s %8s %8s %8s %8s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
}

# Builds the profile plugin (tools/profile) against the installed QEMU's
# plugin header; prints the .so's path, in a folder kbuild-safe like the
# modules' (guest.sh takes no blank in it).
profile_plugin() {
	p_dir=$(module_build_dir profile) || exit 1
	mkdir -p "$p_dir" || die "cannot create $p_dir"
	make -s -C "$BENCH_TOP/tools/profile" >&2 ||
		die "cannot build the profile plugin (tools/profile)"
	# Replaced whole, never written over: a QEMU of another command
	# (make check runs them side by side) has the file mapped, and
	# dies of SIGBUS when it changes under it.
	p_so=$p_dir/bench_profile.so
	cmp -s "$BENCH_TOP/tools/profile/bench_profile.so" "$p_so" || {
		cp "$BENCH_TOP/tools/profile/bench_profile.so" "$p_so.$$" &&
			mv -f "$p_so.$$" "$p_so"
	} || die "cannot copy the profile plugin to $p_dir"
	profile_args_check "$p_so"
	printf '%s\n' "$p_so"
}

# PROFILE_ARGS as the plugin judges them, before any guest boots: QEMU
# loads it with them, and stops at once either way (there is no
# machine to run); the plugin says what it refuses in one line.
profile_args_check() {	# plugin.so
	[ -n "${PROFILE_ARGS:-}" ] || return 0
	p_said=$(qemu-system-x86_64 -M none -display none -nodefaults \
		-monitor none -serial none -kernel /nonexistent \
		-plugin "file=$1,out=/dev/null,$PROFILE_ARGS" 2>&1 </dev/null |
		sed -n 's/^bench_profile: //p' | head -n 1)
	[ -z "$p_said" ] || usage_die "PROFILE_ARGS: $p_said"
}
