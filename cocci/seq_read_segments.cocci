// SPDX-License-Identifier: GPL-2.0-only
/// A file_operations whose ->read is seq_read() gets ->read_iter =
/// seq_read_iter() and FOP_READ_SEGMENTS: read() makes one call of
/// seq_read_iter() as seq_read() did, and readv(), preadv2() and
/// IOCB_CMD_PREADV call it once per segment and refuse RWF_* flags, as the
/// emulation of ->read did on 6.12, so a seq_file whose iterator does not
/// resume exactly where a call stopped still returns the same bytes. No
/// ->splice_read is added: splice() and sendfile() keep failing with EINVAL.
/// A structure that already has .fop_flags gets the flag or-ed in. A
/// structure that already has .read_iter = seq_read_iter only loses its
/// .read: readv() and preadv2() went through ->read_iter on 6.12 already.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch

@ has_iter depends on patch @
symbol seq_read, seq_read_iter;
identifier ops;
@@
struct file_operations ops = {
	...,
-	.read = seq_read,
	...,
	.read_iter = seq_read_iter,
	...
};

@ has_flags depends on patch @
symbol seq_read;
identifier ops;
expression F;
@@
struct file_operations ops = {
	...,
	.read = seq_read,
	...,
	.fop_flags = F,
	...
};

@ depends on patch && has_flags @
symbol seq_read, seq_read_iter;
identifier has_flags.ops != has_iter.ops;
expression has_flags.F;
@@
struct file_operations ops = {
	...,
-	.read = seq_read,
+	.read_iter = seq_read_iter,
	...,
-	.fop_flags = F,
+	.fop_flags = F | FOP_READ_SEGMENTS,
	...
};

@ depends on patch @
symbol seq_read, seq_read_iter;
identifier ops != {has_flags.ops, has_iter.ops};
@@
struct file_operations ops = {
	...,
-	.read = seq_read,
+	.read_iter = seq_read_iter,
+	.fop_flags = FOP_READ_SEGMENTS,
	...
};
