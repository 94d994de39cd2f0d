// SPDX-License-Identifier: GPL-2.0-only
/// seq_read() is a ubuf wrapper around seq_read_iter(): wire ->read_iter
/// to seq_read_iter() instead, and let the file splice with
/// copy_splice_read() unless it already has a ->splice_read. A seq_file
/// read does not depend on segment boundaries, so readv() may make one
/// call; FOP_READ_NO_RWF keeps preadv2() refusing RWF_* flags as it did.
/// A structure that already has .fop_flags needs the flag added by hand.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch

@ has_splice depends on patch @
symbol seq_read;
identifier ops;
expression E;
@@
struct file_operations ops = {
	...,
	.splice_read = E,
	...
};

@ depends on patch && has_splice @
symbol seq_read;
identifier has_splice.ops;
@@
struct file_operations ops = {
	...,
-	.read = seq_read,
+	.read_iter = seq_read_iter,
+	.fop_flags = FOP_READ_NO_RWF,
	...
};

@ depends on patch @
symbol seq_read;
identifier ops != has_splice.ops;
@@
struct file_operations ops = {
	...,
-	.read = seq_read,
+	.read_iter = seq_read_iter,
+	.fop_flags = FOP_READ_NO_RWF,
+	.splice_read = copy_splice_read,
	...
};
