// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the guest's benchmark program, the same binary on the stock
 * and the patched kernel. Each row times one operation (a read(), a readv()
 * of 64 segments, an io_submit() and its io_getevents(), ...) with
 * clock_gettime(CLOCK_MONOTONIC): a calibration that doubles the count until
 * it takes 2 ms, then BENCH_REPS repetitions (default 7) of about
 * BENCH_REP_MS milliseconds each (default 20). The repetitions go round the
 * rows: after the calibration of every row, a warm-up round times each row
 * once without keeping it, then each round times one repetition of every
 * row, so that the repetitions of a row are spread over the whole run
 * (measure_all()). It prints one line a row, at the end:
 *
 *   bench <group> <target> <op> <param> sys=<syscalls/op> med_ns=<median>
 *         min_ns=<min> max_ns=<max> iters=<ops/repetition> reps=<n> bytes=<b>
 *
 * (on one line), or, when the operation fails (on its first try or later),
 *
 *   bench <group> <target> <op> <param> sys=<syscalls/op> err=<ERRNO>
 *
 * The times are per operation; sys= counts the system calls the program
 * itself issued per operation (it issues every one of them directly, so it
 * knows); bytes= is what the first operation transferred.
 *
 * Groups:
 *  a  read/write of 1 byte and 4 KiB (on an eventfd, the one size it
 *     takes: 8 bytes), at offset 0 on files with a position; 64 KiB
 *     read()s of /dev/zero and write()s to /dev/null (what dd does);
 *     pread() of 4 KiB at 0 on two seq_files; read() and write() of a
 *     debugfs simple attribute
 *  control  single calls on files that had iter methods in stock 6.12
 *     and that the series does not touch: their ratios must not move
 *  b  readv/writev of 1, 8, 64 and 1024 segments of 8 bytes
 *  c  N segments in one io_submit(IOCB_CMD_PREADV/PWRITEV), in N
 *     IOCB_CMD_PREAD/PWRITE iocbs of one io_submit, in one preadv/pwritev,
 *     in one io_uring READV/WRITEV; N = 1, 4, 16, 64, 256; on a tmpfs file,
 *     on the raw virtio disk with O_DIRECT (BENCH_RAW_DEV), on the legacy
 *     test device and on an eventfd
 *  d  an aio ping-pong: write one byte to a pipe (or 1 to an eventfd)
 *     that a second thread answers on another, then io_submit() a
 *     IOCB_CMD_PREAD of the answer and io_getevents() it. 6.12 serves
 *     the read inside io_submit(), which returns with the answer; the
 *     series hands it over, and io_getevents() waits for it
 *
 * The files: the write side of an eventfd (->write only in 6.12);
 * /dev/null and /dev/zero (both methods); /proc/swaps, a proc entry with
 * ->proc_read, which stock 6.12 reads through ->read and the series through
 * ->read_iter; /proc/self/oom_score_adj (->read and ->write in 6.12); the
 * series's test devices /dev/test_aio_legacy (->read/->write only) and
 * /dev/test_aio_async (->read_iter/->write_iter only), which exist only on
 * the patched kernel: err=ENOENT on the stock one; a 1 MiB tmpfs file; the
 * raw disk.
 *
 * The single-call rows beyond /dev/null and /dev/zero, each on a file whose
 * method the series converts, except the control rows:
 *  - /sys/kernel/debug/sleep_time (kernel/time/timekeeping_debug.c), a
 *    seq_file made by DEFINE_SHOW_ATTRIBUTE(): stock 6.12 reads it through
 *    the debugfs full proxy's ->read and seq_read(), the series through the
 *    proxy's ->read_iter and seq_read_iter(), DEFINE_SHOW_ATTRIBUTE() being
 *    converted in include/linux/seq_file.h. Built in whenever DEBUG_FS is,
 *    and its text (the header of an empty suspend histogram) never changes
 *    in the guest.
 *  - /proc/self/personality, a seq_file of proc_single_file_operations in
 *    fs/proc/base.c (the ONE() entries: stat, statm, status, ...): seq_read
 *    in stock 6.12, seq_read_iter in the series; no proxy in between.
 *  - /sys/kernel/debug/fault_around_bytes (mm/memory.c), a
 *    DEFINE_DEBUGFS_ATTRIBUTE() file: debugfs_attr_read/debugfs_attr_write
 *    in stock 6.12, debugfs_attr_read_iter/debugfs_attr_write_iter in the
 *    series. Writing the value it holds changes nothing, so the write row
 *    writes back the text read from it once before. simple_attr_open()
 *    makes the file nonseekable (pread() is ESPIPE on both kernels) and
 *    formats the value only for a read at position 0, so the read row
 *    reads at the end of the file, where each read() takes the attribute's
 *    mutex and returns 0: a read() of 64 bytes, "read-at-eof".
 *  - control: /sys/devices/system/cpu/online (a sysfs attribute: kernfs's
 *    ->read_iter and seq_read_iter() in both kernels), and the read side of
 *    an eventfd (->read_iter in both) in EFD_SEMAPHORE mode, its count set
 *    once to 2^64 - 2, so that every read() takes 1 from it and none waits.
 * A file that does not exist gives its rows err=ENOENT, as the test
 * devices do on the stock kernel.
 *
 * Around each measured repetition the program executes CPUID with the leaf
 * TCGSTAT_LEAF, and once more at the end: outside the timed loops, so it
 * costs nothing that is measured. Every CPU and QEMU treat it as an unknown
 * leaf; the QEMU that `make tcgstat` builds counts, per row, what TCG did
 * between the two (scripts/tcgstat.sh). The binary is the same either way,
 * so that the code addresses `make tcgstat` sees are `make bench`'s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <liburing.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MAX_SEGS	1024
#define MAX_BUF		(1 << 20)	/* 256 segments of 4 KiB */
#define TMPFS_FILE	"/tmp/vaio-bench.dat"

static int reps = 7;
static double rep_ns = 20e6;
static const double cal_ns = 2e6;

static long nsys;		/* system calls issued so far */
static aio_context_t aio_ctx;
static struct io_uring ring;
static int have_ring;

static unsigned char *buf;	/* MAX_BUF bytes, page aligned, of '0': written */
static unsigned char *rbuf;	/* MAX_BUF bytes, page aligned: read into */
static uint64_t *ones;		/* eventfd values: MAX_BUF / 8 times 1 */
static struct iovec iov[MAX_SEGS];
static struct iocb iocbs[MAX_SEGS];
static struct iocb *iocbps[MAX_SEGS];
static struct io_event events[MAX_SEGS];

/* One row: what to do on which file. */
struct row {
	const char *group, *target, *op;
	char param[32];
	int fd;			/* < 0: the target could not be opened; err holds why */
	int err;
	int positional;		/* pread/pwrite at offset 0, not read/write */
	int write;
	size_t len;		/* bytes (group a) or bytes a segment (b, c) */
	int nseg;
	void *data;		/* what a write sends, if not buf or ones */
	long (*fn)(struct row *r);
	/* Filled in by calibrate() and measure_all(). */
	long iters;		/* operations a repetition; 0: the row failed */
	long bytes;		/* what the first operation transferred */
	long nsys;		/* system calls of the measured repetitions */
	int nrep;		/* repetitions measured */
	int late;		/* failed after its first operation */
	const char *errstr;	/* why it failed */
	double ns[64];		/* time per operation of each repetition */
};

#define MAX_ROWS	512
static struct row rows[MAX_ROWS];
static int nrows;

/* See the top of this file: 0 starts row @row, 1 ends it, 2 reports. */
#define TCGSTAT_LEAF	0x48434e54

static void tcgstat_mark(unsigned int row, unsigned int what)
{
	unsigned int a = TCGSTAT_LEAF, b = row, c = what, d = 0;

	__asm__ volatile("cpuid" : "+a"(a), "+b"(b), "+c"(c), "+d"(d) : : "memory");
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* What a row writes, or reads into: the two never share a buffer, so that
 * what is written stays '0' characters (or eventfd values of 1). */
static unsigned char *wbuf(struct row *r)
{
	if (!r->write)
		return rbuf;
	if (r->data)
		return r->data;
	return !strcmp(r->target, "eventfd") ? (unsigned char *)ones : buf;
}

/* The segments of a row: nseg of len bytes, one after the other. */
static void setup_iov(struct row *r)
{
	unsigned char *b = wbuf(r);
	int i;

	for (i = 0; i < r->nseg; i++) {
		iov[i].iov_base = b + i * r->len;
		iov[i].iov_len = r->len;
	}
}

static long ret_or_errno(long ret)
{
	return ret < 0 ? -errno : ret;
}

/* a: read()/write(), or pread()/pwrite() at 0 on files with a position. */
static long op_rw(struct row *r)
{
	nsys++;
	if (r->write)
		return ret_or_errno(r->positional ? pwrite(r->fd, wbuf(r), r->len, 0) :
				    write(r->fd, wbuf(r), r->len));
	return ret_or_errno(r->positional ? pread(r->fd, rbuf, r->len, 0) :
			    read(r->fd, rbuf, r->len));
}

/* b, c: readv()/writev(), or preadv()/pwritev() at 0. */
static long op_rwv(struct row *r)
{
	nsys++;
	if (r->write)
		return ret_or_errno(r->positional ? pwritev(r->fd, iov, r->nseg, 0) :
				    writev(r->fd, iov, r->nseg));
	return ret_or_errno(r->positional ? preadv(r->fd, iov, r->nseg, 0) :
			    readv(r->fd, iov, r->nseg));
}

/* Reap @n completions; the sum of their results or the first error. */
static long aio_reap(int n)
{
	long sum = 0, err = 0;
	int got = 0, i, ret;

	while (got < n) {
		nsys++;
		ret = syscall(SYS_io_getevents, aio_ctx, n - got, n - got, events, NULL);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (i = 0; i < ret; i++) {
			if ((long)events[i].res < 0 && !err)
				err = events[i].res;
			else
				sum += events[i].res;
		}
		got += ret;
	}
	return err ? err : sum;
}

/* d: two files, and the thread that answers on the second. */
struct pingpong {
	int ping_r, ping_w, pong_r, pong_w;
	size_t len;		/* 1 on pipes, 8 on eventfds */
	uint64_t msg;
	pthread_t thread;
};

static void *pong_fn(void *arg)
{
	struct pingpong *p = arg;
	uint64_t v;

	while (read(p->ping_r, &v, p->len) == (ssize_t)p->len)
		if (write(p->pong_w, &p->msg, p->len) != (ssize_t)p->len)
			break;
	return NULL;
}

/* Both blocking: O_NONBLOCK would keep the read inside io_submit(). */
static int pingpong_open(struct pingpong *p, int eventfds)
{
	int a[2], b[2];

	p->msg = 1;
	p->len = eventfds ? 8 : 1;
	if (eventfds) {
		a[0] = a[1] = eventfd(0, EFD_CLOEXEC);
		b[0] = b[1] = eventfd(0, EFD_CLOEXEC);
		if (a[0] < 0 || b[0] < 0)
			return -errno;
	} else if (pipe2(a, O_CLOEXEC) || pipe2(b, O_CLOEXEC)) {
		return -errno;
	}
	p->ping_r = a[0];
	p->ping_w = a[1];
	p->pong_r = b[0];
	p->pong_w = b[1];
	if (pthread_create(&p->thread, NULL, pong_fn, p))
		return -EAGAIN;
	return p->pong_r;
}

static long op_pingpong(struct row *r)
{
	struct pingpong *p = r->data;
	struct iocb *cb = &iocbs[0];
	long ret;

	nsys += 2;
	if (write(p->ping_w, &p->msg, p->len) != (ssize_t)p->len)
		return -errno;
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = p->pong_r;
	cb->aio_lio_opcode = IOCB_CMD_PREAD;
	cb->aio_buf = (uintptr_t)rbuf;
	cb->aio_nbytes = p->len;
	iocbps[0] = cb;
	ret = syscall(SYS_io_submit, aio_ctx, 1, iocbps);
	if (ret != 1)
		return ret_or_errno(ret);
	return aio_reap(1);
}

/* c: one io_submit() of one IOCB_CMD_PREADV/PWRITEV of nseg segments. */
static long op_aio_vec(struct row *r)
{
	struct iocb *cb = &iocbs[0];
	long ret;

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = r->fd;
	cb->aio_lio_opcode = r->write ? IOCB_CMD_PWRITEV : IOCB_CMD_PREADV;
	cb->aio_buf = (uintptr_t)iov;
	cb->aio_nbytes = r->nseg;
	cb->aio_offset = 0;
	iocbps[0] = cb;
	nsys++;
	ret = syscall(SYS_io_submit, aio_ctx, 1, iocbps);
	if (ret != 1)
		return ret < 0 ? -errno : -EIO;
	return aio_reap(1);
}

/* c: one io_submit() of nseg IOCB_CMD_PREAD/PWRITE iocbs, one a segment. */
static long op_aio_n(struct row *r)
{
	long ret;
	int i;

	for (i = 0; i < r->nseg; i++) {
		struct iocb *cb = &iocbs[i];

		memset(cb, 0, sizeof(*cb));
		cb->aio_fildes = r->fd;
		cb->aio_lio_opcode = r->write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
		cb->aio_buf = (uintptr_t)iov[i].iov_base;
		cb->aio_nbytes = iov[i].iov_len;
		cb->aio_offset = r->positional ? (int64_t)i * r->len : 0;
		iocbps[i] = cb;
	}
	nsys++;
	ret = syscall(SYS_io_submit, aio_ctx, r->nseg, iocbps);
	if (ret < 0)
		return -errno;
	if (ret < r->nseg) {
		/* Reap what went in, report the iocb that did not. */
		aio_reap(ret);
		return -EIO;
	}
	return aio_reap(r->nseg);
}

/* c: one io_uring READV/WRITEV of nseg segments, submitted and waited for
 * in one io_uring_enter(). */
static long op_uring(struct row *r)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	__u64 off = r->positional ? 0 : (__u64)-1;
	long ret;

	if (!have_ring)
		return -ENOSYS;
	sqe = io_uring_get_sqe(&ring);
	if (r->write)
		io_uring_prep_writev(sqe, r->fd, iov, r->nseg, off);
	else
		io_uring_prep_readv(sqe, r->fd, iov, r->nseg, off);
	nsys++;
	ret = io_uring_submit_and_wait(&ring, 1);
	if (ret < 0)
		return ret;
	ret = io_uring_peek_cqe(&ring, &cqe);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	return ret;
}

static const char *errname(int err)
{
	const char *s = strerrorname_np(err);

	return s ? s : "E?";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Run @iters operations; their time in ns, or -errno of the first failure. */
static double run(struct row *r, long iters, long *err)
{
	double t0 = now_ns();
	long i, ret;

	for (i = 0; i < iters; i++) {
		ret = r->fn(r);
		if (ret < 0) {
			*err = ret;
			return -1;
		}
	}
	return now_ns() - t0;
}

/*
 * The first operation of a row, then the calibration, which is its warm-up
 * too: double the count until it takes cal_ns; the count of a repetition
 * follows from that.
 */
static void calibrate(struct row *r)
{
	long iters, err = 0, ret, sys0;
	double t;

	r->iters = 0;
	if (r->fd < 0) {
		r->errstr = errname(r->err);
		return;
	}
	if (r->nseg)
		setup_iov(r);
	sys0 = nsys;
	ret = r->fn(r);
	if (ret < 0) {
		r->nsys = nsys - sys0;
		r->errstr = errname(-ret);
		return;
	}
	r->bytes = ret;
	for (iters = 1;; iters *= 2) {
		t = run(r, iters, &err);
		if (t < 0) {
			r->errstr = errname(-err);
			r->late = 1;
			return;
		}
		if (t >= cal_ns || iters >= (1L << 24))
			break;
	}
	iters = rep_ns / (t / iters);
	r->iters = iters < 1 ? 1 : iters;
}

/* One repetition of a row; @record: keep its time. */
static void repeat(struct row *r, int record)
{
	long err = 0, sys0;
	double t;

	if (!r->iters)
		return;
	if (r->nseg)
		setup_iov(r);
	sys0 = nsys;
	if (record)
		tcgstat_mark(r - rows, 0);
	t = run(r, r->iters, &err);
	if (record)
		tcgstat_mark(r - rows, 1);
	if (t < 0) {
		r->errstr = errname(-err);
		r->late = 1;
		r->iters = 0;
		return;
	}
	if (record) {
		r->nsys += nsys - sys0;
		r->ns[r->nrep++] = t / r->iters;
	}
}

/*
 * Time every row: calibrate each, then one unrecorded round over all rows
 * (the warm-up), then @reps rounds, each a repetition of every row in turn.
 * The repetitions of one row are thus spread over the whole run rather than
 * taken back to back: under TCG the host slows down for seconds at a time,
 * and a slow spell now costs each row one or two of its repetitions instead
 * of all of them, which the median and the minimum leave out.
 */
static void measure_all(void)
{
	int i, rep;

	for (i = 0; i < nrows; i++)
		calibrate(&rows[i]);
	for (rep = -1; rep < reps; rep++)
		for (i = 0; i < nrows; i++)
			repeat(&rows[i], rep >= 0);
	tcgstat_mark(0, 2);
}

static void print_row(struct row *r)
{
	double *ns = r->ns;

	printf("bench %s %s %s %s ", r->group, r->target, r->op, r->param);
	if (r->fd < 0)
		printf("sys=- err=%s\n", r->errstr);
	else if (r->late)
		printf("sys=- err=%s late=1\n", r->errstr);
	else if (!r->iters)
		printf("sys=%ld err=%s\n", r->nsys, r->errstr);
	else {
		qsort(ns, reps, sizeof(ns[0]), cmp_double);
		printf("sys=%.2f med_ns=%.1f min_ns=%.1f max_ns=%.1f iters=%ld reps=%d bytes=%ld\n",
		       (double)r->nsys / ((double)r->iters * reps),
		       reps % 2 ? ns[reps / 2] : (ns[reps / 2 - 1] + ns[reps / 2]) / 2,
		       ns[0], ns[reps - 1], r->iters, reps, r->bytes);
	}
}

/* A file to measure: opened once, shared by its rows. */
struct target {
	const char *name;
	const char *path;	/* NULL: eventfd, flags are eventfd()'s */
	int flags;
	int positional;
	int fd, err;
	char val[32];		/* a simple attribute's value, as read */
	size_t vlen;
};

/* The target is unusable: its rows print err=<errno>. */
static void drop_target(struct target *t, int err)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	t->err = err;
}

static void open_target(struct target *t)
{
	uint64_t count = UINT64_MAX - 1;	/* the most an eventfd holds */

	if (!t->path)
		t->fd = eventfd(0, t->flags | EFD_NONBLOCK | EFD_CLOEXEC);
	else
		t->fd = open(t->path, t->flags | O_CLOEXEC);
	t->err = t->fd < 0 ? errno : 0;
	/* A semaphore eventfd: a count that no row can use up. */
	if (t->fd >= 0 && !t->path && (t->flags & EFD_SEMAPHORE) &&
	    write(t->fd, &count, sizeof(count)) != sizeof(count))
		drop_target(t, errno);
}

/* A simple attribute: open it and read its value once, which leaves the
 * file at its end (it cannot seek). @def stands for the value's text when
 * the file is missing, so that the write row keeps its name. */
static void open_attr(struct target *t, const char *def)
{
	ssize_t n;

	open_target(t);
	n = t->fd < 0 ? -1 : read(t->fd, t->val, sizeof(t->val) - 1);
	if (t->fd >= 0 && n <= 0)
		drop_target(t, n < 0 ? errno : ENODATA);
	if (t->fd < 0)
		snprintf(t->val, sizeof(t->val), "%s", def);
	else
		t->val[n] = 0;
	t->vlen = strlen(t->val);
}

static struct row mkrow(const char *group, struct target *t, const char *op,
			int write, size_t len, int nseg, long (*fn)(struct row *))
{
	struct row r = {
		.group = group, .target = t->name, .op = op, .fd = t->fd,
		.err = t->err, .positional = t->positional, .write = write,
		.len = len, .nseg = nseg, .data = t->vlen ? t->val : NULL,
		.fn = fn,
	};

	if (nseg)
		snprintf(r.param, sizeof(r.param), "%dx%zuB", nseg, len);
	else
		snprintf(r.param, sizeof(r.param), "%zuB", len);
	return r;
}

static void row(const char *group, struct target *t, const char *op, int write,
		size_t len, int nseg, long (*fn)(struct row *))
{
	if (nrows == MAX_ROWS) {
		fprintf(stderr, "vaio-bench: more than %d rows\n", MAX_ROWS);
		exit(1);
	}
	rows[nrows++] = mkrow(group, t, op, write, len, nseg, fn);
}

static int env_int(const char *name, int def)
{
	const char *s = getenv(name);

	return s && *s ? atoi(s) : def;
}

int main(void)
{
	static const int b_segs[] = { 1, 8, 64, 1024 };
	static const int c_segs[] = { 1, 4, 16, 64, 256 };
	struct target t_eventfd = { "eventfd", NULL, 0, 0 };
	struct target t_null = { "null", "/dev/null", O_RDWR, 0 };
	struct target t_zero = { "zero", "/dev/zero", O_RDWR, 0 };
	struct target t_swaps = { "proc-swaps", "/proc/swaps", O_RDONLY, 1 };
	struct target t_oom = { "proc-oom_score_adj", "/proc/self/oom_score_adj", O_RDWR, 1 };
	struct target t_legacy = { "test_aio_legacy", "/dev/test_aio_legacy", O_RDWR, 1 };
	struct target t_async = { "test_aio_async", "/dev/test_aio_async", O_RDWR, 1 };
	struct target t_tmpfs = { "tmpfs", TMPFS_FILE, O_RDWR, 1 };
	struct target t_raw = { "blk-odirect", NULL, O_RDWR | O_DIRECT, 1 };
	struct target t_sleep = { "debugfs-sleep_time", "/sys/kernel/debug/sleep_time", O_RDONLY, 1 };
	struct target t_pers = { "proc-personality", "/proc/self/personality", O_RDONLY, 1 };
	struct target t_fault = { "debugfs-fault_around_bytes", "/sys/kernel/debug/fault_around_bytes", O_RDWR, 0 };
	struct target t_online = { "sysfs-cpu-online", "/sys/devices/system/cpu/online", O_RDONLY, 1 };
	struct target t_semfd = { "eventfd-sem", NULL, EFD_SEMAPHORE, 0 };
	struct target t_pp_pipe = { "pipe-pingpong", NULL, 0, 0 };
	struct target t_pp_efd = { "eventfd-pingpong", NULL, 0, 0 };
	static struct pingpong pp_pipe, pp_efd;
	struct target *a_targets[] = { &t_null, &t_zero, &t_oom, &t_legacy, &t_async };
	struct target *b_targets[] = { &t_oom, &t_legacy, &t_async };
	struct c_target {
		struct target *t;
		size_t seg;
		int read;
	} c_targets[] = {
		{ &t_tmpfs, 4096, 1 }, { &t_raw, 4096, 1 },
		{ &t_legacy, 1024, 1 }, { &t_eventfd, 8, 0 },
	};
	struct utsname u;
	struct timespec res;
	char clocksource[64] = "?";
	ssize_t n;
	const char *raw = getenv("BENCH_RAW_DEV");
	double t0 = now_ns();
	size_t i, j, k;
	int fd, w;

	reps = env_int("BENCH_REPS", reps);
	if (reps < 5 || reps > 64)
		reps = 7;
	rep_ns = env_int("BENCH_REP_MS", 20) * 1e6;
	uname(&u);
	clock_getres(CLOCK_MONOTONIC, &res);
	fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, clocksource, sizeof(clocksource) - 1);
	clocksource[n > 0 ? n - 1 : 0] = 0;	/* drop the newline */
	if (fd >= 0)
		close(fd);
	printf("# vaio-bench: kernel %s %s, clocksource %s (resolution %ld ns), %d repetitions of about %.0f ms, raw disk %s\n",
	       u.release, u.version, clocksource, res.tv_nsec, reps, rep_ns / 1e6,
	       raw ? raw : "(none)");

	if (posix_memalign((void **)&buf, 4096, MAX_BUF) ||
	    posix_memalign((void **)&rbuf, 4096, MAX_BUF) ||
	    posix_memalign((void **)&ones, 4096, MAX_BUF)) {
		perror("posix_memalign");
		return 1;
	}
	memset(buf, '0', MAX_BUF);
	for (i = 0; i < MAX_BUF / 8; i++)
		ones[i] = 1;
	if (syscall(SYS_io_setup, 2 * MAX_SEGS, &aio_ctx)) {
		perror("io_setup");
		return 1;
	}
	have_ring = io_uring_queue_init(8, &ring, 0) == 0;

	/* The tmpfs file: 1 MiB, written out in full. */
	fd = open(TMPFS_FILE, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, MAX_BUF) != MAX_BUF) {
		perror(TMPFS_FILE);
		return 1;
	}
	close(fd);
	t_raw.path = raw ? raw : "/dev/bench-raw-disk-missing";

	open_target(&t_eventfd);
	open_target(&t_null);
	open_target(&t_zero);
	open_target(&t_swaps);
	open_target(&t_oom);
	open_target(&t_legacy);
	open_target(&t_async);
	open_target(&t_tmpfs);
	open_target(&t_raw);
	open_target(&t_sleep);
	open_target(&t_pers);
	open_attr(&t_fault, "65536\n");	/* 6.12's default, 16 pages */
	open_target(&t_online);
	open_target(&t_semfd);
	t_pp_pipe.fd = pingpong_open(&pp_pipe, 0);
	t_pp_efd.fd = pingpong_open(&pp_efd, 1);
	t_pp_pipe.err = t_pp_pipe.fd < 0 ? -t_pp_pipe.fd : 0;
	t_pp_efd.err = t_pp_efd.fd < 0 ? -t_pp_efd.fd : 0;

	/* a: read()/write() of 1 byte and 4 KiB. */
	row("a", &t_eventfd, "write", 1, 8, 0, op_rw);
	row("a", &t_swaps, "pread", 0, 1, 0, op_rw);
	row("a", &t_swaps, "pread", 0, 4096, 0, op_rw);
	for (i = 0; i < sizeof(a_targets) / sizeof(a_targets[0]); i++) {
		struct target *t = a_targets[i];

		for (w = 0; w <= 1; w++) {
			const char *op = t->positional ? (w ? "pwrite" : "pread") :
							 (w ? "write" : "read");

			row("a", t, op, w, 1, 0, op_rw);
			row("a", t, op, w, 4096, 0, op_rw);
		}
		/* What dd does: 64 KiB a call from /dev/zero to /dev/null. */
		if (t == &t_zero) {
			row("a", &t_zero, "read", 0, 65536, 0, op_rw);
			row("a", &t_null, "write", 1, 65536, 0, op_rw);
		}
	}
	/* seq_files, and a simple attribute (see the top of this file). */
	row("a", &t_sleep, "pread", 0, 4096, 0, op_rw);
	row("a", &t_pers, "pread", 0, 4096, 0, op_rw);
	row("a", &t_fault, "read-at-eof", 0, 64, 0, op_rw);
	row("a", &t_fault, "write", 1, t_fault.vlen, 0, op_rw);

	/* control: files the series does not touch. */
	row("control", &t_online, "pread", 0, 4096, 0, op_rw);
	row("control", &t_semfd, "read", 0, 8, 0, op_rw);

	/* b: readv()/writev() of 1 to 1024 segments of 8 bytes. */
	for (k = 0; k < sizeof(b_segs) / sizeof(b_segs[0]); k++)
		row("b", &t_eventfd, "writev", 1, 8, b_segs[k], op_rwv);
	for (k = 0; k < sizeof(b_segs) / sizeof(b_segs[0]); k++)
		row("b", &t_null, "writev", 1, 8, b_segs[k], op_rwv);
	for (k = 0; k < sizeof(b_segs) / sizeof(b_segs[0]); k++)
		row("b", &t_zero, "readv", 0, 8, b_segs[k], op_rwv);
	for (k = 0; k < sizeof(b_segs) / sizeof(b_segs[0]); k++)
		row("b", &t_swaps, "preadv", 0, 8, b_segs[k], op_rwv);
	for (i = 0; i < sizeof(b_targets) / sizeof(b_targets[0]); i++)
		for (w = 0; w <= 1; w++)
			for (k = 0; k < sizeof(b_segs) / sizeof(b_segs[0]); k++)
				row("b", b_targets[i], w ? "pwritev" : "preadv", w, 8,
				    b_segs[k], op_rwv);

	/* c: N segments through io_submit, N iocbs, preadv, io_uring. */
	for (i = 0; i < sizeof(c_targets) / sizeof(c_targets[0]); i++) {
		struct c_target *c = &c_targets[i];

		for (w = c->read ? 0 : 1; w <= 1; w++) {
			for (k = 0; k < sizeof(c_segs) / sizeof(c_segs[0]); k++) {
				int n = c_segs[k];
				struct {
					const char *op;
					long (*fn)(struct row *);
				} m[] = {
					{ w ? "aio-PWRITEV" : "aio-PREADV", op_aio_vec },
					{ w ? "aio-Nx-PWRITE" : "aio-Nx-PREAD", op_aio_n },
					{ c->t->positional ? (w ? "pwritev" : "preadv") :
							     (w ? "writev" : "readv"), op_rwv },
					{ w ? "uring-WRITEV" : "uring-READV", op_uring },
				};

				for (j = 0; j < sizeof(m) / sizeof(m[0]); j++)
					row("c", c->t, m[j].op, w, c->seg, n, m[j].fn);
			}
		}
	}

	/* d: the aio ping-pong. */
	row("d", &t_pp_pipe, "aio-PREAD-pingpong", 0, 1, 0, op_pingpong);
	rows[nrows - 1].data = &pp_pipe;
	row("d", &t_pp_efd, "aio-PREAD-pingpong", 0, 8, 0, op_pingpong);
	rows[nrows - 1].data = &pp_efd;

	measure_all();
	for (i = 0; i < (size_t)nrows; i++)
		print_row(&rows[i]);
	printf("# vaio-bench: done in %.1f s\n", (now_ns() - t0) / 1e9);
	unlink(TMPFS_FILE);
	return 0;
}
