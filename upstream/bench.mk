# SPDX-License-Identifier: GPL-2.0
#
# The page_pool benchmark as a kselftest: page_pool/ builds the module,
# the wrapper loads it, checks what each test did and prints KTAP.

TEST_GEN_MODS_DIR := page_pool

TEST_PROGS += test_bench_page_pool.sh

TEST_FILES := \
	env_lib.sh \
	ktap_lib.sh \
	results_lib.sh \
	splat_patterns \
# end of TEST_FILES

include ../../lib.mk
