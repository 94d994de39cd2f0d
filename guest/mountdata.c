// SPDX-License-Identifier: GPL-2.0
/*
 * mountdata: mount(2) with the option string passed to the file system
 * as it is. busybox's mount turns an "nfs" mount into the binary data of
 * NFSv2/v3; the kernel's NFSv4 and SMB3 clients take text.
 *
 * usage: mountdata <type> <source> <target> <options>
 * Exits 0 once mounted, 1 with the error otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: mountdata <type> <source> <target> <options>\n");
		return 2;
	}
	if (mount(argv[2], argv[3], argv[1], 0, argv[4])) {
		fprintf(stderr, "mountdata: %s on %s (%s): %s\n", argv[2], argv[3],
			argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
