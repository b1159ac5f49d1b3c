/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-e2e's check of the module's results file through bench-compare's
 * readers (module_file.c): 0, or -1 after saying why.  A header of its
 * own: e2e.h and bench-compare's define the same short names.
 */
#ifndef BENCH_E2E_MODULE_FILE_H
#define BENCH_E2E_MODULE_FILE_H

int e2e_check_module_file(const char *path);

#endif /* BENCH_E2E_MODULE_FILE_H */
