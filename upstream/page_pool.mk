# SPDX-License-Identifier: GPL-2.0
#
# bench_page_pool.ko: the page_pool tests and time_bench, the
# timing engine they use, built against KDIR (default: the running
# kernel's build tree) by the kselftest framework or by "make" here.

ifneq ($(KERNELRELEASE),)

obj-m += bench_page_pool.o
bench_page_pool-y := bench_page_pool_simple.o time_bench.o \
	time_bench_params.o time_bench_cpus.o time_bench_counters.o \
	time_bench_env.o time_bench_output.o time_bench_results.o \
	time_bench_math.o time_bench_driver.o

else

KDIR ?= /lib/modules/$(shell uname -r)/build

all:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

.PHONY: all clean

endif
