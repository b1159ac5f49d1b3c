#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A benchmark of bench-compare's cost on large inputs,
# not a test: it prints the wall time and peak memory of each case, to
# be reported, and fails only if bench-compare does.
#
#   sh tests/scale.sh [BENCH_COMPARE]
#
# Cases (each side one file, made here with awk):
#   names   100k distinct test names, one load a side
#   loads   100k loads a side (format 3 blocks, two tests each), the
#           environment of every load the same
#   kernels 20k loads a side, each with a kernel: of its own
#   keys    5k keys in one params: line and 5k in one config: line
#           (about 52 KB each: a line holds at most 64 KiB)
#   dmesg   100k loads a side as legacy dmesg lines
#
# Timings are upper bounds when the machine is shared.

BIN=${1:-./bench-compare}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# names N SHIFT: one format 1 block with N tests
names() {
	awk -v n="$1" -v d="$2" 'BEGIN {
		print "format: bench_page_pool_simple 1"
		for (i = 0; i < n; i++)
			printf "test: name=t%d cycles_per_elem=%d.%03d ns_per_elem=%d.%03d\n",
			       i, 100 + i % 50 + d, i % 1000, 40 + i % 20, i % 997
	}'
}

# head KERNEL: the header of a format 3 block
# blocks N SHIFT KERNELS KEYS: N format 3 blocks of two tests; the kernel
# of load i is k(i % KERNELS); KEYS extra keys in params: and config:
blocks() {
	awk -v n="$1" -v d="$2" -v kernels="$3" -v keys="$4" '
	function test(name, bit, c, r,    cs, ns) {
		cs = sprintf("%.3f,%.3f,%.3f", c, c + 0.5, c + 1)
		ns = sprintf("%.3f,%.3f,%.3f", c / 2, c / 2 + 0.25, c / 2 + 0.5)
		printf "test: name=%s run_flags_bit=%d context=softirq cpu=0 reps=3 loops=1000 invoke_count=1000 total_invoke_count=3000 cycles=%d ns=%d cycles_per_elem=%.3f ns_per_elem=%.3f cycles_samples=%s ns_samples=%s path=cache pages_allocated=0 pages_released=0 expect_path=cache expect_allocated_max=0 expect_released=- expect_stats=- cheaper_than=-\n",
		       name, bit, (c + 0.5) * 1000, (c / 2 + 0.25) * 1000,
		       c + 0.5, c / 2 + 0.25, cs, ns
	}
	BEGIN {
		extra = ""
		for (j = 0; j < keys; j++)
			extra = extra sprintf(" k%d=%d", j, j)
		for (i = 0; i < n; i++) {
			print "format: bench_page_pool_simple 3"
			printf "kernel: 6.12.%d\n", i % kernels
			print "cpu_model: QEMU TCG CPU version 2.5+"
			print "clock: cycles"
			print "accel: tcg"
			print "config: lockdep=n kasan=n page_pool_stats=y preempt=voluntary" extra
			print "runtime: init_on_alloc=1 init_on_free=0 online_cpus=2 hypervisor=TCGTCGTCGTCG"
			print "params: loops=- run_flags=0x30 time_ms=200 reps=3" extra
			c = 100 + d + (i * 7919 % 1000) / 100
			test("fast", 4, c, 1)
			test("ring", 5, 2 * c, 1)
			print "end: tests=2 skips=0"
		}
	}'
}

# dmesg N SHIFT: N loads of two legacy lines each
dmesg() {
	awk -v n="$1" -v d="$2" 'BEGIN {
		for (i = 0; i < n; i++) {
			print "bench_page_pool_simple: overhead: cycle counter read 24.100 cycles"
			for (t = 0; t < 2; t++) {
				k = 1000000
				z = (100 + d + t * 100 + i % 13) * k + i % 999
				printf "time_bench: Type:t%d Per elem: %d cycles(tsc) %d.%03d ns (step:0) - (measurement period time:0.%09d sec time_interval:%d) - (invoke count:%d tsc_interval:%d)\n",
				       t, int(z / k), int(z / 2 / k), int(z / 2 % k / 1000), int(z / 2), int(z / 2), k, z
			}
		}
	}'
}

# run NAME: bench-compare on $tmp/b and $tmp/a, timed
run() {
	sizes=$(du -h "$tmp/b" | cut -f1)
	if /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$BIN" "$tmp/b" \
		"$tmp/a" >"$tmp/out" 2>"$tmp/err"; then
		set -- "$1" $(cat "$tmp/time")
		printf '%-8s %6s s wall %6s s user %5s s sys %5s MiB peak  (%s a side, %s lines out)\n' \
			"$1" "$2" "$3" "$4" $(($5 / 1024)) "$sizes" \
			"$(grep -c . "$tmp/out")"
	else
		printf '%s\n' "$1: bench-compare failed:"
		head -n 5 "$tmp/err"
		exit 1
	fi
}

echo "bench-compare scale benchmark on $(nproc) CPUs, $(date -u +%Y-%m-%d)"
names 100000 0 >"$tmp/b"
names 100000 1 >"$tmp/a"
run names
blocks 100000 0 1 0 >"$tmp/b"
blocks 100000 1 1 0 >"$tmp/a"
run loads
blocks 20000 0 20000 0 >"$tmp/b"
blocks 20000 1 20000 0 >"$tmp/a"
run kernels
blocks 1 0 1 5000 >"$tmp/b"
blocks 1 1 1 5000 >"$tmp/a"
run keys
dmesg 100000 0 >"$tmp/b"
dmesg 100000 1 >"$tmp/a"
run dmesg
