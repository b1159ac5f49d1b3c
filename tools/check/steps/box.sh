# SPDX-License-Identifier: GPL-2.0
#
# make check's box step, sourced by tools/check/check.sh: make box and
# make box-check against the QEMU box (tools/box/qemu-box.sh) counting
# instructions, one box booted once for all of it: bad input refused
# before anything on the box changes, the box's state, an A/B of
# init_on_alloc=0 against 1 whose fast path row and each side's boots
# are an A/A, a connection lost, BOX_TUNE=1 set in every boot and the
# box given back, and Ctrl-C in a tuned boot.

# Both slow paths, which init_on_alloc changes, the softirq fast path,
# which never reaches the page allocator, and ptr_ring, which does not
# either but whose repetitions of one load differ by a few instructions
# (164.521 to 164.523 an element in 6078: the ring's state where a
# repetition starts), so that the rank test can call a 0.001 "change":
# it is judged by its interval, within 0.01 of none.  A fixed loops=:
# with time_ms= one load in twenty calibrated 6012 elements instead of
# 6078 and read 164.535.  4 rows at make box's default alpha (0.05)
# need 5 boots a side (2/C(10,5) = 0.008 < 0.05/4); with 2 loads a boot
# the verdict counts 10 loads a side (bench-compare's unit for
# instructions is the load).  Each side's boots are also an A/A: its
# first two against its last three, the exact rows noise at +0.000,
# ptr_ring within 0.01.
BOX_CHECK_SLOW="no-softirq-page_pool03 tasklet_page_pool03_slow"
BOX_CHECK_FAST=tasklet_page_pool01_fast_path
BOX_CHECK_RING=tasklet_page_pool02_ptr_ring
BOX_CHECK_ARGS="tests=$(printf '%s' "$BOX_CHECK_FAST $BOX_CHECK_RING $BOX_CHECK_SLOW" | tr ' ' ,) loops=3000 reps=5"

# What the run sets before make box, to be found as it was after: THP
# off (BOX_TUNE=1 sets madvise) and every IRQ that can move on the
# pinned CPU alone (BOX_TUNE=1 moves them off it).  The kernel itself
# lowers perf_event_max_sample_rate under emulation (doc/box.rst): it is
# reported, not checked.
box_check_prepare() {	# cpu
	box_on "echo never >/sys/kernel/mm/transparent_hugepage/enabled
		for f in /proc/irq/[0-9]*/smp_affinity_list; do
			echo $1 >\$f 2>/dev/null
		done
		exit 0"
}

# The settings make box gives back, in one line each: THP and the IRQs'
# CPU lists.
box_check_settings() {
	box_on 'cat /sys/kernel/mm/transparent_hugepage/enabled
		grep -H . /proc/irq/[0-9]*/smp_affinity_list'
}

box_on() {	# command
	# shellcheck disable=SC2086 # BOX_SSH: ssh's options
	ssh $BOX_SSH -o ConnectTimeout=10 root@127.0.0.1 "$1" </dev/null
}

# The box where it was: the release and command line it ran, another
# boot than the run's last, the settings as before the run.
box_check_given_back() {	# what release cmdline settings-file
	g_rel=$(box_on 'uname -r')
	g_cmd=$(box_on 'cat /proc/cmdline')
	box_check_settings >"$4.after" || { say "$1: the box does not answer"; return 1; }
	say "$1: the box runs $g_rel, command line: $g_cmd"
	[ "$g_rel" = "$2" ] || { say "$1: the box runs $g_rel, not $2"; return 1; }
	[ "$g_cmd" = "$3" ] || { say "$1: the command line is not the box's own"; return 1; }
	if ! cmp -s "$4" "$4.after"; then
		say "$1: the box's settings are not as they were:"
		diff "$4" "$4.after" | sed 's/^/  /' >&2
		return 1
	fi
	say "$1: THP and all $(grep -c smp_affinity "$4") IRQs' CPUs as before"
}

# Cuts make box's connection once, in the load that makes FILE, once
# the load holds its lock on the box: every dropbear serving another
# connection than this one is killed.  Writes FILE.cut when it did.
box_cut_connection() {	# file
	n=0
	until [ -f "$1.part" ]; do
		n=$((n + 1))
		[ $n -lt 1200 ] || return 0
		sleep 0.5
	done
	# on the box: once the load holds its lock, its session is live
	# shellcheck disable=SC2016 # the box's words
	box_on 'n=0
		while [ ! -d /tmp/bench-box/lock ] && [ $n -lt 600 ]; do
			sleep 0.05; n=$((n + 1))
		done
		me=$(cut -d" " -f4 /proc/$$/stat)
		all=" $(pidof dropbear) "
		for p in $all; do
			pp=$(cut -d" " -f4 /proc/$p/stat)
			[ "$p" = "$me" ] && continue
			case $all in *" $pp "*) kill "$p" && echo "$p" ;; esac
		done' >"$1.cut"
}

# make box or make box-check against the box, output kept in DIR.out.
box_make() {	# out target variable...
	b_out=$1
	shift
	run_child make -s -C "$BENCH_TOP" "$@" BOX=box \
		BOX_SSH="-F $BOX_SSH_CONFIG" >"$b_out.out" 2>&1
	b_rc=$?
	sed 's/^/# /' "$b_out.out" >&2
	return $b_rc
}

# A refusal against the box: exit STATUS, one line matching TEXT, and
# the box still on its boot.
box_refused() {	# name status text variable...
	r_name=$1 r_status=$2 r_text=$3
	shift 3
	# box.sh itself: make would add its own line and exit status
	run_child env "$@" BOX=box BOX_SSH="-F $BOX_SSH_CONFIG" \
		OUT="$BOX_CHECK_DIR/refuse-$r_name" \
		sh "$BENCH_TOP/tools/box/box.sh" box \
		>"$BOX_CHECK_DIR/refuse-$r_name.out" 2>&1
	r_rc=$?
	sed 's/^/# /' "$BOX_CHECK_DIR/refuse-$r_name.out" >&2
	r_lines=$(grep -c . "$BOX_CHECK_DIR/refuse-$r_name.out")
	r_id=$(box_on 'cat /proc/sys/kernel/random/boot_id')
	say "refused $r_name: exit $r_rc, $r_lines line(s), boot_id $r_id"
	[ "$r_rc" = "$r_status" ] && [ "$r_lines" = 1 ] &&
		grep -q -- "$r_text" "$BOX_CHECK_DIR/refuse-$r_name.out" &&
		[ "$r_id" = "$BOX_BOOT_ID" ]
}

# A row of bench-compare's JSON: verdict, diff and interval.
box_row() {	# json test
	jq -r --arg t "$2" '.rows[] | select(.test == $t) |
		"\(.verdict) \(.instructions.diff) \(.instructions.ci)"' "$1"
}

# The exact rows of a JSON noise, their diff and interval exactly 0;
# ptr_ring's interval within 0.01 of none.
box_aa_holds() {	# json
	jq -e --arg ring $BOX_CHECK_RING '[.rows[] | if .test == $ring then
		.instructions.ci[0] >= -0.01 and .instructions.ci[1] <= 0.01
	else
		.verdict == "noise" and .instructions.diff == 0 and
		.instructions.ci[0] == 0 and .instructions.ci[1] == 0
	end] | length == 4 and all' "$1" >/dev/null
}

# The A/B: slow rows change by thousands of instructions an element,
# the fast path is noise at exactly +0.000, ptr_ring within 0.01 of it;
# each side's boots an A/A at +0.000; every boot tuned; make box's own
# seconds a boot.
box_check_ab() {	# out
	j=$1/compare.json
	a_ok=0
	for t in $BOX_CHECK_SLOW; do
		v=$(box_row "$j" "$t")
		say "$t: $v (init_on_alloc zeroes every page the allocator hands out)"
		jq -e --arg t "$t" '.rows[] | select(.test == $t) |
			.verdict == "change" and .instructions.ci[0] > 1000' \
			"$j" >/dev/null || a_ok=1
	done
	say "$BOX_CHECK_FAST: $(box_row "$j" $BOX_CHECK_FAST) (never reaches the allocator)"
	jq -e --arg t $BOX_CHECK_FAST '.rows[] | select(.test == $t) |
		.verdict == "noise" and .instructions.diff == 0 and
		.instructions.ci[0] == 0 and .instructions.ci[1] == 0' \
		"$j" >/dev/null || a_ok=1
	say "$BOX_CHECK_RING: $(box_row "$j" $BOX_CHECK_RING) (within 0.01 an element)"
	jq -e --arg t $BOX_CHECK_RING '.rows[] | select(.test == $t) |
		.instructions.ci[0] >= -0.01 and .instructions.ci[1] <= 0.01' \
		"$j" >/dev/null || a_ok=1
	for side in before after; do
		"$BENCH_TOP/tools/compare/bench-compare" -f json \
			"$1/$side"-0[12]-*.results -- "$1/$side"-0[345]-*.results \
			>"$1/aa-$side.json" || a_ok=1
		say "A/A of the $side side's boots, 1-2 against 3-5: $(jq -r '[.rows[] | "\(.test) \(.verdict) \(.instructions.diff) \(.instructions.ci)"] | join("; ")' "$1/aa-$side.json")"
		box_aa_holds "$1/aa-$side.json" || a_ok=1
	done
	say "the figure and the verdict's unit: $(jq -r '.settings.figure + ", " + .settings.unit' "$j")"
	n=0
	for f in "$1"/before-[0-9]*.state "$1"/after-[0-9]*.state; do
		# an IRQ left on the CPU is one the box refused to move
		left=$(awk 'FILENAME == ARGV[1] && $1 == "refused:" {
				for (i = 2; i <= NF; i++) { sub(/\/.*/, "", $i); r[$i] = 1 } }
			FILENAME == ARGV[2] && $1 == "irqs_on_cpu:" && $3 != "" {
				gsub(/[()]/, "", $3); n = split($3, q, ",")
				for (i = 1; i <= n; i++) if (!(q[i] in r)) printf " %s", q[i] }' \
			"${f%.state}.tuned" "$f")
		grep -q '^thp: .*\[madvise\]' "$f" && [ -z "$left" ] &&
			grep -q '^written: [1-9]' "${f%.state}.tuned" || {
			say "$f: not tuned: $(grep -e '^thp' -e '^irqs_on_cpu' "$f" | tr '\n' ' ')"
			a_ok=1
		}
		n=$((n + 1))
	done
	say "$n boots tuned (THP madvise, no IRQ on the CPU but those the box would not move: $(sed -n 's/^irqs_on_cpu: //p' "$1/before-01.state"))"
	[ "$n" = 10 ] || a_ok=1
	awk '$1 == "boot:" { for (i = 3; i <= NF; i++) if ($i ~ /^make_box=/) {
			v = substr($i, 10) + 0; s += v; n++; if (v > m) m = v } }
		END { printf "make box'"'"'s own time a boot: %.2f s on average, %.2f s at most, over %d boots\n", s / n, m, n }' \
		"$1/boots.txt" >&2
	return $a_ok
}

# Ctrl-C (SIGINT to make's process group, as a terminal sends it) in
# the first boot's load, tuned: exit 130 and the box given back.
box_check_interrupt() {	# out
	setsid env --default-signal=INT make -s -C "$BENCH_TOP" box BOX=box \
		BOX_SSH="-F $BOX_SSH_CONFIG" BEFORE="$BOX_DEFAULT" \
		AFTER="$BOX_DEFAULT" BEFORE_KDIR=6.12 AFTER_KDIR=6.12 \
		BOX_TUNE=1 LOADS_PER_BOOT=2 ARGS="tests=for_loop time_ms=2000" \
		OUT="$1" >"$1.out" 2>&1 &
	i_pid=$!
	n=0
	until [ -f "$1/before-01.tuned" ] && [ -f "$1/before-01-01.results.part" ]; do
		n=$((n + 1))
		if [ $n -gt 1200 ] || ! kill -0 $i_pid 2>/dev/null; then
			say "make box: no tuned boot within 600 s"
			sed 's/^/# /' "$1.out" >&2
			kill -TERM $i_pid 2>/dev/null
			return 1
		fi
		sleep 0.5
	done
	sleep 1
	kill -INT "-$i_pid"
	wait $i_pid
	i_rc=$?
	sed 's/^/# /' "$1.out" >&2
	say "make box, SIGINT in a tuned boot's load: exit $i_rc"
	[ $i_rc != 0 ] && grep -q 'interrupted: giving the box back' "$1.out"
}

box_check() {
	BOX_CHECK_DIR=$LOGDIR/box
	rm -rf "$BOX_CHECK_DIR"
	mkdir -p "$BOX_CHECK_DIR"
	(
		b_env=$(sh "$BENCH_TOP/tools/box/qemu-box.sh" start -k 6.12 -i) ||
			exit 1
		eval "$b_env"
		trap 'sh "$BENCH_TOP/tools/box/qemu-box.sh" stop "$BOX_DIR"' EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
		say "box: $BOX_DEFAULT counting instructions, ssh after $BOX_READY_SECONDS s"
		ok=0
		cmdline=$(box_on 'cat /proc/cmdline')
		box_make "$BOX_CHECK_DIR/box-check" box-check || ok=1
		grep -Eq '^cpu: +1$' "$BOX_CHECK_DIR/box-check.out" || ok=1

		set -- BEFORE="$BOX_DEFAULT" AFTER="$BOX_DEFAULT" \
			BEFORE_KDIR=6.12 AFTER_KDIR=6.12
		box_refused cpu 2 'no such CPU online' "$@" CPU=7 || ok=1
		box_refused release 1 'not installed on the box' \
			BEFORE=6.1.0-99-amd64 AFTER="$BOX_DEFAULT" \
			AFTER_KDIR=6.12 || ok=1
		box_refused boots 2 'needs 4 boots' "$@" BOOTS=1 \
			ARGS=tests=for_loop || ok=1

		box_check_prepare 1 || ok=1
		box_check_settings >"$BOX_CHECK_DIR/settings" || ok=1
		cut=$BOX_CHECK_DIR/ab/after-02-01.results
		box_cut_connection "$cut" &
		cut_pid=$!
		box_make "$BOX_CHECK_DIR/ab" box "$@" BOX_TUNE=1 \
			BEFORE_APPEND=init_on_alloc=0 AFTER_APPEND=init_on_alloc=1 \
			LOADS_PER_BOOT=2 ARGS="$BOX_CHECK_ARGS" \
			OUT="$BOX_CHECK_DIR/ab" || ok=1
		kill $cut_pid 2>/dev/null
		wait $cut_pid
		box_check_ab "$BOX_CHECK_DIR/ab" || ok=1
		# the first load may end before the box's side of the cut
		# runs: then the second one loses its connection
		lost=$(sed -n 's/^box: after-02 load \([12]\): the connection was lost; measuring it again, once$/\1/p' \
			"$BOX_CHECK_DIR/ab.out")
		say "the connection cut in after-02's load ${lost:-(none lost)}: dropbear $(tr '\n' ' ' <"$cut.cut" 2>/dev/null)killed"
		[ -s "$cut.cut" ] && [ "$(printf '%s\n' "$lost" | wc -w)" = 1 ] &&
			[ -s "$BOX_CHECK_DIR/ab/after-02-0$lost.results" ] || ok=1
		box_check_given_back "after make box" "$BOX_DEFAULT" "$cmdline" \
			"$BOX_CHECK_DIR/settings" || ok=1

		box_check_interrupt "$BOX_CHECK_DIR/interrupt" || ok=1
		box_check_given_back "after Ctrl-C" "$BOX_DEFAULT" "$cmdline" \
			"$BOX_CHECK_DIR/settings" || ok=1
		exit $ok
	)
}
