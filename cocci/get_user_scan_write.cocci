// SPDX-License-Identifier: GPL-2.0-only
/// A ->write method that reads its user buffer one byte at a time, in a
/// loop "for (i = 0; i != count; i++)" (or "i < count", "++i") around
/// "if (get_user(c, buf + i))" (or "&buf[i]") with c a char, the
/// magic-character scan of the watchdog drivers, and that never uses the
/// buffer, the count or the position otherwise (the count may be tested
/// and returned), becomes a ->write_iter method that takes each byte with
/// "copy_from_iter(&c, 1, from) != 1". The loop still runs from the first
/// byte to the last one byte at a time, so the iterator gives the bytes
/// get_user() read, in the same order, and a fault at any of them gives
/// -EFAULT at the same point, after the same side effects. The count is
/// iov_iter_count() of the iterator on entry.
/// The file_operations get FOP_WRITE_SEGMENTS (or-ed into an existing
/// .fop_flags): writev(), pwritev2(), io_submit() and io_uring keep calling
/// the method once per segment (a scan that clears its flag on entry must
/// see each segment on its own, as it did) and refusing RWF_* flags, as
/// the ->write emulation did on 6.12; no ->splice_write is added.
///
/// A ->proc_write of a proc_ops is taken the same way: it becomes a
/// ->proc_write_iter, and the proc_ops get PROC_ENTRY_WRITE_SEGMENTS
/// (or-ed into an existing .proc_flags).
//
// Confidence: Moderate: read every result, in particular that the loop
// reads one byte per pass before any "continue", and whether the file can
// be polled (then it needs IOCB_NOWAIT by hand). Alignment of the new
// initializers is left to align_initializers.py.
// Options: --no-includes --include-headers

virtual patch

@ shape depends on patch @
attribute name __user;
identifier fn, fp, buf, count, ppos, i, c;
statement S;
position pf, pb, pi;
@@
ssize_t fn@pf(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+...
	for (i@pi = 0; \(i != count\|i < count\); \(i++\|++i\)) {
		...
(
		if (get_user(c, buf@pb + i)) S
|
		if (get_user(c, &buf@pb[i])) S
)
		...
	}
	...+>
}

@ is_char depends on patch @
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos, shape.c;
@@
ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... char c; ...+>
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
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos, shape.i;
expression E;
position q : script:python(shape.pi) { q[0].line != pi[0].line or q[0].column != pi[0].column };
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
|
	ppos
|
	i@q = E
|
	i += E
|
	i -= E
|
	i--
|
	--i
|
	&i
)
	...+>
}

@ convert depends on patch && is_char && !other_buf && !other_count @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos, shape.i, shape.c;
statement shape.S;
fresh identifier fn_iter = fn ## "_iter";
@@
-ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
+ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
+	struct file *fp = iocb->ki_filp;
+	size_t count = iov_iter_count(from);
	<...
(
-	if (get_user(c, buf + i))
+	if (copy_from_iter(&c, 1, from) != 1)
	S
|
-	if (get_user(c, &buf[i]))
+	if (copy_from_iter(&c, 1, from) != 1)
	S
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
