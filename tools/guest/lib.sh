# SPDX-License-Identifier: GPL-2.0
#
# Guests of the module and their accelerator, for the host tools that
# boot them (make run, perf, ab, track, bisect, check); sourced through
# bench_lib (tools/lib.sh), not run.  POSIX sh.  Owns: the instrument
# variables (ACCEL, ICOUNT, PROFILE, CPU) checked before anything runs,
# why KVM cannot run a guest (kvm_device, kvm_reason, kvm_probe) and the
# choice of accelerator, the preamble of a command that boots guests
# (guest_vars .. guest_modules), its loads (guest_loads) and make ab's
# order of sides.
bench_lib kernel profile

# ab_order N: the side of each of 2N guests, one per line.  Blocks of
# "before after after before" put both sides at the same mean position,
# so a linear drift of the host cannot favour one; a last half block,
# when N is odd, leaves one guest's worth of imbalance.
ab_order() {
	i=0
	while [ $i -lt "$1" ]; do
		if [ $((i % 2)) = 0 ]; then
			printf 'before\nafter\n'
		else
			printf 'after\nbefore\n'
		fi
		i=$((i + 1))
	done
}

# A QEMU CPU model, with or without ",feature" settings.
check_cpu_model() {	# variable value
	need_packages qemu-system-x86
	case ${2%%,*} in
	'' | *[!A-Za-z0-9._-]*) ;;
	*) qemu-system-x86_64 -cpu help |
		grep -q "^x86 \{1,\}${2%%,*}\( \|\$\)" && return 0 ;;
	esac
	usage_die "$1=$2: not a CPU model of qemu-system-x86_64 (see qemu-system-x86_64 -cpu help)"
}

# The instrument of a command's guests (doc/guests.rst).  ICOUNT=1
# counts instructions (QEMU -icount shift=0,sleep=off, TCG only);
# PROFILE=1 adds the exact profile (tools/profile, doc/profile.rst),
# which needs ICOUNT=1 (and sets it when unset).
# ACCEL=auto uses KVM when /dev/kvm can really run the guest, else TCG;
# ACCEL=kvm fails at once where KVM cannot; ACCEL=tcg emulates.
# NOAPICTIMER=0 boots guests counting instructions with the local APIC
# timer on (guest.sh -T; default 1: noapictimer), so that its ticks
# enter the timed windows (doc/windows.rst); timing cycles it is on
# anyway.
#
# check_instrument DEFAULT-ICOUNT: checks ACCEL and ICOUNT before
# anything runs (ICOUNT unset: DEFAULT-ICOUNT, but 0 with ACCEL=kvm).
check_instrument() {	# default-icount
	ACCEL=${ACCEL:-auto}
	check_choice ACCEL "$ACCEL" auto kvm tcg
	NOAPICTIMER=${NOAPICTIMER:-1}
	check_choice NOAPICTIMER "$NOAPICTIMER" 0 1
	PROFILE=${PROFILE:-0}
	check_choice PROFILE "$PROFILE" 0 1
	PROFILE_ARGS=${PROFILE_ARGS:-}
	if [ -n "$PROFILE_ARGS" ]; then
		[ "$PROFILE" = 1 ] ||
			usage_die "PROFILE_ARGS=$PROFILE_ARGS sets the profile's caches: it needs PROFILE=1"
		case $PROFILE_ARGS in
		*[!A-Za-z0-9=:,]* | *out=* | ,* | *, | *,,*)
			usage_die "PROFILE_ARGS=$PROFILE_ARGS: expected KEY=VALUE[,KEY=VALUE...] of l1i=, l1d=, llc=SIZE:WAYS and line=BYTES (doc/profile.rst)" ;;
		esac
	fi
	if [ "$PROFILE" = 1 ]; then
		[ "${ICOUNT:-1}" = 1 ] ||
			usage_die "PROFILE=1 profiles a guest counting instructions: it needs ICOUNT=1 (ICOUNT=$ICOUNT given)"
		ICOUNT=1
	fi
	if [ -z "${ICOUNT:-}" ]; then
		ICOUNT=$1
		[ "$ACCEL" = kvm ] && ICOUNT=0
	fi
	check_choice ICOUNT "$ICOUNT" 0 1
	[ "$ICOUNT" = 1 ] && [ "$ACCEL" = kvm ] &&
		usage_die "ICOUNT=1 counts instructions under TCG: it cannot run with ACCEL=kvm (ICOUNT=0 for KVM)"
	if [ "$ACCEL" = kvm ] && ! kvm_device; then
		say "error: ACCEL=kvm: $kvm_why"
		exit 1
	fi
	[ -z "${CPU:-}" ] || check_cpu_model CPU "$CPU"
}

# Why KVM cannot run a guest, where the host says so plainly: each
# reason has one wording, whoever finds it (kvm_device, kvm_reason).
kvm_no_dev="no /dev/kvm on this host"
kvm_no_perm="/dev/kvm is there, but this user may not use it"
kvm_no_qemu="this qemu-system-x86_64 was built without KVM"
kvm_is_pvm="this /dev/kvm is PVM (kvm_pvm), which runs only PVM guest kernels"

# Whether this user can open /dev/kvm; kvm_why says why not.
kvm_device() {
	if [ ! -e /dev/kvm ]; then
		kvm_why=$kvm_no_dev
	elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		kvm_why=$kvm_no_perm
	else
		return 0
	fi
	return 1
}

# kvm_reason FILE STATUS: why the KVM probe's guest failed, in one
# line, from its stderr FILE (guest.sh's, or QEMU's alone) and guest.sh's
# exit STATUS.  QEMU's first error may come after guest.sh's lines and
# its own warnings.  An internal error's kind is taken from its number:
# the "emulation failure" line may come after the extra data lines that
# guest.sh's five cut off.  A plain reason comes first: one in QEMU's
# words (no /dev/kvm, no permission, no KVM in QEMU), else a PVM host,
# whose KVM cannot run Debian's kernels (BENCH_SYSFS, default /sys, lets
# the tests fake it).  Never empty; the text is printed, never
# interpreted.
kvm_reason() {	# file status
	kr_out=$(awk '
		{ sub(/\r$/, ""); gsub(/[[:cntrl:]]/, " "); l[++n] = $0 }
		/^guest FAILED: QEMU .* could not run it:$/ && !hdr { hdr = n }
		/^guest FAILED: / && fail == "" { fail = $0 }
		END {
			# QEMU speaks after the line of guest.sh saying it failed;
			# a file without guest.sh lines is all from QEMU.
			s = hdr ? hdr + 1 : (fail == "" ? 1 : n + 1)
			for (i = s; i <= n; i++) {
				if (l[i] ~ /^[ \t]*$/)
					continue
				if (l[i] ~ /^qemu-system[^ :]*: warning: /) {
					if (warn == "")
						warn = l[i]
					continue
				}
				line = l[i]
				break
			}
			if (line == "")
				line = warn
			if (line ~ /^KVM internal error/) {
				kind = ""
				if (match(line, /Suberror: [0-9]+/)) {
					# KVM_INTERNAL_ERROR_* of the uapi
					e = substr(line, RSTART + 10, RLENGTH - 10) + 0
					kind = e == 1 ? "emulation failure" : \
						e == 2 ? "simultaneous exceptions" : \
						e == 3 ? "exit while delivering an event" : \
						e == 4 ? "unexpected exit reason" : \
						"suberror " e
				} else {
					for (j = i + 1; j <= n; j++)
						if (l[j] == "emulation failure")
							kind = l[j]
				}
				line = "KVM internal error" (kind == "" ? "" : ", " kind)
			}
			if (line == "" && fail != "") {
				line = fail
				sub(/ \(console log: [^)]*\)/, "", line)
				sub(/; last .*:$/, "", line)
				sub(/:$/, "", line)
			}
			tag = "-"
			for (j = s; j <= n && tag == "-"; j++) {
				if (l[j] ~ /invalid accelerator kvm|[Aa]ccelerator .?kvm.? (not found|does not exist)|KVM not supported for this target/)
					tag = "qemu"
				else if (l[j] ~ /(Could not access KVM kernel module|failed to initialize kvm): No such file or directory/)
					tag = "dev"
				else if (l[j] ~ /(Could not access KVM kernel module|failed to initialize kvm): Permission denied/)
					tag = "perm"
			}
			print tag, line
		}' "$1" 2>/dev/null)
	kr_line=${kr_out#* }
	[ -n "$kr_line" ] ||
		kr_line="the probe's guest failed, and neither QEMU nor guest.sh said why (guest.sh exit $2)"
	case ${kr_out%% *} in
	qemu) kr_first=$kvm_no_qemu ;;
	dev) kr_first=$kvm_no_dev ;;
	perm) kr_first=$kvm_no_perm ;;
	*)
		kr_first=
		# the guest ran, under a KVM that cannot run it
		[ ! -d "${BENCH_SYSFS:-/sys}/module/kvm_pvm" ] || kr_first=$kvm_is_pvm ;;
	esac
	if [ -n "$kr_first" ]; then
		printf '%s; %s\n' "$kr_first" "$kr_line"
	else
		printf '%s\n' "$kr_line"
	fi
}

# Whether KVM can really run a guest of this kernel: a guest with an
# empty payload must start.  Here /dev/kvm exists, but QEMU fails
# ("failed to set MSR 0x10a"; elsewhere "KVM internal error", QEMU then
# paused).  The answer is kept per host boot, QEMU binary and image;
# kvm_why says why not (kvm_reason), or where the answer came from.
kvm_probe() {	# image release
	kvm_device || return 1
	k_qemu=$(command -v qemu-system-x86_64) || die "no qemu-system-x86_64"
	# "reason 2": answers worded before kvm_reason are asked again
	k_key=$(printf 'reason 2\n'
		cat /proc/sys/kernel/random/boot_id
		ls -lLn --time-style=+%s "$k_qemu" "$1")
	k_cache=$BENCH_CACHE/accel/$(printf '%s\n' "$k_key" | md5sum | cut -c1-32)
	k_how="answer cached for this boot in $k_cache"
	if [ ! -f "$k_cache" ]; then
		k_how="answer now cached for this boot in $k_cache"
		temp_dir k_dir
		printf 'true\n' >"$k_dir/probe.sh"
		k_t0=$(date +%s)
		run_child sh "$BENCH_TOP/tools/guest/guest.sh" -A kvm -k "$1" -r "$2" \
			-p "$k_dir/probe.sh" -o "$k_dir/out" -t 120 \
			2>"$k_dir/err" >/dev/null
		k_rc=$?
		k_secs=$(($(date +%s) - k_t0))
		if [ $k_rc = 0 ]; then
			k_ans="kvm /dev/kvm ran a guest of this kernel (probe: ${k_secs}s)"
		elif [ $k_rc != 125 ]; then
			cat "$k_dir/err" >&2
			die "the KVM probe could not run (guest.sh exit $k_rc)"
		else
			k_msg=$(kvm_reason "$k_dir/err" $k_rc)
			k_ans="tcg KVM cannot run this guest: $k_msg (probe: ${k_secs}s)"
		fi
		mkdir -p "$BENCH_CACHE/accel" &&
			printf '%s\n' "$k_ans" >"$k_cache.tmp" &&
			mv "$k_cache.tmp" "$k_cache" ||
			die "cannot write $k_cache"
	fi
	k_ans=$(cat "$k_cache")
	kvm_why="${k_ans#* }; $k_how"
	[ "${k_ans%% *}" = kvm ]
}

# choose_accel IMAGE RELEASE [IMAGE RELEASE]...: after check_instrument,
# the accelerator all these guests run under (one instrument for all),
# said in one line.  Sets GUEST_ARGS, the guest.sh options to use.
choose_accel() {
	if [ "$ICOUNT" = 1 ]; then
		GUEST_ACCEL=tcg
		a_why="ICOUNT=1 counts instructions, which needs TCG"
	elif [ "$ACCEL" = tcg ]; then
		GUEST_ACCEL=tcg
		a_why="ACCEL=tcg"
	else
		GUEST_ACCEL=kvm
		while [ $# -ge 2 ]; do
			if ! kvm_probe "$1" "$2"; then
				GUEST_ACCEL=tcg
				break
			fi
			shift 2
		done
		a_why=$kvm_why
		if [ "$GUEST_ACCEL" = tcg ] && [ "$ACCEL" = kvm ]; then
			say "error: ACCEL=kvm: $kvm_why"
			exit 1
		fi
	fi
	GUEST_CPU=${CPU:-}
	[ -n "$GUEST_CPU" ] || { [ $GUEST_ACCEL = kvm ] && GUEST_CPU=host || GUEST_CPU=max; }
	GUEST_ARGS="-A $GUEST_ACCEL -c $GUEST_CPU"
	[ "$ICOUNT" = 1 ] && GUEST_ARGS="$GUEST_ARGS -i"
	if [ "$ICOUNT" = 1 ] && [ "$NOAPICTIMER" = 0 ]; then
		GUEST_ARGS="$GUEST_ARGS -T"
		a_why="$a_why; NOAPICTIMER=0: the local APIC timer on"
	fi
	if [ "$PROFILE" = 1 ]; then
		a_plugin=$(profile_plugin) || exit $?
		GUEST_ARGS="$GUEST_ARGS -P $a_plugin${PROFILE_ARGS:+,$PROFILE_ARGS}"
		a_why="$a_why; PROFILE=1: $a_plugin"
	fi
	a_clock=cycles
	[ "$ICOUNT" = 1 ] && a_clock=instructions
	say "accel: $GUEST_ACCEL, -cpu $GUEST_CPU, clock $a_clock: $a_why"
}

# The preamble of the commands that boot guests of the module (make run,
# perf, ab), one function a step, called in this order: guest_vars,
# guest_packages, guest_kernel (or select_kernel and choose_accel per
# kernel), guest_modules; then guest_boot for each guest, guest_failed
# for one that failed.  Every variable is thus checked before the first
# guest boots; a command's own checks go between the steps.

# What those commands need: the module's build, QEMU, the initramfs.
GUEST_PACKAGES="make gcc libc6-dev dwarves qemu-system-x86 busybox-static \
cpio gzip kmod"

# The variables every such command takes, with their defaults: ARGS,
# TIMEOUT, VCPUS and the instrument's (check_instrument).  Counting
# instructions, vCPUs run one at a time and each one's work counts into
# the other's tests: one vCPU (the cross-CPU test says it needs two and
# is skipped); timing cycles, two.
guest_vars() {	# default-icount
	ARGS=${ARGS:-}
	TIMEOUT=${TIMEOUT:-900}
	VCPUS=${VCPUS:-}
	[ -z "$VCPUS" ] || check_whole VCPUS "$VCPUS" 1
	check_whole TIMEOUT "$TIMEOUT" 1
	check_instrument "$1"
	[ -n "$VCPUS" ] || { [ "$ICOUNT" = 1 ] && VCPUS=1 || VCPUS=2; }
}

# A folder a command fills (OUT): new or empty, so that what it holds
# afterwards is this run's alone.
check_new_folder() {	# variable path
	[ ! -e "$2" ] || { [ -d "$2" ] && [ -z "$(ls -A "$2")" ]; } ||
		usage_die "$1=$2: not an empty folder"
}

guest_packages() {	# the command's own package...
	# shellcheck disable=SC2086 # a list of names
	need_packages $GUEST_PACKAGES "$@"
}

# The one kernel of make run or perf, KERNEL (default 6.12), and the
# accelerator of its guest.
guest_kernel() {
	KERNEL=${KERNEL:-6.12}
	select_kernel "$KERNEL"
	choose_accel "$KERNEL_IMAGE" "$KERNEL_RELEASE"
}

# Builds the modules for KDIR into DIR (empty: the kernel release's
# folder), sets GUEST_MODS to it, and checks each STRING of module
# parameters against them, VAR naming it.  Called as it is, never in a
# $(...): a refused parameter exits 2.
guest_modules() {	# dir [var string]...
	GUEST_MODS=$(build_modules "$1") || exit 1
	shift
	while [ $# -ge 2 ]; do
		check_module_args "$1" "$GUEST_MODS" "$2"
		shift 2
	done
}

# The one writer of the guests' payloads (tools/guest/in-guest/lib.sh
# runs them): FILE gets the loads NAME, or NAME-1 .. NAME-COUNT when
# COUNT is a number, each with the module parameters PARAMS (already
# quoted, quote_words) and, when E2E is on (make run, make ab, make
# track: they source the e2e library), the end-to-end scenarios after
# it.  The payload stops at the first load that fails, with its status.
guest_payload() {	# file name count|- params
	gp_file=$1 gp_params=$4
	if [ "$3" = - ]; then
		set -- "$2"
	else
		gp_base=$2 gp_count=$3
		set --
		while [ $# -lt "$gp_count" ]; do
			set -- "$@" "$gp_base-$(($# + 1))"
		done
	fi
	{
		printf '%s\n' '. ./guest-lib.sh'
		for gp_name; do
			printf 'bench_load %s%s || exit\n' "$gp_name" "$gp_params"
			[ "${E2E:-0}" = 0 ] ||
				printf 'BENCH_E2E=%s bench_e2e %s %s || exit\n' \
					"$E2E_GUEST_BIN" "$gp_name" "$E2E_OPTS"
		done
	} >"$gp_file"
}

# make perf's payload: perf record -g of the load "perf" with PARAMS
# (quoted), its report, the kernel's symbols and perf.data kept.
guest_payload_perf() {	# file params
	cat >"$1" <<EOF
. ./guest-lib.sh
bench_modprobe -w "perf record -q -e cpu-clock -g --tail-synthesize -o /tmp/perf.data" \\
	perf$2 || exit 1
gzip -c /proc/kallsyms >"\$BENCH_OUT/kallsyms.gz"
perf report -i /tmp/perf.data --stdio --no-children --sort sym 2>/dev/null |
	grep -v -e '^#' -e '^\$' | head -n 40 >"\$BENCH_OUT/report.txt"
bench_unload
cp /tmp/perf.data "\$BENCH_OUT/perf.data"
EOF
}

# Boots a guest of such a command: IMAGE with its modules, the payload,
# GUEST_ARGS, VCPUS and TIMEOUT, and the guest.sh options given after
# OUT.  Returns guest.sh's exit status.
guest_boot() {	# image release mods payload out [guest.sh option]...
	g_image=$1 g_release=$2 g_mods=$3 g_payload=$4 g_out=$5
	shift 5
	# shellcheck disable=SC2086 # GUEST_ARGS: options and their values
	run_guest -k "$g_image" -r "$g_release" -m "$g_mods" $GUEST_ARGS \
		-s "$VCPUS" -t "$TIMEOUT" -p "$g_payload" "$@" -o "$g_out"
}

# A guest_boot whose payload writes load-1 .. load-COUNT in OUT; with
# PROFILE=1 (make ab, make track, make bisect: they source
# the profile library) their profiles merged into OUT/profile.raw, named with
# SYMS and the modules in MODS.  Returns guest_boot's status.
guest_loads() {	# image release mods payload out count syms [guest.sh option]...
	gl_image=$1 gl_release=$2 gl_mods=$3 gl_payload=$4 gl_out=$5
	gl_count=$6 gl_syms=$7
	shift 7
	guest_boot "$gl_image" "$gl_release" "$gl_mods" "$gl_payload" \
		"$gl_out" "$@"
	gl_rc=$?
	[ $gl_rc = 0 ] && [ "${PROFILE:-0}" = 1 ] || return $gl_rc
	# the guest's sections are its loads, in order
	set --
	gl_l=1
	while [ $gl_l -le "$gl_count" ]; do
		set -- "$@" "$gl_out/load-$gl_l.results" "$gl_out/load-$gl_l.sections"
		gl_l=$((gl_l + 1))
	done
	profile_merge "$gl_out/profile.raw" "$gl_syms" "$gl_mods" "$@" ||
		die "no profile of the loads in $gl_out (above); its logs are there"
}

# The loads of RESULTS... whose timed windows kept other work (another
# task's, interrupts: perturbed_chunks, doc/windows.rst): a line each,
# "  FILE: test (P of N chunks: what entered)...", the file named
# without its folder.  Needs results_lib.sh.
perturbed_loads() {	# results...
	for pl_f in "$@"; do
		pl_p=$(results_rows "$pl_f" perturbed_chunks chunks \
			perturbed_entered |
		       awk '$2 ~ /^[1-9][0-9]*$/ {
			printf " %s (%s of %s chunks%s)", $1, $2, $3,
				$4 ~ /:/ ? ": " $4 : "" }')
		[ -z "$pl_p" ] || printf '  %s:%s\n' "${pl_f##*/}" "$pl_p"
	done
}

# A guest that failed with STATUS: the payload's output, when there is
# one, then WHAT failed and where its console log is; exit 1.
guest_failed() {	# status out what
	[ -f "$2/output.txt" ] && cat "$2/output.txt" >&2
	die "$3 (exit $1); console log: $2/console.log"
}
