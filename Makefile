# SPDX-License-Identifier: GPL-2.0
#
# Serves three users: kbuild (in a kernel tree, or with M=); the
# kselftest framework, when this directory sits in a kernel tree as
# tools/testing/selftests/net/bench_page_pool; and the out-of-tree user:
# "make", "make install", "make run", "make ab", "make check".

# The engine's files, listed once: bench_page_pool.ko links these
# objects with the tests' (upstream links time_bench into its test
# module too), and the file lists below take their sources and headers.
bench_engine_objs := time_bench.o time_bench_params.o time_bench_cpus.o \
	time_bench_counters.o time_bench_env.o time_bench_output.o \
	time_bench_results.o time_bench_math.o time_bench_driver.o
bench_module_objs := bench_page_pool_simple.o $(bench_engine_objs)
bench_engine_headers := time_bench.h time_bench_internal.h time_bench_stamp.h \
	time_bench_math.h time_bench_driver.h time_bench_compat.h

# Feature tests for the compat headers, bench_page_pool_compat.h and the
# engine's time_bench_compat.h: the tree's headers, not its version,
# decide, so backports build too.  srctree is the tree's source:
# kbuild sets it; "make print-features TREE=..." gives it for the series.
# $(call bench_have,NAME,fixed string,headers): -DBENCH_HAVE_NAME if found
bench_have = $(if $(shell grep -qsF '$(2)' $(addprefix $(srctree)/,$(3)) \
		&& echo y),-DBENCH_HAVE_$(1))
bench_pp_types := include/net/page_pool.h include/net/page_pool/types.h
# (an unbalanced parenthesis cannot stand in a call's arguments)
bench_netmem_bulk := page_pool_put_netmem_bulk(netmem_ref *
bench_kzalloc_obj := define kzalloc_obj(
bench_rdmsrq_safe := int rdmsrq_safe(
bench_features = \
	$(if $(wildcard $(srctree)/include/net/page_pool/helpers.h), \
		-DBENCH_HAVE_PAGE_POOL_HELPERS_H) \
	$(call bench_have,NETMEM,page_pool_alloc_netmems,$(bench_pp_types)) \
	$(call bench_have,PP_NAPI,struct napi_struct *napi;,$(bench_pp_types)) \
	$(call bench_have,ALLOC_NETDEV_DUMMY,alloc_netdev_dummy, \
		include/linux/netdevice.h) \
	$(call bench_have,NAPI_LIST_OWNER,list_owner;, \
		include/linux/netdevice.h) \
	$(call bench_have,PP_PUT_NETMEM_BULK,$(bench_netmem_bulk), \
		$(bench_pp_types)) \
	$(call bench_have,KZALLOC_OBJ,$(bench_kzalloc_obj), \
		include/linux/slab.h) \
	$(if $(wildcard $(srctree)/arch/x86/include/asm/cpuid/api.h), \
		-DBENCH_HAVE_ASM_CPUID_API_H) \
	$(call bench_have,IRQ_STAT_COUNTS,counts[IRQ_COUNT_MAX], \
		arch/x86/include/asm/hardirq.h) \
	$(call bench_have,RDMSRQ_SAFE,$(bench_rdmsrq_safe), \
		arch/x86/include/asm/msr.h)

ifneq ($(KERNELRELEASE),)

obj-$(CONFIG_BENCH_PAGE_POOL_SIMPLE) += bench_page_pool.o
bench_page_pool-y := $(bench_module_objs)
ccflags-y += $(bench_features)

else

# The project's files, listed once.  A kernel tree needs the first list
# to build the module (lib/bench_page_pool), the kselftest the second
# one too.  The kselftest rules, "make copy-to-tree" and the host tools
# ("make print-files FILES=module|kselftest") take them from here.
# bench_this: this file, read before anything is included.
bench_this := $(notdir $(lastword $(MAKEFILE_LIST)))
BENCH_MODULE_FILES := Kconfig $(bench_this) $(bench_engine_headers) \
	$(bench_module_objs:.o=.c) bench_page_pool_compat.h
BENCH_KSELFTEST_PROGS := test_bench_page_pool.sh
BENCH_KSELFTEST_FILES := env_lib.sh ktap_lib.sh results_lib.sh splat_patterns
# lib.mk installs these two by name.
BENCH_KSELFTEST_SETTINGS := config settings
BENCH_MODULES := bench_page_pool.ko

ifneq ($(wildcard $(CURDIR)/../../lib.mk),)

# kselftest: "make -C tools/testing/selftests TARGETS=net/bench_page_pool"
# builds the module, "... install INSTALL_PATH=X" puts it beside the
# wrapper, which loads it from there.  It is built against KDIR: by
# default the kernel tree this directory is in, or its O= output, when
# that is built, else the running kernel.
TEST_PROGS := $(BENCH_KSELFTEST_PROGS)
TEST_FILES := $(BENCH_KSELFTEST_FILES)
TEST_GEN_FILES := $(BENCH_MODULES)

include ../../lib.mk

bench_built = $(if $(wildcard $(1)/Module.symvers),$(1))
KDIR ?= $(or $(if $(O),$(call bench_built,$(abspath $(O)))), \
	     $(call bench_built,$(abspath $(top_srcdir))), \
	     /lib/modules/$(shell uname -r)/build)

bench_modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_BENCH_PAGE_POOL_SIMPLE=m modules

# kbuild builds in this directory; the framework may want them elsewhere.
$(TEST_GEN_FILES): bench_modules
	$(if $(filter $(CURDIR)/$(notdir $@),$@),,cp $(CURDIR)/$(notdir $@) $@)

clean: bench_modules_clean

bench_modules_clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

.PHONY: bench_modules bench_modules_clean

else

KDIR ?= /lib/modules/$(shell uname -r)/build
KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) CONFIG_BENCH_PAGE_POOL_SIMPLE=m
# The release modules install under; Debian's 6.1 headers give another
# one in include/config/kernel.release.
KDIR_RELEASE = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
		 $(KDIR)/include/generated/utsrelease.h)
# kbuild takes M= as one word without ':' or '%' and says otherwise
# "building multiple external modules is not supported".
kbuild_bad_path = $(or $(word 2,$(CURDIR)),$(findstring :,$(CURDIR)), \
		  $(findstring %,$(CURDIR)))
kbuild_path_ok = $(if $(kbuild_bad_path),$(error kbuild cannot build a module in a path with spaces, ':' or '%' ($(CURDIR)): move the checkout, or use make run, make ab or make perf, which build a copy))

all: modules tools

modules:
	$(kbuild_path_ok)$(MAKE) $(KBUILD_ARGS) modules

# Host tools: bench-compare, the before/after comparison.
tools:
	$(MAKE) -C tools/compare

install: modules
	$(MAKE) $(KBUILD_ARGS) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KDIR_RELEASE)

clean:
	$(if $(kbuild_bad_path),,$(MAKE) $(KBUILD_ARGS) clean)
	$(MAKE) -C tests clean
	$(MAKE) -C tools/compare clean

# Boots a throw-away kernel under QEMU and runs the benchmark in it.
run:
	sh tools/guest/run.sh

# perf record -g of one test in a guest; keeps perf.data and symbols.
perf:
	sh tools/profile/perf.sh

# Two kernels (or command lines) against each other, several loads each.
ab:
	sh tools/guest/ab.sh

# Two kernels installed on a test box, over SSH: kexec, the boot as the
# unit (doc/box.rst).
box:
	sh tools/box/box.sh box

# A test box's state, and what to change before measuring on it.
box-check:
	sh tools/box/box.sh check

# Every commit of a range of a kernel git tree, counted in instructions.
track:
	sh tools/track/track.sh

# The first commit whose count of a test moved (git bisect run).
bisect:
	sh tools/track/bisect.sh

# results.schema's generated parts: results_lib.sh's block and
# tools/compare/results_fields.h (make check fails when they are stale).
schema:
	python3 tools/results/schema.py write

# Everything that proves the project works; see README.rst.
check:
	sh tools/check/check.sh

# The edit loop's tier of it: host tests, one 6.12 guest (README.rst).
check-quick:
	TIER=quick sh tools/check/check.sh

# The host's checks and tests alone, as any user: no guest, no package.
check-host:
	TIER=host sh tools/check/check.sh

# Which accelerator (KVM or TCG) the guests would use, and why.
accel:
	sh tools/guest/accel.sh

# The lockdep/KASAN/kmemleak kernel make check uses; prints its tree.
debug-kernel:
	sh tools/kernel/debug-kernel.sh

# "make series TREE=/path/to/linux": the project as the commits of
# upstream/series/ replacing upstream's benchmark in
# tools/testing/selftests/net/bench of a kernel git tree, and their
# patches with a cover letter in build/series (doc/in-tree.rst).
# "make series-export TREE=...": that tree's series, edited, back into
# upstream/series/.
series:
	sh tools/series/series.sh

series-export:
	sh tools/series/export.sh

# "make copy-to-tree TREE=/path/to/linux": the modules into
# lib/bench_page_pool (with the line each of Kconfig.debug and the build
# file of lib/ needs, added once), and the kselftest into
# tools/testing/selftests/net/bench_page_pool.
copy-to-tree:
	sh tools/series/copy-to-tree.sh

# "make lkp LKP=/path/to/lkp-tests": the benchmark as a program of 0-day's
# LKP, one commit on a branch of its own in that clone (doc/lkp.rst).
lkp:
	sh tools/lkp/lkp.sh

# The file lists above, one name a line, for the host tools: module,
# kselftest (what a tree gets), installed (what the kselftest install
# puts into INSTALL_PATH/net/bench_page_pool), libraries (what the
# wrapper sources or reads).
bench_files_module := $(BENCH_MODULE_FILES)
bench_files_kselftest := $(BENCH_MODULE_FILES) $(BENCH_KSELFTEST_PROGS) \
	$(BENCH_KSELFTEST_FILES) $(BENCH_KSELFTEST_SETTINGS)
bench_files_installed := $(BENCH_KSELFTEST_PROGS) $(BENCH_KSELFTEST_FILES) \
	$(BENCH_KSELFTEST_SETTINGS) $(BENCH_MODULES)
bench_files_libraries := $(BENCH_KSELFTEST_FILES)

print-files:
	@printf '%s\n' $(or $(bench_files_$(FILES)), \
		$(error FILES=$(FILES): accepted: module, kselftest, installed, libraries))

# The module's objects, for the series' copy of the kbuild lines.
print-module-objs:
	@printf '%s\n' $(bench_module_objs)

# The compat headers' feature macros a kernel tree's headers give, one a
# line (-DBENCH_HAVE_...): "make series" keeps only that tree's branches.
print-features: srctree = $(or $(TREE),$(error print-features needs TREE=<a Linux source tree>))
print-features:
	@printf '%s\n' $(bench_features)

.PHONY: all modules tools install clean run perf ab box box-check track bisect schema check check-quick check-host accel debug-kernel \
	copy-to-tree series series-export print-files print-features print-module-objs lkp

endif
endif
