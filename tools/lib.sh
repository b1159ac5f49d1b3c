# SPDX-License-Identifier: GPL-2.0
#
# The core every host tool sources first; sourced, not run.  POSIX sh.
# Owns: BENCH_TOP and the cache's path, messages (say, die, usage_die),
# cleanup on every exit and signal (run_child, temp_dir), the checks of
# a variable's value, and bench_lib, which sources the library of each
# family a tool needs, tools/NAME/lib.sh:
#
#   kernel   Debian's packages and kernels, kernel trees, the module's
#            builds (needs nothing else)
#   profile  the exact profile's plugin, symbols and merge (kernel)
#   guest    guests of the module, the instrument, KVM's diagnosis, the
#            payloads (kernel, profile)
#   e2e      the end-to-end scenarios' variables and builds (kernel)
#   track    make track's and make bisect's kernels and loads
#   series   the series' peels of upstream/series/
#   box      make box: the test box over SSH
#   lkp      make lkp: the program for 0-day's LKP
#   check    make check's engine: steps, lanes, the time table
#
# A library names the ones it needs with bench_lib too; none needs one
# that needs it.  A tool lives in its family's folder, two levels below
# the top (tools/NAME/TOOL.sh).  doc/house.rst maps the rest.

BENCH_TOP=$(cd "$(dirname "$0")/../.." && pwd)
# As README.rst says: root caches in /var/cache, every other user in
# ~/.cache; BENCH_CACHE overrides both.
if [ -z "${BENCH_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		BENCH_CACHE=/var/cache/bench_page_pool
	else
		BENCH_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/bench_page_pool
	fi
fi
# the tools change folder (git bisect run, kbuild): one path for all
case $BENCH_CACHE in
/*) ;;
*) BENCH_CACHE=$PWD/$BENCH_CACHE ;;
esac
nl='
'
# bench-compare, the strict reader of results files: results_check and
# results_check_load (results_lib.sh) read through it.
BENCH_COMPARE=$BENCH_TOP/tools/compare/bench-compare
export BENCH_COMPARE

# Sources the libraries named (tools/NAME/lib.sh), each once.
bench_libs=
bench_lib() {	# name...
	for b_lib in "$@"; do
		case " $bench_libs " in
		*" $b_lib "*) continue ;;
		esac
		bench_libs="$bench_libs $b_lib"
		. "$BENCH_TOP/tools/$b_lib/lib.sh"
	done
}

# A cache miss: says what is being made, and notes it for make check's
# table of where its time went (in the file BENCH_BUILT, when set).
cache_miss() {	# what
	say "$*"
	[ -z "${BENCH_BUILT:-}" ] || printf '%s\n' "$*" >>"$BENCH_BUILT"
}

say() {
	printf '%s\n' "$*" >&2
}

die() {
	say "error: $*"
	exit 1
}

# Builds bench-compare when it is missing or stale.
need_bench_compare() {
	make -s -C "$BENCH_TOP/tools/compare" bench-compare >&2 ||
		die "cannot build bench-compare (tools/compare)"
}

# A bad variable or option: one line saying what is accepted, exit 2.
usage_die() {
	say "error: $*"
	exit 2
}

# Whatever ends a script, it leaves no child and no temporary path
# behind: the EXIT trap cleans up after a normal end, and since dash runs
# no EXIT trap on a signal, each signal has a trap of its own.  A long
# child runs through run_child, in the background and waited for: a trap
# runs only once the foreground command ends, but it interrupts a wait.
# bench_lanes: children that run beside the script (make check's lanes).
bench_child=
bench_lanes=
bench_temps=

bench_cleanup() {
	for b_pid in $bench_child $bench_lanes; do
		kill -TERM "$b_pid" 2>/dev/null
		wait "$b_pid" 2>/dev/null
	done
	bench_child=
	bench_lanes=
	IFS=$nl
	for b_tmp in $bench_temps; do
		rm -rf "$b_tmp"
	done
	unset IFS
	bench_temps=
}

bench_signal() {	# exit-status
	trap '' HUP INT TERM
	bench_cleanup
	trap - EXIT
	exit "$1"
}

trap bench_cleanup EXIT
trap 'bench_signal 129' HUP
trap 'bench_signal 130' INT
trap 'bench_signal 143' TERM

# Runs a command as the script's child: the traps above stop it (SIGTERM)
# and wait for it.  Returns its exit status.
run_child() {	# command...
	"$@" &
	bench_child=$!
	wait "$bench_child"
	r_rc=$?
	bench_child=
	return $r_rc
}

# Runs tools/guest/guest.sh as the script's child.
# BENCH_GUEST_RUNNER may name another runner taking the same options:
# make check puts one there that injects a failure, or records a boot.
run_guest() {	# guest.sh option...
	run_child sh "${BENCH_GUEST_RUNNER:-$BENCH_TOP/tools/guest/guest.sh}" "$@"
}

# Creates a temporary folder, removed when the script ends, and stores
# its path in the variable named.
temp_dir() {	# variable
	# The list of what to remove is one path a line: a path with a
	# newline would be cut in two, and the wrong folder removed.
	case ${TMPDIR:-/tmp} in
	*"$nl"*) die "TMPDIR holds a newline: give a folder whose path has none" ;;
	esac
	t_dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_page_pool.XXXXXX") ||
		die "cannot create a temporary folder in ${TMPDIR:-/tmp}"
	bench_temps="$bench_temps$t_dir$nl"
	eval "$1=\$t_dir"
}

# Quotes a word for sh: what it says reaches a payload as data, never as
# code.
sh_quote() {	# word
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# Checks of the variables a command takes, made before anything runs:
# one line naming the variable and what it accepts, exit 2.
check_whole() {	# variable value minimum
	case $2 in
	'' | *[!0-9]* | 0?*) ;;
	*) [ "$2" -ge "$3" ] && return 0 ;;
	esac
	usage_die "$1=$2: accepted: a whole number, $3 or more"
}

check_choice() {	# variable value choice...
	c_var=$1 c_val=$2
	shift 2
	for c_ok in "$@"; do
		[ "$c_val" = "$c_ok" ] && return 0
	done
	usage_die "$c_var=$c_val: accepted: $*"
}

