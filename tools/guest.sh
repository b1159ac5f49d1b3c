#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boots a kernel under QEMU with a busybox initramfs, runs a payload
# script in it as root and exits with the payload's status.  A guest that
# panics, oopses, warns, stalls or does not finish in time fails with the
# reason, whatever the payload said.
set -u
. "$(dirname "$0")/lib.sh"

usage() {
	cat >&2 <<EOF
usage: $0 -k IMAGE -r RELEASE -p PAYLOAD [-m MODDIR] [-f FILE]... [-D DIR]... [-b BINARY]... [-c CPU] [-s CPUS] [-t SECONDS] [-l LOG] [-a APPEND] [-i]
  -k IMAGE    kernel image (bzImage/vmlinuz) to boot
  -r RELEASE  its release string, for /lib/modules/RELEASE
  -p PAYLOAD  shell script run in the guest as /payload.sh
  -m MODDIR   directory whose *.ko go to /lib/modules/RELEASE/extra
  -f FILE     extra file copied to the guest's /bench (repeatable)
  -D DIR      directory copied to the guest's /bench/NAME (repeatable)
  -b BINARY   host program copied with its shared libraries (repeatable)
  -c CPU      QEMU CPU model (default: max)
  -s CPUS     virtual CPUs (default: 2; more than the host has share it)
  -t SECONDS  time limit of the whole guest run (default: 600)
  -l LOG      keep the console log here (default: a temporary file)
  -a APPEND   extra kernel command line
  -i          count instructions: QEMU -icount shift=0,sleep=off, so the
              guest's TSC advances one tick per executed instruction
The payload's output is shown as it ends; exit status is the payload's,
or 125 when the guest itself failed.
EOF
	exit 2
}

image= release= payload= moddir= files= dirs= binaries= cpu=max smp=2
limit=600 log= append= icount=
# Lists of paths, one a line, so that paths may hold spaces.
nl='
'
while getopts k:r:p:m:f:D:b:c:s:t:l:a:i opt; do
	case $opt in
	k) image=$OPTARG ;;
	r) release=$OPTARG ;;
	p) payload=$OPTARG ;;
	m) moddir=$OPTARG ;;
	f) files="$files$OPTARG$nl" ;;
	D) dirs="$dirs$OPTARG$nl" ;;
	b) binaries="$binaries$OPTARG$nl" ;;
	c) cpu=$OPTARG ;;
	s) smp=$OPTARG ;;
	t) limit=$OPTARG ;;
	l) log=$OPTARG ;;
	a) append=$OPTARG ;;
	i) icount="-icount shift=0,sleep=off" ;;
	*) usage ;;
	esac
done
[ -n "$image" ] && [ -n "$release" ] && [ -n "$payload" ] || usage
case $smp in
'' | *[!0-9]* | 0) die "VCPUS=$smp: accepted: a whole number of virtual CPUs, 1 or more" ;;
esac

need_packages qemu-system-x86 busybox-static cpio

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/bin" "$root/bench" "$root/lib/modules/$release/extra"
cp /bin/busybox "$root/bin/busybox"
cp "$payload" "$root/payload.sh"
cp "$BENCH_TOP/tools/guest-init" "$root/init"
chmod +x "$root/init"
IFS=$nl
for f in $files; do
	cp "$f" "$root/bench/" || die "cannot copy $f"
done
for d in $dirs; do
	cp -a "$d" "$root/bench/" || die "cannot copy $d"
done
# A dynamically linked program needs its libraries at the same paths.
for bin in $binaries; do
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
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"

[ -n "$log" ] || log=$work/console.log

# A kernel that fails before the payload starts never saw the module:
# under TCG with several vCPUs, live code patching at boot now and then
# traps (an "int3" oops in sched_clock_cpu or its neighbours, 1.3-1.9 s
# into the boot: 4 of about 100 boots of Debian's 6.12 with 2 vCPUs).
# Such a boot is retried, twice at most, and said so.
boots=0
while :; do
	boots=$((boots + 1))
	: >"$log"
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$limit" qemu-system-x86_64 \
		-cpu "$cpu" -smp "$smp" $icount -m 1024 -display none -monitor none \
		-no-reboot -serial "file:$log" -kernel "$image" \
		-initrd "$work/initrd.gz" \
		-append "console=ttyS0 panic=-1 rdinit=/init $append" </dev/null
	qemu_rc=$?
	grep -q '^BENCH-GUEST: payload starts' "$log" && break
	[ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ] && break
	[ $boots -lt 3 ] || break
	say "guest: the kernel failed while booting, before the payload started; booting again. First report:"
	grep -E -m1 -A3 -f "$BENCH_TOP/splat_patterns" "$log" >&2 ||
		tail -n 5 "$log" >&2
	cp "$log" "$log.boot$boots"
done

# Payload output is tagged by the guest so that kernel messages on the
# same console do not mix with it.
sed -n 's/^GUEST| //p' "$log" | tr -d '\r'

status=$(sed -n 's/^BENCH-GUEST-EXIT: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
splats=$(grep -E -f "$BENCH_TOP/splat_patterns" "$log" | head -n 40)
if [ -n "$splats" ]; then
	say "guest FAILED: the kernel reported a problem (console log: $log):"
	grep -E -B2 -A25 -m1 -f "$BENCH_TOP/splat_patterns" "$log" >&2
	[ "$log" = "$work/console.log" ] && cp "$log" /tmp/bench-guest-failed.log
	exit 125
fi
if [ -z "$status" ]; then
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		say "guest FAILED: no result within ${limit}s (hung?); last lines:"
	else
		say "guest FAILED: ended without a result (qemu exit $qemu_rc); last lines:"
	fi
	tail -n 20 "$log" >&2
	exit 125
fi
exit "$status"
