#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2015,SC2154 # "A && B || die" as in tools/; nl,
# i_dir, i_work set by lib.sh's temp_dir, k_root by eval
#
# A test box in QEMU, for make box to be proved without one:
# a small Linux machine with an SSH server and kexec, reached on
# 127.0.0.1 only, that boots its default kernel at every reset.
#
#   qemu-box.sh image [-k SERIES]...
#       Builds (or finds in the cache) the box's disk image and prints
#       its folder.  Cached in $BENCH_CACHE/box/<key>, the key a hash of
#       everything it is made of: this script up to its running part,
#       the versions of the packages copied in, the kernels' packages,
#       the keys.
#   qemu-box.sh start [-k SERIES]... [-p PORT] [-i] [-d DIR] [-t SECONDS]
#       Boots the box in the background and waits until ssh answers.
#       Prints sh assignments (eval "$(qemu-box.sh start)"): BOX_DIR,
#       BOX_PORT, BOX_PID, BOX_KEY, BOX_SSH (ssh's options as one line),
#       BOX_SSH_CONFIG (a file for ssh -F; its host is "box"), BOX_BOOT_ID,
#       BOX_DEFAULT (the default kernel's release), BOX_RELEASES,
#       BOX_READY_SECONDS.  DIR/box.env holds the same.
#   qemu-box.sh ssh DIR [COMMAND...]
#       ssh into the box as root.
#   qemu-box.sh stop DIR
#       Powers the box off (poweroff over ssh), kills QEMU if it is
#       still there after a while, removes the overlay.  Nothing keeps
#       running.
#
#   -k SERIES   a kernel of the box: 6.12 (Debian 12's) or 7.2 (Debian
#               unstable's), repeatable; the first
#               is the default kernel (default: -k 6.12 -k 7.2)
#   -p PORT     the host port forwarded to the box's port 22 (default: a
#               free one); always on 127.0.0.1
#   -i          count instructions: -icount shift=0,sleep=off (and
#               noapictimer on the command line, as tools/guest.sh does)
#   -d DIR      the run's folder (default: a new one in TMPDIR): pid
#               file, console log, the disk's overlay, box.env, ssh_config
#   -t SECONDS  how long start waits for ssh (default: 300)
#
# The box: busybox-static as its userland and init, Debian's dropbear
# (root, by key only; the key pair and a persistent host key live in
# $BENCH_CACHE/box/keys), kexec-tools' kexec, and each kernel as a
# Debian box has it: /boot/vmlinuz-REL, /boot/initrd.img-REL,
# /boot/config-REL, /lib/modules/REL.  Each initrd is a busybox one that
# loads virtio_blk and ext4, mounts root= and switch_roots to /sbin/init;
# when it cannot, and panic=N is on the command line, it reboots after
# N s, as Debian's initramfs-tools does.  A reboot, or a panic with
# panic=N, resets the machine and QEMU boots the default kernel again
# (-kernel/-initrd/-append), as a real box boots its default.  The disk
# is a qcow2 overlay on the cached image, which is never written.  The
# box's init prints "box-ready RELEASE BOOT_ID" on the console
# (DIR/console.log) when its SSH server runs.  Run it as root: the
# image's files are owned by whoever builds it.
#
# What it proves: make box's path (ssh, kexec between installed kernels
# with the box's command line plus an append, the boot as the unit,
# boot_id, reboot and panic back to the default, modules copied in over
# ssh: dropbear has no scp server, so `ssh box 'cat >F' <F`).  Its
# limits: under TCG there is no PMU, no CPU frequency, boost, governor,
# C-state or thermal behaviour, and timing is emulation's (doc/box.rst
# has the figures measured).
set -u
# shellcheck source=/dev/null
. "$(dirname "$0")/../lib.sh"
bench_lib kernel

usage() {
	say "usage: $0 image [-k SERIES]... | start [-k SERIES]... [-p PORT] [-i] [-d DIR] [-t SECONDS] | ssh DIR [COMMAND...] | stop DIR"
	exit 2
}

BOX_CACHE=$BENCH_CACHE/box
# The user-mode network's fixed addresses (QEMU's defaults).
BOX_ADDR=10.0.2.15/24
BOX_GATEWAY=10.0.2.2
SSH_BASE="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes -o IdentitiesOnly=yes"

# --- the kernels -----------------------------------------------------

# Sets K_REL and K_ROOT (a folder with the kernel's boot/ or usr/lib/
# and lib/modules/) for a series, unpacked into the cache.  A kernel
# make check already unpacked (BENCH_CACHE/kernels/REL/image) is used
# as it is; otherwise the box unpacks its own copy, so that it never
# races another command's unpacking.
box_kernel() {	# series
	case $1 in
	6.12)
		k_pkg=$(resolve_meta linux-image-6.12-amd64) || exit 1
		K_REL=${k_pkg#linux-image-}
		k_pkgs=$k_pkg
		# shellcheck disable=SC2034
		APT_TOOL=
		;;
	7.2)
		unstable_update
		K_REL=$(unstable_release 7.2 -k) || exit 1
		# 7.2's image is split: vmlinuz, modules, config
		k_pkgs="linux-binary-$K_REL linux-modules-$K_REL linux-base-$K_REL"
		# shellcheck disable=SC2034 # read by the library's apt calls
		APT_TOOL=unstable_apt
		;;
	*) usage_die "-k $1: accepted: 6.12, 7.2" ;;
	esac
	K_KEY=
	for k_p in $k_pkgs; do
		K_KEY="$K_KEY${K_KEY:+ }$k_p=$(package_version "$k_p")"
	done
	K_ROOT=$BENCH_CACHE/kernels/$K_REL/image
	if [ "$(cat "$K_ROOT/.unpacked" 2>/dev/null)" != "$K_KEY" ]; then
		K_ROOT=$BOX_CACHE/kernels/$K_REL
		# shellcheck disable=SC2086
		unpack_packages "$K_ROOT" $k_pkgs
	fi
	# shellcheck disable=SC2034
	APT_TOOL=
	box_kernel_paths "$K_ROOT" "$K_REL"
	[ -f "$K_VMLINUZ" ] || die "$k_pkgs: no vmlinuz in $K_ROOT"
	[ -d "$K_MODULES/kernel" ] || die "$k_pkgs: no modules in $K_ROOT"
}

# --- the keys --------------------------------------------------------

# The client's key pair and the box's host key, made once and kept:
# a new image keeps the old keys.
box_keys() {
	BOX_KEY=$BOX_CACHE/keys/id_ed25519
	BOX_HOSTKEY=$BOX_CACHE/keys/dropbear_ed25519_host_key
	mkdir -p "$BOX_CACHE/keys" && chmod 700 "$BOX_CACHE/keys" ||
		die "cannot create $BOX_CACHE/keys"
	[ -f "$BOX_KEY" ] && [ -f "$BOX_KEY.pub" ] ||
		ssh-keygen -q -t ed25519 -N '' -C bench-box -f "$BOX_KEY" </dev/null >&2 ||
		die "ssh-keygen failed"
	[ -f "$BOX_HOSTKEY" ] ||
		dropbearkey -t ed25519 -f "$BOX_HOSTKEY" >/dev/null 2>&1 ||
		die "dropbearkey failed"
}

# --- the image -------------------------------------------------------

# Copies a program and the shared libraries ldd names for it into the
# root, at the same paths.
copy_program() {	# root program [path in root]
	c_to=$1${3:-$2}
	mkdir -p "$(dirname "$c_to")" && cp -L "$2" "$c_to" ||
		die "cannot copy $2"
	for c_lib in $(ldd "$2" | grep -o '/[^ ]*'); do
		[ -f "$1$c_lib" ] && continue
		mkdir -p "$1$(dirname "$c_lib")" && cp -L "$c_lib" "$1$c_lib" ||
			die "cannot copy $c_lib"
	done
}

# The modules (and what they depend on) that kmod's modprobe would load,
# in order, as paths under the root; built-in ones are left out.
module_paths() {	# root release module...
	m_root=$1 m_rel=$2
	shift 2
	for m in "$@"; do
		modprobe -d "$m_root" -S "$m_rel" --show-depends "$m" 2>/dev/null
	done | sed -n "s|^insmod $m_root\\(/[^ ]*\\).*|\\1|p" | awk '!seen[$0]++'
}

# The initrd of a release: busybox, the modules its root needs
# (uncompressed, with their modules.dep for busybox's modprobe) and
# /init.  Written to FILE.
make_initrd() {	# root release file
	temp_dir i_dir
	mkdir -p "$i_dir/bin" "$i_dir/sbin" "$i_dir/lib/modules/$2"
	cp /bin/busybox "$i_dir/bin/busybox"
	# ext4 asks the crypto API for crc32c when it mounts, through
	# modprobe: its modules go in too.
	for m_path in $(module_paths "$1" "$2" virtio_pci virtio_blk ext4 \
			crc32c_generic crc32c-intel); do
		m_to=$i_dir${m_path%.xz}
		m_to=${m_to%.zst}
		mkdir -p "$(dirname "$m_to")"
		case $m_path in
		*.xz) xz -dc "$1$m_path" >"$m_to" ;;
		*.zst) zstd -q -dc "$1$m_path" >"$m_to" ;;
		*) cp "$1$m_path" "$m_to" ;;
		esac || die "cannot copy $m_path into the initrd"
		printf '%s\n' "$(basename "$m_to" .ko)" >>"$i_dir/modules"
	done
	touch "$i_dir/modules"
	cp "$1/lib/modules/$2/modules.builtin" "$1/lib/modules/$2/modules.order" \
		"$1/lib/modules/$2/modules.builtin.modinfo" \
		"$i_dir/lib/modules/$2/" 2>/dev/null
	depmod -b "$i_dir" "$2" || die "depmod of the initrd of $2 failed"
	cat >"$i_dir/init" <<'EOF'
#!/bin/busybox sh
# The box's initramfs: loads what the root needs, mounts root= and hands
# over to its init; when it cannot and panic=N is set, it reboots after
# N s, so the box comes back to its default kernel.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mkdir -p /proc /sys /dev /root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
ln -s /bin/busybox /sbin/modprobe
root= panic= mode=ro init=/sbin/init rootdelay=10
for arg in $(cat /proc/cmdline); do
	case $arg in
	root=*) root=${arg#root=} ;;
	panic=*) panic=${arg#panic=} ;;
	rootdelay=*) rootdelay=${arg#rootdelay=} ;;
	init=*) init=${arg#init=} ;;
	rw) mode=rw ;;
	ro) mode=ro ;;
	esac
done
fail() {
	echo "box-initrd: $*" >/dev/console
	case $panic in
	'' | 0) echo "box-initrd: no panic=N on the command line: a shell" >/dev/console
		exec sh </dev/console >/dev/console 2>&1 ;;
	-*) panic=0 ;;
	esac
	echo "box-initrd: rebooting in $panic s (panic=$panic)" >/dev/console
	sleep "$panic"
	reboot -f
}
while read -r m; do
	modprobe "$m" 2>/dev/null
done </modules
[ -n "$root" ] || fail "no root= on the command line"
waited=0
while [ ! -b "$root" ]; do
	[ "$waited" -lt $((rootdelay * 10)) ] ||
		fail "gave up waiting for root device $root after ${rootdelay}s"
	sleep 0.1
	waited=$((waited + 1))
done
mount -t ext4 -o "$mode" "$root" /root || fail "cannot mount $root"
[ -x "/root$init" ] || [ -L "/root$init" ] || fail "no $init on $root"
umount /proc /sys
mount --move /dev /root/dev
exec switch_root /root "$init"
EOF
	chmod +x "$i_dir/init"
	(cd "$i_dir" && find . | cpio -o -H newc --quiet | gzip -9) >"$3" ||
		die "cannot pack the initrd of $2"
	rm -rf "$i_dir"
}

# Fills the box's root folder.
make_root() {	# root release...
	r=$1
	shift
	mkdir -p "$r/bin" "$r/sbin" "$r/usr/bin" "$r/usr/sbin" "$r/etc/init.d" \
		"$r/etc/dropbear" "$r/etc/box" "$r/root/.ssh" "$r/boot" \
		"$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r/run" "$r/var/log" \
		"$r/mnt" "$r/lib/modules"
	ln -s /run "$r/var/run"
	chmod 1777 "$r/tmp"
	chmod 700 "$r/root" "$r/root/.ssh"
	cp /bin/busybox "$r/bin/busybox"
	for a in $(busybox --list-full); do
		[ -e "$r/$a" ] || [ "$a" = bin/busybox ] ||
			ln -s /bin/busybox "$r/$a"
	done
	copy_program "$r" "$(command -v dropbear)" /usr/sbin/dropbear
	copy_program "$r" "$(command -v dropbearkey)" /usr/bin/dropbearkey
	copy_program "$r" "$KEXEC" /sbin/kexec
	cp "$BOX_HOSTKEY" "$r/etc/dropbear/dropbear_ed25519_host_key"
	cp "$BOX_KEY.pub" "$r/root/.ssh/authorized_keys"
	chmod 600 "$r/root/.ssh/authorized_keys" \
		"$r/etc/dropbear/dropbear_ed25519_host_key"
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
		'sshd:x:100:65534::/run/sshd:/usr/sbin/nologin' >"$r/etc/passwd"
	printf '%s\n' 'root:*:19000:0:99999:7:::' 'sshd:*:19000:0:99999:7:::' \
		>"$r/etc/shadow"
	chmod 600 "$r/etc/shadow"
	printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$r/etc/group"
	printf '%s\n' /bin/sh >"$r/etc/shells"
	printf '%s\n' box >"$r/etc/hostname"
	printf '%s\n' '127.0.0.1 localhost' '127.0.1.1 box' >"$r/etc/hosts"
	printf '%s\n' '/dev/vda / ext4 rw 0 1' >"$r/etc/fstab"
	cat >"$r/etc/inittab" <<'EOF'
::sysinit:/etc/init.d/rcS
::ctrlaltdel:/sbin/reboot
::shutdown:/bin/sh -c 'killall dropbear; sync; umount -a -r; mount -o remount,ro /'
EOF
	cat >"$r/etc/init.d/rcS" <<EOF
#!/bin/sh
# The box's start: file systems, the virtio NIC with QEMU user
# networking's static address, dropbear; then one line on the console.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
grep -q ' /dev ' /proc/mounts || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
mount -o remount,rw /
hostname -F /etc/hostname
rel=\$(uname -r)
# modules.dep's files are compressed; busybox's insmod takes them plain
while read -r m; do
	case \$m in
	*.xz) xz -dc "\$m" >/tmp/.m.ko && insmod /tmp/.m.ko ;;
	*) insmod "\$m" ;;
	esac
done <"/etc/box/net-modules-\$rel" 2>/dev/null
rm -f /tmp/.m.ko
ip link set lo up
ip link set eth0 up
ip addr add $BOX_ADDR dev eth0
ip route add default via $BOX_GATEWAY
dropbear -s -p 22 -r /etc/dropbear/dropbear_ed25519_host_key -P /run/dropbear.pid
echo "box-ready \$rel \$(cat /proc/sys/kernel/random/boot_id)" >/dev/console
EOF
	chmod +x "$r/etc/init.d/rcS"
	for rel in "$@"; do
		eval "k_root=\$K_ROOT_$(release_var "$rel")"
		box_kernel_paths "$k_root" "$rel"
		cp "$K_VMLINUZ" "$r/boot/vmlinuz-$rel" ||
			die "cannot copy the kernel $rel"
		[ ! -f "$K_CONFIG" ] || cp "$K_CONFIG" "$r/boot/config-$rel"
		cp -a "$K_MODULES" "$r/lib/modules/$rel" ||
			die "cannot copy the modules of $rel"
		rm -f "$r/lib/modules/$rel/build" "$r/lib/modules/$rel/source" \
			"$r/lib/modules/$rel/vmlinuz"
		depmod -b "$r" "$rel" || die "depmod of $rel failed"
		module_paths "$r" "$rel" virtio_net >"$r/etc/box/net-modules-$rel"
		make_initrd "$r" "$rel" "$r/boot/initrd.img-$rel"
	done
}

# A release as a variable's name.
release_var() {
	printf '%s' "$1" | tr -c 'A-Za-z0-9' _
}

# K_VMLINUZ, K_MODULES, K_CONFIG of a kernel unpacked in a folder.
box_kernel_paths() {	# root release
	K_VMLINUZ=$1/boot/vmlinuz-$2
	[ -f "$K_VMLINUZ" ] || K_VMLINUZ=$1/usr/lib/modules/$2/vmlinuz
	K_MODULES=$1/lib/modules/$2
	[ -d "$K_MODULES" ] || K_MODULES=$1/usr/lib/modules/$2
	K_CONFIG=$1/boot/config-$2
	[ -f "$K_CONFIG" ] || K_CONFIG=$K_MODULES/config
	[ -f "$K_CONFIG" ] ||
		K_CONFIG=$(find "$1" -name "config-$2" -type f | head -n 1)
}

# Sets IMAGE_DIR to the cached image of the series given (built when
# missing), with box.img, vmlinuz and initrd.img of the default kernel,
# and releases (one a line, the default first).
box_image() {	# series...
	need_packages busybox-static dropbear-bin e2fsprogs cpio gzip xz-utils \
		kmod openssh-client qemu-utils qemu-system-x86
	box_keys
	# kexec-tools is unpacked, never installed: its package would make
	# the host's own reboots load a kernel (LOAD_KEXEC).  Its
	# libraries come from the host, installed.
	unpack_packages "$BOX_CACHE/kexec-tools" kexec-tools
	KEXEC=$BOX_CACHE/kexec-tools/sbin/kexec
	# shellcheck disable=SC2046
	need_packages $(package_depends kexec-tools | grep -v debconf)
	ldd "$KEXEC" | grep -q 'not found' &&
		die "kexec's libraries are missing: $(ldd "$KEXEC" | grep 'not found' | tr '\n' ' ')"
	i_rels='' i_keys=''
	for s in "$@"; do
		box_kernel "$s"
		i_rels="$i_rels$K_REL$nl"
		i_keys="$i_keys$K_KEY$nl"
		eval "K_ROOT_$(release_var "$K_REL")=\$K_ROOT"
	done
	i_key=$({
		# what makes the image: this script up to where it runs it
		sed '/^# --- running it /q' "$0"
		printf '%s' "$i_rels$i_keys"
		dpkg-query -W -f='${Package}=${Version}\n' busybox-static \
			dropbear-bin libc6 e2fsprogs kmod
		cat "$BOX_CACHE/kexec-tools/.unpacked" "$BOX_KEY.pub" "$BOX_HOSTKEY"
	} | md5sum | cut -c1-16)
	IMAGE_DIR=$BOX_CACHE/$i_key
	[ -f "$IMAGE_DIR/box.img" ] && return 0
	# shellcheck disable=SC2086
	cache_miss "building the box's image in $IMAGE_DIR:" $i_rels
	mkdir -p "$BOX_CACHE" || die "cannot create $BOX_CACHE"
	temp_dir i_work
	i_root=$i_work/root
	# shellcheck disable=SC2086
	make_root "$i_root" $i_rels
	i_default=$(printf '%s' "$i_rels" | head -n 1)
	# Room for modules and results copied in: the files plus a half,
	# and 256 MiB.
	i_kib=$(du -sk "$i_root" | cut -f1)
	i_mib=$((i_kib * 3 / 2 / 1024 + 256))
	mkdir -p "$i_work/out"
	truncate -s "${i_mib}M" "$i_work/out/box.img" &&
		mkfs.ext4 -q -F -L box -d "$i_root" "$i_work/out/box.img" >&2 ||
		die "mkfs.ext4 of the box's image failed"
	cp "$i_root/boot/vmlinuz-$i_default" "$i_work/out/vmlinuz"
	cp "$i_root/boot/initrd.img-$i_default" "$i_work/out/initrd.img"
	printf '%s' "$i_rels" >"$i_work/out/releases"
	rm -rf "$IMAGE_DIR"
	mv "$i_work/out" "$IMAGE_DIR" || die "cannot write $IMAGE_DIR"
}

# --- running it ------------------------------------------------------

# A TCP port nobody listens on, from the kernel's tables.
free_port() {	# first
	f_used=$(awk 'NR > 1 && $4 == "0A" { split($2, a, ":"); print a[2] }' \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null)
	f_port=$1
	while [ "$f_port" -lt 65535 ]; do
		f_hex=$(printf '%04X' "$f_port")
		case " $(printf '%s' "$f_used" | tr '\n' ' ') " in
		*" $f_hex "*) f_port=$((f_port + 1)) ;;
		*) printf '%s\n' "$f_port"; return 0 ;;
		esac
	done
	die "no free TCP port from $1"
}

now() {
	date +%s.%N
}

elapsed() {	# since
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f\n", b - a }'
}

# ssh into the box of a folder (its box.env).
box_ssh() {	# dir command...
	b_dir=$1
	shift
	[ -f "$b_dir/box.env" ] || usage_die "$b_dir: no box.env: not a box's folder"
	# shellcheck disable=SC1091
	. "$b_dir/box.env"
	# shellcheck disable=SC2086,SC2029 # the command runs on the box
	ssh $BOX_SSH root@127.0.0.1 "$@"
}

# Waits until ssh answers with a boot_id; prints it.
wait_ssh() {	# opts pid seconds
	w_end=$(($(date +%s) + $3))
	while [ "$(date +%s)" -lt "$w_end" ]; do
		kill -0 "$2" 2>/dev/null || return 1
		# shellcheck disable=SC2086
		w_id=$(ssh $1 -o ConnectTimeout=5 root@127.0.0.1 \
			cat /proc/sys/kernel/random/boot_id 2>/dev/null </dev/null) &&
			[ -n "$w_id" ] && { printf '%s\n' "$w_id"; return 0; }
		sleep 0.5
	done
	return 1
}

cmd_image() {
	series=''
	while getopts k: opt; do
		case $opt in
		k) series="$series $OPTARG" ;;
		*) usage ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# = 0 ] || usage_die "image: unexpected argument: $1"
	# shellcheck disable=SC2086
	box_image ${series:-6.12 7.2}
	printf '%s\n' "$IMAGE_DIR"
}

cmd_start() {
	series='' port='' icount='' dir='' limit=300
	while getopts k:p:id:t: opt; do
		case $opt in
		k) series="$series $OPTARG" ;;
		p) port=$OPTARG ;;
		i) icount=1 ;;
		d) dir=$OPTARG ;;
		t) limit=$OPTARG ;;
		*) usage ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# = 0 ] || usage_die "start: unexpected argument: $1"
	case $port in
	'') ;;
	*[!0-9]* | 0*) usage_die "-p $port: accepted: a TCP port, 1024 to 65535" ;;
	*) [ "$port" -ge 1024 ] && [ "$port" -le 65535 ] ||
		usage_die "-p $port: accepted: a TCP port, 1024 to 65535" ;;
	esac
	check_whole -t "$limit" 1
	for s in $series; do
		check_choice -k "$s" 6.12 7.2
	done
	if [ -n "$dir" ]; then
		[ ! -e "$dir" ] || { [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ]; } ||
			usage_die "-d $dir: not a new or empty folder"
		case $dir in
		*,* | *[[:space:]]*) usage_die "-d $dir: QEMU cannot take a ',' or a blank in its paths" ;;
		esac
	fi
	# shellcheck disable=SC2086
	box_image ${series:-6.12 7.2}
	if [ -z "$dir" ]; then
		dir=$(mktemp -d "${TMPDIR:-/tmp}/qemu-box.XXXXXX") ||
			die "cannot create a folder in ${TMPDIR:-/tmp}"
	fi
	mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || die "cannot create $dir"
	case $dir in
	*,* | *[[:space:]]*) die "$dir: QEMU cannot take a ',' or a blank in its paths (TMPDIR)" ;;
	esac
	qemu-img create -q -f qcow2 -F raw -b "$IMAGE_DIR/box.img" \
		"$dir/disk.qcow2" || die "cannot create the overlay in $dir"
	default=$(head -n 1 "$IMAGE_DIR/releases")
	append="console=ttyS0 root=/dev/vda rw loglevel=5"
	accel="-accel tcg"
	if [ -n "$icount" ]; then
		accel="$accel -icount shift=0,sleep=off"
		append="$append noapictimer"
	fi
	opts="$SSH_BASE -i $BOX_KEY"
	tries=0
	while :; do
		tries=$((tries + 1))
		p=${port:-$(free_port $((20022 + $$ % 20000)))}
		rm -f "$dir/qemu.pid"
		: >"$dir/console.log"
		started=$(now)
		# shellcheck disable=SC2086
		qemu-system-x86_64 $accel -cpu max -smp 2 -m 1G \
			-display none -monitor none -daemonize \
			-pidfile "$dir/qemu.pid" -serial "file:$dir/console.log" \
			-kernel "$IMAGE_DIR/vmlinuz" -initrd "$IMAGE_DIR/initrd.img" \
			-append "$append" \
			-drive "file=$dir/disk.qcow2,if=virtio,format=qcow2" \
			-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$p-:22" \
			-device virtio-net-pci,netdev=n0 \
			</dev/null >"$dir/qemu.err" 2>&1 && break
		# a port taken between the look and QEMU: another, if ours
		grep -q 'host forwarding' "$dir/qemu.err" && [ -z "$port" ] &&
			[ $tries -lt 5 ] && continue
		die "QEMU did not start: $(head -n 3 "$dir/qemu.err")"
	done
	pid=$(cat "$dir/qemu.pid")
	# Until ssh answers, a signal or a failure stops the box.
	bench_lanes="$bench_lanes $pid"
	opts="-p $p $opts"
	boot_id=$(wait_ssh "$opts" "$pid" "$limit") || {
		say "error: the box did not answer ssh within ${limit}s; last console lines ($dir/console.log):"
		tail -n 10 "$dir/console.log" >&2
		stop_qemu "$dir"
		exit 1
	}
	ready=$(elapsed "$started")
	bench_lanes=${bench_lanes% "$pid"}
	cat >"$dir/ssh_config" <<EOF
Host box
	HostName 127.0.0.1
	Port $p
	User root
	IdentityFile $BOX_KEY
	IdentitiesOnly yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
	BatchMode yes
EOF
	{
		printf 'BOX_DIR=%s\n' "$(sh_quote "$dir")"
		printf 'BOX_PORT=%s\n' "$p"
		printf 'BOX_PID=%s\n' "$pid"
		printf 'BOX_KEY=%s\n' "$(sh_quote "$BOX_KEY")"
		printf 'BOX_SSH=%s\n' "$(sh_quote "$opts")"
		printf 'BOX_SSH_CONFIG=%s\n' "$(sh_quote "$dir/ssh_config")"
		printf 'BOX_BOOT_ID=%s\n' "$boot_id"
		printf 'BOX_DEFAULT=%s\n' "$(sh_quote "$default")"
		printf 'BOX_RELEASES=%s\n' "$(sh_quote "$(tr '\n' ' ' <"$IMAGE_DIR/releases" | sed 's/ $//')")"
		printf 'BOX_ICOUNT=%s\n' "${icount:-0}"
		printf 'BOX_READY_SECONDS=%s\n' "$ready"
	} >"$dir/box.env"
	cat "$dir/box.env"
}

# QEMU's CPU seconds so far, user and system (it is a daemon: no wait
# of the caller counts them).
qemu_cpu() {	# pid
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, "")
		printf "%.1f\n", ($12 + $13) / hz }' "/proc/$1/stat" 2>/dev/null
}

# Stops QEMU of a folder: asks the box to power off, waits, then kills.
# Its CPU seconds go to DIR/qemu.cpu, and to BENCH_CPU_EXTRA where a
# caller (make check's engine) counts them.
stop_qemu() {	# dir
	s_pid=$(cat "$1/qemu.pid" 2>/dev/null) || return 0
	# the pid file may be stale: only a QEMU of this folder is stopped
	grep -q "$1/disk.qcow2" "/proc/$s_pid/cmdline" 2>/dev/null || return 0
	s_cpu=$(qemu_cpu "$s_pid")
	if [ -f "$1/box.env" ]; then
		# shellcheck disable=SC1091
		. "$1/box.env"
		# shellcheck disable=SC2086
		timeout 15 ssh $BOX_SSH -o ConnectTimeout=5 root@127.0.0.1 \
			'setsid sh -c "sleep 1; poweroff" >/dev/null 2>&1 </dev/null &' \
			</dev/null >/dev/null 2>&1
		s_end=$(($(date +%s) + 60))
		while kill -0 "$s_pid" 2>/dev/null && [ "$(date +%s)" -lt "$s_end" ]; do
			s_c=$(qemu_cpu "$s_pid") && s_cpu=$s_c
			sleep 0.5
		done
	fi
	kill -TERM "$s_pid" 2>/dev/null
	s_n=0
	while kill -0 "$s_pid" 2>/dev/null && [ $s_n -lt 20 ]; do
		sleep 0.5
		s_n=$((s_n + 1))
	done
	kill -KILL "$s_pid" 2>/dev/null
	rm -f "$1/disk.qcow2" "$1/qemu.pid"
	printf '%s\n' "${s_cpu:-0}" >"$1/qemu.cpu"
	[ -z "${BENCH_CPU_EXTRA:-}" ] || printf '%s\n' "${s_cpu:-0}" >>"$BENCH_CPU_EXTRA"
}

cmd_stop() {
	[ $# = 1 ] || usage_die "stop: accepted: stop DIR (the folder start printed)"
	[ -f "$1/qemu.pid" ] || [ -f "$1/box.env" ] ||
		usage_die "stop $1: not a box's folder (no qemu.pid, no box.env)"
	d=$(cd "$1" && pwd)
	stop_qemu "$d"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
image) cmd_image "$@" ;;
start) cmd_start "$@" ;;
ssh)
	[ $# -ge 1 ] || usage_die "ssh: accepted: ssh DIR [COMMAND...]"
	box_ssh "$@"
	;;
stop) cmd_stop "$@" ;;
-h | --help | help) usage ;;
*) usage_die "$cmd: accepted: image, start, ssh, stop" ;;
esac
