// SPDX-License-Identifier: GPL-2.0-only
/// A ->read method whose only use of the user buffer, the count and the
/// position is one "E = simple_read_from_buffer(buf, count, ppos, from,
/// avail)" whose value it keeps (to free a buffer first, or to return it
/// after other work), not "return simple_read_from_buffer(...)", which
/// simple_read_from_buffer.cocci takes, becomes a ->read_iter method with
/// "E = simple_read_iter_from_buffer(iocb, to, from, avail)": the same
/// bytes at the same position, the same errors, and the position
/// (iocb->ki_pos) moved the same way. The file_operations get
/// FOP_READ_SEGMENTS (or-ed into an existing .fop_flags): readv(),
/// preadv2(), io_submit() and io_uring keep calling the method once per
/// segment and refusing RWF_* flags, as the ->read emulation did on 6.12,
/// and no ->splice_read is added. A ->proc_read of a proc_ops is taken the
/// same way (->proc_read_iter, PROC_ENTRY_READ_SEGMENTS).
//
// simple_read_from_buffer_general.cocci, written after this one, takes
// everything this script takes and also methods that read the count or
// *ppos besides the call; this one stays because patches 0543-0592 were
// made with it and name it.
//
// Confidence: Moderate: read every result; a method named by a macro or a
// table fails to build, which the compile proof shows, and a forward
// declaration of the method is left to fix_prototypes.py. Alignment of the
// new initializers is left to align_initializers.py.
// Options: --no-includes --include-headers

virtual patch

@ shape depends on patch @
attribute name __user;
identifier fn, fp, buf, count, ppos;
expression E, from, avail;
position pf, pb, pc, pp;
@@
ssize_t fn@pf(struct file *fp, char __user *buf, size_t count, loff_t *ppos)
{
	<+... E = simple_read_from_buffer(buf@pb, count@pc, ppos@pp, from, avail) ...+>
}

@ other depends on patch @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
position q1 : script:python(shape.pb) { q1[0].line != pb[0].line or q1[0].column != pb[0].column };
position q2 : script:python(shape.pc) { q2[0].line != pc[0].line or q2[0].column != pc[0].column };
position q3 : script:python(shape.pp) { q3[0].line != pp[0].line or q3[0].column != pp[0].column };
@@
ssize_t fn(struct file *fp, char __user *buf, size_t count, loff_t *ppos)
{
	<+...
(
	buf@q1
|
	count@q2
|
	ppos@q3
)
	...+>
}

@ convert depends on patch && !other @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
expression shape.E, shape.from, shape.avail;
fresh identifier fn_iter = fn ## "_iter";
@@
-ssize_t fn(struct file *fp, char __user *buf, size_t count, loff_t *ppos)
+ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *to)
{
+	struct file *fp = iocb->ki_filp;
	<...
-	E = simple_read_from_buffer(buf, count, ppos, from, avail)
+	E = simple_read_iter_from_buffer(iocb, to, from, avail)
	...>
}

@ has_rflags depends on patch @
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

@ depends on patch && !has_rflags @
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
@ depends on patch && has_rflags @
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
@ has_prflags depends on patch @
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

@ depends on patch && !has_prflags @
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

@ depends on patch && has_prflags @
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
