#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make box's and make box-check's refusals that need no box: bad
# variables (exit 2, one line, and ssh never called), and a box played by
# a stand-in ssh (exit 1 or 2, one line, and nothing asked of the box that
# changes it: no kexec, no reboot, no write).  The refusals that need a
# box that boots (tools/box/qemu-box.sh) are in doc/box.rst.  Prints
# KTAP.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/ktap_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
unset BENCH_BUILT BOX BOX_SSH BEFORE AFTER BEFORE_KDIR AFTER_KDIR BOOTS \
	LOADS_PER_BOOT CPU BOX_TUNE ARGS ALPHA OUT BEFORE_APPEND AFTER_APPEND \
	BOX_PANIC BOX_BOOT_LIMIT
REL=6.12.0-test-amd64

# The stand-in ssh: what it was asked goes to $dir/asked; it answers as
# FAKE says: down, refused, user (not root, no sudo), or a box whose
# facts are $dir/facts.
mkdir -p "$dir/bin"
cat >"$dir/bin/ssh" <<'EOF'
#!/bin/sh
for last; do :; done
case " $* " in *" -O exit "*) exit 0 ;; esac
printf '%s\n' "$last" >>"$FAKE_DIR/asked"
case $FAKE in
down) echo "ssh: connect to host box port 22: Connection refused" >&2; exit 255 ;;
refused) echo "root@box: Permission denied (publickey)." >&2; exit 255 ;;
esac
case $last in
'id -u') [ "$FAKE" = user ] && echo 1000 || echo 0; exit 0 ;;
'sudo -n true') echo "sudo: a password is required" >&2; exit 1 ;;
esac
script=$(cat)
printf '%s\n' "$script" >>"$FAKE_DIR/asked"
case $script in
*"printf 'release: %s"*) cat "$FAKE_DIR/facts" ;;
*idle0*) printf 'idle0: 0 100\nidle0: 1 100\nidle1: 0 200\nidle1: 1 200\nsiblings: 0 0\nsiblings: 1 1\n' ;;
*) exit 0 ;;
esac
EOF
chmod +x "$dir/bin/ssh"
export FAKE_DIR="$dir" PATH="$dir/bin:$PATH"

facts() {	# kexec installed-status headers
	printf '%s\n' "release: $REL" \
		'boot_id: 0f0e0d0c-0b0a-0908-0706-050403020100' \
		'cmdline: BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1 ro quiet' \
		'online: 0-1' 'present: 0-1' "kexec: $1" 'taskset: /usr/bin/taskset' \
		"installed: $REL $2 headers=$3" >"$dir/facts"
}

# The command exits with STATUS, says one line that matches PATTERN,
# and asked the box nothing that changes it (nothing at all when
# STATUS is 2 and no box was to be asked: ASKED=none).
refused() {	# description status pattern asked variable...
	desc=$1 want=$2 pattern=$3 asked=$4
	shift 4
	rm -rf "$dir/asked" "$dir/out"
	env "$@" OUT="$dir/out" sh "$TOP/tools/box/box.sh" "$MODE" \
		>"$dir/said" 2>&1
	rc=$?
	lines=$(grep -c . "$dir/said")
	ok=1
	[ $rc = "$want" ] && [ "$lines" = 1 ] &&
		grep -Eq -- "$pattern" "$dir/said" || ok=0
	# shellcheck disable=SC2016 # the box's words, not ours
	case $asked in
	none) [ ! -s "$dir/asked" ] || ok=0 ;;
	*) ! grep -Eq 'kexec -[le]|reboot|>/sys|>"\$f"|insmod' "$dir/asked" 2>/dev/null || ok=0 ;;
	esac
	[ ! -e "$dir/out" ] || ok=0
	if [ $ok = 1 ]; then
		ktap_test_pass "$desc"
	else
		ktap_print_msg "exit $rc, $lines line(s), want $want and one matching '$pattern', the box asked $asked:"
		sed 's/^/#   /' "$dir/said"
		[ ! -s "$dir/asked" ] || sed 's/^/#   asked: /' "$dir/asked" | head -n 5
		ktap_test_fail "$desc"
	fi
}


ktap_print_header
ktap_set_plan 27
MODE=box
export FAKE=box
facts /sbin/kexec ok yes
refused "make box: no BOX" 2 'needs BOX=' none BEFORE=$REL AFTER=$REL
refused "make box: BOX an ssh option" 2 'BOX=-oProxyCommand=x: accepted' none \
	BOX=-oProxyCommand=x BEFORE=$REL AFTER=$REL
refused "make box: BOX_SSH with a control byte" 2 'BOX_SSH: accepted: printable' none \
	BOX=box "BEFORE=$REL" "AFTER=$REL" "BOX_SSH=$(printf -- '-p\t22')"
refused "make box: no AFTER" 2 'needs BEFORE= and AFTER=' none BOX=box BEFORE=$REL
refused "make box: BEFORE a path" 2 'BEFORE=../x: accepted: a kernel release' none \
	BOX=box BEFORE=../x AFTER=$REL
refused "make box: BOOTS=1" 2 'BOOTS=1: a verdict on 21 row\(s\) at alpha 0.05 needs 6 boots' none \
	BOX=box "BEFORE=$REL" "AFTER=$REL" BOOTS=1
refused "make box: BOOTS=3 for one test" 2 'BOOTS=3: a verdict on 1 row\(s\) at alpha 0.05 needs 4 boots' none \
	BOX=box "BEFORE=$REL" "AFTER=$REL" BOOTS=3 ARGS=tests=tasklet_page_pool01_fast_path
refused "make box: BOOTS=4 for one test at alpha 0.01" 2 'BOOTS=4: a verdict on 1 row\(s\) at alpha 0.01 needs 5 boots' none \
	BOX=box "BEFORE=$REL" "AFTER=$REL" BOOTS=4 ALPHA=0.01 ARGS=tests=tasklet_page_pool01_fast_path
refused "make box: BOOTS=x" 2 'BOOTS=x: accepted: a whole number' none BOX=box "BEFORE=$REL" "AFTER=$REL" BOOTS=x
refused "make box: LOADS_PER_BOOT=0" 2 'LOADS_PER_BOOT=0: accepted' none BOX=box "BEFORE=$REL" "AFTER=$REL" LOADS_PER_BOOT=0
refused "make box: CPU=-1" 2 'CPU=-1: accepted: a whole number' none BOX=box "BEFORE=$REL" "AFTER=$REL" CPU=-1
refused "make box: BOX_TUNE=yes" 2 'BOX_TUNE=yes: accepted: 0 1' none BOX=box "BEFORE=$REL" "AFTER=$REL" BOX_TUNE=yes
refused "make box: ARGS not NAME=VALUE" 2 'ARGS=loops: accepted: NAME=VALUE' none BOX=box "BEFORE=$REL" "AFTER=$REL" ARGS=loops
refused "make box: ARGS' tests= naming no test" 2 'selects no test' none BOX=box "BEFORE=$REL" "AFTER=$REL" ARGS=tests=nosuch
refused "make box: ALPHA=2" 2 "ALPHA=2 \(bench-compare's --alpha\)" none BOX=box "BEFORE=$REL" "AFTER=$REL" ALPHA=2
refused "make box: BEFORE_KDIR no tree" 2 'BEFORE_KDIR=/nonexistent: accepted' none \
	BOX=box "BEFORE=$REL" "AFTER=$REL" BEFORE_KDIR=/nonexistent
refused "make box: BEFORE_APPEND with a newline" 2 'BEFORE_APPEND: accepted' none \
	BOX=box "BEFORE=$REL" "AFTER=$REL" "BEFORE_APPEND=$(printf 'a\nb')"
refused "make box: BOX_PANIC=0" 2 'BOX_PANIC=0: accepted' none BOX=box "BEFORE=$REL" "AFTER=$REL" BOX_PANIC=0
mkdir -p "$dir/full" && : >"$dir/full/x"
rm -rf "$dir/asked"
env BOX=box "BEFORE=$REL" "AFTER=$REL" OUT="$dir/full" sh "$TOP/tools/box/box.sh" box >"$dir/said" 2>&1
rc=$?
if [ $rc = 2 ] && [ "$(grep -c . "$dir/said")" = 1 ] &&
   grep -q 'not a new or empty folder' "$dir/said" && [ ! -s "$dir/asked" ]; then
	ktap_test_pass "make box: OUT not empty"
else
	sed 's/^/#   /' "$dir/said"
	ktap_test_fail "make box: OUT not empty"
fi
# a box: its refusals before any reboot
FAKE=down refused "make box: the box does not answer" 1 'does not answer: ssh: connect' asked BOX=box "BEFORE=$REL" "AFTER=$REL"
FAKE=refused refused "make box: the login refused" 1 'login refused' asked BOX=box "BEFORE=$REL" "AFTER=$REL"
FAKE=user refused "make box: not root, sudo -n refuses" 1 'sudo -n refuses' asked BOX=box "BEFORE=$REL" "AFTER=$REL"
facts none ok yes
refused "make box: no kexec on the box" 1 'has no kexec' asked BOX=box "BEFORE=$REL" "AFTER=$REL"
facts /sbin/kexec no-vmlinuz yes
refused "make box: a release not installed" 1 "BEFORE=$REL: not installed on the box \(no-vmlinuz" asked BOX=box "BEFORE=$REL" "AFTER=$REL"
facts /sbin/kexec ok no
refused "make box: no headers and no KDIR" 1 'no /lib/modules/.*/build and BEFORE_KDIR' asked BOX=box "BEFORE=$REL" "AFTER=$REL"
facts /sbin/kexec ok yes
refused "make box: a CPU the box lacks" 2 'CPU=7: the box has no such CPU online \(online: 0-1\)' asked BOX=box "BEFORE=$REL" "AFTER=$REL" CPU=7
MODE=check
FAKE=box refused "make box-check: no BOX" 2 'make box-check needs BOX=' none
ktap_finished
