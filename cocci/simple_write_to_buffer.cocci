// SPDX-License-Identifier: GPL-2.0-only
/// A ->write method whose only use of the user buffer and of the position
/// is one simple_write_to_buffer(to, size, ppos, buf, count) call, with the
/// count it was given, becomes a ->write_iter method around
/// simple_write_iter_to_buffer(to, size, iocb, from): the same bytes are
/// copied to the same place (iocb->ki_pos, the position the method used
/// to get as *ppos), with the same return value and errors, and the
/// position advances by the same amount. The count, where the method
/// still uses it, is iov_iter_count() of the iterator on entry.
/// The file_operations get FOP_WRITE_SEGMENTS (or-ed into an existing
/// .fop_flags): such a method parses what one write() gave it, so
/// writev(), pwritev2(), io_submit() and io_uring keep calling it once per
/// segment and refusing RWF_* flags, as the ->write emulation did on 6.12,
/// and no ->splice_write is added.
///
/// A ->proc_write of a proc_ops is taken the same way: it becomes a
/// ->proc_write_iter, and the proc_ops get PROC_ENTRY_WRITE_SEGMENTS
/// (or-ed into an existing .proc_flags), with which procfs calls it once
/// per segment and refuses RWF_* flags, as it did with ->proc_write.
//
// Confidence: Moderate: read every result; a method also called directly
// or named by a macro fails to build, which the compile proof shows.
// Alignment of the new initializers is left to a second pass
// (align_initializers.py). A count the method no longer uses is left in
// place, for the compile proof's -Wunused-variable to show.
// Options: --no-includes --include-headers

virtual patch

@ shape depends on patch @
attribute name __user;
identifier fn, fp, buf, count, ppos;
expression to, size;
position pb, pp;
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... simple_write_to_buffer(to, size, ppos@pp, buf@pb, count) ...+>
}

@ other_buf depends on patch @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
position q : script:python(shape.pb) { q[0].line != pb[0].line or q[0].column != pb[0].column };
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... buf@q ...+>
}

@ other_ppos depends on patch @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
position q : script:python(shape.pp) { q[0].line != pp[0].line or q[0].column != pp[0].column };
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... ppos@q ...+>
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

@ convert depends on patch && !other_buf && !other_ppos && !other_count @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
expression to, size;
fresh identifier fn_iter = fn ## "_iter";
@@
-ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
+ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
+	struct file *fp = iocb->ki_filp;
+	size_t count = iov_iter_count(from);
	<...
-	simple_write_to_buffer(to, size, ppos, buf, count)
+	simple_write_iter_to_buffer(to, size, iocb, from)
	...>
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
