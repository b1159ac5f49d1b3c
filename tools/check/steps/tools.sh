# SPDX-License-Identifier: GPL-2.0
#
# make check's tests of the host tools themselves, sourced by check.sh
# (which provides LOGDIR, KERNEL_IMAGE, KERNEL_RELEASE, KDIR and MODS of
# the kernel under test): the guest runner's contract, checked variables,
# a checkout path with spaces, signals, the accelerator choice and its
# reason.
# Each function is one step: 0 when it holds.

# The payload's files arrive intact whatever the kernel prints meanwhile;
# the payload's status comes back; a kernel that panics or a payload that
# hangs fails the guest (125) with the reason.
runner_contract() {
	dir=$LOGDIR/runner
	rm -rf "$dir"
	mkdir -p "$dir"
	cat >"$dir/files.sh" <<'EOF'
. ./guest-lib.sh
echo "to stdout"
echo "to stderr" >&2
# The console gets 500 kernel messages while 3000 results lines are
# written; none may land among them.
( i=0; while [ $i -lt 500 ]; do echo "noise $i" >/dev/kmsg; i=$((i + 1)); done ) &
i=0
while [ $i -lt 3000 ]; do
	echo "test: name=t$i cycles_per_elem=5.$i"
	i=$((i + 1))
done >"$BENCH_OUT/lines"
wait
printf 'no final newline' >"$BENCH_OUT/cut"
mkdir "$BENCH_OUT/sub" && echo deep >"$BENCH_OUT/sub/file"
bench_load one tests=for_loop time_ms=10 || exit 1
bench_load bad loops=1 && exit 1
exit 3
EOF
	# backslashes in the folder, as in any path a user gives: kept
	# whole by every tool on the way (awk -v, tar -C would not)
	fdir=$dir/'fi\tles\c'
	printf 'echo c >/proc/sysrq-trigger\n' >"$dir/panic.sh"
	printf 'echo waiting; sleep 600\n' >"$dir/hang.sh"
	ok=0
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -m "$MODS" \
		-p "$dir/files.sh" -o "$fdir" 2>"$dir/files.err"
	rc=$?
	say "files: exit $rc (want 3)"
	[ $rc = 3 ] || { cat "$dir/files.err" >&2; ok=1; }
	lines=$(awk '$0 != "test: name=t" NR - 1 " cycles_per_elem=5." NR - 1 { bad++ }
		END { print NR, bad + 0 }' "$fdir/lines" 2>/dev/null)
	noise=$(grep -c 'noise [0-9]' "$fdir/console.log")
	say "files: lines read, damaged: $lines (want 3000 0); kernel messages on the console meanwhile: $noise"
	[ "$lines" = "3000 0" ] && [ "$noise" -ge 500 ] || ok=1
	[ "$(cat "$fdir/cut" 2>/dev/null)" = "no final newline" ] &&
		[ "$(cat "$fdir/sub/file" 2>/dev/null)" = deep ] ||
		{ say "files: cut or sub/file differ"; ok=1; }
	grep -qx 'to stdout' "$fdir/output.txt" &&
		grep -qx 'to stderr' "$fdir/output.txt" ||
		{ say "files: output.txt lacks the payload's output"; ok=1; }
	results_ran "$fdir/one.results" for_loop &&
		grep -q 'time_bench: Type:for_loop ' "$fdir/one.dmesg" ||
		{ say "files: bench_load kept no one.results or one.dmesg"; ok=1; }
	grep -q 'loops=1 invalid' "$fdir/bad.dmesg" &&
		grep -q '^bench_load bad: modprobe .* failed' "$fdir/output.txt" ||
		{ say "files: a failed bench_load said nothing"; ok=1; }

	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -p "$dir/panic.sh" \
		-o "$dir/panic" 2>"$dir/panic.err"
	rc=$?
	say "panic: exit $rc (want 125): $(head -n 1 "$dir/panic.err")"
	[ $rc = 125 ] &&
		grep -q '^guest FAILED: the kernel reported a problem' "$dir/panic.err" &&
		grep -q 'Kernel panic' "$dir/panic/console.log" || ok=1

	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -p "$dir/hang.sh" \
		-o "$dir/hang" -t 10 2>"$dir/hang.err"
	rc=$?
	say "hang: exit $rc (want 125): $(head -n 1 "$dir/hang.err")"
	[ $rc = 125 ] && grep -q '^guest FAILED: .* within 10s' "$dir/hang.err" ||
		ok=1

	# A kernel that reports a problem while booting is booted three
	# times, then fails: here it panics (no init to run) and then
	# stays up (panic=0), so only the runner's watch of the console can
	# end each boot before the time limit.
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -p "$dir/hang.sh" \
		-o "$dir/boot" -t 60 -a "rdinit=/nonexistent panic=0" \
		2>"$dir/boot.err"
	rc=$?
	say "boot: exit $rc (want 125), $(grep -c 'booting again' "$dir/boot.err") boots again (want 2): $(grep -m1 FAILED "$dir/boot.err")"
	[ $rc = 125 ] && [ "$(grep -c 'booting again' "$dir/boot.err")" = 2 ] &&
		grep -q '^guest FAILED: the kernel reported a problem while booting, 3 times' \
			"$dir/boot.err" || { cat "$dir/boot.err" >&2; ok=1; }

	# A boot that falls silent before the payload starts (init sleeps)
	# is booted three times, then fails, long before the time limit.
	GUEST_BOOT_SILENCE=4 run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" \
		-p "$dir/hang.sh" -o "$dir/stall" -t 120 \
		-a "rdinit=/bin/busybox -- sleep 600" 2>"$dir/stall.err"
	rc=$?
	say "stall: exit $rc (want 125), $(grep -c 'booting again' "$dir/stall.err") boots again (want 2): $(grep -m1 FAILED "$dir/stall.err")"
	[ $rc = 125 ] && [ "$(grep -c 'booting again' "$dir/stall.err")" = 2 ] &&
		grep -q '^guest FAILED: the kernel printed nothing for 4s while booting, 3 times' \
			"$dir/stall.err" || { cat "$dir/stall.err" >&2; ok=1; }

	# An int3 oops while the payload runs, under TCG with two vCPUs, is
	# taken for the emulator's and runs the guest again; one that comes
	# back every run fails the third.  The report is written to the log
	# here: the real one cannot be had on demand.
	printf '%s\n' 'printf "<1>Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n" >/dev/kmsg' \
		'sleep 1' >"$dir/int3.sh"
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -p "$dir/int3.sh" \
		-o "$dir/int3" -t 120 2>"$dir/int3.err"
	rc=$?
	say "int3: exit $rc (want 125), $(grep -c 'running the guest again' "$dir/int3.err") runs again (want 2): $(grep -m1 FAILED "$dir/int3.err")"
	[ $rc = 125 ] && [ "$(grep -c 'running the guest again' "$dir/int3.err")" = 2 ] &&
		grep -q '^guest FAILED: the kernel reported a problem, in each of 3 runs' "$dir/int3.err" &&
		[ -e "$dir/int3/console.boot2.log" ] ||
		{ cat "$dir/int3.err" >&2; ok=1; }
	return $ok
}

# A guest runner for make ab that records each boot in $RECORD, and
# injects one failure: the first boot of the guest named $FAIL_GUEST
# runs a payload that panics the kernel.
fail_once_runner() {	# file
	cat >"$1" <<'EOF'
out=
prev=
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	prev=$a
done
printf '%s\n' "$out" >>"$RECORD"
if [ "${out##*/}" = "$FAIL_GUEST" ] && [ ! -e "$RECORD.failed" ]; then
	: >"$RECORD.failed"
	printf 'echo c >/proc/sysrq-trigger\n' >"$RECORD.panic.sh"
	exec sh "$REAL_RUNNER" "$@" -p "$RECORD.panic.sh"
fi
exec sh "$REAL_RUNNER" "$@"
EOF
}

# Runs COMMAND, with BENCH_GUEST_RUNNER a runner that records guests in
# RECORD: it must fail with a line matching PATTERN and start no guest.
refused() {	# pattern command...
	r_pat=$1
	shift
	rm -f "$RECORD"
	"$@" >"$LOGDIR/early.out" 2>&1
	r_rc=$?
	r_line=$(grep -E -m1 "$r_pat" "$LOGDIR/early.out")
	say "$*: exit $r_rc: ${r_line:-(no line matching '$r_pat')}"
	if [ $r_rc = 0 ] || [ -z "$r_line" ] || [ -e "$RECORD" ]; then
		sed 's/^/  /' "$LOGDIR/early.out" >&2
		[ -e "$RECORD" ] && say "a guest was started"
		return 1
	fi
}

# make run, ab and perf check every variable before the first guest.
early_errors() {	# kernel
	kernel=$1
	printf 'printf "%%s\\n" "$*" >>"$RECORD"\nexit 1\n' >"$LOGDIR/early-runner.sh"
	export BENCH_GUEST_RUNNER="$LOGDIR/early-runner.sh"
	export RECORD="$LOGDIR/early.record"
	out=$LOGDIR/early-ab
	rm -rf "$out"
	ok=0
	refused 'needs BEFORE= and AFTER=' make_in ab AFTER="$kernel" || ok=1
	refused "ALPHA=abc .*bad --alpha 'abc'" early_ab ALPHA=abc || ok=1
	refused "FAIL_ABOVE=5x .*bad --fail-above '5x'" early_ab FAIL_ABOVE=5x || ok=1
	refused 'LOADS=0: accepted: a whole number, 1 or more' early_ab LOADS=0 || ok=1
	refused 'VCPUS=two: accepted' early_ab VCPUS=two || ok=1
	refused 'TIMEOUT=1m: accepted' early_ab TIMEOUT=1m || ok=1
	refused 'ICOUNT=yes: accepted: 0 1' early_ab ICOUNT=yes || ok=1
	refused 'ACCEL=xen: accepted: auto kvm tcg' early_ab ACCEL=xen || ok=1
	refused 'ICOUNT=1 .* cannot run with ACCEL=kvm' early_ab ICOUNT=1 ACCEL=kvm || ok=1
	refused 'CPU=pentium9: not a CPU model' early_ab CPU=pentium9 || ok=1
	refused 'AFTER=7.0: no such kernel image; accepted: 6.12, 6.1' early_ab AFTER=7.0 || ok=1
	refused "^error: ARGS: 'loopz=5' is not a module parameter" early_ab ARGS=loopz=5 || ok=1
	refused "AFTER_ARGS: 'bulk' is not a module parameter" early_ab AFTER_ARGS=bulk || ok=1
	[ ! -e "$out" ] || { say "make ab created OUT=$out"; ok=1; }
	refused 'KERNEL=5.10: no such kernel image; accepted' make_in run KERNEL=5.10 || ok=1
	refused "ARGS: 'tests' is not a module parameter" make_in run KERNEL="$kernel" ARGS=tests || ok=1
	refused 'TIMEOUT=0: accepted' make_in run KERNEL="$kernel" TIMEOUT=0 || ok=1
	refused 'RESULTS=.*: a folder; accepted' make_in run KERNEL="$kernel" RESULTS="$LOGDIR" || ok=1
	refused 'E2E=bogus: accepted: 0, 1, or scenario names' \
		make_in run KERNEL="$kernel" E2E=bogus || ok=1
	refused 'E2E=xdp_live_drop,: accepted: 0, 1, or scenario names' \
		make_in run KERNEL="$kernel" E2E=xdp_live_drop, || ok=1
	refused 'E2E_PACKETS=0: accepted' make_in run KERNEL="$kernel" E2E=1 \
		E2E_PACKETS=0 || ok=1
	refused 'E2E_REPS=101: accepted: a whole number from 1 to 100' \
		early_ab E2E=1 E2E_REPS=101 || ok=1
	refused 'make perf needs TEST=' make_in perf KERNEL="$kernel" || ok=1
	refused 'TEST=nosuch: accepted: one test name of' make_in perf KERNEL="$kernel" TEST=nosuch || ok=1
	refused 'TEST=for_loop atomic_inc: accepted: one test name of' make_in perf KERNEL="$kernel" TEST='for_loop atomic_inc' || ok=1
	refused 'PROFILE=1 profiles a guest counting instructions: it needs ICOUNT=1' make_in run KERNEL="$kernel" PROFILE=1 ICOUNT=0 || ok=1
	refused 'PROFILE=yes: accepted: 0 1' early_ab PROFILE=yes || ok=1
	refused 'PROFILE_ARGS=l1d=32K:8 sets the profile.s caches: it needs PROFILE=1' \
		make_in run KERNEL="$kernel" PROFILE_ARGS=l1d=32K:8 || ok=1
	refused 'PROFILE_ARGS=out=/tmp/x: expected KEY=VALUE' \
		make_in run KERNEL="$kernel" PROFILE=1 PROFILE_ARGS=out=/tmp/x || ok=1
	refused 'PROFILE_ARGS: l1d=1000:3: sets = SIZE / \(WAYS \* 64-byte lines\) is not a power of two' \
		make_in perf KERNEL="$kernel" TEST=for_loop PROFILE=1 \
		PROFILE_ARGS=l1d=1000:3 || ok=1
	refused 'PROFILE_ARGS: line=3: not 16, 32, 64, 128 or 256' \
		early_ab PROFILE=1 PROFILE_ARGS=line=3 || ok=1
	refused 'TMPDIR holds a newline' env TMPDIR="$LOGDIR/tmp
$LOGDIR" make -s -C "$BENCH_TOP" run KERNEL="$kernel" || ok=1
	unset BENCH_GUEST_RUNNER RECORD
	return $ok
}

make_in() {	# target variable...
	make -s -C "$BENCH_TOP" "$@"
}

early_ab() {	# variable...
	make -s -C "$BENCH_TOP" ab BEFORE="$kernel" AFTER="$kernel" OUT="$out" "$@"
}

# A copy of the checkout in a folder whose path has spaces: "make"
# refuses in one line (kbuild cannot take such an M=), make tools and
# make run work.
spaced_copy() {
	SPACED="$LOGDIR/with space/bench page pool"
	rm -rf "$LOGDIR/with space"
	mkdir -p "$SPACED" &&
		tar -C "$BENCH_TOP" --exclude=./build --exclude=./.git -cf - . |
		tar -C "$SPACED" -xf -
}

path_with_spaces() {
	spaced_copy || return 1
	ok=0
	make -s -C "$SPACED" KDIR="$KDIR" modules >"$LOGDIR/spaces.out" 2>&1
	rc=$?
	say "make modules in '$SPACED': exit $rc: $(head -n 1 "$LOGDIR/spaces.out")"
	[ $rc != 0 ] && [ "$(grep -c . "$LOGDIR/spaces.out")" = 1 ] &&
		grep -q 'kbuild cannot build a module in a path with spaces' \
			"$LOGDIR/spaces.out" || ok=1
	make -s -C "$SPACED" tools >>"$LOGDIR/spaces.out" 2>&1 &&
		[ -x "$SPACED/tools/compare/bench-compare" ] ||
		{ say "make tools failed there"; ok=1; }
	make -s -C "$SPACED" run KERNEL="$1" ICOUNT=0 \
		ARGS="tests=for_loop,tasklet_page_pool01_fast_path time_ms=20" \
		>"$LOGDIR/spaces-run.out" 2>&1
	rc=$?
	sed 's/^/  /' "$LOGDIR/spaces-run.out" >&2
	say "make run there: exit $rc"
	[ $rc = 0 ] && ls "$SPACED"/build/results-*.results >/dev/null 2>&1 || ok=1
	return $ok
}

# Processes whose command line holds TEXT, one "PID COMMAND" a line.
processes_with() {	# text
	ps -eo pid=,args= | grep -F -- "$1" | grep -v -e 'grep -F' -e 'ps -eo'
}

# Starts a make target in a session of its own with an empty TMPDIR,
# signals it once its QEMU runs (SIGTERM to make, which passes it on to
# its children, or SIGINT to the whole process group, as a terminal's
# Ctrl-C does), and checks that no QEMU and no temporary folder remain.
signalled() {	# TERM|INT target variable...
	sig=$1
	shift
	tmp=$LOGDIR/signal-$sig
	rm -rf "$tmp"
	mkdir -p "$tmp"
	# A background child of this script would ignore SIGINT; a
	# terminal's foreground job does not.
	TMPDIR=$tmp setsid env --default-signal=INT \
		make -s -C "$SPACED" "$@" >"$tmp.out" 2>&1 &
	pid=$!
	n=0
	until processes_with "$tmp/" | grep -q qemu-system; do
		n=$((n + 1))
		if [ $n -gt 300 ] || ! kill -0 $pid 2>/dev/null; then
			say "make $1: no QEMU started within 150 s"
			sed 's/^/  /' "$tmp.out" >&2
			kill -TERM $pid 2>/dev/null
			return 1
		fi
		sleep 0.5
	done
	if [ "$sig" = TERM ]; then
		kill -TERM $pid
	else
		kill -INT "-$pid"
	fi
	wait $pid
	rc=$?
	sleep 1
	left=$(processes_with "$tmp/")
	temps=$(ls -A "$tmp")
	say "make $1, SIG$sig once QEMU ran: exit $rc; processes left: ${left:-none}; in TMPDIR: ${temps:-nothing}"
	for p in $(printf '%s\n' "$left" | awk '{ print $1 }'); do
		kill -KILL "$p" 2>/dev/null
	done
	[ -z "$left" ] && [ -z "$temps" ] && [ $rc != 0 ]
}

signals_clean() {	# kernel
	[ -d "${SPACED:-}" ] || spaced_copy || return 1
	ok=0
	signalled TERM run KERNEL="$1" ICOUNT=0 ARGS=time_ms=200 || ok=1
	signalled INT ab BEFORE="$1" AFTER="$1" ICOUNT=1 LOADS=2 \
		OUT="$LOGDIR/signal-ab" ARGS="tests=for_loop time_ms=20" || ok=1
	rm -rf "$LOGDIR/signal-ab"
	return $ok
}

# ACCEL: what this host has decides what each case must say.  No
# /dev/kvm (or one this user cannot open): auto says tcg and why,
# ACCEL=kvm fails at once.  A /dev/kvm: auto probes it; where the guest
# cannot run (as on this project's machines) the same as without one,
# the reason being QEMU's; where it runs, ACCEL=kvm runs a guest that
# finds KVM's signature.  Everywhere: ICOUNT=1 with ACCEL=kvm is a usage
# error, ACCEL=tcg and auto's fallback run a guest under TCG, and the
# answer of a probe is kept.
accel_choice() {	# kernel
	kernel=$1
	a=$LOGDIR/accel
	rm -rf "$a" "$BENCH_CACHE/accel"
	mkdir -p "$a"
	set -- make -s -C "$BENCH_TOP" accel KERNEL="$1"
	ok=0
	"$@" ICOUNT=1 ACCEL=kvm >"$a/icount-kvm" 2>&1
	rc=$?
	say "ICOUNT=1 ACCEL=kvm: exit $rc: $(head -n 1 "$a/icount-kvm")"
	[ $rc != 0 ] && grep -q 'cannot run with ACCEL=kvm' "$a/icount-kvm" || ok=1
	"$@" ACCEL=tcg >"$a/tcg" 2>&1
	say "ACCEL=tcg: $(cat "$a/tcg")"
	grep -q '^accel: tcg, .*: ACCEL=tcg$' "$a/tcg" || ok=1
	a_t0=$(date +%s)
	"$@" >"$a/auto" 2>&1 || ok=1
	t1=$(date +%s)
	"$@" >"$a/auto2" 2>&1 || ok=1
	"$@" ACCEL=kvm >"$a/kvm" 2>&1
	kvm_rc=$?
	t2=$(date +%s)
	say "ACCEL=auto ($((t1 - a_t0)) s): $(cat "$a/auto")"
	say "again: $(cat "$a/auto2")"
	say "ACCEL=kvm ($((t2 - t1)) s, exit $kvm_rc): $(cat "$a/kvm")"
	[ "$(grep -c . "$a/auto")" = 1 ] || ok=1
	# A probe ran, and its answer was kept, unless /dev/kvm cannot be used.
	grep -q -e 'no /dev/kvm' -e 'may not use it' "$a/auto" ||
		grep -q 'answer now cached' "$a/auto" || ok=1
	[ "$(sed 's/ now cached/ cached/' "$a/auto")" = "$(cat "$a/auto2")" ] || ok=1
	if grep -q '^accel: kvm, -cpu host' "$a/auto"; then
		want=KVMKVMKVM
		say "this host: KVM runs the guest"
		[ $kvm_rc = 0 ] || ok=1
	else
		want=TCGTCGTCGTCG
		if [ ! -e /dev/kvm ]; then
			say "this host: no /dev/kvm"
			grep -q '^accel: tcg, .*: no /dev/kvm on this host$' "$a/auto" || ok=1
		else
			say "this host: a /dev/kvm that cannot run the guest"
			grep -q '^accel: tcg, .*: \(KVM cannot run this guest: .*(probe: [0-9]*s)\|/dev/kvm is there, but\)' \
				"$a/auto" || ok=1
			# a reason, and on a PVM host one that says so
			! grep -q ': (probe: ' "$a/auto" || ok=1
			[ ! -d /sys/module/kvm_pvm ] ||
				grep -q -e 'is PVM (kvm_pvm)' -e 'may not use it' "$a/auto" || ok=1
		fi
		# its line, and make's
		[ $kvm_rc != 0 ] && [ "$(grep -c . "$a/kvm")" = 2 ] &&
			grep -q '^error: ACCEL=kvm: ' "$a/kvm" || ok=1
		[ $((t2 - t1)) -le 10 ] || { say "ACCEL=kvm did not fail at once"; ok=1; }
	fi
	# The guest of ACCEL=auto runs where the answer said.
	make -s -C "$BENCH_TOP" run KERNEL="$kernel" \
		ARGS="tests=for_loop time_ms=10" RESULTS="$a/auto.results" \
		>"$a/run.out" 2>&1 || { sed 's/^/  /' "$a/run.out" >&2; ok=1; }
	got=$(sed -n 's/^runtime: .*hypervisor=\([^ ]*\).*/\1/p' "$a/auto.results")
	say "make run with ACCEL=auto: $(grep -m1 '^accel:' "$a/run.out"); the guest's hypervisor: $got (want $want)"
	[ "$got" = "$want" ] || ok=1
	return $ok
}

# kvm_reason on recorded stderr of QEMU and guest.sh (tests/accel): each
# gives its one line, exactly, whatever line QEMU's error is on; a sysfs
# with kvm_pvm puts PVM first, unless QEMU never reached KVM.  A sysfs
# of our own either way: this host's may well have kvm_pvm.
accel_reason() {
	ar_sys=$LOGDIR/accel-reason
	rm -rf "$ar_sys"
	mkdir -p "$ar_sys/plain/module/kvm" "$ar_sys/pvm/module/kvm_pvm" ||
		return 1
	ar_pvm="this /dev/kvm is PVM (kvm_pvm), which runs only PVM guest kernels"
	ok=0
	reason_is plain internal-error "KVM internal error, emulation failure" || ok=1
	reason_is plain internal-error-probe "KVM internal error, emulation failure" || ok=1
	reason_is pvm internal-error-probe "$ar_pvm; KVM internal error, emulation failure" || ok=1
	reason_is plain msr "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" || ok=1
	reason_is pvm msr \
		"$ar_pvm; qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" || ok=1
	# QEMU never reached KVM: its plain reason, not PVM
	reason_is pvm no-module \
		"no /dev/kvm on this host; Could not access KVM kernel module: No such file or directory" || ok=1
	reason_is plain permission \
		"/dev/kvm is there, but this user may not use it; qemu-system-x86_64: failed to initialize kvm: Permission denied" || ok=1
	reason_is pvm no-kvm-qemu \
		"this qemu-system-x86_64 was built without KVM; qemu-system-x86_64: -accel kvm: invalid accelerator kvm" || ok=1
	reason_is plain warning-first "KVM internal error, exit while delivering an event" || ok=1
	reason_is plain suberror-9 "KVM internal error, suberror 9" || ok=1
	reason_is plain no-start "guest FAILED: the payload did not start within 120s" || ok=1
	# printed as it came: no escape, format or expansion applied
	reason_is plain verbatim \
		"qemu-system-x86_64: error: 100% \\n \\c %s \$(id) \`id\` 'q'" || ok=1
	ar_none="the probe's guest failed, and neither QEMU nor guest.sh said why (guest.sh exit 125)"
	reason_is plain empty "$ar_none" || ok=1
	reason_is pvm empty "$ar_pvm; $ar_none" || ok=1
	return $ok
}

reason_is() {	# plain|pvm fixture expected
	ar_got=$(BENCH_SYSFS=$ar_sys/$1 kvm_reason "$BENCH_TOP/tests/accel/$2.err" 125)
	say "$2 ($1 sysfs): $ar_got"
	[ "$ar_got" = "$3" ] || { say "  want: $3"; return 1; }
}


# What doc/house.rst must name, one a line: each tracked file at the top
# of the checkout TOP, each folder there (NAME/), and each entry of
# tools/ and tests/ (a file, or a folder as tools/NAME/).
house_names() {	# top
	git -C "$1" ls-files | awk -F/ '
		NF == 1 { print; next }
		$1 == "tools" || $1 == "tests" {
			print $1 "/" $2 (NF > 2 ? "/" : ""); next
		}
		{ print $1 "/" }' | sort -u
}

# DOC names every entry of house_names of TOP as ``NAME``; says which
# it does not.
house_named() {	# top doc
	h_missing=$(house_names "$1" | awk -v doc="$2" '
		BEGIN { while ((getline l < doc) > 0) text = text "\n" l }
		index(text, "``" $0 "``") == 0 { printf " %s", $0 }')
	[ -z "$h_missing" ] && return 0
	say "$2 does not name:$h_missing"
	return 1
}

# doc/house.rst maps the checkout; the check fails a map that lost a
# name (one removed from a copy).
house_map() {
	house_named "$BENCH_TOP" "$BENCH_TOP/doc/house.rst" || return 1
	h_copy=$LOGDIR/house-without-lib.rst
	grep -v -F '``tools/lib.sh``' "$BENCH_TOP/doc/house.rst" >"$h_copy"
	if house_named "$BENCH_TOP" "$h_copy" 2>"$h_copy.said"; then
		say "the house check passed a map without tools/lib.sh"
		return 1
	fi
	grep -q 'does not name: tools/lib.sh$' "$h_copy.said" || {
		say "the house check said: $(cat "$h_copy.said")"
		return 1
	}
}

# No file of the project's code cites an issue of a tracker the
# repository does not hold (the docs may name another project's issue).
no_issue_numbers() {
	i_hits=$(git -C "$BENCH_TOP" grep -n -i -E '\bissues? ?#?[0-9]+' -- . \
		':!doc/' ':!*.rst' ':!*.svg' ':!tools/check/steps/tools.sh')
	[ -z "$i_hits" ] && return 0
	say "comments citing an issue number:"
	printf '%s\n' "$i_hits" >&2
	return 1
}
