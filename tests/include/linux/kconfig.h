/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/kconfig.h>: IS_ENABLED(CONFIG_FOO) is 1
 * when the build defines CONFIG_FOO as 1 (-DCONFIG_FOO=1), else 0, by
 * the kernel's trick: "1" pastes into a placeholder that brings a comma,
 * which shifts the 1 into the second argument.  There are no modules.
 */
#ifndef _LINUX_KCONFIG_H
#define _LINUX_KCONFIG_H

#define __ARG_PLACEHOLDER_1		0,
#define __swallow(...)
#define __take_second_arg(first, val, ...)	(__swallow(first) val)
#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(CONFIG_option)	__is_defined(CONFIG_option)

#endif /* _LINUX_KCONFIG_H */
