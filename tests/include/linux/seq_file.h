/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/seq_file.h>: a show function prints
 * into a growing buffer, which seq_read() hands out as the kernel's
 * does, so tests/ reads a debugfs file the way cat reads it.
 */
#ifndef _LINUX_SEQ_FILE_H
#define _LINUX_SEQ_FILE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/types.h>

struct seq_file {
	char *buf;
	size_t size;
	size_t count;
	bool shown;
	int (*show)(struct seq_file *m, void *v);
	void *private;
};

/* Room for @len more bytes and a NUL; a test has no use for ENOMEM. */
static inline void seq_reserve(struct seq_file *m, size_t len)
{
	if (m->count + len < m->size)
		return;
	m->size = 2 * (m->count + len) + 256;
	m->buf = realloc(m->buf, m->size);
	if (!m->buf) {
		perror("seq_file");
		exit(1);
	}
}

static inline __printf(2, 3)
void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	seq_reserve(m, len);
	va_start(ap, fmt);
	vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
	va_end(ap);
	m->count += len;
}

static inline void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

static inline void seq_putc(struct seq_file *m, char c)
{
	seq_printf(m, "%c", c);
}

static inline int single_open(struct file *file,
			      int (*show)(struct seq_file *, void *),
			      void *data)
{
	struct seq_file *m = calloc(1, sizeof(*m));

	if (!m)
		return -1;
	m->show = show;
	m->private = data;
	file->private_data = m;
	return 0;
}

static inline int single_release(struct inode __always_unused *inode,
				 struct file *file)
{
	struct seq_file *m = file->private_data;

	free(m->buf);
	free(m);
	return 0;
}

/* The first read shows the whole file; later ones hand out the rest. */
static inline ssize_t seq_read(struct file *file, char __user *buf,
			       size_t size, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	size_t left;
	int ret;

	if (!m->shown) {
		m->shown = true;
		ret = m->show(m, NULL);
		if (ret)
			return ret;
	}
	left = (size_t)*ppos < m->count ? m->count - *ppos : 0;
	if (size > left)
		size = left;
	memcpy(buf, m->buf + *ppos, size);
	*ppos += size;
	return size;
}

#define DEFINE_SHOW_ATTRIBUTE(__name)					\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name ## _show, inode->i_private);	\
}									\
									\
static const struct file_operations __name ## _fops = {		\
	.open		= __name ## _open,				\
	.read		= seq_read,					\
	.release	= single_release,				\
}

#endif /* _LINUX_SEQ_FILE_H */
