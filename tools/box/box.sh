#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make box": an A/B of two kernels installed on a test box, over SSH,
# the boot as the unit; "make box-check": the box's state and
# what to change.
#
#   box.sh box     (make box)
#   box.sh check   (make box-check)
#
#   BOX          what ssh takes: host, user@host, a Host of ~/.ssh/config
#   BOX_SSH      more ssh options, word-split (-p PORT -i KEY -F FILE)
#   BEFORE, AFTER  kernel releases installed on the box (/boot/vmlinuz-REL,
#                /boot/initrd.img-REL, /lib/modules/REL)
#   BEFORE_APPEND, AFTER_APPEND  added to the box's own command line
#   BEFORE_KDIR, AFTER_KDIR  build the side's module on this host against
#                a prepared tree (or a series of KERNEL_CHOICES: Debian's
#                tree from the cache); without it, on the box against
#                /lib/modules/REL/build
#   BOOTS        boots a side (default and minimum: the fewest with which
#                bench-compare's rank test can say "change" at ALPHA over
#                the rows ARGS selects)
#   LOADS_PER_BOOT  loads in each boot (default 3)
#   CPU          the CPU the loads run on (default: not CPU 0, its SMT
#                sibling offline or idle; CPU 0 on a box of one CPU)
#   BOX_TUNE=1   the performance governor and EPP, boost off, THP
#                madvise, perf_event_max_sample_rate 1, IRQs off CPU, in
#                every boot; every setting saved first and written back
#   ARGS         module parameters (tests=... loops=...)
#   ALPHA        bench-compare's alpha (default: its own)
#   BOX_PANIC    panic=N on the boots' command line (default 10)
#   BOX_BOOT_LIMIT  seconds a boot may take to answer ssh (default 300)
#   OUT          a new or empty folder (default build/box-DATE)
#
# Every check is made before anything changes on the box: bad variables
# exit 2, a box that does not answer, refuses the login, gives no root,
# has no kexec or not the releases exit 1, each with one line.  The
# sides' boots are interleaved A B B A A B B A ...; each is entered with
# kexec and the box's own command line (read before the first boot;
# without BOOT_IMAGE=, initrd=, panic=) plus panic=N and the side's
# append.  At the end, on an error and on Ctrl-C, the box is given back:
# the kernel it ran with its command line, and its settings.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib kernel box

mode=${1:-}
case $mode in
box | check) ;;
*) usage_die "usage: $0 box|check (make box, make box-check)" ;;
esac

box_vars "$mode"
need_bench_compare
temp_dir BOX_WORK
BOX_CM=$BOX_WORK/cm

if [ "$mode" = check ]; then
	box_connect
	box_facts "$BOX_WORK/facts"
	box_pick_cpu "$BOX_WORK/cpus"
	box_state "$BOX_WORK/state" "$CPU"
	printf '%s\n' "# make box-check BOX=$BOX: $BOX_CPU_WHY"
	box_advice "$BOX_WORK/state"
	box_ssh_close
	exit 0
fi

# --- every check, before the box changes ------------------------------

[ -z "$ALPHA" ] || {
	b_err=$("$BENCH_COMPARE" --alpha "$ALPHA" --dry-run 2>&1) ||
		usage_die "ALPHA=$ALPHA (bench-compare's --alpha): $(printf '%s\n' "$b_err" | head -n 1)"
}
alpha=${ALPHA:-$(box_default_alpha)}
[ -n "$alpha" ] || die "cannot read bench-compare's default alpha from its --help"
rows=$(box_rows)
[ "$rows" -ge 1 ] ||
	usage_die "ARGS=$ARGS: its tests= selects no test of the module's table"
need=$(box_min_boots "$alpha" "$rows")
BOOTS=${BOOTS:-$need}
[ "$BOOTS" -ge "$need" ] ||
	usage_die "BOOTS=$BOOTS: a verdict on $rows row(s) at alpha $alpha needs $need boots a side or more (exact rank test: 2/C(2n,n) < alpha/rows)"

# A side's KDIR: a tree, or a series whose cached Debian tree is used.
for side in BEFORE AFTER; do
	eval "k=\$${side}_KDIR rel=\$$side"
	[ -n "$k" ] || continue
	case $k in
	6.12 | 6.1 | 6.1-rt | 7.2 | newest)
		KDIR=
		select_kernel "$k" "${side}_KDIR"
		;;
	*) KDIR=$(cd "$k" && pwd) ;;
	esac
	k_rel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$KDIR/include/generated/utsrelease.h")
	[ "$k_rel" = "$rel" ] ||
		usage_die "${side}_KDIR=$k: its tree is of $k_rel, not $side=$rel"
	eval "${side}_KDIR=\$KDIR"
done

box_connect
box_facts "$BOX_WORK/facts" "$BEFORE" "$AFTER"
BOX_ORIG_RELEASE=$BOX_RELEASE
BOX_ORIG_BOOT_ID=$BOX_BOOT_ID
box_check_box "$BOX_WORK/facts"
box_facts "$BOX_WORK/facts-orig" "$BOX_ORIG_RELEASE"
BOX_ORIG_INSTALLED=no
grep -q "^installed: $BOX_ORIG_RELEASE ok " "$BOX_WORK/facts-orig" &&
	BOX_ORIG_INSTALLED=yes
box_pick_cpu "$BOX_WORK/cpus"

# The modules: built here against a tree, or on the box (its boot now).
for side in BEFORE AFTER; do
	eval "k=\$${side}_KDIR rel=\$$side"
	if [ -n "$k" ]; then
		mod=$(box_build_host "$side" "$k") || exit 1
	else
		mod=$BOX_WORK/$side.ko
		box_build_on_box "$rel" "$mod"
	fi
	[ -f "$mod" ] || die "$side: no module built"
	eval "${side}_MODULE=\$mod"
	check_module_args ARGS "$(dirname "$mod")" "$ARGS"
done

mkdir -p "$OUT" || usage_die "OUT=$OUT: cannot create it"
OUT=$(cd "$OUT" && pwd)
cp "$BOX_WORK/facts" "$OUT/box-facts.txt"
box_state "$OUT/box-state.txt" "$CPU"
{
	printf '%s\n' "# make box BOX=$BOX before its first boot: $BOX_CPU_WHY"
	box_advice "$OUT/box-state.txt"
} >"$OUT/box-check.txt"
box_settings "$OUT/box-settings.txt"
printf '%s\n' "$BOX_CMDLINE" >"$OUT/box-cmdline.txt"
# what one ssh handshake costs (the first of each boot is one)
t0=$(box_now)
# shellcheck disable=SC2086
ssh $BOX_SSH -o BatchMode=yes -o ControlPath=none "$BOX" true </dev/null >/dev/null 2>&1
printf 'handshake: %s\n' "$(box_since "$t0")" >"$OUT/boots.txt"
say "box: $BOX runs $BOX_ORIG_RELEASE; $BOOTS boots a side of $LOADS_PER_BOOT loads on CPU $CPU ($BOX_CPU_WHY); OUT=$OUT"

# --- the boots ------------------------------------------------------

BOX_CURRENT_SAVED=
BOX_LAST_BOOT_ID=$BOX_BOOT_ID
BOX_GIVEN_BACK=$OUT/box-given-back.txt
box_stop() {	# status
	trap '' HUP INT TERM
	if [ -n "$bench_child" ]; then
		kill -TERM "$bench_child" 2>/dev/null
		wait "$bench_child" 2>/dev/null
		bench_child=
	fi
	say "box: interrupted: giving the box back"
	box_give_back "$OUT/box-settings.txt"
	bench_signal "$1"
}
trap 'box_stop 129' HUP
trap 'box_stop 130' INT
trap 'box_stop 143' TERM

# The order of the sides: A B B A, A B B A, ...
box_side() {	# index
	case $(($1 % 4)) in
	0 | 3) printf before ;;
	*) printf after ;;
	esac
}

failed=
over_total=0
boots_done=0
i=0
n_before=0 n_after=0
while [ $i -lt $((2 * BOOTS)) ]; do
	side=$(box_side $i)
	i=$((i + 1))
	if [ "$side" = before ]; then
		n_before=$((n_before + 1)); bb=$n_before
		rel=$BEFORE append=$BEFORE_APPEND mod=$BEFORE_MODULE
	else
		n_after=$((n_after + 1)); bb=$n_after
		rel=$AFTER append=$AFTER_APPEND mod=$AFTER_MODULE
	fi
	tag=$(printf '%s-%02d' "$side" "$bb")
	# make box's own seconds are the boot's, less the box's boot (from
	# kexec -e to ssh answering; it holds the poll's lag, 0.5 s at most,
	# and the first handshake, measured apart as handshake=) and the
	# loads (the ssh calls that ran insmod)
	t0=$(box_now)
	cmd=$(box_cmdline "$append")
	box_kexec "$rel" "$cmd"
	t_kexec=$(box_since "$t0")
	t1=$(box_now)
	got=$(box_wait_boot "$BOX_LAST_BOOT_ID" "$BOX_BOOT_LIMIT") || {
		failed="$side boot $bb ($rel) did not answer within ${BOX_BOOT_LIMIT}s"
		say "error: $failed; waiting for the box's default kernel"
		got=$(box_wait_boot "$BOX_LAST_BOOT_ID" "$BOX_BOOT_LIMIT") ||
			{ say "error: the box does not answer: it is not given back"; exit 1; }
		BOX_LAST_BOOT_ID=${got%% *}
		break
	}
	t_boot=$(box_since "$t1")
	BOX_LAST_BOOT_ID=${got%% *}
	[ "${got#* }" = "$rel" ] || {
		failed="$side boot $bb: the box came back on ${got#* }, not $rel (the kernel failed: panic=$BOX_PANIC, or its initramfs, rebooted into the default)"
		say "error: $failed"
		break
	}
	# the release alone cannot tell a kernel that failed and the default
	# that came back in its place: the command line can
	t1=$(box_now)
	got_cmd=$(box_ssh 'cat /proc/cmdline' </dev/null 2>/dev/null | tr -cd ' -~')
	[ "${got_cmd% }" = "$cmd" ] || {
		failed="$side boot $bb ($rel) did not come up: the box came back with another command line (its default kernel: the kernel failed and panic=$BOX_PANIC or its initramfs rebooted it): $(printf '%s' "$got_cmd" | cut -c1-200)"
		say "error: $failed"
		break
	}
	boot_id=${got%% *}
	t_check=$(box_since "$t1")
	t1=$(box_now)
	if [ "$BOX_TUNE" = 1 ]; then
		BOX_CURRENT_SAVED=$OUT/$tag.saved
		box_settings "$BOX_CURRENT_SAVED"
		box_tune "$BOX_CURRENT_SAVED" "$CPU" "$BOX_ONLINE" >"$OUT/$tag.tuned"
	fi
	t_tune=$(box_since "$t1")
	t1=$(box_now)
	box_state "$OUT/$tag.state" "$CPU"
	t_state=$(box_since "$t1")
	t1=$(box_now)
	box_module_in "$mod" </dev/null || die "$tag: cannot copy the module into the box"
	t_copy=$(box_since "$t1")
	loads=0 t_results=0
	l=1
	while [ $l -le "$LOADS_PER_BOOT" ]; do
		f=$(printf '%s/%s-%02d.results' "$OUT" "$tag" "$l")
		t2=$(box_now)
		box_load "$f" "$CPU"
		rc=$?
		if [ $rc = 255 ]; then
			say "box: $tag load $l: the connection was lost; measuring it again, once"
			box_ssh_close
			now=$(box_wait_boot none 60) && [ "${now%% *}" = "$boot_id" ] ||
				die "$tag load $l: the box is not on the boot it was ($boot_id)"
			box_load "$f" "$CPU"
			rc=$?
		fi
		loads=$(box_add "$loads" "$(box_since "$t2")")
		[ $rc = 0 ] ||
			die "$tag load $l failed (exit $rc): $(tail -n 1 "$f.err" | tr -cd ' -~')"
		t1=$(box_now)
		box_check_results "$f" "$boot_id" "$CPU" || exit 1
		printf '%s\n' "$boot_id" >"${f%.results}.boot_id"
		t_results=$(box_add "$t_results" "$(box_since "$t1")")
		l=$((l + 1))
	done
	# the tuned settings are not written back before the next kexec,
	# which resets them: the give-back writes those of the first boot
	over=$(awk -v a="$t0" -v b="$(box_now)" -v u="$t_boot" -v l="$loads" \
		'BEGIN { printf "%.2f", b - a - u - l }')
	printf 'boot: %s release=%s boot_id=%s boot=%s loads=%s make_box=%s kexec_l=%s cmdline=%s tune=%s state=%s copy=%s results=%s\n' \
		"$tag" "$rel" "$boot_id" "$t_boot" "$loads" "$over" "$t_kexec" \
		"$t_check" "$t_tune" "$t_state" "$t_copy" "$t_results" \
		>>"$OUT/boots.txt"
	say "box: $tag on $rel: the box's boot $t_boot s, loads $loads s, make box's own $over s"
	over_total=$(awk -v a="$over_total" -v b="$over" 'BEGIN { print a + b }')
	boots_done=$((boots_done + 1))
done

trap 'bench_signal 129' HUP
trap 'box_stop 130' INT
trap 'box_stop 143' TERM
box_give_back "$OUT/box-settings.txt" || exit 1
trap 'bench_signal 129' HUP
trap 'bench_signal 130' INT
trap 'bench_signal 143' TERM

# --- the verdict --------------------------------------------------------

[ "$boots_done" = 0 ] ||
	say "box: make box's own time: $(awk -v t="$over_total" -v n="$boots_done" 'BEGIN { printf "%.2f", t / n }') s a boot on average over $boots_done boots, and in each boot's wait one ssh handshake of $(sed -n 's/^handshake: //p' "$OUT/boots.txt") s (boots.txt)"
set -- "$OUT"/before-*.results
[ -f "$1" ] || die "${failed:-no load of the before side}"
[ -f "$OUT/after-01-01.results" ] || die "${failed:-no load of the after side}"
set -- "$@" -- "$OUT"/after-*.results
[ -z "$ALPHA" ] || set -- --alpha "$ALPHA" "$@"
"$BENCH_COMPARE" -f json "$@" >"$OUT/compare.json"
! command -v gnuplot >/dev/null 2>&1 || set -- --plot "$OUT/compare.svg" "$@"
"$BENCH_COMPARE" "$@" >"$OUT/compare.txt"
rc=$?
cat "$OUT/compare.txt"
[ -z "$failed" ] || die "$failed (the loads before it are in $OUT)"
exit $rc
