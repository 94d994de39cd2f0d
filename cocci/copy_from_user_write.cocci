// SPDX-License-Identifier: GPL-2.0-only
/// A ->write method whose only use of the user buffer is one
/// "if (copy_from_user(to, buf, len))" test, where len is the count it was
/// given or at most that count (min(count, E), min_t(T, count, E) or the
/// same with the arguments swapped, written out in the call or in a local
/// variable that is given no other value and not changed otherwise), and
/// which never uses the
/// position nor changes the count, becomes a ->write_iter method that
/// tests "!copy_from_iter_full(to, len, from)": the same bytes are copied
/// to the same place and a fault in them gives the same error, since
/// copy_from_user() fails when any byte cannot be copied and
/// copy_from_iter_full() then fails too. The count, where the method still
/// uses it, is iov_iter_count() of the iterator on entry. A length that may
/// exceed the count (a fixed-size structure) is left alone:
/// copy_from_user() may read past the count, which an iterator cannot.
/// The file_operations get FOP_WRITE_SEGMENTS (or-ed into an existing
/// .fop_flags): writev(), pwritev2(), io_submit() and io_uring keep calling
/// the method once per segment and refusing RWF_* flags, as the ->write
/// emulation did on 6.12, and no ->splice_write is added.
///
/// A ->proc_write of a proc_ops is taken the same way: it becomes a
/// ->proc_write_iter, and the proc_ops get PROC_ENTRY_WRITE_SEGMENTS
/// (or-ed into an existing .proc_flags), with which procfs calls it once
/// per segment and refuses RWF_* flags, as it did with ->proc_write.
//
// Confidence: Moderate: read every result, in particular whether the file
// is a device that blocks or can be polled (then it needs IOCB_NOWAIT by
// hand); a method also called directly or named by a macro fails to
// build, which the compile proof shows. Alignment of the new initializers
// is left to a second pass (align_initializers.py).
// Options: --no-includes --include-headers

virtual patch

@ shape depends on patch @
attribute name __user;
identifier fn, fp, buf, count, ppos;
expression to, len;
statement S;
position pb, pf;
@@
ssize_t fn@pf(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
{
	<+... if (copy_from_user(to, buf@pb, len)) S ...+>
}

@ script:python len_ok @
len << shape.len;
count << shape.count;
pf << shape.pf;
@@
import re

def bounded(expr, c):
    # expr is count, or min()/min_t() of count and something else
    e = "".join(expr.split())
    raw = c
    c = re.escape(c)
    return (e == raw or
            re.fullmatch(r"min\(%s,.*\)" % c, e) is not None or
            re.fullmatch(r"min\(.*,%s\)" % c, e) is not None or
            re.fullmatch(r"min_t\([^,]+,%s,.*\)" % c, e) is not None or
            re.fullmatch(r"min_t\([^,]+,.*,%s\)" % c, e) is not None)

def function_text(filename, line):
    # the lines of the function that starts at line, up to its closing brace
    lines = open(filename).read().split("\n")
    out = []
    for l in lines[line - 1:]:
        out.append(l)
        if l.startswith("}"):
            break
    return "\n".join(out)

l = "".join(len.split())
ok = bounded(l, count)
if not ok and re.fullmatch(r"[A-Za-z_]\w*", l) and l != count:
    # A length in a local variable: every value it is given in the method
    # must be bounded by the count, and it must be given one; it must not
    # be changed otherwise (++, +=, &len).
    body = function_text(pf[0].file, int(pf[0].line))
    flat = " ".join(body.split())
    v = re.escape(l)
    sets = re.findall(r"(?<![\w.>])%s\s*=(?!=)\s*([^;]*);" % v, flat)
    other = re.search(r"(?<![\w.>])%s\s*(\+\+|--|[-+*/|&^]=)|&\s*%s\b|\+\+\s*%s\b|--\s*%s\b" % (v, v, v, v), flat)
    ok = bool(sets) and all(bounded(e, count) for e in sets) and not other
if not ok:
    cocci.include_match(False)

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
|
	ppos
)
	...+>
}

@ convert depends on patch && !other_buf && !other_count @
attribute name __user;
identifier shape.fn, shape.fp, shape.buf, shape.count, shape.ppos;
expression shape.to, shape.len;
statement shape.S;
fresh identifier fn_iter = fn ## "_iter";
@@
-ssize_t fn(struct file *fp, const char __user *buf, size_t count, loff_t *ppos)
+ssize_t fn_iter(struct kiocb *iocb, struct iov_iter *from)
{
+	struct file *fp = iocb->ki_filp;
+	size_t count = iov_iter_count(from);
	<...
-	if (copy_from_user(to, buf, len))
+	if (!copy_from_iter_full(to, len, from))
	S
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
