#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make accel": says in one line which accelerator the guests of a kernel
# would run under, and why, without running anything else.
#   KERNEL  6.12 (default), 6.1, or a kernel image (KDIR its tree)
#   ACCEL   auto (default), kvm, tcg
#   ICOUNT  1: instructions (TCG); 0 (default)
#   CPU     QEMU CPU model
# Exit status 0; 1 when ACCEL=kvm and KVM cannot run the guest; 2 for a
# bad variable.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib guest

KERNEL=${KERNEL:-6.12}
check_instrument 0
need_packages qemu-system-x86 busybox-static cpio gzip
select_kernel "$KERNEL"
choose_accel "$KERNEL_IMAGE" "$KERNEL_RELEASE"
