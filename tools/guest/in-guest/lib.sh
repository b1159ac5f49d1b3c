# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the payloads of tools/guest/guest.sh (". ./guest-lib.sh": the
# runner puts it into /bench, the payload's folder): the one way to run
# a load of the benchmark in a guest.  POSIX sh; runs under busybox.
#
#   bench_load NAME [PARAM=VALUE]...
#	modprobe bench_page_pool with the parameters, save its
#	results file with the guest's environment (env_lib.sh, which
#	guest.sh puts beside this) as $BENCH_OUT/NAME.results and the
#	kernel's messages
#	of the load as $BENCH_OUT/NAME.dmesg (in a profiled guest where
#	its code sits as NAME.sections), rmmod.  Returns modprobe's
#	status; when the load failed, its last messages go to stderr.
#   bench_modprobe [-w WRAPPER] NAME [PARAM=VALUE]...
#	the same without the rmmod: the module stays loaded (bench_unload
#	removes it).  WRAPPER, words run before modprobe, e.g. a perf
#	record command line ending in "--".
#   bench_unload
#   bench_e2e NAME [bench-e2e option]...
#	after the load NAME, the end-to-end scenarios (tools/e2e,
#	doc/e2e.rst) of $BENCH_E2E: loads the kernel modules in
#	/bench/e2e-modules in their order, gives bench-e2e -V in a guest
#	with the host's packet source (guest.sh -N), joins the scenarios'
#	rows to
#	$BENCH_OUT/NAME.results, keeps their messages in NAME.e2e.log and
#	shows them.  Returns bench-e2e's status.
#
# Files in $BENCH_OUT reach the host's OUTDIR; output.txt and console.log
# are the runner's own names there.

. ./env_lib.sh

BENCH_MODULE=bench_page_pool
# the benchmark's name, which its debugfs folder carries
BENCH_RESULTS=/sys/kernel/debug/bench_page_pool_simple/results
bench_loads=0

bench_loaded() {
	grep -q "^$BENCH_MODULE " /proc/modules
}

bench_modprobe() {
	b_wrap=
	if [ "${1:-}" = -w ]; then
		b_wrap=$2
		shift 2
	fi
	b_name=${1:-}
	[ $# -ge 1 ] && shift
	case $b_name in
	'' | output.txt | console.log | *[!A-Za-z0-9._-]*)
		echo "bench_load: '$b_name' is no name for a load (letters, digits, '.', '_', '-')" >&2
		return 2 ;;
	esac
	if bench_loaded; then
		echo "bench_load $b_name: $BENCH_MODULE is loaded already; bench_unload it first" >&2
		return 2
	fi
	bench_loads=$((bench_loads + 1))
	b_mark="bench_load $bench_loads $b_name"
	printf '%s\n' "$b_mark" >/dev/kmsg
	# shellcheck disable=SC2086
	$b_wrap modprobe $BENCH_MODULE "$@"
	b_rc=$?
	dmesg | sed -n "/ $b_mark\$/,\$p" | sed 1d >"$BENCH_OUT/$b_name.dmesg"
	if [ $b_rc != 0 ] || ! bench_loaded; then
		echo "bench_load $b_name: modprobe $BENCH_MODULE $* failed (exit $b_rc); its last messages:" >&2
		grep "$BENCH_MODULE" "$BENCH_OUT/$b_name.dmesg" | tail -n 5 >&2
		[ $b_rc != 0 ] || b_rc=1
		return $b_rc
	fi
	env_collect $BENCH_RESULTS >"$BENCH_OUT/$b_name.results" || return 1
	[ ! -e /bench/.profile ] || bench_symbols "$b_name"
}

# A profiled guest (tools/guest/guest.sh -P): where this load placed the code,
# for the host to name the profile's blocks with (lib-profile.sh's
# profile_merge): the kernel's _text, which moves with KASLR, and each
# section of the module, as $BENCH_OUT/NAME.sections.  Reading all
# of /proc/kallsyms cost Debian's 6.12 0.75 G instructions and 7 MB on
# the serial line; this reads a few hundred of its lines, up to _text.
bench_symbols() {	# name
	{
		awk '$3 == "_text" { print "_text", $1; exit }' /proc/kallsyms
		awk -v m="$BENCH_MODULE" 'FNR == 1 {
			n = FILENAME
			sub(/.*\/sections\//, "", n)
			sub(/^0x/, "", $1)
			print m, n, $1
		}' /sys/module/$BENCH_MODULE/sections/.[!.]*
	} >"$BENCH_OUT/$1.sections"
}

bench_unload() {
	! bench_loaded || rmmod $BENCH_MODULE
}

bench_load() {
	bench_modprobe "$@" || return
	bench_unload
}

bench_e2e() {
	b_name=${1:-}
	[ $# -ge 1 ] && shift
	[ -f "$BENCH_OUT/$b_name.results" ] || {
		echo "bench_e2e: no results of a load '$b_name' to join" >&2
		return 2
	}
	if [ -f /bench/e2e-modules/order ]; then
		while read -r b_mod; do
			grep -q "^$b_mod " /proc/modules ||
				insmod "/bench/e2e-modules/$b_mod.ko" || return 1
		done </bench/e2e-modules/order
	fi
	[ ! -f /bench/.net-source ] || set -- -V "$@"
	"$BENCH_E2E" -m "$BENCH_OUT/$b_name.results" \
		-o "$BENCH_OUT/$b_name.e2e" "$@" 2>"$BENCH_OUT/$b_name.e2e.log"
	b_rc=$?
	cat "$BENCH_OUT/$b_name.e2e.log" >&2
	# a whole file, its failed scenarios named in it, or nothing
	if grep -q '^end: ' "$BENCH_OUT/$b_name.e2e" 2>/dev/null; then
		mv "$BENCH_OUT/$b_name.e2e" "$BENCH_OUT/$b_name.results" ||
			return 1
	fi
	return $b_rc
}
