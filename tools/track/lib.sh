# SPDX-License-Identifier: GPL-2.0
#
# Kernels of a developer's git tree, commit by commit, for make track
# and make bisect; sourced after lib.sh.  POSIX sh.
#
# The developer's tree is only read: its objects through a clone of our
# own ("git clone --shared", under $BENCH_CACHE/track/repos/KEY/src),
# whose work tree is checked out commit by commit and built out of tree
# (O=, .../build-CFGKEY): a commit that changes one file rebuilds that
# file and links again.  Their HEAD, branch, index, files and any bisect
# of theirs stay as they were.
#
# A kernel is tinyconfig, tests/track/small.config (what a guest
# and the module need, no checker) and CONFIG_FRAGMENT if given, cached
# in $BENCH_CACHE/track/kernels/TREEID-CFGKEY by the commit's tree id,
# the fragments and the compiler: bzImage, System.map, release, and the
# project's modules built against it in mods-PROJKEY.  A commit that
# does not build is kept as such (failed: its first error line).
#
#   track_repo TREE        checks TREE, sets TRACK_TOP, TRACK_SRC,
#                          TRACK_BUILD, TRACK_CFGKEY, TRACK_PROJKEY
#   track_clone            our clone of it, made once
#   track_commit REV       the full id of REV's commit, or nothing
#   track_kernel ID        the kernel of commit ID: TK_DIR, TK_IMAGE,
#                          TK_RELEASE, TK_MODS; 1 and TK_WHY if it does
#                          not build
#   track_loads DIR        LOADS loads of that kernel into DIR, in guests
#                          of LOADS_PER_GUEST (ARGS, E2E, GUEST_ARGS of
#                          choose_accel; payloads in OUT); 1 and T_WHY if
#                          it does not boot

TRACK_FRAGMENT=$BENCH_TOP/tests/track/small.config
TRACK_CACHE=$BENCH_CACHE/track
# Boots of a commit's guest before it counts as not booting.
TRACK_BOOTS=3

# The repository behind TREE, a clone of it and a build folder of ours.
track_repo() {	# tree
	[ -d "$1" ] || usage_die "TREE=$1: no such folder"
	TRACK_TOP=$(git -C "$1" rev-parse --show-toplevel 2>/dev/null) ||
		usage_die "TREE=$1: not a git work tree"
	[ -f "$TRACK_TOP/Kbuild" ] && [ -f "$TRACK_TOP/Makefile" ] &&
		[ -d "$TRACK_TOP/net/core" ] ||
		usage_die "TREE=$1: not a Linux kernel tree (no Kbuild, Makefile or net/core at $TRACK_TOP)"
	t_common=$(cd "$TRACK_TOP" &&
		   cd "$(git rev-parse --git-common-dir)" && pwd -P) ||
		usage_die "TREE=$1: cannot find its git directory"
	t_key=$(printf '%s' "$t_common" | md5sum | cut -c1-12)
	t_dir=$TRACK_CACHE/repos/$t_key
	TRACK_SRC=$t_dir/src
	[ -z "${CONFIG_FRAGMENT:-}" ] || [ -r "$CONFIG_FRAGMENT" ] ||
		usage_die "CONFIG_FRAGMENT=$CONFIG_FRAGMENT: cannot read it"
	# keyed by the options the fragments set, not their comments
	TRACK_CFGKEY=$({ cat "$TRACK_FRAGMENT" ${CONFIG_FRAGMENT:+"$CONFIG_FRAGMENT"} |
			   grep -E '^(CONFIG_|# CONFIG_[A-Z0-9_]+ is not set)'
			 gcc --version; } | md5sum | cut -c1-12)
	TRACK_BUILD=$t_dir/build-$TRACK_CFGKEY
	TRACK_PROJKEY=$({ for f in $(project_files module); do
				cat "$BENCH_TOP/$f"
			  done; gcc --version; } | md5sum | cut -c1-12)
	kbuild_path "$t_dir" ||
		die "BENCH_CACHE=$BENCH_CACHE: kbuild cannot build in a path with spaces, ':' or '%'"
	TRACK_COMMON=$t_common
}

# Our clone of the tree, made when a build first needs it.
track_clone() {
	[ -d "$TRACK_SRC/.git" ] && return 0
	mkdir -p "$(dirname "$TRACK_SRC")" || die "cannot create $(dirname "$TRACK_SRC")"
	cache_miss "cloning $TRACK_TOP into $TRACK_SRC (objects shared, read only)"
	rm -rf "$TRACK_SRC"
	git clone -q --shared --no-checkout "$TRACK_COMMON" "$TRACK_SRC" ||
		die "cannot clone $TRACK_COMMON into $TRACK_SRC"
}

# The full id of REV's commit in the developer's tree, or nothing.
track_commit() {	# rev
	case $1 in
	-* | '') return 1 ;;
	esac
	git -C "$TRACK_TOP" rev-parse --verify --quiet "$1^{commit}" 2>/dev/null
}

# What to add to "REV is no commit of TREE" when TREE is a shallow clone,
# whose history stops before the commit asked for.
track_shallow_hint() {
	[ "$(git -C "$TRACK_TOP" rev-parse --is-shallow-repository 2>/dev/null)" = true ] &&
		printf ' (a shallow clone: git -C %s fetch --unshallow)' "$TRACK_TOP"
}

# Text from a commit or a log, to a terminal: control characters but
# the newline made "?".
track_printable() {
	LC_ALL=C tr '\000-\011\013-\037\177' '?'
}

# One line of a commit: its subject made printable, at most 72
# characters: it reaches a terminal and the tables as text.
track_subject() {	# id
	git -C "$TRACK_TOP" log -1 --format=%s "$1" | track_printable |
		cut -c1-72
}

# An awk function of make track's table and make bisect: a function
# that moved, FUNCTION +I instructions[, loads +L]..., from the diffs of
# its counts; the kinds that did not move left out.
TRACK_MOVED_AWK='
function moved_text(fn, insns, loads, stores, atomics, l1d,    t) {
	t = sprintf("%s %+.3f instructions", fn, insns)
	if (loads + 0 != 0) t = t sprintf(", loads %+.3f", loads)
	if (stores + 0 != 0) t = t sprintf(", stores %+.3f", stores)
	if (atomics + 0 != 0) t = t sprintf(", atomics %+.3f", atomics)
	if (l1d + 0 != 0) t = t sprintf(", L1D misses %+.3f", l1d)
	return t
}'

# The first line of a build log that says what went wrong.
track_first_error() {	# log
	t_err=$(grep -m 1 -E '(error|Error|ERROR)[: ]|\*\*\* ' "$1" | cut -c1-200)
	printf '%s\n' "${t_err:-$(tail -n 1 "$1" | cut -c1-200)}"
}

# The build folder configured for the fragments, from the source as it
# is checked out: tinyconfig, the fragments, and every option they set
# kept (tiny_config_try), made afresh for each commit in a folder apart
# from the build's, so that a commit's kernel never depends on which
# commit was built before it (a Kconfig symbol new since then would take
# its default, not tinyconfig's "n"); copied into the build folder when
# it differs, where kbuild rebuilds what the changed options touch.
# What went wrong at the end of LOG.
track_configure() {	# log
	t_cfg=$(dirname "$TRACK_BUILD")/config-$TRACK_CFGKEY
	mkdir -p "$t_cfg" "$TRACK_BUILD" || die "cannot create $t_cfg"
	cat "$TRACK_FRAGMENT" ${CONFIG_FRAGMENT:+"$CONFIG_FRAGMENT"} \
		>"$t_cfg/fragment" || die "cannot write $t_cfg/fragment"
	if ! tiny_config_try "$TRACK_SRC" "$t_cfg" "$t_cfg/fragment" \
		"$t_cfg/config.log"; then
		cat "$t_cfg/config.log" >>"$1"
		printf 'error: %s\n' "$TINY_WHY" >>"$1"
		return 1
	fi
	cmp -s "$t_cfg/.config" "$TRACK_BUILD/.config" ||
		cp "$t_cfg/.config" "$TRACK_BUILD/.config" ||
		die "cannot write $TRACK_BUILD/.config"
}

# Checks out ID in our clone and builds it; the log in LOG.
track_build() {	# id log
	track_clone
	git -C "$TRACK_SRC" checkout -q -f --detach "$1" >"$2" 2>&1 ||
		return 1
	track_configure "$2" || return 1
	make -C "$TRACK_SRC" O="$TRACK_BUILD" -j"$(nproc)" bzImage modules \
		>>"$2" 2>&1
}

# The kernel of commit ID, from the cache or built: one build at a time
# per repository (the clone's work tree is shared).
track_kernel() {	# id
	t_tree=$(git -C "$TRACK_TOP" rev-parse "$1^{tree}") ||
		die "no tree for commit $1"
	TK_DIR=$TRACK_CACHE/kernels/$t_tree-$TRACK_CFGKEY
	TK_IMAGE=$TK_DIR/bzImage
	TK_MODS=$TK_DIR/mods-$TRACK_PROJKEY
	TK_WHY=
	track_failed && return 1
	if [ ! -f "$TK_IMAGE" ] || [ ! -f "$TK_MODS/bench_page_pool.ko" ]; then
		mkdir -p "$TK_DIR" "$(dirname "$TRACK_SRC")" ||
			die "cannot create $TK_DIR"
		(
			flock 9 || exit 1
			[ -f "$TK_IMAGE" ] && [ -f "$TK_MODS/bench_page_pool.ko" ] &&
				exit 0
			cache_miss "building $(git -C "$TRACK_TOP" log -1 --format=%h "$1") (tree $(printf '%.12s' "$t_tree"))"
			if ! track_build "$1" "$TK_DIR/build.log"; then
				track_first_error "$TK_DIR/build.log" >"$TK_DIR/failed"
				exit 0
			fi
			cp "$TRACK_BUILD/arch/x86/boot/bzImage" "$TK_IMAGE.tmp" &&
				cp "$TRACK_BUILD/System.map" "$TK_DIR/System.map" &&
				cp "$TRACK_BUILD/include/config/kernel.release" \
					"$TK_DIR/release" &&
				mv "$TK_IMAGE.tmp" "$TK_IMAGE" ||
				die "cannot keep the kernel in $TK_DIR"
			# The project's modules against this commit's tree: a
			# commit that changed an API they use fails here.
			copy_files "$TK_MODS" module
			make -C "$TK_MODS" -j"$(nproc)" KDIR="$TRACK_BUILD" \
				modules >"$TK_MODS/build.log" 2>&1 ||
				track_first_error "$TK_MODS/build.log" \
					>"$TK_MODS/failed"
		) 9>"$TRACK_CACHE/.lock-$(basename "$(dirname "$TRACK_SRC")")" ||
			die "building $1 failed"
		track_failed && return 1
	fi
	TK_RELEASE=$(cat "$TK_DIR/release")
}

# Whether the kernel of TK_DIR, or the modules against it, did not
# build; TK_WHY says why.
track_failed() {
	if [ -f "$TK_DIR/failed" ]; then
		TK_WHY="build failed: $(cat "$TK_DIR/failed")"
	elif [ -f "$TK_MODS/failed" ]; then
		TK_WHY="module build failed: $(cat "$TK_MODS/failed")"
	else
		return 1
	fi
}

# The payload of a guest of COUNT loads, load-1 .. load-COUNT.
track_payload() {	# count
	p_file=$OUT/payload-$1.sh
	if [ ! -f "$p_file" ]; then
		guest_payload "$p_file" load "$1" "$(quote_words "$ARGS")" ||
			die "cannot write $p_file"
	fi
	printf '%s\n' "$p_file"
}

# What a guest that failed to boot said: its first panic or oops line.
track_boot_why() {	# guest-out
	t_why=$(grep -m 1 -E 'Kernel panic|BUG:|Oops|general protection' \
		"$1/console.log" 2>/dev/null | tr -d '\r' |
		sed 's/^\[[^]]*\] //' | cut -c1-200)
	printf '%s\n' "${t_why:-no panic line: see $1/console.log}"
}

# COUNT loads from FIRST into DIR/load-NN.results, in one guest of the
# commit's kernel, booted again when it fails; 1 with T_WHY when every
# boot failed.
track_guest() {	# dir first count
	g_dir=$1 g_first=$2 g_count=$3
	g_syms=
	if [ "$PROFILE" = 1 ]; then
		profile_symbols "$TK_IMAGE" "$TK_RELEASE"
		g_syms=$PROFILE_SYMS
	fi
	g_boot=1
	while :; do
		g_run=$g_dir/guest-$g_first
		rm -rf "$g_run"
		set --
		# shellcheck disable=SC2086 # an option or none
		[ "$E2E" = 0 ] ||
			set -- -f "$E2E_BIN" -D "$OUT/e2e-modules" $E2E_GUEST
		guest_loads "$TK_IMAGE" "$TK_RELEASE" "$TK_MODS" \
			"$(track_payload "$g_count")" "$g_run" "$g_count" \
			"$g_syms" "$@"
		g_rc=$?
		if [ $g_rc = 0 ]; then
			g_l=1
			while [ $g_l -le "$g_count" ]; do
				cp "$g_run/load-$g_l.results" \
					"$g_dir/$(printf 'load-%02d' $((g_first + g_l - 1))).results" ||
					die "$g_run: no load-$g_l.results"
				g_l=$((g_l + 1))
			done
			return 0
		fi
		# The payload failed: the module does not load there.
		if [ $g_rc != 125 ]; then
			T_WHY="the module failed to load: $(grep -m 1 'bench_load' "$g_run/output.txt" | cut -c1-200)"
			return 1
		fi
		# The runner booted it three times and the kernel reported a
		# problem or fell silent before the payload each time
		# (console.boot1.log, console.boot2.log): the commit's, not
		# the machine's.
		if [ $g_boot -ge $TRACK_BOOTS ] ||
		   [ -f "$g_run/console.boot2.log" ]; then
			T_WHY="boot failed: $(track_boot_why "$g_run")"
			return 1
		fi
		say "$(basename "$g_dir"): the guest failed (log: $g_run); booting it again ($((g_boot + 1)) of $TRACK_BOOTS)"
		mv "$g_run" "$g_run.boot$g_boot"
		g_boot=$((g_boot + 1))
	done
}

# LOADS loads of the kernel of TK_* into DIR/load-NN.results.
track_loads() {	# dir
	# the scenarios' modules (veth, pktgen), where the fragments make
	# them modules: the release of the kernels is one
	[ "$E2E" = 0 ] || [ -d "$OUT/e2e-modules" ] ||
		e2e_modules "$OUT" "$TK_RELEASE" "$TRACK_BUILD"
	l_first=1
	while [ $l_first -le "$LOADS" ]; do
		l_count=$((LOADS - l_first + 1))
		[ $l_count -le "$LOADS_PER_GUEST" ] || l_count=$LOADS_PER_GUEST
		track_guest "$1" $l_first $l_count || return 1
		l_first=$((l_first + l_count))
	done
}
