// SPDX-License-Identifier: GPL-2.0
/*
 * reach: which file_operations the differential test opened.
 *
 * Loaded only into the stock kernel of a `make difftest-reach` boot (never
 * into the host's kernel). /dev/reach answers one ioctl: for a descriptor of
 * the caller, the address of its f_op, of the operations behind a proxy
 * (debugfs' real fops, a /proc entry's proc_ops), and which of the legacy
 * and iter methods each one has. scripts/reach.sh turns the addresses into
 * names with the stock vmlinux's symbol table.
 */
#include <linux/debugfs.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>

#include "internal.h"	/* fs/proc: PDE() */

struct reach_info {
	__s32 fd;
	__u32 flags;
	__u64 fop;
	__u64 inner;
};

#define REACH_QUERY	_IOWR('R', 1, struct reach_info)

#define R_FOP_READ		0x001
#define R_FOP_WRITE		0x002
#define R_FOP_READ_ITER		0x004
#define R_FOP_WRITE_ITER	0x008
#define R_INNER_DEBUGFS		0x010
#define R_INNER_PROC		0x020
#define R_INNER_READ		0x040
#define R_INNER_WRITE		0x080
#define R_INNER_READ_ITER	0x100
#define R_INNER_WRITE_ITER	0x200

static void fops_flags(const struct file_operations *f, u32 *flags, int shift)
{
	if (f->read)
		*flags |= R_FOP_READ << shift;
	if (f->write)
		*flags |= R_FOP_WRITE << shift;
	if (f->read_iter)
		*flags |= R_FOP_READ_ITER << shift;
	if (f->write_iter)
		*flags |= R_FOP_WRITE_ITER << shift;
}

static void query(struct file *file, struct reach_info *ri)
{
	struct inode *inode = file_inode(file);
	unsigned long fsd;

	ri->flags = 0;
	ri->fop = (unsigned long)file->f_op;
	ri->inner = 0;
	fops_flags(file->f_op, &ri->flags, 0);
	if (S_ISDIR(inode->i_mode))
		return;
	if (inode->i_sb->s_magic == DEBUGFS_MAGIC) {
		const struct file_operations *real;

		fsd = (unsigned long)file->f_path.dentry->d_fsdata;
		if (!fsd)
			return;
		real = fsd & 1 ? (void *)(fsd & ~1UL) : debugfs_real_fops(file);
		if (!real)
			return;
		ri->inner = (unsigned long)real;
		ri->flags |= R_INNER_DEBUGFS;
		/* the R_FOP_* bits of the real fops, shifted onto R_INNER_* */
		fops_flags(real, &ri->flags, 6);
	} else if (inode->i_sb->s_magic == PROC_SUPER_MAGIC && PDE(inode) &&
		   PDE(inode)->proc_ops) {
		const struct proc_ops *po = PDE(inode)->proc_ops;

		ri->inner = (unsigned long)po;
		ri->flags |= R_INNER_PROC;
		if (po->proc_read)
			ri->flags |= R_INNER_READ;
		if (po->proc_write)
			ri->flags |= R_INNER_WRITE;
		if (po->proc_read_iter)
			ri->flags |= R_INNER_READ_ITER;
	}
}

static long reach_ioctl(struct file *unused, unsigned int cmd,
			unsigned long arg)
{
	struct reach_info ri;
	struct file *file;

	if (cmd != REACH_QUERY)
		return -ENOTTY;
	if (copy_from_user(&ri, (void __user *)arg, sizeof(ri)))
		return -EFAULT;
	file = fget(ri.fd);
	if (!file)
		return -EBADF;
	query(file, &ri);
	fput(file);
	return copy_to_user((void __user *)arg, &ri, sizeof(ri)) ? -EFAULT : 0;
}

static const struct file_operations reach_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= reach_ioctl,
};

static struct miscdevice reach_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "reach",
	.fops	= &reach_fops,
};

module_misc_device(reach_dev);
MODULE_DESCRIPTION("Report the file_operations behind a descriptor");
MODULE_LICENSE("GPL");
