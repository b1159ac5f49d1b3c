/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile markers (doc/profile.rst) on the host's side: the plugin
 * reads them, bench-e2e executes them around its timed repetitions.
 * The module's engine executes the same tags; time_bench.c goes
 * upstream on its own, so it spells them itself.
 */
#ifndef BENCH_PROFILE_MARKS_H
#define BENCH_PROFILE_MARKS_H

/* nopl TAG(%rax,%rax,1): 0f 1f 84 00, then the tag, little-endian */
#define MARK_SUITE	0x54420001u
#define MARK_OPEN	0x54420002u
#define MARK_TICK	0x54420003u
#define MARK_BEGIN	0x54420004u
#define MARK_END	0x54420005u
#define MARK_DROP	0x54420006u
#define MARK_LEN	8

/* bench-e2e's scenarios' rows: past every row of the module's table */
#define MARK_E2E_ROW_BASE	1000

#endif /* BENCH_PROFILE_MARKS_H */
