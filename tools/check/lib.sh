# SPDX-License-Identifier: GPL-2.0
#
# make check's engine, sourced by tools/check/check.sh: a step runs, is
# timed and printed as a KTAP line; needed_step's work later steps need;
# a lane runs steps beside the main line, its lines printed when it is
# joined; the table of where the time went.  Knows no step.

step_record() {	# seconds cpu-seconds lane result built-file description
	r_cache=-
	if [ -s "$5" ]; then
		r_cache="built: $(tr '\n' ';' <"$5" | sed 's/;$//; s/;/; /g')"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$r_cache" "$6" \
		| tr -d '\r' >>"$STEPS"
}

# The CPU time of this shell's waited-for children (QEMU's threads
# included), user and system, into FILE: the shell's times builtin,
# redirected, not in a $(...) whose fork has no children of its own.
cpu_mark() {	# file
	times >"$1"
}

# Whole CPU seconds spent by the children between two marks: the
# machine's two cores are what the lanes share, so this, not the wall
# time, is what a step costs the others.
cpu_spent() {	# before-file after-file
	awk 'function secs(t) {
		split(t, p, "m")
		return p[1] * 60 + substr(p[2], 1, length(p[2]) - 1)
	}
	FNR == 2 { c[FILENAME == ARGV[1]] = secs($1) + secs($2) }
	END { printf "%d\n", c[0] - c[1] + 0.5 }' "$1" "$2"
}

# The CPU seconds a step's daemons spent (lines of FILE, one number
# each: BENCH_CPU_EXTRA), which no wait of the step's shell counts, plus
# the children's of the marks.
cpu_total() {	# before-file after-file extra-file
	c_extra=$(awk '$1 ~ /^[0-9.]+$/ { s += $1 } END { printf "%d", s + 0.5 }' \
		"$3" 2>/dev/null)
	echo $(($(cpu_spent "$1" "$2") + ${c_extra:-0}))
}

# Runs one step; its own output goes to stderr, its KTAP line to stdout.
# With ONLY, a step it does not match is skipped.
step() {	# description command...
	if [ -n "$ONLY" ] && ! printf '%s\n' "$1" | grep -Eq -- "$ONLY"; then
		ktap_test_skip "$1" "not in ONLY=$ONLY"
		step_record 0 0 main skip /dev/null "$1"
		return 0
	fi
	needed_step "$@"
}

# A step whose work later steps need: it runs whatever ONLY says.
needed_step() {	# description command...
	desc=$1
	shift
	say "=== $desc"
	t0=$(date +%s)
	cpu_mark "$LOGDIR/cpu.before"
	BENCH_BUILT=$LOGDIR/built.main
	BENCH_CPU_EXTRA=$LOGDIR/cpu.extra
	: >"$BENCH_BUILT"
	: >"$BENCH_CPU_EXTRA"
	export BENCH_BUILT BENCH_CPU_EXTRA
	"$@" >&2
	rc=$?
	secs=$(($(date +%s) - t0))
	cpu_mark "$LOGDIR/cpu.after"
	step_record "$secs" "$(cpu_total "$LOGDIR/cpu.before" "$LOGDIR/cpu.after" "$BENCH_CPU_EXTRA")" \
		main "$([ $rc = 0 ] && echo pass || echo fail)" \
		"$LOGDIR/built.main" "$desc"
	if [ $rc = 0 ]; then
		ktap_test_pass "$desc (${secs}s)"
	else
		failures="$failures
#   $desc"
		ktap_test_fail "$desc (${secs}s)"
		return 1
	fi
}

# A lane: steps that run one after the other beside the main line, in a
# child of their own, each with its output kept; lane_join waits for it
# and then reports its steps, in order, as step() would have.  Only what
# times nothing runs in a lane: the two lines share the machine's cores.
lane_start() {	# name function
	l_dir=$LOGDIR/lane-$1
	rm -rf "$l_dir"
	mkdir -p "$l_dir"
	(
		trap 'bench_signal 129' HUP
		trap 'bench_signal 130' INT
		trap 'bench_signal 143' TERM
		LANE_DIR=$l_dir
		LANE_STEPS=0
		"$2"
		# held until lane_join: the shell reaps any child it finds
		# done while it waits for a step, and would count this
		# lane's CPU time into that step's
		while [ ! -e "$l_dir/joined" ] && kill -0 $$ 2>/dev/null; do
			sleep 1
		done
	) >"$l_dir/lane.log" 2>&1 &
	bench_lanes="$bench_lanes $!"
	eval "lane_pid_$1=\$!"
}

# A step of a lane; with ONLY, a step it does not match is skipped.  A
# step that cannot run on this machine exits 4 (kselftest's skip) after
# a KTAP line with "# SKIP reason": a skip with that reason, not a pass.
lane_step() {	# description command...
	if [ -n "$ONLY" ] && ! printf '%s\n' "$1" | grep -Eq -- "$ONLY"; then
		LANE_STEPS=$((LANE_STEPS + 1))
		printf '%s\n' "$1" >"$LANE_DIR/$LANE_STEPS.desc"
		echo skip >"$LANE_DIR/$LANE_STEPS.rc"
		return 0
	fi
	lane_needed_step "$@"
}

# A step of a lane whose work its later steps need: it runs whatever
# ONLY says, as needed_step does on the main line.
lane_needed_step() {	# description command...
	LANE_STEPS=$((LANE_STEPS + 1))
	l_step=$LANE_DIR/$LANE_STEPS
	printf '%s\n' "$1" >"$l_step.desc"
	shift
	t0=$(date +%s)
	cpu_mark "$l_step.cpu0"
	BENCH_BUILT=$l_step.built
	BENCH_CPU_EXTRA=$l_step.cpu_extra
	: >"$BENCH_BUILT"
	: >"$BENCH_CPU_EXTRA"
	export BENCH_BUILT BENCH_CPU_EXTRA
	"$@" >"$l_step.log" 2>&1
	l_rc=$?
	cpu_mark "$l_step.cpu1"
	printf '%s\n' "$l_rc $(($(date +%s) - t0)) $(cpu_total "$l_step.cpu0" "$l_step.cpu1" "$BENCH_CPU_EXTRA")" \
		>"$l_step.rc"
	return $l_rc
}

lane_join() {	# name
	eval "l_pid=\$lane_pid_$1"
	: >"$LOGDIR/lane-$1/joined"
	wait "$l_pid"
	bench_lanes=$(printf '%s\n' $bench_lanes | grep -vx "$l_pid" | tr '\n' ' ')
	l_dir=$LOGDIR/lane-$1
	cat "$l_dir/lane.log" >&2
	n=1
	while [ -f "$l_dir/$n.desc" ]; do
		desc=$(cat "$l_dir/$n.desc")
		say "=== $desc (beside the main line)"
		cat "$l_dir/$n.log" >&2 2>/dev/null
		read -r rc secs cpu <"$l_dir/$n.rc" 2>/dev/null ||
			rc=ended secs=0 cpu=0
		case $rc in
		skip) ktap_test_skip "$desc" "not in ONLY=$ONLY"
		      secs=0 cpu=0 result=skip ;;
		4) ktap_test_skip "$desc" "$(sed -n 's/.*# SKIP *//p' \
			"$l_dir/$n.log" | head -n 1)"
		   result=skip ;;
		0) ktap_test_pass "$desc (${secs}s)"
		   result=pass ;;
		*) failures="$failures
#   $desc"
		   ktap_test_fail "$desc (${secs}s)"
		   result=fail ;;
		esac
		step_record "$secs" "$cpu" "$1" "$result" "$l_dir/$n.built" "$desc"
		n=$((n + 1))
	done
}

# Runs a build command; any compiler or sparse diagnostic fails it.
quiet_build() {	# log command...
	log=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc != 0 ] || grep -E -q '(warning|error):' "$log"; then
		grep -E '(warning|error):' "$log" >&2 || tail -n 30 "$log" >&2
		return 1
	fi
}

# Where the time went: each lane's wall and CPU seconds, the steps in
# the order they ran (secs: wall; cpu: its children's user and system
# time, which the lanes share two cores for; lane: main, debug, host
# or side; cache: what a step had to fetch or build, "-" for nothing) and
# the five that cost the most CPU.
timing_table() {	# wall-seconds
	awk -F '\t' -v wall="$1" '
	{
		n++
		secs[n] = $1; cpu[n] = $2; lane[n] = $3; res[n] = $4
		cache[n] = $5; desc[n] = $6
		total[$3] += $1
		cputotal[$3] += $2
		allcpu += $2
		if (!($3 in seen)) {
			seen[$3] = 1
			lanes[++nl] = $3
		}
	}
	END {
		line = "where make check'"'"'s time went: wall " wall " s, CPU " \
		       allcpu " s;"
		for (i = 1; i <= nl; i++)
			line = line " " lanes[i] " " total[lanes[i]] " s (CPU " \
			       cputotal[lanes[i]] " s)" (i < nl ? "," : "")
		print line
		printf "%5s  %5s  %-4s  %-6s  %s\n", "secs", "cpu", "lane", \
		       "result", "step (what it built)"
		for (i = 1; i <= n; i++)
			printf "%5d  %5d  %-4s  %-6s  %s%s\n", secs[i], cpu[i],
			       lane[i], res[i], desc[i],
			       cache[i] == "-" ? "" : " (" cache[i] ")"
		# the costliest five, by a selection: n is small
		print "most CPU:"
		for (k = 1; k <= 5 && k <= n; k++) {
			best = 0
			for (i = 1; i <= n; i++)
				if (!(i in taken) && (!best || cpu[i] + 0 > cpu[best] + 0))
					best = i
			taken[best] = 1
			printf "%5d  %5d  %-4s  %s\n", secs[best], cpu[best],
			       lane[best], desc[best]
		}
	}' "$STEPS"
}

# What the host has in /boot and which kernel images dpkg installed.
boot_state() {
	{
		ls -lA --time-style=+%s /boot 2>&1
		dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' \
			'linux-image-*' 2>/dev/null | grep '^ii'
	} | sort
}

boot_untouched() {
	boot_state >"$LOGDIR/boot.after"
	diff "$LOGDIR/boot.before" "$LOGDIR/boot.after" >&2
}

# Debian's python3 first on PATH, through LOGDIR/bin: need_packages
# installs its modules (docutils, ply, git), and another python3 on
# PATH has none of them (pyenv's shims, here, also cost 0.3 s a call,
# a fifth of the host tests' time).
use_debian_python() {
	[ -x /usr/bin/python3 ] || return 0
	mkdir -p "$LOGDIR/bin" &&
		ln -sf /usr/bin/python3 "$LOGDIR/bin/python3" || return 1
	PATH=$LOGDIR/bin:$PATH
	export PATH
}

# The end of a tier: the table of where its time went, printed and in
# LOGDIR/timing.txt, the failed steps named, the KTAP totals and exit.
check_finished() {	# what [remark]
	wall=$(($(date +%s) - start))
	timing_table "$wall" >"$LOGDIR/timing.txt"
	sed 's/^/# /' "$LOGDIR/timing.txt"
	say "$1 took $wall s${2:+ $2}"
	[ -z "$failures" ] || ktap_print_msg "failed:$failures"
	ktap_finished
}
