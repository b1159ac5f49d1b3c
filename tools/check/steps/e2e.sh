# SPDX-License-Identifier: GPL-2.0
#
# make check's steps of the end-to-end scenarios (tools/e2e,
# doc/e2e.rst), sourced by tools/check/check.sh: make run E2E=1 on each
# kernel, the faults bench-e2e must name, and make ab's A/B by
# construction.  Each function is one step: 0 when it holds.

# Faults bench-e2e must report as failures, never as costs: an XDP
# program that cannot be attached, a pktgen that sends nothing, a veth
# that drops every packet before XDP, a host's source never asked for a
# packet (BENCH_E2E_FAULT), all in one guest of KERNEL after a short
# load, each on the scenarios it touches (FAULT@SCENARIO,...:REASON):
# exit 1, the reason named, and no row of a failed scenario; the
# results file stays whole.  With the host's source (-N), bench-e2e
# without -V must skip the scenario that needs it.  Counting
# instructions: the source's 30 s without a packet are jumped over by
# the idle guest's clock.
e2e_faults() {	# kernel -|-N fault[@scenario,...]:reason...
	use_kernel "$1"
	f_source=$2
	shift 2
	f_dir=$LOGDIR/e2e-faults-$KERNEL_RELEASE
	rm -rf "$f_dir" "$f_dir.guest"
	mkdir -p "$f_dir" || return 1
	e2e_modules "$f_dir" "$KERNEL_RELEASE" "$KDIR"
	f_bin=$(e2e_build) || return 1
	f_opts="-n 500 -r 1 -c 500" f_v=
	[ "$f_source" = - ] || f_v=" -V"
	{
		printf '. ./guest-lib.sh\nbench_load f tests=for_loop time_ms=5 || exit\n'
		printf 'while read -r m; do insmod "/bench/e2e-modules/$m.ko"; done </bench/e2e-modules/order\n'
		for f; do
			f_name=${f%%:*} f_only=
			case $f_name in
			*@*) f_only=" -s ${f_name#*@}" f_name=${f_name%%@*} ;;
			esac
			printf 'BENCH_E2E_FAULT=%s %s -m "$BENCH_OUT/f.results" -o "$BENCH_OUT/%s.results" %s\n' \
				"$f_name" "$E2E_GUEST_BIN" "$f_name" "$f_opts$f_only$f_v"
			printf 'echo "fault %s: exit $?"\n' "$f_name"
		done
		[ "$f_source" = - ] ||
			printf '%s -m "$BENCH_OUT/f.results" -o "$BENCH_OUT/no-V.results" %s\necho "no -V: exit $?"\n' \
				"$E2E_GUEST_BIN" "$f_opts -s virtio_net_rx_drop"
	} >"$f_dir/payload.sh"
	# one vCPU: one host thread, beside the other line's guests
	set -- "$@" -- -f "$f_bin" -D "$f_dir/e2e-modules" -s 1
	[ "$f_source" = - ] || set -- "$@" -N -i
	f_faults=
	while [ "$1" != -- ]; do
		f_faults="$f_faults$1$nl"
		shift
	done
	shift
	sh "$BENCH_TOP/tools/guest/guest.sh" -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" \
		-m "$MODS" -p "$f_dir/payload.sh" -o "$f_dir.guest" "$@" >&2 ||
		return 1
	ok=0
	IFS=$nl
	for f in $f_faults; do
		unset IFS
		f_name=${f%%:*}
		f_name=${f_name%%@*}
		r=$f_dir.guest/$f_name.results
		grep -qx "fault $f_name: exit 1" "$f_dir.guest/output.txt" &&
			results_check "$r" >&2 &&
			grep -q "^failed: name=.* reason=.*${f#*:}" "$r" || {
			say "BENCH_E2E_FAULT=$f_name: no exit 1, no whole file, or no failed: line naming '${f#*:}'"
			ok=1
		}
		for name in $(sed -n 's/^failed: name=\([^ ]*\) .*/\1/p' "$r"); do
			say "$f_name: $name: $(sed -n "s/^failed: name=$name reason=//p" "$r")"
			! grep -q "^test: name=$name " "$r" || {
				say "$f_name: $name failed, yet has a row"
				ok=1
			}
		done
	done
	unset IFS
	if [ "$f_source" != - ]; then
		r=$f_dir.guest/no-V.results
		grep -qx "no -V: exit 0" "$f_dir.guest/output.txt" &&
			results_check "$r" >&2 &&
			grep -q '^skip: name=virtio_net_rx_drop .*reason=no packet source' "$r" || {
			say "bench-e2e without -V: no exit 0, no whole file, or no skip of virtio_net_rx_drop for want of a packet source"
			ok=1
		}
	fi
	return $ok
}

# make run E2E=1 counting instructions on each kernel given: every
# scenario ran, or said why this kernel cannot run it; bench-e2e fails
# a scenario whose XDP program did not count every packet sent, and
# make run fails (the kselftest's -c) a scenario that took another path
# than its kernel's source gives.  On 7.2, which has every piece the
# scenarios need, none may skip; each scenario runs on some kernel.
e2e_check() {	# kernel...
	ok=0
	e_ran=
	e_names=$("$(e2e_build)" -L | cut -d' ' -f1) || return 1
	for k; do
		r=$LOGDIR/e2e-$k.results
		rm -f "$r"
		make -s -C "$BENCH_TOP" run KERNEL="$k" E2E=1 ICOUNT=1 \
			ARGS="tests=for_loop time_ms=5" RESULTS="$r" \
			>"$LOGDIR/e2e-$k.out" 2>&1 || {
			sed 's/^/  /' "$LOGDIR/e2e-$k.out" >&2
			ok=1
			continue
		}
		grep -E '^[a-z0-9_]+ +e2e |^[a-z0-9_]+ skipped: |^checks ' \
			"$LOGDIR/e2e-$k.out" >&2
		for name in $e_names; do
			path=$(results_field "$r" "$name" path)
			why=$(results_skip_reason "$r" "$name")
			if [ -n "$path" ] && [ "$path" != unknown ]; then
				e_ran="$e_ran $name"
				continue
			elif [ -n "$why" ] && [ "$k" != 7.2 ]; then
				continue
			fi
			say "$k: $name: no checked path${why:+ (skipped: $why)}"
			ok=1
		done
	done
	for name in $e_names; do
		case "$e_ran " in
		*" $name "*) ;;
		*) say "$name: ran on none of the kernels ($*)"; ok=1 ;;
		esac
	done
	return $ok
}

# The end-to-end scenarios by construction (doc/e2e.rst): make ab
# ICOUNT=1 PROFILE=1 E2E of the series' base kernel against its cold
# load, whose three instructions and the three of the commit before run
# once per page recycled into page_pool's cache.  Exact: the profile's
# instructions a packet in page_pool's own functions, the same on every
# load of a kernel (all 6 alike on each side in every run so far), must
# move by +6 within 0.05 where the path is the cache, by none within
# 0.1 on the ring and fragment paths.  The scenarios' figures, the
# work of the threads that carry the packets, are not exact: a load's
# cheapest repetition moves by one or two instructions a packet between
# loads of one kernel, for reasons doc/e2e.rst gives and leaves open
# (generic_xdp_drop's shift read +5.706 to +6.056 in 13 runs unprofiled
# at 250 packets a repetition, +5.602 to +7.113 in 7 profiled at 256,
# its interval at most 3.66 wide).  So
# the cache scenario's figure must say "change", nearer +6 than 3 and
# with an interval narrower than 6 (told apart from none and from two
# recycles a packet), the others "noise" or a shift within 1.5 (the
# ring scenario read -0.03 to -0.93, a guest's two loads sharing its
# offset).  Repetitions of 256 packets, whole batches of 64 for the
# ring's refills, 20 a load: one of 5000 packets held eight or nine
# ticks of about 4,500 instructions, one of 256 none most of the time.
# 4 rows (for_loop, the shortest load of the module, and 3 scenarios)
# at alpha 0.01 with Holm need 6 loads a side (2/C(12,6) = 0.0022 <
# 0.01/4): a false "change" has a chance of at most 1 in 100.  Two
# loads a guest, where make ab boots one a load with E2E: a guest's
# fixed cost is half of a one-load guest's 16 s.  The 1% treats the
# loads as independent, which a guest's two are not quite: approximate.
AB_E2E="ICOUNT=1 PROFILE=1 LOADS=6 LOADS_PER_GUEST=2 ALPHA=0.01 E2E=generic_xdp_drop,xdp_redirect_veth_drop,pktgen_veth_drop E2E_PACKETS=256 E2E_REPS=20"
AB_E2E_ARGS="tests=for_loop time_ms=1"

e2e_construction() {
	# shellcheck disable=SC2086
	make_ab e2e-six-insns BEFORE="$AB_BASE" \
		BEFORE_KDIR="$AB_KDIR" AFTER="$AB_SIX" \
		AFTER_KDIR="$AB_KDIR" $AB_E2E ARGS="$AB_E2E_ARGS" || return 1
	# judged at make ab's alpha, the one the false-alarm rate is of
	# shellcheck disable=SC2086 # the words of AB_E2E
	e_alpha=$(printf '%s\n' $AB_E2E | sed -n 's/^ALPHA=//p')
	"$BENCH_TOP/tools/compare/bench-compare" -f json --alpha "$e_alpha" \
		"$LOGDIR"/ab-e2e-six-insns/before-*.results -- \
		"$LOGDIR"/ab-e2e-six-insns/after-*.results >"$LOGDIR/ab-e2e-six-insns.json" &&
	python3 "$BENCH_TOP/tools/e2e/expect.py" --share 0.05:0.1 \
		"$LOGDIR/ab-e2e-six-insns.json" - 6 \
		"$LOGDIR"/ab-e2e-six-insns/before-*.results -- \
		"$LOGDIR"/ab-e2e-six-insns/after-*.results >&2
}
