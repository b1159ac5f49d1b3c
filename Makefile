# SPDX-License-Identifier: GPL-2.0
#
# Serves kbuild (in a kernel tree, or with M=) and the out-of-tree user
# alike: "make", "make install", "make run", "make check".

ifneq ($(KERNELRELEASE),)

obj-$(CONFIG_BENCH_PAGE_POOL_SIMPLE) += time_bench.o bench_page_pool_simple.o

# Feature tests for bench_page_pool_compat.h: the tree's headers, not its
# version, decide, so backports build too.
# $(call bench_have,NAME,fixed string,headers): -DBENCH_HAVE_NAME if found
bench_have = $(if $(shell grep -qsF '$(2)' $(addprefix $(srctree)/,$(3)) \
		&& echo y),-DBENCH_HAVE_$(1))
bench_pp_types := include/net/page_pool.h include/net/page_pool/types.h
ccflags-y += $(if $(wildcard $(srctree)/include/net/page_pool/helpers.h), \
		-DBENCH_HAVE_PAGE_POOL_HELPERS_H)
ccflags-y += $(call bench_have,NETMEM,page_pool_alloc_netmems,$(bench_pp_types))
ccflags-y += $(call bench_have,PP_NAPI,struct napi_struct *napi;,$(bench_pp_types))
ccflags-y += $(call bench_have,ALLOC_NETDEV_DUMMY,alloc_netdev_dummy, \
		include/linux/netdevice.h)
ccflags-y += $(call bench_have,NAPI_LIST_OWNER,list_owner;, \
		include/linux/netdevice.h)

else

KDIR ?= /lib/modules/$(shell uname -r)/build
KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) CONFIG_BENCH_PAGE_POOL_SIMPLE=m
# The release modules install under; Debian's 6.1 headers give another
# one in include/config/kernel.release.
KDIR_RELEASE = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
		 $(KDIR)/include/generated/utsrelease.h)

all: modules tools

modules:
	$(MAKE) $(KBUILD_ARGS) modules

# Host tools: bench-compare, the before/after comparison.
tools:
	$(MAKE) -C tools/compare

install: modules
	$(MAKE) $(KBUILD_ARGS) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KDIR_RELEASE)

clean:
	$(MAKE) $(KBUILD_ARGS) clean
	$(MAKE) -C tests clean
	$(MAKE) -C tools/compare clean

# Boots a throw-away kernel under QEMU and runs the benchmark in it.
run:
	sh tools/run.sh

# Two kernels (or command lines) against each other, several loads each.
ab:
	sh tools/ab.sh

# Everything that proves the project works; see README.rst.
check:
	sh tools/check.sh

# The lockdep/KASAN/kmemleak kernel make check uses; prints its tree.
debug-kernel:
	sh tools/debug-kernel.sh

.PHONY: all modules tools install clean run ab check debug-kernel

endif
