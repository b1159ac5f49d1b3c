#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2086 # BOX_SSH is a list of ssh options
#
# Proves tools/box/qemu-box.sh by hand and prints the figures for
# doc/box.rst: boot to ssh, kexec into the box's kernel with an append
# (new boot_id, the append in /proc/cmdline), a reboot back to the
# default kernel, a kexec into a bad root= with panic=5 back to the
# default, a module copied in over ssh and insmod'ed (MODULE=path.ko of
# that kernel, optional), stop.  One box, booted once: a few minutes.
#
#   sh tests/box/prove.sh [-i]        (-i: the box counts instructions)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
box=$top/tools/box/qemu-box.sh
icount=
case ${1:-} in
-i) icount=-i ;;
'') ;;
*) printf '%s\n' "usage: $0 [-i]" >&2; exit 2 ;;
esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/box-prove.XXXXXX") || exit 1
rmdir "$dir"
trap 'sh "$box" stop "$dir" >/dev/null 2>&1' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	printf 'FAIL: %s\n' "$*"
	exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

env=$(sh "$box" start -k 6.12 $icount -d "$dir") || fail "start"
eval "$env"
printf 'start: ssh ready %s s after QEMU started (%s, -icount: %s)\n' \
	"$BOX_READY_SECONDS" "$BOX_DEFAULT" "${icount:-no}"
on() { ssh $BOX_SSH -o ConnectTimeout=5 root@127.0.0.1 "$@" </dev/null; }
id() { on cat /proc/sys/kernel/random/boot_id 2>/dev/null; }

# Waits for a boot_id other than $1; prints the seconds, or fails.
wait_new() {	# old-boot-id what limit
	w_t=$(now)
	w_end=$(($(date +%s) + $3))
	while [ "$(date +%s)" -lt "$w_end" ]; do
		w_id=$(id) && [ -n "$w_id" ] && [ "$w_id" != "$1" ] && {
			printf '%s\n' "$(since "$w_t")"
			return 0
		}
		sleep 0.5
	done
	fail "$2: no new boot within $3 s"
}

b0=$(id) || fail "no boot_id"
printf 'boot_id: %s\n' "$b0"

# kexec: loaded in the foreground, executed from a new session (setsid):
# dropbear ends the session's processes when the ssh connection closes,
# nohup alone is not enough.
rel=$BOX_DEFAULT
t=$(now)
on "kexec -l /boot/vmlinuz-$rel --initrd=/boot/initrd.img-$rel --append=\"\$(cat /proc/cmdline) panic=10 init_on_alloc=0\"" ||
	fail "kexec -l"
printf 'kexec -l: %s s\n' "$(since "$t")"
on 'setsid sh -c "sleep 1; kexec -e" >/dev/null 2>&1 </dev/null &'
s=$(wait_new "$b0" "kexec" 300)
b1=$(id)
printf 'kexec -e to ssh ready: %s s (1 s of it the sleep before kexec -e); boot_id %s\n' "$s" "$b1"
cmdline=$(on cat /proc/cmdline)
printf 'cmdline after kexec: %s\n' "$cmdline"
case $cmdline in
*"panic=10 init_on_alloc=0") ;;
*) fail "the append is not on the command line" ;;
esac

on 'setsid sh -c "sleep 1; reboot" >/dev/null 2>&1 </dev/null &'
s=$(wait_new "$b1" "reboot" 300)
b2=$(id)
cmdline=$(on cat /proc/cmdline)
printf 'reboot to ssh ready: %s s; cmdline: %s\n' "$s" "$cmdline"
case $cmdline in
*panic=10*) fail "reboot did not come back to the default kernel" ;;
esac

# a kernel whose root never comes: its initrd gives up, panic=5 reboots
on "kexec -l /boot/vmlinuz-$rel --initrd=/boot/initrd.img-$rel --append=\"console=ttyS0 root=/dev/vdz rw loglevel=5 panic=5\"" ||
	fail "kexec -l (bad root)"
on 'setsid sh -c "sleep 1; kexec -e" >/dev/null 2>&1 </dev/null &'
s=$(wait_new "$b2" "bad root" 600)
b3=$(id)
cmdline=$(on cat /proc/cmdline)
printf 'bad root= with panic=5, kexec -e to the default kernel ssh ready: %s s; cmdline: %s\n' "$s" "$cmdline"
grep 'box-initrd' "$dir/console.log" | sed 's/^/  console: /'

if [ -n "${MODULE:-}" ]; then
	t=$(now)
	ssh $BOX_SSH root@127.0.0.1 'cat >/tmp/m.ko' <"$MODULE" ||
		fail "copy $MODULE"
	on 'insmod /tmp/m.ko run_flags=1 && lsmod | grep bench' ||
		fail "insmod $MODULE"
	printf 'module copied in and insmod: %s s\n' "$(since "$t")"
fi
t=$(now)
sh "$box" stop "$dir" || fail "stop"
printf 'stop: %s s; QEMU left: %s\n' "$(since "$t")" \
	"$(kill -0 "$BOX_PID" 2>/dev/null && printf yes || printf no)"
printf 'boot_ids: %s %s %s %s\n' "$b0" "$b1" "$b2" "$b3"
