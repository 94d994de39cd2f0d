// SPDX-License-Identifier: GPL-2.0-only
/// A proc_ops whose ->proc_read is seq_read() gets ->proc_read_iter =
/// seq_read_iter() instead: seq_read() is only a single-buffer wrapper
/// around seq_read_iter(), which procfs would otherwise run through the
/// emulation loop. PROC_ENTRY_READ_SEGMENTS keeps what readers saw: the
/// entry stays on proc_reg_file_ops (preadv2() refuses RWF_* flags, no
/// splice), and readv() and the vectored AIO commands keep calling it once
/// per segment, since a seq_file that does not resume exactly where it
/// stopped (/proc/kallsyms) returns other bytes to one call for a whole
/// vector. ->proc_write is left alone.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch

@ conv depends on patch @
symbol seq_read, seq_read_iter;
identifier ops;
@@
struct proc_ops ops = {
	...,
-	.proc_read = seq_read,
+	.proc_read_iter = seq_read_iter,
	...
};

@ has_flags depends on conv @
identifier conv.ops;
expression E;
@@
struct proc_ops ops = {
	...,
	.proc_flags =
-	E
+	E | PROC_ENTRY_READ_SEGMENTS
	,
	...
};

@ depends on conv && !has_flags @
identifier conv.ops;
@@
struct proc_ops ops = {
+	.proc_flags = PROC_ENTRY_READ_SEGMENTS,
	...,
	.proc_read_iter = seq_read_iter,
	...
};
