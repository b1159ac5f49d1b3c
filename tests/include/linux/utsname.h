/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/utsname.h>: the program defines the kernel's. */
#ifndef _LINUX_UTSNAME_H
#define _LINUX_UTSNAME_H

#define __NEW_UTS_LEN	64

struct new_utsname {
	char release[__NEW_UTS_LEN + 1];
};

struct new_utsname *init_utsname(void);

#endif /* _LINUX_UTSNAME_H */
