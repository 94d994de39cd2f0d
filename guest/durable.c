// SPDX-License-Identifier: GPL-2.0
/*
 * The reboot half of the durability check (make check, scripts/durability.sh):
 * what IOCB_CMD_PWRITEV wrote to an ext4 file and IOCB_CMD_FDSYNC synced
 * must be there, byte for byte, after the guest went down without sync or
 * unmount. It spans two boots, so it is harness, not a kselftest (the
 * kselftest durability_test covers unmount and mount within one boot).
 *
 *   durable write <file>    create <file>, make its (empty) existence durable
 *                           (fsync of the file and of its directory), write
 *                           the pattern with one IOCB_CMD_PWRITEV, wait,
 *                           IOCB_CMD_FDSYNC, wait, say so, then reboot at
 *                           once: reboot(2) with LINUX_REBOOT_CMD_RESTART, no
 *                           sync, no unmount (QEMU runs with -no-reboot, so
 *                           it exits). Returns only on failure.
 *   durable verify <file>   read <file> back: its size, a hole up to the
 *                           write's offset, then the pattern.
 *
 * Each stage prints one line for scripts/read-results.sh on stdout:
 *   ### durability write ok: <what>    ### durability write fail: <why>
 *   ### durability verify ok: <what>   ### durability verify fail: <why>
 * Every failed call is named with its errno's name.
 *
 * Only the kernel's UAPI headers: the AIO system calls are called directly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <linux/reboot.h>

/* Where and what: seven segments of odd sizes, 342 KiB, at an odd offset. */
#define WRITE_OFF	12345
static const size_t seg_len[] = { 1, 4093, 65537, 100003, 7, 131071, 50001 };
#define NSEG		(sizeof(seg_len) / sizeof(seg_len[0]))

static const char *stage = "?";

static const char *errname(int err)
{
	static char buf[32];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

static void say(const char *verdict, const char *fmt, ...)
{
	va_list ap;

	printf("### durability %s %s: ", stage, verdict);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* A failed call: "<what>: <ERRNO> (<message>)", then exit 1. */
static void __attribute__((noreturn)) fail_errno(int err, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	say("fail", "%s: %s (%s)", what, errname(err), strerror(err));
	exit(1);
}

/*
 * The byte at file offset @off: eight bytes of a 64-bit mix of @off / 8, so
 * that a block written at the wrong place, or twice, does not match.
 */
static unsigned char pattern(uint64_t off)
{
	uint64_t x = (off >> 3) + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return (unsigned char)(x >> ((off & 7) * 8));
}

static size_t total_len(void)
{
	size_t total = 0;
	unsigned int i;

	for (i = 0; i < NSEG; i++)
		total += seg_len[i];
	return total;
}

/* Submit one iocb and wait for its event; fail with the errno otherwise. */
static void run_one(aio_context_t ctx, struct iocb *cb, const char *name,
		    long long expect, const char *path)
{
	struct timespec ts = { .tv_sec = 120 };
	struct iocb *cbs[1] = { cb };
	struct io_event ev;
	long ret;

	ret = syscall(__NR_io_submit, ctx, 1L, cbs);
	if (ret < 0)
		fail_errno(errno, "io_submit %s on %s", name, path);
	if (ret != 1) {
		say("fail", "io_submit %s on %s returned %ld, expected 1", name,
		    path, ret);
		exit(1);
	}
	memset(&ev, 0, sizeof(ev));
	do {
		ret = syscall(__NR_io_getevents, ctx, 1L, 1L, &ev, &ts);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		fail_errno(errno, "io_getevents after %s on %s", name, path);
	if (ret != 1) {
		say("fail", "%s on %s: no completion within %ld s", name, path,
		    (long)ts.tv_sec);
		exit(1);
	}
	if (ev.obj != (uintptr_t)cb) {
		say("fail", "%s on %s: io_event for another iocb", name, path);
		exit(1);
	}
	if ((long long)ev.res < 0)
		fail_errno(-(long long)ev.res, "%s on %s completed with res=%lld",
			   name, path, (long long)ev.res);
	if ((long long)ev.res != expect || ev.res2 != 0) {
		say("fail", "%s on %s: res=%lld res2=%lld, expected res=%lld res2=0",
		    name, path, (long long)ev.res, (long long)ev.res2, expect);
		exit(1);
	}
}

/* Let the results reach the serial port before the guest goes down. */
static void drain(int fd)
{
	if (isatty(fd) && tcdrain(fd) < 0)
		fail_errno(errno, "tcdrain on descriptor %d", fd);
}

/*
 * The write stage reboots the machine it runs on: only in a guest booted
 * for it.
 */
static void check_guest(void)
{
	char line[4096];
	size_t n;
	FILE *f;

	f = fopen("/proc/cmdline", "re");
	if (!f)
		fail_errno(errno, "open /proc/cmdline");
	n = fread(line, 1, sizeof(line) - 1, f);
	line[n] = 0;
	fclose(f);
	if (!strstr(line, "harness.mode=durability-write")) {
		say("fail", "not a guest booted with harness.mode=durability-write: refusing to reboot this machine");
		exit(1);
	}
}

static int write_stage(const char *path)
{
	const size_t total = total_len();
	struct iovec iov[NSEG];
	aio_context_t ctx = 0;
	struct iocb cb;
	char *dir, *copy;
	size_t off = WRITE_OFF;
	unsigned int i, j;
	int fd, dfd;

	check_guest();
	/* A fresh disk (scripts/boot.sh): the file must not be there yet. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		fail_errno(errno, "open %s (O_CREAT|O_EXCL)", path);
	/*
	 * The empty file and its name are made durable first, so that what
	 * verify finds depends on IOCB_CMD_FDSYNC for the data alone.
	 */
	if (fsync(fd) < 0)
		fail_errno(errno, "fsync of the empty %s", path);
	copy = strdup(path);
	if (!copy)
		fail_errno(ENOMEM, "strdup");
	dir = dirname(copy);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		fail_errno(errno, "open directory %s", dir);
	if (fsync(dfd) < 0)
		fail_errno(errno, "fsync of directory %s", dir);
	close(dfd);

	/* Each segment its own buffer. */
	for (i = 0; i < NSEG; i++) {
		unsigned char *b = malloc(seg_len[i]);

		if (!b)
			fail_errno(ENOMEM, "malloc of %zu bytes", seg_len[i]);
		for (j = 0; j < seg_len[i]; j++)
			b[j] = pattern(off + j);
		iov[i].iov_base = b;
		iov[i].iov_len = seg_len[i];
		off += seg_len[i];
	}

	if (syscall(__NR_io_setup, 4, &ctx) < 0)
		fail_errno(errno, "io_setup");
	memset(&cb, 0, sizeof(cb));
	cb.aio_lio_opcode = IOCB_CMD_PWRITEV;
	cb.aio_fildes = fd;
	cb.aio_buf = (uintptr_t)iov;
	cb.aio_nbytes = NSEG;
	cb.aio_offset = WRITE_OFF;
	cb.aio_data = 1;
	run_one(ctx, &cb, "IOCB_CMD_PWRITEV", total, path);

	memset(&cb, 0, sizeof(cb));
	cb.aio_lio_opcode = IOCB_CMD_FDSYNC;
	cb.aio_fildes = fd;
	cb.aio_data = 2;
	run_one(ctx, &cb, "IOCB_CMD_FDSYNC", 0, path);

	say("ok", "%s: %zu bytes in %zu segments at offset %d by IOCB_CMD_PWRITEV, then IOCB_CMD_FDSYNC: written and synced; rebooting without sync or unmount",
	    path, total, NSEG, WRITE_OFF);
	drain(STDOUT_FILENO);
	drain(STDERR_FILENO);

	/* No sync, no unmount, no close: what is not on the disk now is lost. */
	syscall(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		LINUX_REBOOT_CMD_RESTART, NULL);
	fail_errno(errno, "reboot(LINUX_REBOOT_CMD_RESTART)");
}

static int verify_stage(const char *path)
{
	const size_t total = total_len();
	const size_t size = WRITE_OFF + total;
	size_t got = 0, i, bad = 0, first = 0, zeros = 0;
	unsigned char *buf;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_errno(errno, "open %s", path);
	if (fstat(fd, &st) < 0)
		fail_errno(errno, "fstat %s", path);
	if ((uint64_t)st.st_size != size) {
		say("fail", "%s: size %lld after the reboot, expected %zu (the hole of %d and the %zu bytes written)",
		    path, (long long)st.st_size, size, WRITE_OFF, total);
		return 1;
	}
	buf = malloc(size);
	if (!buf)
		fail_errno(ENOMEM, "malloc of %zu bytes", size);
	while (got < size) {
		ssize_t n = pread(fd, buf + got, size - got, got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail_errno(errno, "pread %s at %zu", path, got);
		if (n == 0) {
			say("fail", "%s: end of file at %zu, size %zu", path,
			    got, size);
			return 1;
		}
		got += n;
	}
	for (i = 0; i < size; i++) {
		unsigned char want = i < WRITE_OFF ? 0 : pattern(i);

		if (buf[i] != want) {
			if (!bad++)
				first = i;
			zeros += !buf[i];
		}
	}
	if (bad) {
		say("fail", "%s: %zu of %zu bytes differ after the reboot (%zu of them zero), the first at offset %zu: 0x%02x, expected 0x%02x",
		    path, bad, size, zeros, first, buf[first],
		    first < WRITE_OFF ? 0 : pattern(first));
		return 1;
	}
	say("ok", "%s: %zu bytes (a hole of %d, then %zu written in %zu segments by IOCB_CMD_PWRITEV and synced by IOCB_CMD_FDSYNC) byte-identical after the reboot",
	    path, size, WRITE_OFF, total, NSEG);
	free(buf);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "write")) {
		stage = "write";
		return write_stage(argv[2]);
	}
	if (argc == 3 && !strcmp(argv[1], "verify")) {
		stage = "verify";
		return verify_stage(argv[2]);
	}
	fprintf(stderr, "usage: %s write|verify <file>\n", argv[0]);
	return 2;
}
