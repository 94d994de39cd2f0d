// SPDX-License-Identifier: GPL-2.0-only
/// A ->read method whose only use of the user buffer, the count and the
/// position is one simple_read_from_buffer() call becomes a ->read_iter
/// method around simple_read_iter_from_buffer(). Anything else that
/// touches buf, count or ppos is left alone for a conversion by hand.
/// In -D segments mode the flag is or-ed into an existing .fop_flags;
/// in the default mode such a structure needs it added by hand.
///
/// By default (the files the guest runs) the file_operations get
/// FOP_READ_NO_RWF and copy_splice_read(): a read from a buffer at an
/// offset does not depend on segment boundaries, so readv() may make one
/// call, and FOP_READ_NO_RWF keeps preadv2() refusing RWF_* flags as it
/// did. With -D segments (files that cannot be run here) they get
/// FOP_READ_SEGMENTS and no ->splice_read: such a method often builds its
/// buffer anew at every call (a register read, a formatted value), so
/// readv() keeps calling it once per segment, as the ->read emulation did
/// on 6.12, and splice() keeps failing with EINVAL. In that mode a
/// ->proc_read of a proc_ops becomes a ->proc_read_iter with
/// PROC_ENTRY_READ_SEGMENTS, which procfs treats the same way.
//
// Confidence: Moderate: read every result. A method that also passes the
// buffer to another function on an earlier return path can still match
// (fs/pstore/inode.c: seq_read() for ftrace records); the renamed
// parameters then leave that use undeclared, so the compile proof shows it.
// Options: --no-includes --include-headers

virtual patch
virtual segments

@ shape depends on patch @
attribute name __user;
identifier fn, fp, buf, count, ppos;
expression from, avail;
@@
ssize_t fn(struct file *fp, char __user *buf, size_t count, loff_t *ppos)
{
	... when != buf
	    when != count
	    when != ppos
	    when any
	return simple_read_from_buffer(buf, count, ppos, from, avail);
}

@ convert depends on patch @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
expression shape.from, shape.avail;
fresh identifier fn_iter = fn ## "_iter";
@@
-ssize_t fn(struct file *fp, char __user *buf, size_t count, loff_t *ppos)
+ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *to)
{
+	struct file *fp = iocb->ki_filp;
	...
-	return simple_read_from_buffer(buf, count, ppos, from, avail);
+	return simple_read_iter_from_buffer(iocb, to, from, avail);
}

@ depends on patch && !segments @
identifier ops;
identifier shape.fn, convert.fn_iter;
@@
struct file_operations ops = {
	...,
-	.read = fn,
+	.read_iter = fn_iter,
+	.fop_flags = FOP_READ_NO_RWF,
+	.splice_read = copy_splice_read,
	...
};

@ has_rflags depends on patch && segments @
identifier ops;
identifier shape.fn;
expression flags;
@@
struct file_operations ops = {
	...,
	.read = fn,
	...,
	.fop_flags = flags,
	...
};

@ depends on patch && segments && !has_rflags @
identifier ops;
identifier shape.fn, convert.fn_iter;
@@
struct file_operations ops = {
	...,
-	.read = fn,
+	.read_iter = fn_iter,
+	.fop_flags = FOP_READ_SEGMENTS,
	...
};

// A structure whose ->write went first (FOP_WRITE_SEGMENTS) gets the flag
// or-ed in.
@ depends on patch && segments && has_rflags @
identifier ops;
identifier shape.fn, convert.fn_iter;
expression flags;
@@
struct file_operations ops = {
	...,
-	.read = fn,
+	.read_iter = fn_iter,
	...,
-	.fop_flags = flags,
+	.fop_flags = FOP_READ_SEGMENTS | flags,
	...
};

// In -D segments mode, a ->proc_read of a proc_ops the same way:
// ->proc_read_iter, and PROC_ENTRY_READ_SEGMENTS, with which procfs calls
// it once per segment and refuses RWF_* flags, as it did with ->proc_read.
@ has_prflags depends on patch && segments @
identifier ops;
identifier shape.fn;
expression flags;
@@
struct proc_ops ops = {
	...,
	.proc_read = fn,
	...,
	.proc_flags = flags,
	...
};

@ depends on patch && segments && !has_prflags @
identifier ops;
identifier shape.fn, convert.fn_iter;
@@
struct proc_ops ops = {
	...,
-	.proc_read = fn,
+	.proc_read_iter = fn_iter,
+	.proc_flags = PROC_ENTRY_READ_SEGMENTS,
	...
};

@ depends on patch && segments && has_prflags @
identifier ops;
identifier shape.fn, convert.fn_iter;
expression flags;
@@
struct proc_ops ops = {
	...,
-	.proc_read = fn,
+	.proc_read_iter = fn_iter,
	...,
-	.proc_flags = flags,
+	.proc_flags = PROC_ENTRY_READ_SEGMENTS | flags,
	...
};

// A method that never used its struct file does not need the local.
@ depends on patch @
identifier convert.fn_iter, shape.fp;
@@
ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *to)
{
-	struct file *fp = iocb->ki_filp;
	... when != fp
}
