// SPDX-License-Identifier: GPL-2.0
/*
 * The module's results file, which bench-e2e joins, read as bench-compare
 * reads it (its parsers, linked in from tools/compare): a line or field
 * bench-compare would refuse is refused before a packet is sent, with
 * its FILE:LINE.  main.c only finds where this run's rows go.  Apart
 * from main.c, whose names would clash with bench-compare's.
 */
#include <stdio.h>

#include "bench_compare.h"
#include "module_file.h"

int e2e_check_module_file(const char *path)
{
	struct bench_set set = { NULL };
	int ret = 0;

	if (read_input(&set, SIDE_BEFORE, path) || set.nr_loads != 1 ||
	    set.loads[0].dmesg) {
		fprintf(stderr, "bench-e2e: -m %s: %s\n", path,
			"not one load that bench-compare reads (its reason above, if any)");
		ret = -1;
	}
	free_set(&set);
	return ret;
}
