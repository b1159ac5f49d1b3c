/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/debugfs.h>: the program that includes
 * it defines these, and keeps the files to read them back.
 */
#ifndef _LINUX_DEBUGFS_H
#define _LINUX_DEBUGFS_H

#include <linux/fs.h>

struct dentry;

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
/* @mode: the kernel's umode_t */
struct dentry *debugfs_create_file(const char *name, unsigned short mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops);
void debugfs_remove_recursive(struct dentry *dentry);

#endif /* _LINUX_DEBUGFS_H */
