# SPDX-License-Identifier: GPL-2.0
#
# The helpers of bench-compare's tests (run.sh): a diagnostic, a result,
# an exit status, a line of the output or a row of its table expected,
# an error case run.  BIN is the bench-compare under test.

diag() {
	ktap_print_msg "  $*"
}

# bc ARGS...: runs bench-compare; sets $rc, output in $tmp/out and $tmp/err
bc() {
	"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

show_err() {
	head -n 5 "$tmp/err" | while IFS= read -r l; do diag "stderr: $l"; done
}

# ok_if DESC: passes if the last command (a list of checks) succeeded
ok_if() {
	if [ "$1" -eq 0 ]; then
		ktap_test_pass "$2"
	else
		ktap_test_fail "$2"
	fi
}

# rc_is N: the last bench-compare exited with N
rc_is() {
	[ "$rc" -eq "$1" ] && return 0
	diag "exit status $rc, want $1"
	show_err
	return 1
}

# has WHERE PATTERN: grep -q -e PATTERN on $tmp/WHERE, with a diagnostic
has() {
	grep -q -e "$2" "$tmp/$1" && return 0
	diag "no '$2' in $1"
	return 1
}

# hasx WHERE LINE: the whole line LINE is in $tmp/WHERE
hasx() {
	grep -qxF -e "$2" "$tmp/$1" && return 0
	diag "no line '$2' in $1"
	show_err
	return 1
}

# row TEST: "BEFORE AFTER NS-BEFORE NS-AFTER LOADS VERDICT" of TEST in
# the text table of the last run, found by the headers (cells are
# separated by two blanks or more); "-" for a column the table leaves
# out (ns under instructions; loads, p and verdict when they add
# nothing: the footer then says why).
row() {
	awk -v t="$1" 'BEGIN { FS = "  +" }
	function cell(i) { return i ? $i : "-" }
	!hdr && $1 == "test" {
		for (i = 1; i <= NF; i++) {
			if ($i ~ / before$/ && $i != "ns before")
				cb = i
			if ($i ~ / after$/ && $i != "ns after")
				ca = i
			col[$i] = i
		}
		hdr = 1
		next
	}
	hdr && $1 == t {
		print cell(cb), cell(ca), cell(col["ns before"]),
		      cell(col["ns after"]), cell(col["loads"]),
		      cell(col["verdict"])
		exit
	}' "$tmp/out"
}

# row_is TEST WANT: row(TEST) is WANT and the run exited with 0
row_is() {
	got=$(row "$1")
	rc_is 0 || return 1
	[ "$got" = "$2" ] && return 0
	diag "row $1: '$got'"
	diag "want:   '$2'"
	return 1
}

# expect_row DESC TEST WANT ARGS...
expect_row() {
	desc=$1 test=$2 want=$3
	shift 3
	bc "$@"
	row_is "$test" "$want"
	ok_if $? "$desc"
}

# same_as FILE: stdout is FILE, nothing on stderr, exit 0
same_as() {
	rc_is 0 || return 1
	if [ -s "$tmp/err" ]; then
		diag "stderr not empty"
		show_err
		return 1
	fi
	diff -u "$1" "$tmp/out" >"$tmp/diff" && return 0
	while IFS= read -r l; do diag "$l"; done <"$tmp/diff"
	return 1
}

# expect_error DESC RC LINE ARGS...: exit status RC, LINE (whole) on
# stderr, nothing on stdout
expect_error() {
	desc=$1 want_rc=$2 line=$3
	shift 3
	bc "$@"
	ok=0
	rc_is "$want_rc" || ok=1
	hasx err "$line" || ok=1
	if [ -s "$tmp/out" ]; then
		diag "output on stdout despite the error"
		ok=1
	fi
	ok_if "$ok" "$desc"
}
