// SPDX-License-Identifier: GPL-2.0
/*
 * make run: show vectored AIO working. One IOCB_CMD_PWRITEV gathers three
 * buffers into a file, one IOCB_CMD_PREADV scatters the file back into three
 * buffers of other sizes, through libaio's io_prep_pwritev/io_prep_preadv;
 * then one IOCB_CMD_PWRITEV on an eventfd, whose write side 6.12 gives only
 * ->write (the series converts it to ->write_iter).
 * Every byte is checked and every io_event printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <unistd.h>

static unsigned char byte_at(long off)
{
	return 'a' + off % 26;
}

static void show_event(const char *what, const struct io_event *ev)
{
	printf("  io_event: obj=%p res=%ld res2=%ld (%s)\n", (void *)ev->obj,
	       (long)ev->res, (long)ev->res2, what);
}

static int check(const char *name, const unsigned char *buf, size_t len,
		 long off)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] != byte_at(off + i)) {
			printf("  %s: byte %zu is 0x%02x, expected 0x%02x: FAIL\n",
			       name, i, buf[i], byte_at(off + i));
			return 1;
		}
	}
	printf("  %s: %zu bytes from file offset %ld, all as expected: \"%.*s...\"\n",
	       name, len, off, 12, (const char *)buf);
	return 0;
}

/*
 * An eventfd, whose write side has only ->write in 6.12: io_submit() refuses
 * it with EINVAL there. With the series it has ->write_iter, called once per
 * segment as writev() calls it: each 8-byte segment adds one value.
 */
static int legacy_file(io_context_t ctx)
{
	uint64_t val[3] = { 100, 20, 201 }, sum = 0;
	struct iovec iov[3] = { { &val[0], 8 }, { &val[1], 8 }, { &val[2], 8 } };
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	int efd, ret;

	efd = eventfd(0, EFD_NONBLOCK);
	if (efd < 0) {
		perror("eventfd");
		return 1;
	}
	printf("IOCB_CMD_PWRITEV on an eventfd (->write only in 6.12): the values 100, 20 and 201 in 3 segments of 8 bytes\n");
	io_prep_pwritev(&cb, efd, iov, 3, 0);
	ret = io_submit(ctx, 1, cbs);
	printf("  io_submit: %d%s%s\n", ret, ret < 0 ? " " : "",
	       ret < 0 ? strerror(-ret) : "");
	if (ret != 1)
		return 1;
	if (io_getevents(ctx, 1, 1, &ev, NULL) != 1)
		return 1;
	show_event("bytes written", &ev);
	if (read(efd, &sum, 8) != 8)
		return 1;
	printf("  read() of the eventfd: %llu\n", (unsigned long long)sum);
	close(efd);
	if ((long)ev.res != 24 || sum != 321) {
		printf("  expected res=24 and 321: FAIL\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "vaio-demo.dat";
	static unsigned char w[3][4096], r[3][4096];
	const size_t wlen[3] = { 100, 4000, 23 }, rlen[3] = { 1000, 3000, 123 };
	struct iovec wiov[3], riov[3];
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	io_context_t ctx = 0;
	long off = 0, total = 0;
	int fd, i, ret, bad = 0;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	ret = io_setup(4, &ctx);
	if (ret) {
		printf("io_setup: %s\n", strerror(-ret));
		return 1;
	}

	for (i = 0; i < 3; i++) {
		size_t j;

		for (j = 0; j < wlen[i]; j++)
			w[i][j] = byte_at(off + j);
		wiov[i] = (struct iovec){ w[i], wlen[i] };
		off += wlen[i];
	}
	total = off;
	printf("IOCB_CMD_PWRITEV: gather 3 buffers (%zu + %zu + %zu bytes) into %s\n",
	       wlen[0], wlen[1], wlen[2], path);
	io_prep_pwritev(&cb, fd, wiov, 3, 0);
	ret = io_submit(ctx, 1, cbs);
	printf("  io_submit: %d\n", ret);
	if (ret != 1)
		return 1;
	ret = io_getevents(ctx, 1, 1, &ev, NULL);
	if (ret != 1)
		return 1;
	show_event("bytes written", &ev);
	if ((long)ev.res != total) {
		printf("  expected res=%ld: FAIL\n", total);
		bad = 1;
	}

	printf("IOCB_CMD_PREADV: scatter %s into 3 buffers (%zu + %zu + %zu bytes)\n",
	       path, rlen[0], rlen[1], rlen[2]);
	for (i = 0; i < 3; i++)
		riov[i] = (struct iovec){ r[i], rlen[i] };
	io_prep_preadv(&cb, fd, riov, 3, 0);
	ret = io_submit(ctx, 1, cbs);
	printf("  io_submit: %d\n", ret);
	if (ret != 1)
		return 1;
	ret = io_getevents(ctx, 1, 1, &ev, NULL);
	if (ret != 1)
		return 1;
	show_event("bytes read", &ev);
	if ((long)ev.res != total) {
		printf("  expected res=%ld: FAIL\n", total);
		bad = 1;
	}
	off = 0;
	for (i = 0; i < 3 && off < total; i++) {
		size_t n = rlen[i] < (size_t)(total - off) ? rlen[i] : total - off;
		char name[16];

		snprintf(name, sizeof(name), "buffer %d", i);
		bad |= check(name, r[i], n, off);
		off += n;
	}
	close(fd);
	bad |= legacy_file(ctx);
	io_destroy(ctx);
	printf("%s\n", bad ? "vectored AIO demo: FAILED" : "vectored AIO demo: all bytes and results as expected");
	return bad;
}
