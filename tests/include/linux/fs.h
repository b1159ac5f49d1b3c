/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/fs.h>: what a debugfs file's reader needs. */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include <sys/types.h>	/* ssize_t, loff_t */
#include <linux/types.h>

#ifndef __user
#define __user
#endif

struct inode {
	void *i_private;	/* debugfs_create_file()'s data */
};

struct file {
	void *private_data;
};

struct file_operations {
	int (*open)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct file *file, char __user *buf, size_t size,
			loff_t *ppos);
	int (*release)(struct inode *inode, struct file *file);
};

#endif /* _LINUX_FS_H */
