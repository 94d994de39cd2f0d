// SPDX-License-Identifier: GPL-2.0-only
/// Directories refuse read() with generic_read_dir(), a ->read method; use
/// its ->read_iter twin so that readv(), io_submit() and io_uring give
/// -EISDIR too instead of going through the ->read emulation, and keep
/// preadv2()'s refusal of RWF_* flags with FOP_READ_NO_RWF. A structure
/// that already has .fop_flags needs the flag added by hand.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch

@ depends on patch @
symbol generic_read_dir;
identifier ops;
@@
struct file_operations ops = {
	...,
-	.read = generic_read_dir,
+	.read_iter = generic_dir_read_iter,
+	.fop_flags = FOP_READ_NO_RWF,
	...
};
