# SPDX-License-Identifier: GPL-2.0
#
# The end-to-end scenarios' variables and builds (tools/e2e,
# doc/e2e.rst) for make run and make ab; sourced through bench_lib
# (tools/lib.sh), not run.  POSIX sh.  Owns: E2E, E2E_PACKETS and
# E2E_REPS checked, bench-e2e built static, the scenarios' modules
# built and shipped to the guest.
bench_lib kernel

# The end-to-end scenarios (tools/e2e, doc/e2e.rst) after the module's
# tests, in make run and make ab.  E2E: 0 (none), 1 (all) or scenario
# names separated by commas; E2E_PACKETS and E2E_REPS: packets per
# timed repetition and repetitions.  Counting instructions a scenario's
# figure moves by a few hundredths of an instruction per packet between
# repetitions at 5000 packets, so that many suffice.
E2E_DEFAULT_PACKETS=5000
E2E_DEFAULT_REPS=3
# Where guests find bench-e2e (static): shipped with guest.sh -f into
# /bench, never at its host path, which the guest's /tmp may hide.
E2E_GUEST_BIN=/bench/bench-e2e
E2E_MAX_PACKETS=100000000
E2E_MAX_REPS=100

# Checks the variables, builds bench-e2e; sets E2E_BIN, E2E_OPTS (its
# options in the guest, quoted for sh) and E2E_GUEST (guest.sh's options
# the scenarios add: -N, the host's packet source, for
# virtio_net_rx_drop).  Call after check_instrument.
e2e_vars() {
	E2E=${E2E:-0}
	E2E_PACKETS=${E2E_PACKETS:-$E2E_DEFAULT_PACKETS}
	E2E_REPS=${E2E_REPS:-$E2E_DEFAULT_REPS}
	E2E_BIN= E2E_OPTS= E2E_GUEST=
	check_whole E2E_PACKETS "$E2E_PACKETS" 1
	[ "${#E2E_PACKETS}" -le 9 ] && [ "$E2E_PACKETS" -le $E2E_MAX_PACKETS ] ||
		usage_die "E2E_PACKETS=$E2E_PACKETS: accepted: a whole number from 1 to $E2E_MAX_PACKETS"
	check_whole E2E_REPS "$E2E_REPS" 1
	[ "${#E2E_REPS}" -le 3 ] && [ "$E2E_REPS" -le $E2E_MAX_REPS ] ||
		usage_die "E2E_REPS=$E2E_REPS: accepted: a whole number from 1 to $E2E_MAX_REPS"
	[ "$E2E" != 0 ] || return 0
	E2E_BIN=$(e2e_build) || exit 1
	e_names=$("$E2E_BIN" -L | cut -d' ' -f1)
	E2E_OPTS="-n $E2E_PACKETS -r $E2E_REPS"
	case ,$E2E, in
	,1, | *,virtio_net_rx_drop,*) E2E_GUEST=-N ;;
	esac
	[ "$E2E" = 1 ] && return 0
	case $E2E in
	'' | ,* | *, | *,,* | *[!a-z0-9_,]*) e_bad=1 ;;
	*) e_bad= ;;
	esac
	if [ -z "$e_bad" ]; then
		for e_name in $(printf '%s' "$E2E" | tr ',' ' '); do
			printf '%s\n' "$e_names" | grep -qx "$e_name" || e_bad=1
		done
	fi
	[ -z "$e_bad" ] ||
		usage_die "E2E=$E2E: accepted: 0, 1, or scenario names separated by commas:" $e_names
	E2E_OPTS="$E2E_OPTS -s $E2E"
}

# Builds bench-e2e (static) and prints its path, in a folder kbuild-safe
# like the modules', replaced whole: another command's guest may be
# reading it.
e2e_build() {
	e_dir=$(module_build_dir e2e) || exit 1
	need_packages make gcc libc6-dev
	mkdir -p "$e_dir" || die "cannot create $e_dir"
	make -s -C "$BENCH_TOP/tools/e2e" >&2 || die "cannot build tools/e2e"
	cmp -s "$BENCH_TOP/tools/e2e/bench-e2e" "$e_dir/bench-e2e" || {
		cp "$BENCH_TOP/tools/e2e/bench-e2e" "$e_dir/bench-e2e.$$" &&
			mv -f "$e_dir/bench-e2e.$$" "$e_dir/bench-e2e"
	} || die "cannot copy bench-e2e to $e_dir"
	printf '%s\n' "$e_dir/bench-e2e"
}

# The kernel modules the scenarios need (veth, pktgen, virtio_pci and
# virtio_net) and those they depend on (modinfo), for RELEASE, from its
# unpacked Debian packages or its built tree KDIR, uncompressed into
# DIR/e2e-modules for the guest's /bench, with the order to load them
# in (a module after those it depends on) in its file "order".  A
# kernel that has them built in, or not at all, gets none: bench-e2e
# says which scenarios skip.
e2e_modules() {	# dir release kdir
	need_packages kmod xz-utils
	e_kernel=$BENCH_CACHE/kernels/$2
	mkdir -p "$1/e2e-modules" || die "cannot create $1/e2e-modules"
	# Debian unstable ships the modules apart from its image
	if [ -f "$e_kernel/image/usr/lib/modules/$2/vmlinuz" ] &&
	   [ ! -d "$e_kernel/image/usr/lib/modules/$2/kernel" ]; then
		APT_TOOL=unstable_apt
		unpack_packages "$e_kernel/modules" "linux-modules-$2"
		APT_TOOL=
	fi
	: >"$1/e2e-modules/order" || die "cannot write $1/e2e-modules/order"
	e_added=
	for e_mod in veth pktgen virtio_pci virtio_net; do
		e2e_module_add "$1/e2e-modules" "$2" "$3" "$e_mod"
	done
}

# Adds module NAME to OUT after the modules it depends on.
e2e_module_add() {	# out release kdir name
	case "$e_added " in *" $4 "*) return 0 ;; esac
	e_added="$e_added $4"
	set -- "$@" "$(e2e_module_file "$2" "$3" "$4")"
	[ -n "$5" ] || return 0
	for e_dep in $(modinfo -F depends "$5" | tr ',' ' '); do
		e2e_module_add "$1" "$2" "$3" "$e_dep"
	done
	case $5 in
	*.xz) xz -dc "$5" >"$1/$4.ko" || die "cannot uncompress $5" ;;
	*) cp "$5" "$1/$4.ko" || die "cannot copy $5" ;;
	esac
	printf '%s\n' "$4" >>"$1/order"
}

# The file of module NAME for RELEASE, or nothing.
e2e_module_file() {	# release kdir name
	for f_tree in "$BENCH_CACHE/kernels/$1/image/lib/modules/$1/kernel" \
		"$BENCH_CACHE/kernels/$1/image/usr/lib/modules/$1/kernel" \
		"$BENCH_CACHE/kernels/$1/modules/usr/lib/modules/$1/kernel" "$2"; do
		[ -n "$f_tree" ] && [ -d "$f_tree" ] || continue
		f_file=$(find "$f_tree" \( -name "$3.ko" -o -name "$3.ko.xz" \) \
			-print 2>/dev/null | head -n 1)
		[ -z "$f_file" ] || { printf '%s\n' "$f_file"; return; }
	done
}
