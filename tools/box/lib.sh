# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# make box and make box-check: a test box over SSH, the boot as the
# unit; sourced through bench_lib (tools/lib.sh), not run.
# POSIX sh.  Owns, a function a step, in the order box.sh calls them:
#
#   box_vars        the variables, checked before the box is asked
#   box_connect     the box answers, the login, root or sudo -n
#   box_facts       its release, boot_id, command line, CPUs, kexec,
#                   the releases installed, headers
#   box_pick_cpu    CPU=, or one not CPU 0 whose SMT sibling is idle
#   box_min_boots   the fewest boots a side that bench-compare's rank
#                   test can call a change at its alpha
#   box_state       the box's state and what to change (box-check)
#   box_tune        BOX_TUNE=1's settings, saved first (box_restore)
#   box_kexec       the next boot, with the box's own command line
#   box_wait_boot   ssh answering from a new boot_id, within a limit
#   box_module_in   the module copied in (ssh 'cat >F' <F)
#   box_load        one load, pinned, its results file fetched
#   box_give_back   the box on the kernel and settings it had
#
# Whatever the box says is hostile until parsed: a line that is not of
# the shape expected stops the run with one line naming it.  Nothing is
# changed on the box before every check has passed (box_connect,
# box_facts, box_pick_cpu, box_min_boots).

# The box's working folder: what is copied in and the saved settings.
BOX_TMP=/tmp/bench-box
BOX_MODULE=bench_page_pool
BOX_RESULTS=/sys/kernel/debug/bench_page_pool_simple/results
# Seconds ssh waits for the TCP connection.
BOX_CONNECT_TIMEOUT=10

# --- the variables ----------------------------------------------------

# A value that reaches the box's command line or ssh: printable ASCII,
# one line.
box_check_text() {	# variable value
	case $2 in
	*[!\ -~]*) usage_die "$1: accepted: printable ASCII on one line" ;;
	esac
}

# A kernel release, as /boot and /lib/modules name it.
box_check_release() {	# variable value
	case $2 in
	'' | .* | *[!A-Za-z0-9._+-]*)
		usage_die "$1=$2: accepted: a kernel release installed on the box (uname -r's form: letters, digits, '.', '_', '+', '-')" ;;
	esac
}

# Checks the variables of make box (MODE box) or make box-check (MODE
# check); one line and exit 2 for the first bad one.
box_vars() {	# box|check
	BOX=${BOX:-}
	BOX_SSH=${BOX_SSH:-}
	[ -n "$BOX" ] || usage_die "make box$([ "$1" = box ] || printf -- -check) needs BOX= (what ssh takes: host, user@host, or a Host of ~/.ssh/config)"
	case $BOX in
	-* | *[!A-Za-z0-9@._:%+-]*)
		usage_die "BOX=$BOX: accepted: [user@]host (letters, digits, '@', '.', '_', '-', ':', '%', '+'), not an option" ;;
	esac
	box_check_text BOX_SSH "$BOX_SSH"
	CPU=${CPU:-}
	[ -z "$CPU" ] || check_whole CPU "$CPU" 0
	BOX_BOOT_LIMIT=${BOX_BOOT_LIMIT:-300}
	check_whole BOX_BOOT_LIMIT "$BOX_BOOT_LIMIT" 10
	[ "$1" = box ] || return 0
	BEFORE=${BEFORE:-} AFTER=${AFTER:-}
	[ -n "$BEFORE" ] && [ -n "$AFTER" ] ||
		usage_die "make box needs BEFORE= and AFTER= (kernel releases installed on the box: /boot/vmlinuz-REL)"
	box_check_release BEFORE "$BEFORE"
	box_check_release AFTER "$AFTER"
	BEFORE_APPEND=${BEFORE_APPEND:-} AFTER_APPEND=${AFTER_APPEND:-}
	box_check_text BEFORE_APPEND "$BEFORE_APPEND"
	box_check_text AFTER_APPEND "$AFTER_APPEND"
	BEFORE_KDIR=${BEFORE_KDIR:-} AFTER_KDIR=${AFTER_KDIR:-}
	for b_v in BEFORE_KDIR AFTER_KDIR; do
		eval "b_k=\$$b_v"
		case $b_k in
		'' | 6.12 | 6.1 | 6.1-rt | 7.2 | newest) continue ;;
		esac
		[ -f "$b_k/include/generated/utsrelease.h" ] ||
			usage_die "$b_v=$b_k: accepted: a prepared kernel tree (include/generated/utsrelease.h), or $KERNEL_CHOICES"
	done
	BOOTS=${BOOTS:-}
	[ -z "$BOOTS" ] || check_whole BOOTS "$BOOTS" 1
	LOADS_PER_BOOT=${LOADS_PER_BOOT:-3}
	check_whole LOADS_PER_BOOT "$LOADS_PER_BOOT" 1
	BOX_TUNE=${BOX_TUNE:-0}
	check_choice BOX_TUNE "$BOX_TUNE" 0 1
	BOX_PANIC=${BOX_PANIC:-10}
	check_whole BOX_PANIC "$BOX_PANIC" 1
	ARGS=${ARGS:-}
	box_check_text ARGS "$ARGS"
	set -f
	for b_w in $ARGS; do
		case $b_w in
		[a-z]*=?*) case ${b_w%%=*} in *[!a-z0-9_]*) b_w= ;; esac ;;
		*) b_w= ;;
		esac
		[ -n "$b_w" ] ||
			{ set +f; usage_die "ARGS=$ARGS: accepted: NAME=VALUE words, the module's parameters"; }
	done
	set +f
	ALPHA=${ALPHA:-}
	OUT=${OUT:-$BENCH_TOP/build/box-$(date +%Y%m%d-%H%M%S)}
	case $OUT in
	*"$nl"*) usage_die "OUT: accepted: a path without a newline" ;;
	esac
	[ ! -e "$OUT" ] || { [ -d "$OUT" ] && [ -z "$(ls -A "$OUT")" ]; } ||
		usage_die "OUT=$OUT: not a new or empty folder"
}

# --- reaching the box -----------------------------------------------

# ssh to the box; BOX_SSH's words first, then ours.  One master
# connection a boot (BOX_CM): later calls of that boot open a channel
# of it, a few milliseconds instead of a handshake.
box_ssh() {	# remote command...
	# shellcheck disable=SC2086 # BOX_SSH is options, word-split
	ssh $BOX_SSH -o BatchMode=yes -o ConnectTimeout=$BOX_CONNECT_TIMEOUT \
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3 \
		-o ControlMaster=auto -o "ControlPath=$BOX_CM" \
		-o ControlPersist=120 "$BOX" "$@"
}

# Ends the master connection (before a kexec, or at the end).
box_ssh_close() {
	# shellcheck disable=SC2086
	ssh $BOX_SSH -o "ControlPath=$BOX_CM" -O exit "$BOX" >/dev/null 2>&1
}

# A script (standard input) run on the box as root, its arguments each
# quoted: what they hold reaches the box's shell as data.
box_sh() {	# argument...
	b_cmd="$BOX_SUDO sh -s --"
	for b_a in "$@"; do
		b_cmd="$b_cmd $(sh_quote "$b_a")"
	done
	box_ssh "$b_cmd"
}

# The box answers, takes the login and gives root (itself or sudo -n);
# sets BOX_SUDO.  Exit 1 with one line when not.
box_connect() {
	b_err=$(box_ssh 'id -u' </dev/null 2>&1) || {
		b_line=$(printf '%s\n' "$b_err" | tr -cd '\n -~' | grep . | tail -n 1)
		case $b_err in
		*'Permission denied'* | *'Authentication failed'* | *'Too many authentication'*)
			die "BOX=$BOX: login refused: ${b_line:-ssh said nothing}" ;;
		*) die "BOX=$BOX: the box does not answer: ${b_line:-ssh said nothing}" ;;
		esac
	}
	BOX_SUDO=
	case $b_err in
	0) return 0 ;;
	[0-9] | [0-9]*[0-9]) ;;
	*) die "BOX=$BOX: 'id -u' answered no user id" ;;
	esac
	box_ssh 'sudo -n true' </dev/null >/dev/null 2>&1 ||
		die "BOX=$BOX: the login is not root and sudo -n refuses: make box needs root on the box"
	BOX_SUDO='sudo -n'
}

# The box's facts, one "key: value" line each; checked as they are
# read: release, boot_id, cmdline, online, present, kexec, installed
# releases, headers of a release.
box_facts_script() {
	cat <<'EOF'
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
printf 'release: %s\n' "$(uname -r)"
printf 'boot_id: %s\n' "$(cat /proc/sys/kernel/random/boot_id)"
printf 'cmdline: %s\n' "$(tr '\n' ' ' </proc/cmdline | sed 's/[[:space:]]*$//')"
printf 'online: %s\n' "$(cat /sys/devices/system/cpu/online)"
printf 'present: %s\n' "$(cat /sys/devices/system/cpu/present)"
printf 'kexec: %s\n' "$(command -v kexec || echo none)"
printf 'taskset: %s\n' "$(command -v taskset || echo none)"
for r in "$@"; do
	s=ok
	[ -f "/boot/vmlinuz-$r" ] || s=no-vmlinuz
	[ "$s" != ok ] || [ -f "/boot/initrd.img-$r" ] || s=no-initrd
	[ "$s" != ok ] || [ -d "/lib/modules/$r" ] || s=no-modules
	h=no
	[ ! -f "/lib/modules/$r/build/include/generated/utsrelease.h" ] || h=yes
	printf 'installed: %s %s headers=%s\n' "$r" "$s" "$h"
done
EOF
}

# Reads the box's facts into BOX_RELEASE, BOX_BOOT_ID, BOX_CMDLINE,
# BOX_ONLINE (a CPU list), BOX_KEXEC; each release of ARGS checked
# installed.  FILE gets the lines.
box_facts() {	# file release...
	b_file=$1
	shift
	box_facts_script | box_sh "$@" >"$b_file" 2>/dev/null ||
		die "BOX=$BOX: the box did not give its facts (ssh exit $?)"
	box_parse_lines "$b_file" facts
	BOX_RELEASE=$(sed -n 's/^release: //p' "$b_file")
	box_check_got release "$BOX_RELEASE" '^[A-Za-z0-9._+-]+$'
	BOX_BOOT_ID=$(sed -n 's/^boot_id: //p' "$b_file")
	box_check_got boot_id "$BOX_BOOT_ID" '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
	BOX_CMDLINE=$(sed -n 's/^cmdline: //p' "$b_file")
	BOX_ONLINE=$(sed -n 's/^online: //p' "$b_file")
	box_check_got online "$BOX_ONLINE" '^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$'
	BOX_KEXEC=$(sed -n 's/^kexec: //p' "$b_file")
	BOX_TASKSET=$(sed -n 's/^taskset: //p' "$b_file")
}

# A fact the box gave must be one line of the expected shape.
box_check_got() {	# what value extended-regex
	[ "$(printf '%s\n' "$2" | wc -l)" = 1 ] &&
		printf '%s\n' "$2" | grep -Eq "$3" ||
		die "BOX=$BOX: the box's $1 is not of the expected shape: $(printf '%s' "$2" | head -n 1 | tr -cd ' -~' | cut -c1-80)"
}

# Every line of a file the box gave: "key: value", printable ASCII,
# at most 4096 bytes.
box_parse_lines() {	# file what
	b_bad=$(LC_ALL=C awk '
		length($0) > 4096 || /[^ -~]/ || !/^[a-z][a-z0-9_.]*: ?/ {
			print NR; exit
		}' "$1")
	[ -z "$b_bad" ] ||
		die "BOX=$BOX: line $b_bad of the box's $2 is not a 'key: value' line of printable ASCII"
}

# Whether a CPU list (0-3,6) holds a CPU.
box_in_list() {	# list cpu
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- -v c="$2" '
		{ hi = NF == 2 ? $2 : $1; if (c + 0 >= $1 + 0 && c + 0 <= hi + 0) f = 1 }
		END { exit !f }'
}

# Checks what make box needs of the box, before anything changes on it.
box_check_box() {	# facts-file
	[ "$BOX_KEXEC" != none ] ||
		die "BOX=$BOX: the box has no kexec (install kexec-tools there)"
	[ "$BOX_TASKSET" != none ] ||
		die "BOX=$BOX: the box has no taskset (util-linux) to pin the loads"
	for b_side in BEFORE AFTER; do
		eval "b_rel=\$$b_side b_kdir=\$${b_side}_KDIR"
		b_line=$(grep -F "installed: $b_rel " "$1" | head -n 1)
		case $b_line in
		*" ok "*) ;;
		*) die "$b_side=$b_rel: not installed on the box ($(printf '%s' "$b_line" | cut -d' ' -f3): /boot/vmlinuz-$b_rel, /boot/initrd.img-$b_rel, /lib/modules/$b_rel)" ;;
		esac
		[ -n "$b_kdir" ] || case $b_line in
		*headers=yes*) ;;
		*) die "$b_side=$b_rel: the box has no /lib/modules/$b_rel/build and ${b_side}_KDIR= names no tree on this host" ;;
		esac
	done
}

# --- the CPU -------------------------------------------------------

box_cpu_script() {
	cat <<'EOF'
c=/sys/devices/system/cpu
# idle ticks of each CPU, twice, a second apart
head -n 64 /proc/stat | awk '/^cpu[0-9]/ { print "idle0: " substr($1, 4) " " $5 + $6 }'
sleep 1
head -n 64 /proc/stat | awk '/^cpu[0-9]/ { print "idle1: " substr($1, 4) " " $5 + $6 }'
for d in "$c"/cpu[0-9]*; do
	n=${d##*cpu}
	s=$(cat "$d/topology/thread_siblings_list" 2>/dev/null) || s=-
	printf 'siblings: %s %s\n' "$n" "$s"
done
EOF
}

# CPU= checked online, or the default picked: not CPU 0, its SMT
# siblings offline or idle (above 95% idle in a second), the most idle.
box_pick_cpu() {	# file
	box_cpu_script | box_sh >"$1" 2>/dev/null ||
		die "BOX=$BOX: the box did not give its CPUs"
	box_parse_lines "$1" CPUs
	if [ -n "$CPU" ]; then
		box_in_list "$BOX_ONLINE" "$CPU" ||
			usage_die "CPU=$CPU: the box has no such CPU online (online: $BOX_ONLINE)"
		BOX_CPU_WHY="CPU=$CPU as given"
		return 0
	fi
	if [ "$BOX_ONLINE" = 0 ]; then
		CPU=0
		BOX_CPU_WHY="CPU 0: the box has one CPU online"
		say "box: the box has one CPU online: the loads run on CPU 0, beside its interrupts and housekeeping"
		return 0
	fi
	b_pick=$(awk -v online="$BOX_ONLINE" '
		BEGIN {
			n = split(online, r, ",")
			for (i = 1; i <= n; i++) {
				m = split(r[i], b, "-")
				for (c = b[1]; c <= (m == 2 ? b[2] : b[1]); c++) on[c] = 1
			}
		}
		$1 == "idle0:" { i0[$2] = $3 }
		$1 == "idle1:" { d = $3 - i0[$2]; idle[$2] = d }
		$1 == "siblings:" { sib[$2] = $3 }
		END {
			for (c in idle) if (idle[c] > max) max = idle[c]
			best = -1
			for (c in on) {
				if (c == 0) continue
				ok = 1; alone = 1
				m = split(sib[c], s, ",")
				for (j = 1; j <= m; j++) {
					k = split(s[j], e, "-")
					for (x = e[1]; x <= (k == 2 ? e[2] : e[1]); x++) {
						if (x == c || !(x in on)) continue
						alone = 0
						if (x == 0 || max == 0 || idle[x] < 0.95 * max) ok = 0
					}
				}
				if (!ok) continue
				score = alone * 2 + idle[c] / (max ? max : 1)
				if (best < 0 || score > bs) { best = c; bs = score; why = alone ? "no SMT sibling online" : "its SMT sibling idle" }
			}
			if (best >= 0) print best, why
		}' "$1")
	[ -n "$b_pick" ] ||
		die "BOX=$BOX: no CPU but 0 has an idle or offline SMT sibling: give CPU="
	CPU=${b_pick%% *}
	BOX_CPU_WHY="CPU $CPU: not CPU 0, ${b_pick#* }"
}

# --- how many boots --------------------------------------------------

# The rows of the table: the tests ARGS' tests= selects from the
# module's table (bench_page_pool_simple.c), all of them without it;
# a word it cannot resolve (legacy, run_flags=) counts all.
box_rows() {
	b_all=$(sed -n 's/^[[:space:]]*BENCH_TEST("\([^"]*\)".*/\1/p' \
		"$BENCH_TOP/bench_page_pool_simple.c")
	b_sel=
	set -f
	for b_w in $ARGS; do
		case $b_w in
		tests=*) b_sel=${b_w#tests=} ;;
		run_flags=*) b_sel=all ;;
		esac
	done
	set +f
	[ -n "$b_sel" ] || b_sel=all
	printf '%s\n' "$b_all" | awk -v sel="$b_sel" '
		BEGIN { n = split(sel, w, ",") }
		{
			for (i = 1; i <= n; i++) {
				p = w[i]
				if (p == "all" || p == "legacy") { hit = 1 }
				else if (p ~ /\*$/) { hit = index($0, substr(p, 1, length(p) - 1)) == 1 }
				else { hit = $0 == p }
				if (hit) { c++; break }
			}
		}
		END { print c + 0 }'
}

# The fewest boots a side with which bench-compare's two-sided exact
# Mann-Whitney test can say "change" on one of ROWS rows after Holm at
# ALPHA: the smallest p of n against n is 2 / C(2n, n), and the first
# row is judged at alpha / rows.
box_min_boots() {	# alpha rows
	awk -v a="$1" -v r="$2" 'BEGIN {
		for (n = 1; n < 100; n++) {
			c = 1
			for (i = 1; i <= n; i++) c = c * (n + i) / i
			if (2 / c < a / r) { print n; exit }
		}
		print 100
	}'
}

# bench-compare's default alpha, as its --help says.
box_default_alpha() {
	"$BENCH_COMPARE" --help 2>/dev/null |
		sed -n '/--alpha/,/Default/s/.*Default: \([0-9.]*[0-9]\).*/\1/p' |
		head -n 1
}

# --- the box's state -----------------------------------------------

# The state lines: what moves the numbers, of the box and of CPU.
box_state_script() {
	cat <<'EOF'
cpu=$1
c=/sys/devices/system/cpu
d=$c/cpu$cpu
# a file's first line, or the default: read, no fork
one() { v=; read -r v 2>/dev/null <"$2"; printf '%s: %s\n' "$1" "${v:-${3:--}}"; }
printf 'release: %s\n' "$(uname -r)"
printf 'boot_id: %s\n' "$(cat /proc/sys/kernel/random/boot_id)"
printf 'cpu: %s\n' "$cpu"
one governor "$d/cpufreq/scaling_governor" none
one driver "$d/cpufreq/scaling_driver" none
one epp "$d/cpufreq/energy_performance_preference" none
one min_freq "$d/cpufreq/scaling_min_freq" none
one max_freq "$d/cpufreq/scaling_max_freq" none
one cpuinfo_max_freq "$d/cpufreq/cpuinfo_max_freq" none
one boost "$c/cpufreq/boost" none
one no_turbo "$c/intel_pstate/no_turbo" none
one smt "$c/smt/control" none
one siblings "$d/topology/thread_siblings_list" none
one online "$c/online"
for k in isolcpus nohz_full rcu_nocbs; do
	v=none
	for w in $(cat /proc/cmdline); do
		case $w in "$k="*) v=${w#*=} ;; esac
	done
	printf '%s: %s\n' "$k" "$v"
done
ib=no
! grep -qx irqbalance /proc/[0-9]*/comm 2>/dev/null || ib=yes
printf 'irqbalance: %s\n' "$ib"
# every IRQ's CPU list in one awk: those that hold the CPU
on=$(awk -v c="$cpu" '{
	n = split($0, r, ",")
	for (i = 1; i <= n; i++) {
		m = split(r[i], b, "-")
		if (c + 0 >= b[1] + 0 && c + 0 <= (m == 2 ? b[2] : b[1]) + 0) {
			f = FILENAME; sub(/^\/proc\/irq\//, "", f); sub(/\/.*/, "", f)
			printf "%s%s", k++ ? "," : "", f
			break
		}
	}
} END { printf " %d", k }' /proc/irq/[0-9]*/smp_affinity_list 2>/dev/null)
n=${on##* }
on=${on% *}
printf 'irqs_on_cpu: %s\n' "$n${on:+ ($on)}"
one cpuidle_driver "$c/cpuidle/current_driver" none
s=
for st in "$d"/cpuidle/state[0-9]*; do
	[ -d "$st" ] || continue
	nm=; read -r nm 2>/dev/null <"$st/name"; off=0; read -r off 2>/dev/null <"$st/disable"
	s="$s${s:+ }$nm"
	[ "$off" = 0 ] || s="$s(off)"
done
printf 'cpuidle_states: %s\n' "${s:-none}"
one thp /sys/kernel/mm/transparent_hugepage/enabled none
one thp_defrag /sys/kernel/mm/transparent_hugepage/defrag none
one perf_event_max_sample_rate /proc/sys/kernel/perf_event_max_sample_rate none
one clocksource $c/../clocksource/clocksource0/current_clocksource none
f=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(tsc|constant_tsc|nonstop_tsc|tsc_reliable|tsc_known_freq)$' | tr '\n' ' ')
printf 'tsc_flags: %s\n' "${f:-none}"
m=$(grep -m1 '^microcode' /proc/cpuinfo | sed 's/.*:[[:space:]]*//')
printf 'microcode: %s\n' "${m:-none}"
printf 'cpu_model: %s\n' "$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*:[[:space:]]*//' | tr -cd ' -~')"
m=$(cd $c/vulnerabilities 2>/dev/null && grep -H . * 2>/dev/null | tr ' ' _ | sed 's/:/=/' | tr '\n' ' ')
m=${m% }
printf 'mitigations: %s\n' "${m:-none}"
printf 'pmu: %s\n' "$( [ -d /sys/bus/event_source/devices/cpu ] || [ -d /sys/bus/event_source/devices/cpu_core ] && echo yes || echo none)"
EOF
}

# The box's state on CPU into FILE (checked lines).
box_state() {	# file cpu
	box_state_script | box_sh "$2" >"$1" 2>/dev/null ||
		die "BOX=$BOX: the box did not give its state"
	box_parse_lines "$1" state
}

# A state file with what to change, as pyperf's system show.
box_advice() {	# state-file
	awk -F': ' '
	{ v[$1] = substr($0, length($1) + 3) }
	function say(k, what) { printf "%-27s %s\n", k ":", v[k] (what == "" ? "" : "  -> " what) }
	END {
		cpu = v["cpu"]
		say("release"); say("boot_id"); say("cpu_model"); say("cpu")
		say("governor", v["governor"] == "none" || v["governor"] == "performance" ? "" : "performance (BOX_TUNE=1 sets it)")
		say("driver")
		say("epp", v["epp"] == "none" || v["epp"] == "performance" ? "" : "performance (BOX_TUNE=1 sets it)")
		say("min_freq", v["min_freq"] == "none" || v["min_freq"] == v["max_freq"] ? "" : "the same as max_freq, or the performance governor")
		say("max_freq"); say("cpuinfo_max_freq")
		say("boost", v["boost"] == "1" ? "0 (BOX_TUNE=1 sets it)" : "")
		say("no_turbo", v["no_turbo"] == "0" ? "1 (BOX_TUNE=1 sets it)" : "")
		say("smt"); say("siblings", v["siblings"] == cpu || v["siblings"] == "none" ? "" : "the sibling idle or offline (echo 0 >/sys/devices/system/cpu/cpuN/online), or CPU= another")
		say("online")
		iso = "boot with isolcpus=" cpu " nohz_full=" cpu " rcu_nocbs=" cpu " (BEFORE_APPEND= and AFTER_APPEND= alike)"
		say("isolcpus", v["isolcpus"] == "none" ? iso : "")
		say("nohz_full", v["nohz_full"] == "none" ? "see isolcpus" : "")
		say("rcu_nocbs", v["rcu_nocbs"] == "none" ? "see isolcpus" : "")
		say("irqbalance", v["irqbalance"] == "yes" ? "stop it for the run (it moves IRQs back onto the CPU)" : "")
		say("irqs_on_cpu", v["irqs_on_cpu"] ~ /^0/ ? "" : "off the CPU (BOX_TUNE=1 moves them)")
		say("cpuidle_driver")
		say("cpuidle_states", v["cpuidle_states"] ~ /C[2-9]/ ? "deep states off: processor.max_cstate=1 intel_idle.max_cstate=0 (APPEND) or idle=poll" : "")
		say("thp", v["thp"] ~ /\[always\]/ ? "madvise (BOX_TUNE=1 sets it)" : "")
		say("thp_defrag")
		say("perf_event_max_sample_rate", v["perf_event_max_sample_rate"] == "none" || v["perf_event_max_sample_rate"] + 0 <= 1 ? "" : "1 (BOX_TUNE=1 sets it)")
		say("clocksource", v["clocksource"] == "tsc" || v["clocksource"] == "none" ? "" : "tsc (clocksource=tsc tsc=reliable, if the TSC is stable)")
		say("tsc_flags", v["tsc_flags"] ~ /constant_tsc/ && v["tsc_flags"] ~ /nonstop_tsc/ ? "" : "no constant_tsc+nonstop_tsc: TSC cycles may not be comparable; use --figure core-cycles")
		say("microcode"); say("mitigations")
		say("pmu", v["pmu"] == "none" ? "no PMU: only TSC cycles (or instructions under QEMU -icount)" : "")
	}' "$1"
}

# --- BOX_TUNE=1 --------------------------------------------------------

# The settings BOX_TUNE=1 may change, as "path value" lines: what
# box_restore writes back.  An IRQ's affinity is a CPU list.
box_settings_script() {
	cat <<'EOF'
for f in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor \
	 /sys/devices/system/cpu/cpu[0-9]*/cpufreq/energy_performance_preference \
	 /sys/devices/system/cpu/cpufreq/boost \
	 /sys/devices/system/cpu/intel_pstate/no_turbo \
	 /sys/kernel/mm/transparent_hugepage/enabled \
	 /sys/kernel/mm/transparent_hugepage/defrag \
	 /proc/sys/kernel/perf_event_max_sample_rate \
	 /proc/irq/[0-9]*/smp_affinity_list; do
	[ -w "$f" ] || continue
	v=
	read -r v 2>/dev/null <"$f" || [ -n "$v" ] || continue
	# THP's files say "always [madvise] never": the bracketed one
	case $v in *\[*\]*) v=${v#*\[}; v=${v%%\]*} ;; esac
	printf 'set: %s %s\n' "$f" "$v"
done
EOF
}

# Writes "set: PATH VALUE" lines (standard input) back; a path outside
# the list above or a value of other characters is never written.
box_apply_script() {
	cat <<'EOF'
n=0 failed=
while read -r k f v; do
	[ "$k" = set: ] || continue
	case $f in
	/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor | \
	/sys/devices/system/cpu/cpu[0-9]*/cpufreq/energy_performance_preference | \
	/sys/devices/system/cpu/cpufreq/boost | \
	/sys/devices/system/cpu/intel_pstate/no_turbo | \
	/sys/kernel/mm/transparent_hugepage/enabled | \
	/sys/kernel/mm/transparent_hugepage/defrag | \
	/proc/sys/kernel/perf_event_max_sample_rate | \
	/proc/irq/[0-9]*/smp_affinity_list) ;;
	*) continue ;;
	esac
	case $f$v in *..* | *[!A-Za-z0-9/_,.-]*) continue ;; esac
	cur=
	read -r cur 2>/dev/null <"$f"
	case $cur in *\[*\]*) cur=${cur#*\[}; cur=${cur%%\]*} ;; esac
	[ "$cur" = "$v" ] && continue
	if printf '%s\n' "$v" >"$f" 2>/dev/null; then n=$((n + 1)); else failed="$failed ${f#/proc/irq/}"; fi
done <<'BOX_SETTINGS_END'
EOF
}

# The end of box_apply's script, after its lines.
box_apply_script_end() {
	cat <<'EOF'
BOX_SETTINGS_END
printf 'written: %s\n' "$n"
[ -z "$failed" ] || printf 'refused: %s\n' "$(printf '%s' "$failed" | cut -c1-3000)"
EOF
}

# The box's settings into FILE (checked).
box_settings() {	# file
	box_settings_script | box_sh >"$1" 2>/dev/null ||
		die "BOX=$BOX: the box did not give its settings"
	box_parse_lines "$1" settings
	grep -Ev '^set: /[A-Za-z0-9/_.-]+ [A-Za-z0-9_,.-]+$' "$1" | grep -q . &&
		die "BOX=$BOX: the box's settings hold a line of another shape"
	return 0
}

# Writes settings back: "set: PATH VALUE" lines of FILE.
box_apply() {	# file
	# the lines as a here-document of the script: their shape is
	# checked (box_settings), none can be its end line
	{ box_apply_script; grep '^set: ' "$1"; box_apply_script_end; } \
		>"$BOX_WORK/apply.sh"
	box_sh <"$BOX_WORK/apply.sh" 2>/dev/null
}

# BOX_TUNE=1 on CPU, from the settings saved in FILE: the performance
# governor and EPP, boost off, THP madvise, perf_event_max_sample_rate
# 1, every IRQ's affinity without the CPU (where it keeps another).
box_tune() {	# saved-file cpu online
	awk -v cpu="$2" -v online="$3" '
	function expand(l,   n, r, i, m, b, c, s) {
		n = split(l, r, ",")
		for (i = 1; i <= n; i++) {
			m = split(r[i], b, "-")
			for (c = b[1]; c <= (m == 2 ? b[2] : b[1]); c++) s = s (s == "" ? "" : ",") c
		}
		return s
	}
	$1 != "set:" { next }
	$2 ~ /scaling_governor$/ { print "set:", $2, "performance"; next }
	$2 ~ /energy_performance_preference$/ { print "set:", $2, "performance"; next }
	$2 ~ /cpufreq\/boost$/ { print "set:", $2, 0; next }
	$2 ~ /no_turbo$/ { print "set:", $2, 1; next }
	$2 ~ /transparent_hugepage\/enabled$/ { print "set:", $2, "madvise"; next }
	$2 ~ /perf_event_max_sample_rate$/ { print "set:", $2, 1; next }
	$2 ~ /smp_affinity_list$/ {
		n = split(expand($3), c, ","); s = ""
		for (i = 1; i <= n; i++) if (c[i] != cpu) s = s (s == "" ? "" : ",") c[i]
		if (s == "") {
			n = split(expand(online), c, ",")
			for (i = 1; i <= n; i++) if (c[i] != cpu) s = s (s == "" ? "" : ",") c[i]
		}
		if (s != "" && s != expand($3)) print "set:", $2, s
	}' "$1" >"$BOX_WORK/tune"
	box_apply "$BOX_WORK/tune"
}

# --- the boots ------------------------------------------------------

# The box's own command line for a boot: without BOOT_IMAGE=, initrd=
# and panic= (kexec gives its own), with panic=N and the side's append.
box_cmdline() {	# append
	b_c=
	set -f
	for b_w in $BOX_CMDLINE; do
		case $b_w in
		BOOT_IMAGE=* | initrd=* | panic=*) ;;
		*) b_c="$b_c${b_c:+ }$b_w" ;;
		esac
	done
	set +f
	printf '%s\n' "$b_c panic=$BOX_PANIC${1:+ $1}"
}

# Loads RELEASE with kexec and starts it, detached: the session drops.
box_kexec() {	# release cmdline
	box_sh "$1" "$2" >"$BOX_WORK/kexec.out" 2>&1 <<'EOF' || {
r=$1
kexec -l "/boot/vmlinuz-$r" --initrd="/boot/initrd.img-$r" --append="$2" || exit 3
sync
sh -c 'trap "" HUP; sleep 1; kexec -e' </dev/null >/dev/null 2>&1 &
EOF
		die "kexec -l of $1 failed on the box: $(tail -n 1 "$BOX_WORK/kexec.out" | tr -cd ' -~')"
	}
	box_ssh_close
}

# Reboots the box (to its default kernel), detached.
box_reboot() {
	box_sh </dev/null >/dev/null 2>&1 <<'EOF'
sync
sh -c 'trap "" HUP; sleep 1; reboot' </dev/null >/dev/null 2>&1 &
EOF
	box_ssh_close
}

# Waits until the box answers from a boot other than OLD, at most
# SECONDS; prints "BOOT_ID RELEASE".  1 when it did not.
box_wait_boot() {	# old-boot-id seconds
	w_end=$(($(date +%s) + $2))
	while [ "$(date +%s)" -lt "$w_end" ]; do
		w_got=$(box_ssh -o ConnectTimeout=5 \
			'cat /proc/sys/kernel/random/boot_id; uname -r' \
			</dev/null 2>/dev/null | tr '\n' ' ')
		w_id=${w_got%% *}
		w_rel=${w_got#* }
		w_rel=${w_rel% }
		case $w_id in
		'' | "$1") ;;
		*)
			printf '%s\n' "$w_id" | grep -Eq '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' &&
				printf '%s\n' "$w_rel" | grep -Eq '^[A-Za-z0-9._+-]+$' ||
				die "BOX=$BOX: the box answered with a boot_id or release not of their shape"
			printf '%s %s\n' "$w_id" "$w_rel"
			return 0
			;;
		esac
		box_ssh_close
		sleep 0.5
	done
	return 1
}

# --- the module --------------------------------------------------------

# Builds the module of a side on the host (KDIR) or checks the box can;
# sets the side's module file.
box_build_host() {	# side kdir
	KDIR=$2
	KERNEL_RELEASE=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$KDIR/include/generated/utsrelease.h")
	b_key=$(printf '%s' "$KDIR" | md5sum | cut -c1-12)
	b_dir=$(build_modules "$(module_build_dir "box-$b_key")") || exit 1
	printf '%s\n' "$b_dir/$BOX_MODULE.ko"
}

# Builds the module on the box against /lib/modules/REL/build (the
# box's own headers and compiler) and fetches it: FILE.  Built once a
# release, in the boot that runs now, then copied in as a host build is.
box_build_on_box() {	# release file
	temp_dir b_src
	copy_files "$b_src" module
	# shellcheck disable=SC2086 # C_LIST: the project's names, one a line
	(cd "$b_src" && tar -cf - $C_LIST) |
		box_ssh "rm -rf $BOX_TMP/build && mkdir -p $BOX_TMP/build && tar -C $BOX_TMP/build -xf -" ||
		die "cannot copy the module's sources into the box"
	box_sh "$1" >"$BOX_WORK/build.log" 2>&1 <<'EOF' ||
make -C "/lib/modules/$1/build" M=/tmp/bench-box/build modules
EOF
		die "building the module on the box against /lib/modules/$1/build failed (log: $BOX_WORK/build.log)"
	box_ssh "cat $BOX_TMP/build/$BOX_MODULE.ko" </dev/null >"$2" ||
		die "cannot fetch the module built on the box"
}

# Copies the module into the box's BOX_TMP: one ssh call.
box_module_in() {	# module-file
	box_ssh "rm -rf $BOX_TMP && mkdir -p $BOX_TMP && cat >$BOX_TMP/$BOX_MODULE.ko" \
		<"$1"
}

# One load on the box, pinned to CPU: insmod under taskset, the results
# file with the machine's lines (env_lib.sh, the script's first part),
# rmmod.  Prints the file.
box_load_script() {
	cat "$BENCH_TOP/env_lib.sh"
	cat <<'EOF'
cpu=$1
shift
cd /tmp/bench-box || exit 3
# One load at a time: a load whose connection was lost runs on to its
# end (its output lost, SIGPIPE and SIGHUP ignored) before the next
# one loads the module.  The lock is a folder with its holder's pid.
trap '' PIPE HUP
n=0
until mkdir lock 2>/dev/null; do
	p=
	read -r p 2>/dev/null <lock/pid
	if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
		n=0
	else
		# a holder gone, or one that has not written its pid yet
		n=$((n + 1))
		[ $n -lt 4 ] || { rm -rf lock; n=0; }
	fi
	sleep 0.5
done
echo $$ >lock/pid
trap 'rm -rf /tmp/bench-box/lock' EXIT
! grep -q '^bench_page_pool ' /proc/modules || rmmod bench_page_pool || exit 3
grep -q ' /sys/kernel/debug ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug || exit 3
taskset -c "$cpu" insmod ./bench_page_pool.ko "$@" >insmod.out 2>&1 ||
	{ cat insmod.out >&2; exit 4; }
env_collect /sys/kernel/debug/bench_page_pool_simple/results >load.results ||
	{ rmmod bench_page_pool; exit 5; }
rmmod bench_page_pool
if ! grep -q '^boot_id: ' load.results; then
	b=$(cat /proc/sys/kernel/random/boot_id)
	awk -v b="$b" '{ print } $1 == "runtime:" && !d { print "boot_id: " b; d = 1 }' load.results
else
	cat load.results
fi
EOF
}

# A load into FILE; its status: 0, 255 a lost connection, other the
# load's failure (its words in FILE.err).
box_load() {	# file cpu
	box_load_script >"$BOX_WORK/load.sh"
	set -f
	# shellcheck disable=SC2086 # the module's parameters, words
	box_sh "$2" $ARGS <"$BOX_WORK/load.sh" >"$1.part" 2>"$1.err" &
	set +f
	bench_child=$!
	wait "$bench_child"
	b_rc=$?
	bench_child=
	[ $b_rc = 0 ] || return $b_rc
	mv "$1.part" "$1" && rm -f "$1.err"
}

# A results file: well-formed (bench-compare's reader), its boot the
# one expected, every test pinned to CPU.  One line on failure.
box_check_results() {	# file boot-id cpu
	b_err=$("$BENCH_COMPARE" --check "$1" 2>&1) ||
		{ say "error: $1: $(printf '%s\n' "$b_err" | head -n 1)"; return 1; }
	b_id=$(sed -n 's/^boot_id: //p' "$1")
	[ "$b_id" = "$2" ] ||
		{ say "error: $1: boot_id $b_id, not the boot's $2"; return 1; }
	b_off=$(awk -v c="$3" '$1 == "test:" && !/ cpus=/ {
			for (i = 2; i <= NF; i++) if ($i ~ /^cpu=/ && $i != "cpu=" c) { sub(/^name=/, "", $2); print $2 " " $i; exit }
		}' "$1")
	[ -z "$b_off" ] ||
		{ say "error: $1: a test ran off CPU $3: $b_off"; return 1; }
}

# --- the end -------------------------------------------------------

# The box back on the kernel it ran before the first boot (BOX_ORIG_*:
# its release with its own command line, by kexec; a reboot into its
# default kernel when kexec cannot) and its settings as saved then
# (FILE; the boot's own tuned ones first, BOX_CURRENT_SAVED).
box_give_back() {	# saved-settings-file
	g_now=$(box_ssh -o ConnectTimeout=5 'cat /proc/sys/kernel/random/boot_id; uname -r' \
		</dev/null 2>/dev/null | tr '\n' ' ')
	g_id=${g_now%% *}
	if [ -z "$g_id" ]; then
		say "box: the box does not answer: waiting for it (${BOX_BOOT_LIMIT}s at most)"
		g_now=$(box_wait_boot none "$BOX_BOOT_LIMIT") ||
			{ say "error: the box did not answer within ${BOX_BOOT_LIMIT}s: it is not given back"; return 1; }
		g_id=${g_now%% *}
	fi
	if [ "$g_id" != "$BOX_ORIG_BOOT_ID" ]; then
		[ -z "${BOX_CURRENT_SAVED:-}" ] || [ ! -f "$BOX_CURRENT_SAVED" ] ||
			box_apply "$BOX_CURRENT_SAVED" >/dev/null
		if [ "$BOX_ORIG_INSTALLED" = yes ] &&
		   box_sh "$BOX_ORIG_RELEASE" "$BOX_CMDLINE" </dev/null >/dev/null 2>&1 <<'EOF'
kexec -l "/boot/vmlinuz-$1" --initrd="/boot/initrd.img-$1" --append="$2" || exit 3
sync
sh -c 'trap "" HUP; sleep 1; kexec -e' </dev/null >/dev/null 2>&1 &
EOF
		then
			say "box: back to $BOX_ORIG_RELEASE (kexec, its own command line)"
		else
			say "box: back to its default kernel (reboot: $BOX_ORIG_RELEASE cannot be kexec'd)"
			box_reboot
		fi
		box_ssh_close
		g_now=$(box_wait_boot "$g_id" "$BOX_BOOT_LIMIT") ||
			{ say "error: the box did not come back within ${BOX_BOOT_LIMIT}s"; return 1; }
		[ "${g_now#* }" = "$BOX_ORIG_RELEASE" ] ||
			say "warning: the box came back on ${g_now#* }, not $BOX_ORIG_RELEASE"
	fi
	if [ -n "${1:-}" ] && [ -f "$1" ]; then
		box_apply "$1" >"${BOX_GIVEN_BACK:-$BOX_WORK/given-back}" ||
			{ say "error: the box's settings could not be written back"; return 1; }
		# read back: what is not as it was is named
		box_settings "$BOX_WORK/settings-now"
		g_diff=$(grep -vxF -f "$BOX_WORK/settings-now" "$1" | cut -d' ' -f2- | tr '\n' ' ')
		[ -z "$g_diff" ] ||
			say "warning: the box's settings not as they were (were: $g_diff)"
	fi
	box_ssh "rm -rf $BOX_TMP" </dev/null >/dev/null 2>&1
	box_ssh_close
	return 0
}

# Seconds since the epoch, to the nanosecond; and the seconds between.
box_now() {
	date +%s.%N
}

box_since() {	# start
	awk -v a="$1" -v b="$(box_now)" 'BEGIN { printf "%.2f", b - a }'
}

box_add() {	# a b
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'
}

# The first setting of the boots' state files (OUT/SIDE-BB.state) that
# is not the same in every boot, as "KEY: VALUE in TAG, VALUE in TAG";
# nothing when all agree.  What differs by nature (the release, boot_id, the IRQs
# on the CPU by number) is left out, and so are isolcpus, nohz_full and
# rcu_nocbs when the sides' appends differ (the append asked for them).
box_states_differ() {	# out appends-differ
	awk -v skip_cmd="$2" '
	FNR == 1 { tag = FILENAME; sub(/.*\//, "", tag); sub(/\.state$/, "", tag) }
	{
		k = $1; sub(/:$/, "", k)
		if (k == "release" || k == "boot_id" || k == "irqs_on_cpu") next
		if (skip_cmd && (k == "isolcpus" || k == "nohz_full" || k == "rcu_nocbs")) next
		v = substr($0, length($1) + 2)
		if (!(k in first)) { first[k] = v; ftag[k] = tag; order[++n] = k }
		else if (first[k] != v && !(k in bad)) { bad[k] = v " in " tag; bn[++m] = k }
	}
	END { if (m) printf "%s: %s in %s, %s\n", bn[1], first[bn[1]], ftag[bn[1]], bad[bn[1]] }
	' "$1"/before-[0-9]*.state "$1"/after-[0-9]*.state 2>/dev/null
}
