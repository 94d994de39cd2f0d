// SPDX-License-Identifier: GPL-2.0
/*
 * make profile: the guest's workload for bench/insnprof.c. One run does one
 * operation iters times, between prof_start() and prof_stop(), whose
 * addresses scripts/profile.sh gives the plugin:
 *
 *   callprof <label> <path|eventfd> <op> <len> <iters>
 *
 * <op> is read, write, pread or pwrite of len bytes, or readv-<n>, writev-<n>,
 * preadv-<n> or pwritev-<n>: a vector of n segments of len bytes each, all
 * over the same bytes of the buffer (so that each segment of a write carries
 * the same value), at offset 0 for the p* forms. aio-pread and aio-pwrite
 * are one IOCB_CMD_PREAD or IOCB_CMD_PWRITE of len bytes at offset 0: an
 * io_submit() of it and the io_getevents() that reaps its event.
 *
 * "eventfd" is an eventfd in semaphore mode with a large counter, so that
 * reads and writes of 8 bytes always succeed. A write writes the bytes that
 * a read() of the file gives first (a file's own value written back). The operation runs iters
 * times before prof_start() too, so that the counted loop runs on warm
 * caches and translated code. Prints "callprof <label> iters=<n> ret=<r>"
 * (the last operation's result, or -errno).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/aio_abi.h>

static char buf[1 << 20] __attribute__((aligned(4096)));

__attribute__((noinline)) void prof_start(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void prof_stop(void)
{
	__asm__ volatile("" ::: "memory");
}

#define MAX_SEGS 1024
static struct iovec iov[MAX_SEGS];

static aio_context_t ctx;

static long aio_op(int fd, unsigned int cmd, size_t len)
{
	struct iocb cb = {
		.aio_fildes = fd,
		.aio_lio_opcode = cmd,
		.aio_buf = (uintptr_t)buf,
		.aio_nbytes = len,
	};
	struct iocb *cbp = &cb;
	struct io_event ev;

	if (syscall(__NR_io_submit, ctx, 1, &cbp) != 1)
		return -errno;
	if (syscall(__NR_io_getevents, ctx, 1, 1, &ev, NULL) != 1)
		return -errno;
	return ev.res;
}

static long op(int fd, const char *what, size_t len, int segs)
{
	long r;

	if (segs) {
		if (!strncmp(what, "readv", 5))
			r = readv(fd, iov, segs);
		else if (!strncmp(what, "writev", 6))
			r = writev(fd, iov, segs);
		else if (!strncmp(what, "preadv", 6))
			r = preadv(fd, iov, segs, 0);
		else
			r = pwritev(fd, iov, segs, 0);
	} else if (!strcmp(what, "read"))
		r = read(fd, buf, len);
	else if (!strcmp(what, "write"))
		r = write(fd, buf, len);
	else if (!strcmp(what, "pread"))
		r = pread(fd, buf, len, 0);
	else
		r = pwrite(fd, buf, len, 0);
	return r < 0 ? -errno : r;
}

int main(int argc, char **argv)
{
	long iters, i, r = 0;
	const char *dash;
	int fd, segs = 0, aio = -1;
	size_t len;

	if (argc != 6) {
		fprintf(stderr, "usage: callprof label path|eventfd op len iters\n");
		return 2;
	}
	len = strtoul(argv[4], NULL, 0);
	iters = strtol(argv[5], NULL, 0);
	if (len > sizeof(buf))
		return 2;
	if (!strncmp(argv[3], "aio-", 4)) {
		dash = NULL;
		aio = strcmp(argv[3], "aio-pwrite") ? IOCB_CMD_PREAD :
						      IOCB_CMD_PWRITE;
		if (syscall(__NR_io_setup, 8, &ctx)) {
			printf("callprof %s iters=0 ret=%d\n", argv[1], -errno);
			prof_start();
			prof_stop();
			return 0;
		}
	} else {
		dash = strchr(argv[3], '-');
	}
	if (dash) {
		segs = atoi(dash + 1);
		if (segs < 1 || segs > MAX_SEGS)
			return 2;
		for (i = 0; i < segs; i++)
			iov[i] = (struct iovec){ .iov_base = buf, .iov_len = len };
	}
	if (!strcmp(argv[2], "eventfd")) {
		fd = eventfd(1u << 30, EFD_SEMAPHORE);
		*(uint64_t *)buf = 1;
	} else {
		int flags = strstr(argv[3], "read") ? O_RDONLY : O_WRONLY;

		/* A write writes what the file holds (read() from its start,
		 * which works on files that cannot seek too), or zeroes. */
		if (flags & O_WRONLY) {
			int rfd = open(argv[2], O_RDONLY);

			if (rfd >= 0 && read(rfd, buf, len) < 0)
				memset(buf, 0, len);
			if (rfd >= 0)
				close(rfd);
		}
		fd = open(argv[2], flags);
	}
	if (fd < 0) {
		printf("callprof %s iters=0 ret=%d\n", argv[1], -errno);
		/* an empty window all the same, to keep the count */
		prof_start();
		prof_stop();
		return 0;
	}
	if (aio >= 0) {
		/* A loop of its own: the others' stays as it was. */
		for (i = 0; i < iters; i++)
			r = aio_op(fd, aio, len);
		prof_start();
		for (i = 0; i < iters; i++)
			r = aio_op(fd, aio, len);
		prof_stop();
		printf("callprof %s iters=%ld ret=%ld\n", argv[1], iters, r);
		return 0;
	}
	for (i = 0; i < iters; i++)
		r = op(fd, argv[3], len, segs);
	prof_start();
	for (i = 0; i < iters; i++)
		r = op(fd, argv[3], len, segs);
	prof_stop();
	printf("callprof %s iters=%ld ret=%ld\n", argv[1], iters, r);
	return 0;
}
