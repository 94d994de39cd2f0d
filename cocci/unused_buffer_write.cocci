// SPDX-License-Identifier: GPL-2.0-only
/// A ->write method that never looks at what it is given to write: the
/// buffer and the position are not used at all, the count at most read
/// (tested, returned), as in the watchdog drivers whose every write is a
/// ping. It becomes a ->write_iter method whose count is iov_iter_count()
/// of the iterator on entry and which leaves the iterator alone: the
/// same calls return the same values after the same side effects, and a
/// buffer the method never read cannot fault in it now either (the
/// checks before the call, access_ok() of every segment, are the same).
/// The file_operations get FOP_WRITE_SEGMENTS (or-ed into an existing
/// .fop_flags): writev(), pwritev2(), io_submit() and io_uring keep calling
/// the method once per segment, so a ping per segment and a return value
/// that is not the count (which ended the old writev() loop) stay as they
/// were, and RWF_* flags are refused as the ->write emulation did on 6.12;
/// no ->splice_write is added.
///
/// A ->proc_write of a proc_ops is taken the same way: it becomes a
/// ->proc_write_iter, and the proc_ops get PROC_ENTRY_WRITE_SEGMENTS
/// (or-ed into an existing .proc_flags).
//
// Confidence: High for what it changes; read every result all the same,
// in particular whether the file can be polled (then it needs IOCB_NOWAIT
// by hand). Alignment of the new initializers is left to
// align_initializers.py.
// Options: --no-includes --include-headers

virtual patch

@ shape depends on patch @
attribute name __user;
identifier fn, fp, buf, count, ppos;
position pf;
@@
ssize_t fn@pf(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	... when != buf
	    when != ppos
}

@ other_count depends on patch @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
expression E;
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+...
(
	count = E
|
	count += E
|
	count -= E
|
	count++
|
	count--
|
	&count
)
	...+>
}

@ convert depends on patch && !other_count @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
fresh identifier fn_iter = fn ## "_iter";
@@
-ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
+ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
+	struct file *fp = iocb->ki_filp;
+	size_t count = iov_iter_count(from);
	...
}

@ has_flags depends on patch @
identifier ops;
identifier shape.fn;
expression flags;
@@
struct file_operations ops = {
	...,
	.write = fn,
	...,
	.fop_flags = flags,
	...
};

@ depends on patch && !has_flags @
identifier ops;
identifier shape.fn, convert.fn_iter;
@@
struct file_operations ops = {
	...,
-	.write = fn,
+	.write_iter = fn_iter,
+	.fop_flags = FOP_WRITE_SEGMENTS,
	...
};

@ depends on patch && has_flags @
identifier ops;
identifier shape.fn, convert.fn_iter;
expression flags;
@@
struct file_operations ops = {
	...,
-	.write = fn,
+	.write_iter = fn_iter,
	...,
-	.fop_flags = flags,
+	.fop_flags = flags | FOP_WRITE_SEGMENTS,
	...
};

// The same for the ->proc_write of a proc_ops: ->proc_write_iter, and
// PROC_ENTRY_WRITE_SEGMENTS, with which procfs calls it once per segment
// and refuses RWF_* flags, as it did with ->proc_write.
@ has_pflags depends on patch @
identifier ops;
identifier shape.fn;
expression flags;
@@
struct proc_ops ops = {
	...,
	.proc_write = fn,
	...,
	.proc_flags = flags,
	...
};

@ depends on patch && !has_pflags @
identifier ops;
identifier shape.fn, convert.fn_iter;
@@
struct proc_ops ops = {
	...,
-	.proc_write = fn,
+	.proc_write_iter = fn_iter,
+	.proc_flags = PROC_ENTRY_WRITE_SEGMENTS,
	...
};

@ depends on patch && has_pflags @
identifier ops;
identifier shape.fn, convert.fn_iter;
expression flags;
@@
struct proc_ops ops = {
	...,
-	.proc_write = fn,
+	.proc_write_iter = fn_iter,
	...,
-	.proc_flags = flags,
+	.proc_flags = flags | PROC_ENTRY_WRITE_SEGMENTS,
	...
};

// A method that never used its struct file does not need it.
@ depends on patch @
identifier convert.fn_iter, shape.fp;
@@
ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
-	struct file *fp = iocb->ki_filp;
	... when != fp
}

// Nor the count.
@ count_used exists @
identifier convert.fn_iter, shape.count;
@@
ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
	...
	size_t count = iov_iter_count(from);
	... when any
	count
	... when any
}

@ depends on patch && !count_used @
identifier convert.fn_iter, shape.count;
@@
ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
	...
-	size_t count = iov_iter_count(from);
	...
}
