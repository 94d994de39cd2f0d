// SPDX-License-Identifier: GPL-2.0-only
/// Directories refuse read() with generic_read_dir(), a ->read method; use
/// its ->read_iter twin so that readv(), io_submit() and io_uring give
/// -EISDIR too instead of going through the ->read emulation.
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
+	.read_iter = generic_read_dir_iter,
	...
};
