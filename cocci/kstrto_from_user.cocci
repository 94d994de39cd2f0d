// SPDX-License-Identifier: GPL-2.0-only
/// A ->write method whose only use of the user buffer is one
/// kstrto*_from_user(buf, count, ...) call, with the count it was given
/// and no use of the position but for one "*ppos += count;" (which
/// becomes "iocb->ki_pos += count;"), becomes a ->write_iter method
/// around the kstrto*_from_iter() twin: the count is iov_iter_count() of the
/// iterator, which the helper consumes on success and leaves alone on
/// failure. The file_operations get FOP_WRITE_SEGMENTS (or-ed into an
/// existing .fop_flags): each write sets one value, so writev(),
/// pwritev2(), io_submit() and io_uring keep calling the method once per
/// segment and refusing RWF_* flags, as the ->write emulation did on 6.12,
/// and no ->splice_write is added. kstrtou64_from_user() becomes
/// kstrtoull_from_iter() (u64 is unsigned long long on every
/// architecture); the variants without an iter twin (s8, s16, long long)
/// are left alone.
///
/// memdup_user(buf, count) and memdup_user_nul(buf, count), with the
/// whole count, are taken the same way: memdup_iter() and
/// memdup_iter_nul() allocate the same way, copy the same bytes, fail
/// with the same errors and consume the count on success. A call with
/// another length is left alone: memdup_user() may read past the count
/// (a fixed-size struct), which an iterator cannot.
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
// place, for the compile proof's -Wunused-variable to show: a rule that
// removed it also removed it from methods that use it after a goto.
// Options: --no-includes --include-headers

virtual patch

@ shape depends on patch @
attribute name __user;
identifier fn, fp, buf, count, ppos;
identifier kfu = {kstrtoull_from_user, kstrtoul_from_user, kstrtouint_from_user, kstrtoint_from_user, kstrtobool_from_user, kstrtou32_from_user, kstrtos32_from_user, kstrtou64_from_user, kstrtol_from_user, kstrtou16_from_user, kstrtou8_from_user, memdup_user, memdup_user_nul};
position pb;
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... kfu(buf@pb, count, ...) ...+>
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

// The position may be used in one way only: one "*ppos += count;", the
// tracing files' way of reporting the whole write, which becomes
// "iocb->ki_pos += count;" (vfs_write() and the emulation store
// iocb->ki_pos back as they stored *ppos). Any other use, or a second
// such statement, keeps the method out.
@ ppos_inc depends on patch @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
position pa;
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... *ppos@pa += count; ...+>
}

@ other_ppos depends on patch && !ppos_inc @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... ppos ...+>
}

@ other_ppos_inc depends on patch && ppos_inc @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
position q : script:python(ppos_inc.pa) { q[0].line != pa[0].line or q[0].column != pa[0].column };
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... ppos@q ...+>
}

@ script:python newname depends on patch && !other_buf && !other_count && !other_ppos && !other_ppos_inc @
kfu << shape.kfu;
kfi;
@@
m = {"kstrtou64_from_user": "kstrtoull_from_iter",
     "memdup_user": "memdup_iter", "memdup_user_nul": "memdup_iter_nul"}
coccinelle.kfi = cocci.make_ident(m.get(kfu, kfu.replace("_from_user", "_from_iter")))

@ convert depends on patch && !other_buf && !other_count && !other_ppos && !other_ppos_inc @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos, shape.kfu;
identifier newname.kfi;
fresh identifier fn_iter = fn ## "_iter";
@@
-ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
+ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
+	struct file *fp = iocb->ki_filp;
+	size_t count = iov_iter_count(from);
	<...
(
-	kfu(buf, count)
+	kfi(from, count)
|
-	kfu(buf, count,
+	kfi(from,
	    ...)
|
-	*ppos += count
+	iocb->ki_pos += count
)
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
