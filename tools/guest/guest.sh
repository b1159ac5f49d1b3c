#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The one guest runner of the host tools: boots a kernel under QEMU with a
# busybox initramfs, runs a payload script in it as root and brings back
# what the payload wrote into $BENCH_OUT, over a serial port of its own
# (tools/guest/in-guest/init), so that no kernel message can land inside it.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib kernel

usage() {
	cat >&2 <<EOF
usage: $0 -k IMAGE -r RELEASE -p PAYLOAD -o OUTDIR [-m MODDIR] [-f FILE]...
       [-D DIR]... [-b BINARY]... [-c CPU] [-s CPUS] [-t SECONDS]
       [-a APPEND] [-i [-T]] [-A tcg|kvm] [-P PLUGIN[,KEY=VALUE...]] [-N]
  -k IMAGE    kernel image (bzImage/vmlinuz) to boot
  -r RELEASE  its release string, for /lib/modules/RELEASE
  -p PAYLOAD  shell script run in the guest as root, in /bench, where
              it may source guest-lib.sh (bench_load NAME [PARAM=VALUE]...)
  -o OUTDIR   new or empty folder: gets the files the payload wrote into
              \$BENCH_OUT, output.txt (its stdout and stderr) and
              console.log (the kernel console)
  -m MODDIR   directory whose *.ko go to /lib/modules/RELEASE/extra
  -f FILE     extra file copied to the guest's /bench (repeatable)
  -D DIR      directory copied to the guest's /bench/NAME (repeatable)
  -b BINARY   host program copied with its shared libraries (repeatable)
  -c CPU      QEMU CPU model (default: max; host under KVM)
  -s CPUS     virtual CPUs (default: 2; more than the host has share it)
  -t SECONDS  time limit of the whole guest run (default: 600)
  -a APPEND   extra kernel command line
  -i          count instructions: QEMU -icount shift=0,sleep=off, so the
              guest's TSC advances one tick per executed instruction (TCG)
              and the kernel boots with noapictimer
  -T          with -i: keep the local APIC timer on (no noapictimer), so
              that its ticks enter timed windows (doc/windows.rst)
  -A ACCEL    tcg (default) or kvm
  -P PLUGIN   load a QEMU TCG plugin (a .so, then its KEY=VALUE
              arguments) with out=OUTDIR/profile.raw added; needs -i
  -N          a virtio-net device fed by the host's packet source
              (tools/e2e/net-source.py, over a Unix socket of this run);
              the payload finds /bench/.net-source
Exit status: the payload's; 125 when the guest itself failed (panic,
oops, warning, stall, hang, no result), with the reason on stderr; 2 for
bad usage.
EOF
	exit 2
}

image= release= payload= outdir= moddir= files= dirs= binaries= cpu=
smp=2 limit=600 append= icount= accel=tcg plugin= net_source= apictimer=
# Lists of paths, one a line, so that paths may hold spaces.
while getopts k:r:p:o:m:f:D:b:c:s:t:a:iTA:P:N opt; do
	case $opt in
	k) image=$OPTARG ;;
	r) release=$OPTARG ;;
	p) payload=$OPTARG ;;
	o) outdir=$OPTARG ;;
	m) moddir=$OPTARG ;;
	f) files="$files$OPTARG$nl" ;;
	D) dirs="$dirs$OPTARG$nl" ;;
	b) binaries="$binaries$OPTARG$nl" ;;
	c) cpu=$OPTARG ;;
	s) smp=$OPTARG ;;
	t) limit=$OPTARG ;;
	a) append=$OPTARG ;;
	i) icount=1 ;;
	T) apictimer=1 ;;
	A) accel=$OPTARG ;;
	P) plugin=$OPTARG ;;
	N) net_source=1 ;;
	*) usage ;;
	esac
done
[ $OPTIND -gt $# ] || usage
[ -n "$image" ] && [ -n "$release" ] && [ -n "$payload" ] &&
	[ -n "$outdir" ] || usage

bad_usage() {
	say "$0: $*"
	exit 2
}
case $smp in
'' | *[!0-9]* | 0*) bad_usage "-s $smp: accepted: a whole number of virtual CPUs, 1 or more" ;;
esac
case $limit in
'' | *[!0-9]* | 0*) bad_usage "-t $limit: accepted: a whole number of seconds, 1 or more" ;;
esac
case $accel in
tcg | kvm) ;;
*) bad_usage "-A $accel: accepted: tcg, kvm" ;;
esac
[ -z "$icount" ] || [ "$accel" = tcg ] ||
	bad_usage "-i counts instructions under TCG; it cannot run with -A kvm"
[ -z "$apictimer" ] || [ -n "$icount" ] ||
	bad_usage "-T keeps the APIC timer of a guest counting instructions: it needs -i"
[ -z "$plugin" ] || [ -n "$icount" ] ||
	bad_usage "-P profiles a guest counting instructions: it needs -i"
case $plugin in
*[[:space:]]*) bad_usage "-P $plugin: no blank in a plugin's path or arguments" ;;
esac
[ -z "$plugin" ] || [ -f "${plugin%%,*}" ] ||
	bad_usage "-P ${plugin%%,*}: no such plugin"
case $outdir in
*,*) [ -z "$plugin" ] || bad_usage "-o $outdir: QEMU cannot take a ',' in the path of a plugin's output" ;;
esac
[ -n "$cpu" ] || { [ "$accel" = kvm ] && cpu=host || cpu=max; }
[ -f "$image" ] || bad_usage "-k $image: no such kernel image"
[ -f "$payload" ] || bad_usage "-p $payload: no such payload"
if [ -e "$outdir" ]; then
	[ -d "$outdir" ] && [ -z "$(ls -A "$outdir")" ] ||
		bad_usage "-o $outdir: not an empty folder"
fi
mkdir -p "$outdir" || bad_usage "-o $outdir: cannot create it"

need_packages qemu-system-x86 busybox-static cpio gzip

temp_dir work
root=$work/root
mkdir -p "$root/bin" "$root/bench" "$root/lib/modules/$release/extra"
cp /bin/busybox "$root/bin/busybox"
cp "$payload" "$root/payload.sh"
cp "$BENCH_TOP/tools/guest/in-guest/init" "$root/init"
cp "$BENCH_TOP/tools/guest/in-guest/lib.sh" "$root/bench/guest-lib.sh"
cp "$BENCH_TOP/env_lib.sh" "$root/bench/env_lib.sh"
# bench_load keeps each load's symbols for the profile
[ -z "$plugin" ] || : >"$root/bench/.profile"
# bench_e2e lets bench-e2e take the virtio-net device over
[ -z "$net_source" ] || : >"$root/bench/.net-source"
chmod +x "$root/init"
IFS=$nl
for f in $files; do
	cp "$f" "$root/bench/" || die "cannot copy $f"
done
for d in $dirs; do
	cp -a "$d" "$root/bench/" || die "cannot copy $d"
done
# A dynamically linked program needs its libraries at the same paths,
# which the guest must not hide under a mount of its own (/tmp is not
# one: a checkout under /tmp works).
for bin in $binaries; do
	case $bin in
	/proc/* | /sys/* | /dev/*)
		die "-b $bin: the guest mounts its own ${bin%"${bin#/*/}"}: give a program installed elsewhere, or -f for a static one" ;;
	esac
	for f in "$bin" $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f" || die "cannot copy $f"
	done
done
unset IFS
if [ -n "$moddir" ]; then
	cp "$moddir"/*.ko "$root/lib/modules/$release/extra/" ||
		die "no modules in $moddir"
fi
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz" ||
	die "cannot pack the initramfs"

log=$outdir/console.log
channel=$work/channel
qemu_err=$work/qemu.err
# The console shows warnings and worse, what splat_patterns looks for:
# under TCG every character of it costs the guest time (an empty
# payload's boot of Debian's 6.12 took 7.6 s with the kernel's info
# messages on the console, 5.8 s without).  dmesg in the guest keeps
# every message.
console_level=loglevel=5
# The kernel's crypto self-tests (CONFIG_CRYPTO_SELFTESTS, on in
# Debian's 7.2) run in kernel threads for the first seconds after boot,
# beside the first loads: a 7.2 guest with one vCPU counting
# instructions was quiet (one runnable task) 3.4 s after boot with them,
# 1.2 s without; the option costs nothing where they are built out.
# The results file's cmdline: line records it.
quiet_args=cryptomgr.notests
accel_args="-accel tcg"
# Counting instructions, the local APIC timer is left off: TCG offers
# no TSC-deadline timer, so the kernel calibrates the APIC's against
# the TSC for 100 ms of guest time in a loop of rdtsc and pause, and
# under -icount each of them leaves the translated code.  That loop was
# 8 of the 12 s an empty payload's guest of a small 6.12 kernel took
# (3.2 s without it; Debian's 6.12, 7.6 s and 5.2 s).  The tick
# then comes from the PIT or the HPET; the tests count the same.  The
# results file's cmdline: line records it.  -T keeps the timer (make
# run NOAPICTIMER=0), for the windows' tests: its ticks enter them.
if [ -n "$icount" ]; then
	accel_args="$accel_args -icount shift=0,sleep=off"
	[ -n "$apictimer" ] || append="$append noapictimer"
fi
# The plugin writes its profile when QEMU exits: a boot tried again
# overwrites the last one's.
# With one CPU the kernel patches its LOCK prefixes away (SMP
# alternatives), the modules' too: noreplace-smp keeps them, so that
# the profile counts the atomics an SMP machine executes.  The prefix
# is a prefix either way: no instruction count moves.
if [ -n "$plugin" ]; then
	accel_args="$accel_args -plugin file=$plugin,out=$outdir/profile.raw"
	append="$append noreplace-smp"
fi
[ "$accel" = kvm ] && accel_args="-accel kvm"

# The packet source of -N: one for the run, on a socket in its folder,
# stopped with it (a lane of bench_cleanup's), silent after the time
# limit.  A boot tried again connects again.
net_args=
if [ -n "$net_source" ]; then
	need_packages python3
	net_sock=$work/net.sock
	case $net_sock in
	*[[:space:],]*) die "QEMU cannot take a blank or a ',' in a socket's path: $net_sock" ;;
	esac
	[ "${#net_sock}" -lt 108 ] ||
		die "$net_sock: too long a path for a Unix socket (TMPDIR)"
	python3 "$BENCH_TOP/tools/e2e/net-source.py" "$net_sock" "$limit" \
		2>"$outdir/net-source.log" &
	bench_lanes="$bench_lanes $!"
	n_wait=0
	while [ ! -S "$net_sock" ] && [ $n_wait -lt 50 ]; do
		sleep 0.2
		n_wait=$((n_wait + 1))
	done
	[ -S "$net_sock" ] ||
		die "the packet source did not start: $(cat "$outdir/net-source.log")"
	net_args="-netdev stream,id=e2e,server=off,addr.type=unix,addr.path=$net_sock -device virtio-net-pci,netdev=e2e"
fi

# A boot whose console stays silent this long before the payload starts
# has stalled (under TCG with two vCPUs, a boot of Debian's 7.2 in one
# make check sat after its ACPI lines until the time limit); a boot
# prints every few seconds, the debug kernel's too (6.8 s its longest
# gap).  GUEST_BOOT_SILENCE sets it for tests.
boot_silence=${GUEST_BOOT_SILENCE:-120}
case $boot_silence in
'' | *[!0-9]* | 0*) bad_usage "GUEST_BOOT_SILENCE=$boot_silence: accepted: a whole number of seconds, 1 or more" ;;
esac

# Boots the guest once; sets qemu_rc (124: time limit).  Under KVM QEMU
# may report an internal error and stay alive, paused: that ends the
# boot.  So does a kernel report before the payload starts (boot_splat
# set), or a console silent for boot_silence seconds before it
# (boot_stall set): the boot is retried below, and a debug kernel need
# not run its payload of minutes first.
boot() {
	: >"$log"
	: >"$channel"
	: >"$qemu_err"
	# The background child of a non-interactive shell ignores SIGINT,
	# and timeout's own process group keeps the terminal's away:
	# bench_cleanup stops it with SIGTERM, which timeout passes on.
	# shellcheck disable=SC2086
	timeout -k 5 "$limit" qemu-system-x86_64 $accel_args -cpu "$cpu" \
		-smp "$smp" -m 1024 -display none -monitor none -no-reboot \
		-serial "file:$log" -serial "file:$channel" -kernel "$image" \
		-initrd "$work/initrd.gz" $net_args \
		-append "console=ttyS0 $console_level $quiet_args panic=-1 rdinit=/init $append" \
		</dev/null >"$qemu_err" 2>&1 &
	bench_child=$!
	boot_splat= boot_stall=
	b_size=0 b_since=$(date +%s)
	while kill -0 "$bench_child" 2>/dev/null; do
		if [ "$accel" = kvm ] && grep -q 'KVM internal error' "$qemu_err"; then
			kill -TERM "$bench_child"
			break
		fi
		if ! started; then
			if boot_report; then
				boot_splat=1
				kill -TERM "$bench_child" 2>/dev/null
				break
			fi
			b_now=$(date +%s)
			b_new=$(wc -c <"$log")
			if [ "$b_new" != "$b_size" ]; then
				b_size=$b_new b_since=$b_now
			elif [ $((b_now - b_since)) -ge "$boot_silence" ]; then
				boot_stall=1
				kill -TERM "$bench_child" 2>/dev/null
				break
			fi
		elif [ "$accel" != kvm ]; then
			break
		fi
		sleep 0.2
	done
	wait "$bench_child"
	qemu_rc=$?
	bench_child=
}

started() {
	grep -q '^bench-guest start' "$channel"
}

# A kernel report on the console up to the mark /init logs before it
# writes the channel's start line: the payload's modules come after it.
boot_report() {
	sed '/BENCH-GUEST: payload starts/q' "$log" |
		grep -E -q -f "$BENCH_TOP/splat_patterns"
}

# A kernel that reports a problem before the payload starts has not
# seen the module: under TCG with several vCPUs, live code patching at
# boot now and then traps (an "int3" oops in sched_clock_cpu or its
# neighbours, 1.3-1.9 s into the boot: 4 of about 100 boots of Debian's
# 6.12 with 2 vCPUs); the debug kernel's KASAN now and then reports a
# wild access in do_raw_spin_lock() from an interrupt in its first two
# seconds.  Such a boot is retried, twice at most, and said so.
boot_failed() {
	[ -n "$boot_splat" ] || [ -n "$boot_stall" ] && return 0
	# a boot that timed out with a report is a hang, not retried
	{ started || [ "$qemu_rc" != 124 ]; } && boot_report
}

# The same trap can come later, while the payload runs, whenever the
# kernel patches its text (a module loads, perf flips a static key):
# once in a make check, an int3 oops in __schedule on the other vCPU
# of a 6.12 guest, at a jump label's nop.  A run whose first kernel
# report is such an oops, under TCG with several vCPUs, is run again;
# a kernel bug would trap again, and three runs fail.
emulated_int3() {
	[ "$accel" = tcg ] && [ "$smp" -gt 1 ] &&
		grep -E -m1 -f "$BENCH_TOP/splat_patterns" "$log" |
		grep -E -q '(^|[] ])int3: [0-9a-f]{4} \[#1\]'
}

boots=0
while :; do
	boots=$((boots + 1))
	boot
	if ! boot_failed; then
		started && emulated_int3 || break
	fi
	[ $boots -lt 3 ] || break
	if started; then
		say "guest: an int3 oops under TCG with $smp vCPUs while the payload ran, taken for QEMU's race with the kernel's live patching; running the guest again. The report:"
		grep -E -m1 -A3 -f "$BENCH_TOP/splat_patterns" "$log" >&2
	elif [ -n "$boot_stall" ]; then
		say "guest: the kernel printed nothing for ${boot_silence}s while booting, before the payload started; booting again. Its last line:"
		tail -n 1 "$log" >&2
	else
		say "guest: the kernel reported a problem while booting, before the payload started; booting again. First report:"
		grep -E -m1 -A3 -f "$BENCH_TOP/splat_patterns" "$log" >&2
	fi
	mv "$log" "$outdir/console.boot$boots.log"
done

failed() {	# reason: the guest failed; show why and exit 125
	say "guest FAILED: $* (console log: $log)"
	exit 125
}

if ! started; then
	if [ -n "$boot_stall" ]; then
		say "guest FAILED: the kernel printed nothing for ${boot_silence}s while booting, $boots times (console log: $log); its last lines:"
		tail -n 5 "$log" >&2
		exit 125
	fi
	if boot_failed; then
		say "guest FAILED: the kernel reported a problem while booting, $boots times (console log: $log):"
		grep -E -B2 -A25 -m1 -f "$BENCH_TOP/splat_patterns" "$log" >&2
		exit 125
	fi
	if [ "$qemu_rc" != 124 ] && [ "$qemu_rc" != 137 ] && [ -s "$qemu_err" ]; then
		say "guest FAILED: QEMU ($accel, -cpu $cpu) could not run it:"
		grep -v '^ *$' "$qemu_err" | head -n 5 >&2
		exit 125
	fi
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		say "guest FAILED: the payload did not start within ${limit}s; last console lines:"
	else
		say "guest FAILED: the payload did not start (qemu exit $qemu_rc); last console lines:"
	fi
	tail -n 20 "$log" >&2
	exit 125
fi

# The channel: every line a record, anything else means it was damaged.
# Prints "status N", "files MD5 BYTES", "ended", or "bad LINE".  The
# paths reach awk through the environment: -v would turn a "\t" in
# them into a tab.
records=$(tr -d '\r' <"$channel" | OUT_TXT="$outdir/output.txt" \
	OUT_B64="$work/out.b64" awk '
	BEGIN { out = ENVIRON["OUT_TXT"]; b64 = ENVIRON["OUT_B64"]
		printf "" >out; printf "" >b64 }
	$0 == "bench-guest start" { next }
	/^o( |$)/ { print substr($0, 3) >out; next }
	/^x [0-9]+$/ { print "status", $2; next }
	/^f [0-9a-f]+ [0-9]+$/ && length($2) == 32 { print "files", $2, $3; next }
	/^b [A-Za-z0-9+\/=]+$/ { print substr($0, 3) >b64; next }
	$0 == "e" { print "ended"; next }
	{ print "bad", NR; exit }')
status=$(printf '%s\n' "$records" | sed -n 's/^status //p')
bad=$(printf '%s\n' "$records" | sed -n 's/^bad //p')

splats=$(grep -E -f "$BENCH_TOP/splat_patterns" "$log" | head -n 40)
if [ -n "$splats" ]; then
	runs=
	[ $boots = 1 ] || runs=", in each of $boots runs"
	say "guest FAILED: the kernel reported a problem$runs (console log: $log):"
	grep -E -B2 -A25 -m1 -f "$BENCH_TOP/splat_patterns" "$log" >&2
	exit 125
fi
[ -z "$bad" ] || { cp "$channel" "$outdir/channel.raw"; failed "the results channel is damaged at its line $bad (kept as channel.raw)"; }
if [ -z "$status" ]; then
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		say "guest FAILED: no result within ${limit}s (hung?); last lines of the payload and the console:"
	else
		say "guest FAILED: ended without a result (qemu exit $qemu_rc); last lines of the payload and the console:"
	fi
	tail -n 10 "$outdir/output.txt" >&2
	tail -n 20 "$log" >&2
	exit 125
fi

# The files of $BENCH_OUT, checked before they are unpacked.
set -- $(printf '%s\n' "$records" | sed -n 's/^files //p')
[ $# = 2 ] && printf '%s\n' "$records" | grep -qx ended ||
	failed "the payload ended (status $status) but its files were cut short"
base64 -d "$work/out.b64" >"$work/out.tgz" 2>/dev/null &&
	[ "$(wc -c <"$work/out.tgz")" = "$2" ] &&
	[ "$(md5sum <"$work/out.tgz" | cut -d' ' -f1)" = "$1" ] ||
	failed "the payload's files arrived damaged (size or checksum)"
names=$(tar -tzf "$work/out.tgz") || failed "the payload's files are no tar archive"
case "$nl$names$nl" in
*"${nl}./output.txt$nl"* | *"${nl}./console.log$nl"*)
	failed "the payload wrote output.txt or console.log into \$BENCH_OUT: those names are the runner's" ;;
esac
# from inside: GNU tar unquotes -C's argument, so a "\t" in it would
# name another folder
(cd "$outdir" && tar -xzf "$work/out.tgz" --no-same-owner) ||
	failed "cannot unpack the payload's files into $outdir"
exit "$status"
