# SPDX-License-Identifier: GPL-2.0
# Guest payload: the kselftest wrapper with default parameters.
sh ./test_bench_page_pool.sh -d /lib/modules/"$(uname -r)"/extra
