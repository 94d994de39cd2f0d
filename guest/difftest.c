// SPDX-License-Identifier: GPL-2.0
/*
 * difftest: drive every converted file the guest reaches through read,
 * pread, readv, writev (several segmentations), preadv2/pwritev2 with each
 * RWF_* flag, O_NONBLOCK, splice and io_submit, and print one canonical
 * line per case, so that the output of the stock kernel and of the patched
 * one can be compared line by line (scripts/difftest.sh).
 *
 * Every case runs in a child process of its own, on a fresh descriptor and
 * fresh fixtures, and restores what it changed outside that process. A line
 * is "<file> <op> ret=<n|-ENAME> [segs=..] [data=..] [state=..]": segs is
 * how many bytes landed in each segment, data a hash of what was read (or
 * "ref" when it equals a plain read() of the same file done just before,
 * for content that may change between boots), state what a write left in
 * effect. Nothing volatile (pids, times, addresses) is ever printed; a
 * file whose record length varies prints "ret=pos" and segment fill as
 * F (full), P (partial) or 0.
 *
 * Never run this on a real machine: it writes to /proc, /dev/cpu_dma_latency,
 * /dev/mem, /dev/port, uid_map, debugfs. The harness runs it in QEMU only
 * (harness.mode=diff).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <linux/uinput.h>
#include <linux/uhid.h>

#define BUF_MAX		16384
#define MAX_SEGS	64

/* ---- small helpers ---- */

static const char *errname(int e)
{
	static char other[16];

	switch (e) {
#define E(x) case x: return #x
	E(EPERM); E(ENOENT); E(ESRCH); E(EINTR); E(EIO); E(ENXIO); E(E2BIG);
	E(EBADF); E(EAGAIN); E(ENOMEM); E(EACCES); E(EFAULT); E(EBUSY);
	E(EEXIST); E(ENODEV); E(ENOTDIR); E(EISDIR); E(EINVAL); E(ENOSPC);
	E(ESPIPE); E(EROFS); E(EPIPE); E(ERANGE); E(ENOSYS); E(ENODATA);
	E(EOPNOTSUPP); E(EMSGSIZE); E(EPROTO); E(ENOTTY); E(EOVERFLOW);
	E(ECANCELED); E(ENOTCONN); E(ESHUTDOWN); E(ETIMEDOUT); E(ENOBUFS);
	E(EBADMSG); E(EILSEQ); E(EBADFD);
#undef E
	}
	snprintf(other, sizeof(other), "E%d", e);
	return other;
}

static char line[2048];

static void out(const char *fmt, ...)
{
	size_t n = strlen(line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
}

static uint32_t fnv(const void *p, size_t n)
{
	const unsigned char *c = p;
	uint32_t h = 2166136261u;

	while (n--) {
		h ^= *c++;
		h *= 16777619u;
	}
	return h;
}

/* A short text file, read with one read(), newlines as '|', at most 72. */
static void text_of(const char *path, char *buf, size_t size)
{
	char raw[256];
	ssize_t n, i;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(buf, size, "open:-%s", errname(errno));
		return;
	}
	n = read(fd, raw, sizeof(raw) - 1);
	if (n < 0) {
		snprintf(buf, size, "-%s", errname(errno));
		close(fd);
		return;
	}
	close(fd);
	if (n > 72)
		n = 72;
	for (i = 0; i < n && (size_t)i + 1 < size; i++)
		buf[i] = raw[i] == '\n' ? '|' : raw[i] == ' ' ? '_' :
			 (raw[i] < 32 || raw[i] > 126) ? '?' : raw[i];
	buf[i] = '\0';
	if (!i)
		snprintf(buf, size, "empty");
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

/* ---- raw AIO ---- */

static aio_context_t aio_ctx;

static long aio_one_rwf(int opcode, int fd, void *buf, uint64_t len,
			long long off, int rw_flags)
{
	struct iocb cb, *cbp = &cb;
	struct io_event ev;
	struct timespec ts = { .tv_sec = 5 };

	memset(&cb, 0, sizeof(cb));
	cb.aio_lio_opcode = opcode;
	cb.aio_fildes = fd;
	cb.aio_buf = (uintptr_t)buf;
	cb.aio_nbytes = len;
	cb.aio_offset = off;
	cb.aio_rw_flags = rw_flags;
	if (!aio_ctx && syscall(__NR_io_setup, 4, &aio_ctx))
		return -1000000L - errno;
	if (syscall(__NR_io_submit, aio_ctx, 1, &cbp) != 1)
		return -1000000L - errno;
	memset(&ev, 0, sizeof(ev));
	if (syscall(__NR_io_getevents, aio_ctx, 1, 1, &ev, &ts) != 1)
		return -2000000L;
	return ev.res;
}

static long aio_one(int opcode, int fd, void *buf, uint64_t len, long long off)
{
	return aio_one_rwf(opcode, fd, buf, len, off, 0);
}

/*
 * One io_uring request, on a ring of our own (raw system calls: the guest
 * programs use the UAPI headers only). The result is the completion's res;
 * a failed io_uring_enter() gives -1000000 - errno, as aio_one() does.
 */
static int ring_fd = -1;
static unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail,
		    *cq_mask;
static struct io_uring_sqe *sqes;
static struct io_uring_cqe *cqes;

static int uring_setup(void)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	ring_fd = syscall(__NR_io_uring_setup, 4, &p);
	if (ring_fd < 0)
		return -errno;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, ring_fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, ring_fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring_fd,
		    IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		int e = errno;

		/* uring_one() then answers submit:-ENOSYS */
		close(ring_fd);
		ring_fd = -1;
		return -e;
	}
	sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	sq_array = (unsigned int *)(sq + p.sq_off.array);
	cq_head = (unsigned int *)(cq + p.cq_off.head);
	cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/*
 * The registered buffer of IORING_OP_READ_FIXED/WRITE_FIXED: buf, whole,
 * as buffer 0 of the case's ring. 0 if registered, else -errno.
 */
static int uring_register_buf(void *addr, size_t len)
{
	struct iovec rv = { .iov_base = addr, .iov_len = len };

	if (ring_fd < 0)
		return -ENOSYS;
	if (syscall(__NR_io_uring_register, ring_fd, IORING_REGISTER_BUFFERS,
		    &rv, 1) < 0)
		return -errno;
	return 0;
}

static long uring_one(int opcode, int fd, void *addr, unsigned int len,
		      long long off)
{
	unsigned int tail, head, idx;
	struct io_uring_sqe *sqe;
	long res;

	if (ring_fd < 0)
		return -1000000L - ENOSYS;
	tail = *sq_tail;
	idx = tail & *sq_mask;
	sqe = &sqes[idx];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = opcode;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)addr;
	sqe->len = len;
	sqe->off = off;
	sq_array[idx] = idx;
	__atomic_store_n(sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring_fd, 1, 1,
		    IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -1000000L - errno;
	head = *cq_head;
	if (head == __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE))
		return -2000000L;
	res = cqes[head & *cq_mask].res;
	__atomic_store_n(cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* ---- the targets ---- */

enum content { C_HASH, C_REF, C_SHAPE, C_EVDEV, C_KMSG, C_SYSLOG, C_PERF,
	       C_FANOTIFY };

struct payload {
	const char *tag;	/* how the split case is named */
	const void *data;
	size_t len;
	int nseg;		/* the split: nseg segments of seg[] bytes */
	size_t seg[4];
};

struct target {
	const char *name;
	const char *path;			/* or path_fn, in the child */
	const char *(*path_fn)(void);
	int (*present)(void);			/* parent: 1 if reachable */
	int (*open_fn)(int flags);		/* a descriptor not from a path */
	int (*setup)(void);			/* child, before the case */
	void (*prime)(int fd);			/* before a read: queue one record */
	void (*state)(char *buf, size_t n);	/* after a write */
	void (*teardown)(void);			/* child, after the case */
	int rflags;				/* -1: no read cases */
	int wflags;				/* -1: no write cases */
	long off;				/* -1: the position; or an offset */
	long (*off_fn)(int writing);
	size_t rlen;
	size_t rsplit;				/* readv-split: [rsplit, rest] */
	enum content content;
	int vol;				/* record length varies */
	int nbwait;				/* data arrives late: see R_NONBLOCK */
	int sweep;				/* found by the sweep: read cases only */
	const struct payload *pay;
	int npay;
};

static const struct target *cur;
static char path_buf[256];

static const char *tpath(void)
{
	return cur->path_fn ? cur->path_fn() : cur->path;
}

static long toff(int writing)
{
	return cur->off_fn ? cur->off_fn(writing) : cur->off;
}

/* ---- fixtures ---- */

/*
 * 150 unix socket pairs, held by the case's child: /proc/net/unix grows to
 * about four pages, so that a vector whose second segment is larger than a
 * page shows whether each segment gets a seq_file buffer of its own, as
 * one ->read call per segment gave on 6.12.
 */
static int many_unix_sockets(void)
{
	int sv[2], i;

	for (i = 0; i < 150; i++)
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			return -errno;
	return 0;
}

static char tmpdir[64];

static int mk_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/difftest.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -errno;
}

static void rm_tmpdir(void)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/f0", tmpdir);
	unlink(p);
	rmdir(tmpdir);
}

/* eventfd */
static int eventfd_open(int flags)
{
	(void)flags;
	return eventfd(0, EFD_NONBLOCK);
}

static void eventfd_prime(int fd)
{
	uint64_t v = 5;

	if (write(fd, &v, 8) != 8)
		return;
}

static int cur_fd = -1;

static void eventfd_state(char *buf, size_t n)
{
	uint64_t v = 0;

	if (read(cur_fd, &v, 8) == 8)
		snprintf(buf, n, "counter:%llu", (unsigned long long)v);
	else
		snprintf(buf, n, "counter:-%s", errname(errno));
}

/* inotify */
static int inotify_open(int flags)
{
	int fd = inotify_init1(IN_NONBLOCK);

	if (fd >= 0 && inotify_add_watch(fd, tmpdir, IN_CREATE) < 0)
		return -1;
	return fd;
}

static void create_f0(int fd)
{
	char p[128];
	int f;

	(void)fd;
	snprintf(p, sizeof(p), "%s/f0", tmpdir);
	f = open(p, O_CREAT | O_WRONLY, 0600);
	if (f >= 0)
		close(f);
}

/* fanotify */
static char fan_file[128];

static int fanotify_setup(void)
{
	int e = mk_tmpdir(), fd;

	if (e)
		return e;
	snprintf(fan_file, sizeof(fan_file), "%s/f0", tmpdir);
	fd = open(fan_file, O_CREAT | O_WRONLY, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int fanotify_open(int flags)
{
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK, O_RDONLY);

	if (fd >= 0 && fanotify_mark(fd, FAN_MARK_ADD, FAN_CLOSE_WRITE,
				     AT_FDCWD, fan_file))
		return -1;
	return fd;
}

static void fanotify_prime(int fd)
{
	int f = open(fan_file, O_WRONLY);

	(void)fd;
	if (f >= 0)
		close(f);
}

/* fsopen() */
static int fscontext_open(int flags)
{
	return syscall(__NR_fsopen, "tmpfs", 0);
}

static void fscontext_prime(int fd)
{
	syscall(__NR_fsconfig, fd, FSCONFIG_SET_STRING, "bad", "x", 0);
}

/* perf */
static int perf_open(int flags)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.read_format = PERF_FORMAT_ID,
		.disabled = 1,
	};

	(void)flags;
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* uinput and evdev */
static int uinput_fd = -1;
static char evdev_path[300];

static int input_setup(void)
{
	struct uinput_setup setup = {
		.id.bustype = BUS_VIRTUAL,
		.name = "difftest",
	};
	char sysname[64], dir[128];
	struct dirent *de;
	DIR *d;

	uinput_fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
	if (uinput_fd < 0)
		return -errno;
	if (ioctl(uinput_fd, UI_SET_EVBIT, EV_MSC) ||
	    ioctl(uinput_fd, UI_SET_MSCBIT, MSC_SCAN) ||
	    ioctl(uinput_fd, UI_DEV_SETUP, &setup) ||
	    ioctl(uinput_fd, UI_DEV_CREATE))
		return -errno;
	if (ioctl(uinput_fd, UI_GET_SYSNAME(sizeof(sysname)), sysname) < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "/sys/class/input/%s", sysname);
	d = opendir(dir);
	if (!d)
		return -errno;
	evdev_path[0] = '\0';
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "event", 5))
			snprintf(evdev_path, sizeof(evdev_path),
				 "/dev/input/%s", de->d_name);
	closedir(d);
	return evdev_path[0] ? 0 : -ENODEV;
}

static void input_teardown(void)
{
	if (uinput_fd >= 0) {
		ioctl(uinput_fd, UI_DEV_DESTROY);
		close(uinput_fd);
	}
}

static const char *evdev_path_fn(void)
{
	return evdev_path;
}

static void scan_events(struct input_event ev[2], int code)
{
	memset(ev, 0, 2 * sizeof(*ev));
	ev[0].type = EV_MSC;
	ev[0].code = MSC_SCAN;
	ev[0].value = code;
	ev[1].type = EV_SYN;
	ev[1].code = SYN_REPORT;
}

static void evdev_prime(int fd)
{
	struct input_event ev[2];

	(void)fd;
	scan_events(ev, 1000);
	if (write(uinput_fd, ev, sizeof(ev)) != sizeof(ev))
		return;
}

static int uinput_present(void)
{
	return !access("/dev/uinput", F_OK);
}

static int uinput_open(int flags)
{
	return dup(uinput_fd);
}

static int evdev_watch = -1;

static int uinput_setup_w(void)
{
	int e = input_setup();

	if (e)
		return e;
	evdev_watch = open(evdev_path, O_RDONLY | O_NONBLOCK);
	return evdev_watch < 0 ? -errno : 0;
}

static void uinput_state_w(char *buf, size_t n)
{
	struct input_event ev[8];
	ssize_t got;
	size_t len = 0;
	int i;

	got = read(evdev_watch, ev, sizeof(ev));
	if (got < 0) {
		snprintf(buf, n, "events:-%s", errname(errno));
		return;
	}
	len += snprintf(buf, n, "events:");
	for (i = 0; i < got / (ssize_t)sizeof(ev[0]) && len < n; i++)
		len += snprintf(buf + len, n - len, "%s%u/%u/%d", i ? "," : "",
				ev[i].type, ev[i].code, ev[i].value);
	if (!got)
		snprintf(buf + len, n - len, "none");
}

/*
 * uhid and hidraw: a HID device made through /dev/uhid for each case, with
 * one 8-byte input and one 8-byte output report, no report IDs. A read of
 * its hidraw node gets one input report, queued through uhid; a write
 * sends an output report, which uhid hands back to us as UHID_OUTPUT.
 */
static const unsigned char hid_rdesc[] = {
	0x06, 0x00, 0xff,	/* Usage Page (vendor 0xff00) */
	0x09, 0x01,		/* Usage (1) */
	0xa1, 0x01,		/* Collection (Application) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x08,		/*   Report Count (8) */
	0x09, 0x01,		/*   Usage (1) */
	0x81, 0x02,		/*   Input (Data, Var, Abs) */
	0x09, 0x01,		/*   Usage (1) */
	0x91, 0x02,		/*   Output (Data, Var, Abs) */
	0xc0,			/* End Collection */
};
static int uhid_fd = -1;
static char hidraw_path[300];

static int uhid_present(void)
{
	return !access("/dev/uhid", F_OK);
}

static int uhid_setup(void)
{
	struct uhid_event ev;
	struct dirent *de;
	int i;
	DIR *d;

	uhid_fd = open("/dev/uhid", O_RDWR | O_NONBLOCK);
	if (uhid_fd < 0)
		return -errno;
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_CREATE2;
	snprintf((char *)ev.u.create2.name, sizeof(ev.u.create2.name),
		 "difftest");
	ev.u.create2.rd_size = sizeof(hid_rdesc);
	ev.u.create2.bus = BUS_VIRTUAL;
	ev.u.create2.vendor = 0x1d6b;
	ev.u.create2.product = 0x0104;
	memcpy(ev.u.create2.rd_data, hid_rdesc, sizeof(hid_rdesc));
	if (write(uhid_fd, &ev, sizeof(ev)) != sizeof(ev))
		return -errno;
	/*
	 * The hidraw node comes with the device's probe, from a work item;
	 * it is the one whose HID device has our name (the guest's USB
	 * gadget brings another).
	 */
	for (i = 0; i < 200; i++) {
		hidraw_path[0] = '\0';
		d = opendir("/sys/class/hidraw");
		while (d && (de = readdir(d))) {
			char uevent[600], text[1024];
			ssize_t n;
			int fd;

			if (strncmp(de->d_name, "hidraw", 6))
				continue;
			snprintf(uevent, sizeof(uevent),
				 "/sys/class/hidraw/%s/device/uevent", de->d_name);
			fd = open(uevent, O_RDONLY);
			if (fd < 0)
				continue;
			n = read(fd, text, sizeof(text) - 1);
			close(fd);
			text[n > 0 ? n : 0] = '\0';
			if (strstr(text, "HID_NAME=difftest\n"))
				snprintf(hidraw_path, sizeof(hidraw_path),
					 "/dev/%s", de->d_name);
		}
		if (d)
			closedir(d);
		if (hidraw_path[0] && !access(hidraw_path, F_OK))
			return 0;
		usleep(10000);
	}
	return -ENODEV;
}

static void uhid_teardown(void)
{
	struct uhid_event ev;

	if (uhid_fd < 0)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_DESTROY;
	if (write(uhid_fd, &ev, sizeof(ev)) < 0)
		ev.type = 0;
	close(uhid_fd);
}

static const char *hidraw_path_fn(void)
{
	return hidraw_path;
}

static void hidraw_prime(int fd)
{
	struct uhid_event ev;

	(void)fd;
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_INPUT2;
	ev.u.input2.size = 8;
	memcpy(ev.u.input2.data, "ABCDEFGH", 8);
	if (write(uhid_fd, &ev, sizeof(ev)) != sizeof(ev))
		return;
}

/* The output reports uhid got, as "size:hash" each. */
static void hidraw_state(char *buf, size_t n)
{
	struct uhid_event ev;
	size_t len = 0;
	int i;

	len += snprintf(buf, n, "output:");
	for (i = 0; i < 8 && len < n; i++) {
		if (read(uhid_fd, &ev, sizeof(ev)) <= 0)
			break;
		if (ev.type != UHID_OUTPUT) {
			i--;
			continue;
		}
		len += snprintf(buf + len, n - len, "%s%u:%08x", len > 7 ? "," : "",
				ev.u.output.size,
				fnv(ev.u.output.data, ev.u.output.size));
	}
	if (len == 7)
		snprintf(buf + len, n - len, "none");
}

/* /dev/kmsg */
/*
 * A line the kernel logs between a kmsg case's set-up and its read is read
 * instead of the case's record. A probe descriptor put at the end of the
 * log before the case's own position is set, and read once the record is
 * written, tells whether the record came first; when it did not, or the
 * record could not be written, the case exits with status 3 and one() runs
 * it again (three times at most).
 */
static int kmsg_probe = -1, rec_dirty;

static void kmsg_probe_start(void)
{
	kmsg_probe = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_probe >= 0)
		lseek(kmsg_probe, 0, SEEK_END);
}

static void kmsg_probe_check(const char *text)
{
	char r[2048], *semi;
	ssize_t n;

	if (kmsg_probe < 0)
		return;
	n = read(kmsg_probe, r, sizeof(r) - 1);
	close(kmsg_probe);
	kmsg_probe = -1;
	if (n <= 0) {
		rec_dirty = 1;
		return;
	}
	r[n] = '\0';
	semi = strchr(r, ';');
	if (!semi || strncmp(semi + 1, text, strlen(text)))
		rec_dirty = 1;
}

static int kmsg_open(int flags)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Log rec ("<prio>text\n") through /dev/kmsg, then check the probe. */
static void kmsg_log_checked(const char *rec)
{
	int w = open("/dev/kmsg", O_WRONLY);

	if (w < 0 || write(w, rec, strlen(rec)) < 0)
		rec_dirty = 1;
	if (w >= 0)
		close(w);
	kmsg_probe_check(strchr(rec, '>') + 1);
}

static void kmsg_prime(int fd)
{
	/*
	 * The case reads the first record after its position: move it to
	 * the end again right before writing ours, so that a line the
	 * kernel logs meanwhile (which may not fit the case's buffer) is
	 * not read instead; that window used to span the case's set-up.
	 * The probe sees what is left of it.
	 */
	kmsg_probe_start();
	lseek(fd, 0, SEEK_END);
	kmsg_log_checked("<5>difftest: one record of the kmsg cases\n");
}

/*
 * /proc/kmsg: the kernel log from the syslog position on, read destructively.
 * Each case empties it, then logs one record of 63 bytes as syslog prints
 * it ("<12>[ssss.uuuuuu] " and the text), so that no segment boundary of
 * the cases (1..32, 4, 8, 16, 32 and 64 bytes in) falls at its end, where
 * the next segment's call would wait for another record.
 */
static void proc_kmsg_drain(int fd)
{
	char junk[4096];
	int flags = fcntl(fd, F_GETFL);
	int i;

	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	for (i = 0; i < 10000 && read(fd, junk, sizeof(junk)) > 0; i++)
		;
	fcntl(fd, F_SETFL, flags);
}

static void proc_kmsg_prime(int fd)
{
	kmsg_probe_start();
	proc_kmsg_drain(fd);
	kmsg_log_checked("<12>difftest: one record of the proc kmsg cases\n");
}

static int proc_kmsg_open(int flags)
{
	int fd = open("/proc/kmsg", flags);

	/* An unprimed case finds it empty. */
	if (fd >= 0)
		proc_kmsg_drain(fd);
	return fd;
}

/* fusectl: a fuse mount nobody serves, its INIT request queued. */
#define FUSECTL "/sys/fs/fuse/connections"
static char fuse_mnt[64], fuse_dir[96];
static int fuse_dev = -1, fusectl_mounted;

static int fuse_setup(void)
{
	char opts[96], l[1024], point[512];
	unsigned int ma, mi, major = 0, minor = 0;
	struct statfs sfs;
	FILE *f;
	int found = 0;

	fuse_dev = open("/dev/fuse", O_RDWR);
	if (fuse_dev < 0)
		return -errno;
	if (statfs(FUSECTL, &sfs))
		return -errno;
	if (sfs.f_type != 0x65735543) {
		if (mount("fusectl", FUSECTL, "fusectl", 0, NULL))
			return -errno;
		fusectl_mounted = 1;
	}
	snprintf(fuse_mnt, sizeof(fuse_mnt), "/tmp/difftest_fuse.XXXXXX");
	if (!mkdtemp(fuse_mnt))
		return -errno;
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0",
		 fuse_dev);
	if (mount("difftest", fuse_mnt, "fuse", MS_NOSUID | MS_NODEV, opts))
		return -errno;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -errno;
	while (fgets(l, sizeof(l), f))
		if (sscanf(l, "%*u %*u %u:%u %*s %511s", &ma, &mi, point) == 3 &&
		    !strcmp(point, fuse_mnt)) {
			major = ma;
			minor = mi;
			found = 1;
		}
	fclose(f);
	if (!found)
		return -ENOENT;
	snprintf(fuse_dir, sizeof(fuse_dir), "%s/%u", FUSECTL,
		 major << 20 | minor);
	return 0;
}

static void fuse_teardown(void)
{
	char p[128];

	if (fuse_dir[0]) {
		snprintf(p, sizeof(p), "%s/abort", fuse_dir);
		write_str(p, "1");
	}
	umount2(fuse_mnt, MNT_DETACH);
	rmdir(fuse_mnt);
	if (fusectl_mounted)
		umount2(FUSECTL, MNT_DETACH);
}

static int fuse_present(void)
{
	return !access("/dev/fuse", F_OK) && !access(FUSECTL, F_OK);
}

#define FUSE_FILE(n)							\
static const char *fuse_##n##_path(void)				\
{									\
	snprintf(path_buf, sizeof(path_buf), "%s/" #n, fuse_dir);	\
	return path_buf;						\
}									\
static void __attribute__((unused)) fuse_##n##_state(char *buf, size_t size)			\
{									\
	text_of(fuse_##n##_path(), buf, size);				\
}
FUSE_FILE(waiting)
FUSE_FILE(max_background)
FUSE_FILE(congestion_threshold)
FUSE_FILE(abort)

/* User namespaces: a grandchild in a new user namespace, or time namespace. */
static pid_t ns_pid = -1;
static int ns_hold = -1;

static int ns_child(int flags)
{
	int ready[2], hold[2], e = 0;
	char c;

	if (pipe(ready) || pipe(hold))
		return -errno;
	ns_pid = fork();
	if (ns_pid == 0) {
		close(ready[0]);
		close(hold[1]);
		e = unshare(flags) ? errno : 0;
		if (write(ready[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		while (read(hold[0], &c, 1) > 0)
			;
		_exit(0);
	}
	if (ns_pid < 0)
		return -errno;
	close(ready[1]);
	close(hold[0]);
	ns_hold = hold[1];
	if (read(ready[0], &e, sizeof(e)) != sizeof(e))
		e = EIO;
	close(ready[0]);
	return -e;
}

static int userns_setup(void)
{
	return ns_child(CLONE_NEWUSER);
}

static void ns_teardown(void)
{
	if (ns_hold >= 0)
		close(ns_hold);
	if (ns_pid > 0)
		waitpid(ns_pid, NULL, 0);
}

#define NS_FILE(n)							\
static const char *ns_##n##_path(void)					\
{									\
	snprintf(path_buf, sizeof(path_buf), "/proc/%d/" #n, (int)ns_pid);\
	return path_buf;						\
}									\
static void ns_##n##_state(char *buf, size_t size)			\
{									\
	text_of(ns_##n##_path(), buf, size);				\
}
NS_FILE(uid_map)
NS_FILE(gid_map)
NS_FILE(setgroups)

static void uid_map_prime(int fd)
{
	char p[64];

	(void)fd;
	snprintf(p, sizeof(p), "/proc/%d/uid_map", (int)ns_pid);
	write_str(p, "0 0 1\n");
}

/* timens_offsets: this process's time namespace for children, fresh. */
static int timens_setup(void)
{
	return unshare(CLONE_NEWTIME) ? -errno : 0;
}

/* /proc/self files: the child's own. */
#define SELF_STATE(n, file)						\
static void n##_state(char *buf, size_t size)				\
{									\
	text_of("/proc/self/" file, buf, size);				\
}
SELF_STATE(comm, "comm")
SELF_STATE(oom_score_adj, "oom_score_adj")
SELF_STATE(oom_adj, "oom_adj")
SELF_STATE(coredump_filter, "coredump_filter")
SELF_STATE(timerslack, "timerslack_ns")
SELF_STATE(loginuid, "loginuid")
SELF_STATE(timens, "timens_offsets")
SELF_STATE(attr_current, "attr/current")

/* clear_refs: grow and drop the RSS before, see whether VmHWM was reset. */
static long status_kb(const char *field)
{
	static char text[4096];
	ssize_t n;
	char *p;
	int fd = open("/proc/self/status", O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	p = strstr(text, field);
	return p ? strtol(p + strlen(field), NULL, 10) : -1;
}

static int clear_refs_setup(void)
{
	size_t size = 8 << 20;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	memset(p, 1, size);
	munmap(p, size);
	return 0;
}

static void clear_refs_state(char *buf, size_t n)
{
	long hwm = status_kb("VmHWM:"), rss = status_kb("VmRSS:");

	snprintf(buf, n, "hwm:%s", hwm - rss > 4096 ? "kept" : "reset");
}

/* /proc/self/mem: our own memory. */
static unsigned char mem_src[256], mem_dst[256];

static long mem_off(int writing)
{
	return (long)(uintptr_t)(writing ? mem_dst : mem_src);
}

static int mem_setup(void)
{
	size_t i;

	for (i = 0; i < sizeof(mem_src); i++)
		mem_src[i] = i * 7 + 1;
	memset(mem_dst, 0, sizeof(mem_dst));
	return 0;
}

static void mem_state(char *buf, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < sizeof(mem_dst); i++)
		if (mem_dst[i])
			k = i + 1;
	snprintf(buf, n, "dst:%zu:%08x", k, fnv(mem_dst, sizeof(mem_dst)));
}

/* pagemap: the entries of 8 pages of ours. */
static char *pm_pages;

static int pagemap_setup(void)
{
	long page = sysconf(_SC_PAGESIZE);

	pm_pages = mmap(NULL, 8 * page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (pm_pages == MAP_FAILED)
		return -errno;
	memset(pm_pages, 1, 8 * page);
	return 0;
}

static long pagemap_off(int writing)
{
	return (long)((uintptr_t)pm_pages / sysconf(_SC_PAGESIZE) * 8);
}

/*
 * /dev/watchdog0 (softdog; the guest boots with softdog.soft_noboot=1, so
 * that a watchdog left running only logs when it fires). A write pings it;
 * the scan of each ->write call clears the magic close and arms it again at
 * every 'V', so the state is what closing the descriptor then does:
 * "inactive" when the last call armed the magic close, "active" when the
 * watchdog kept running ("watchdog did not stop!"). The teardown stops it.
 */
static void watchdog_state(char *buf, size_t n)
{
	close(cur_fd);
	cur_fd = -1;
	text_of("/sys/class/watchdog/watchdog0/state", buf, n);
}

static void watchdog_teardown(void)
{
	write_str("/dev/watchdog0", "V");
}

/* /dev/cpu_dma_latency: the limit in effect while our request holds. */
static void dma_latency_state(char *buf, size_t n)
{
	int32_t v = 0;
	int fd = open("/dev/cpu_dma_latency", O_RDONLY);

	if (fd < 0 || read(fd, &v, 4) != 4)
		snprintf(buf, n, "limit:-%s", errname(errno));
	else
		snprintf(buf, n, "limit:%d", v);
	if (fd >= 0)
		close(fd);
}

/* Two bytes of a file at an offset, in hex after a tag, or the errno. */
static void two_bytes_of(const char *path, off_t off, const char *tag,
			 char *buf, size_t n)
{
	unsigned char b[2] = { 0, 0 };
	int fd = open(path, O_RDONLY);

	if (fd < 0 || pread(fd, b, 2, off) != 2)
		snprintf(buf, n, "-%s", errname(errno));
	else
		snprintf(buf, n, "%s%02x%02x", tag, b[0], b[1]);
	if (fd >= 0)
		close(fd);
}

/* /dev/port: the POST port. */
static void port_state(char *buf, size_t n)
{
	two_bytes_of("/dev/port", 0x80, "ports:", buf, n);
}

/* /dev/mem: low RAM reads as zeros and ignores writes (STRICT_DEVMEM). */
static int devmem_strict(void)
{
	char c;
	int fd = open("/dev/mem", O_RDONLY);
	int strict;

	if (fd < 0)
		return 0;
	strict = pread(fd, &c, 1, 0x200000) < 0 && errno == EPERM;
	close(fd);
	return strict;
}

static int devmem_present(void)
{
	return !access("/dev/mem", F_OK) && devmem_strict();
}

static void devmem_state(char *buf, size_t n)
{
	unsigned char b[64];
	int fd = open("/dev/mem", O_RDONLY);

	if (fd < 0 || pread(fd, b, 64, 0x1000) != 64)
		snprintf(buf, n, "-%s", errname(errno));
	else
		snprintf(buf, n, "low:%08x", fnv(b, 64));
	if (fd >= 0)
		close(fd);
}

/* vcs: save the first bytes of tty1's screen, restore them after. */
static unsigned char vcs_saved[80];
static ssize_t vcs_saved_len = -1;

static int vcs_setup(void)
{
	int fd = open("/dev/vcs1", O_RDONLY);

	if (fd < 0)
		return -errno;
	vcs_saved_len = pread(fd, vcs_saved, sizeof(vcs_saved), 0);
	close(fd);
	return vcs_saved_len < 0 ? -errno : 0;
}

static void vcs_teardown(void)
{
	int fd = open("/dev/vcs1", O_WRONLY);

	if (fd >= 0 && vcs_saved_len > 0 &&
	    pwrite(fd, vcs_saved, vcs_saved_len, 0) < 0)
		vcs_saved_len = -1;
	if (fd >= 0)
		close(fd);
}

static void vcs_state(char *buf, size_t n)
{
	char b[17];
	int fd = open("/dev/vcs1", O_RDONLY), i;

	memset(b, 0, sizeof(b));
	if (fd < 0 || pread(fd, b, 16, 0) != 16) {
		snprintf(buf, n, "-%s", errname(errno));
	} else {
		for (i = 0; i < 16; i++)
			if (b[i] < 33 || b[i] > 126)
				b[i] = '_';
		snprintf(buf, n, "screen:%s", b);
	}
	if (fd >= 0)
		close(fd);
}

static unsigned char vcsa_saved[80];

static int vcsa_setup(void)
{
	int fd = open("/dev/vcsa1", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, vcsa_saved, sizeof(vcsa_saved), 4);
	close(fd);
	return n < 0 ? -errno : 0;
}

static void vcsa_teardown(void)
{
	int fd = open("/dev/vcsa1", O_WRONLY);

	if (fd >= 0 && pwrite(fd, vcsa_saved, sizeof(vcsa_saved), 4) < 0)
		close(fd);
	else if (fd >= 0)
		close(fd);
}

static void vcsa_state(char *buf, size_t n)
{
	unsigned char b[16];
	int fd = open("/dev/vcsa1", O_RDONLY);

	if (fd < 0 || pread(fd, b, 16, 4) != 16)
		snprintf(buf, n, "-%s", errname(errno));
	else
		snprintf(buf, n, "cells:%08x", fnv(b, 16));
	if (fd >= 0)
		close(fd);
}

/* /dev/vga_arbiter: the status line of this open file. */
static void vga_state(char *buf, size_t n)
{
	char b[256];
	ssize_t k;

	k = pread(cur_fd, b, sizeof(b) - 1, 0);
	if (k < 0)
		k = read(cur_fd, b, sizeof(b) - 1);
	if (k < 0) {
		snprintf(buf, n, "-%s", errname(errno));
		return;
	}
	b[k] = '\0';
	snprintf(buf, n, "status:%08x", fnv(b, k));
}

/* debugfs values: saved in setup, restored in teardown. */
static char saved_val[64];
static const char *saved_path;

static int save_value(const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	saved_path = path;
	if (fd < 0)
		return -errno;
	n = read(fd, saved_val, sizeof(saved_val) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	saved_val[n] = '\0';
	return 0;
}

static void restore_value(void)
{
	if (saved_path)
		write_str(saved_path, saved_val);
}

#define FAULT_AROUND "/sys/kernel/debug/fault_around_bytes"
#define TLB_CEILING "/sys/kernel/debug/x86/tlb_single_page_flush_ceiling"
#define INIT_PKRU "/sys/kernel/debug/x86/init_pkru"

static int fault_around_setup(void) { return save_value(FAULT_AROUND); }
static int tlb_setup(void) { return save_value(TLB_CEILING); }
static int pkru_setup(void) { return save_value(INIT_PKRU); }
static void fault_around_state(char *b, size_t n) { text_of(FAULT_AROUND, b, n); }
static void tlb_state(char *b, size_t n) { text_of(TLB_CEILING, b, n); }
static void pkru_state(char *b, size_t n) { text_of(INIT_PKRU, b, n); }

/* blk-mq debugfs: "state" of the first virtio-blk disk. */
static const char *blk_state_path(void)
{
	char disk[256] = "";
	struct dirent *de;
	DIR *d = opendir("/sys/kernel/debug/block");

	if (!d)
		return "/sys/kernel/debug/block/none/state";
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "vd", 2) &&
		    (!disk[0] || strcmp(de->d_name, disk) < 0))
			snprintf(disk, sizeof(disk), "%s", de->d_name);
	closedir(d);
	snprintf(path_buf, sizeof(path_buf), "/sys/kernel/debug/block/%s/state",
		 disk[0] ? disk : "none");
	return path_buf;
}

static int blk_present(void)
{
	return !access(blk_state_path(), F_OK);
}

static void blk_state(char *b, size_t n)
{
	text_of(blk_state_path(), b, n);
}

/* usbfs: the first device file (the dummy_hcd root hub). */
static const char *usbfs_path(void)
{
	snprintf(path_buf, sizeof(path_buf), "/dev/bus/usb/001/001");
	return path_buf;
}

static int usbfs_present(void)
{
	return !access(usbfs_path(), F_OK);
}

/*
 * /proc/bus/pci: the interrupt line register (0x3c) of the first virtio
 * device, which only stores what the OS writes there. The next byte, the
 * interrupt pin, is read-only. Saved in setup, restored in teardown.
 */
static char pci_path[300];
static unsigned char pci_saved;

static const char *pci_virtio_path(void)
{
	struct dirent *de;
	char best[256] = "";
	DIR *d = opendir("/proc/bus/pci/00");

	if (d) {
		while ((de = readdir(d))) {
			unsigned char id[2];
			char p[300];
			int fd;

			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "/proc/bus/pci/00/%s", de->d_name);
			fd = open(p, O_RDONLY);
			if (fd < 0)
				continue;
			if (pread(fd, id, 2, 0) == 2 && id[0] == 0xf4 &&
			    id[1] == 0x1a && (!best[0] || strcmp(de->d_name, best) < 0))
				snprintf(best, sizeof(best), "%s", de->d_name);
			close(fd);
		}
		closedir(d);
	}
	snprintf(pci_path, sizeof(pci_path), "/proc/bus/pci/00/%s",
		 best[0] ? best : "none");
	return pci_path;
}

static int pci_virtio_present(void)
{
	return strcmp(pci_virtio_path(), "/proc/bus/pci/00/none") != 0;
}

static int pci_intline_setup(void)
{
	int fd = open(pci_virtio_path(), O_RDONLY);
	int e = 0;

	if (fd < 0)
		return -errno;
	if (pread(fd, &pci_saved, 1, 0x3c) != 1)
		e = -EIO;
	close(fd);
	return e;
}

static void pci_intline_teardown(void)
{
	int fd = open(pci_virtio_path(), O_WRONLY);

	if (fd >= 0) {
		if (pwrite(fd, &pci_saved, 1, 0x3c) != 1)
			fprintf(stderr, "difftest: could not restore %s\n",
				pci_path);
		close(fd);
	}
}

static void pci_intline_state(char *b, size_t n)
{
	two_bytes_of(pci_virtio_path(), 0x3c, "", b, n);
}

/* ---- payloads ---- */

#define P(t, s, ...) { t, s, sizeof(s) - 1, __VA_ARGS__ }

static const uint64_t ev_3[1] = { 3 }, ev_1_2[2] = { 1, 2 };
static const struct payload pay_eventfd[] = {
	{ "[4,4]", ev_3, 8, 2, { 4, 4 } },
	{ "[8,8]", ev_1_2, 16, 2, { 8, 8 } },
	{ "[8,0,0,8]", ev_1_2, 16, 4, { 8, 0, 0, 8 } },
};

static const int32_t lat_100[1] = { 100 }, lat_100_200[2] = { 100, 200 };
static const struct payload pay_dma[] = {
	{ "[2,2]", lat_100, 4, 2, { 2, 2 } },
	{ "[4,4]", lat_100_200, 8, 2, { 4, 4 } },
};

/* 'V' then another byte: armed by one call, cleared by a second one. */
static const struct payload pay_watchdog[] = {
	P("[\"aV\",\"b\"]", "aVb", 2, { 2, 1 }),
	P("[\"a\",\"Vb\"]", "aVb", 2, { 1, 2 }),
};

static const struct payload pay_oom[] = {
	P("[\"-1\",\"23\\n\"]", "-123\n", 2, { 2, 3 }),
	P("[\"1\",\"0\\n\"]", "10\n", 2, { 1, 2 }),
};
static const struct payload pay_oom_adj[] = {
	P("[\"-\",\"5\\n\"]", "-5\n", 2, { 1, 2 }),
	P("[\"1\",\"0\\n\"]", "10\n", 2, { 1, 2 }),
};
/*
 * A PSI trigger: one per open file. The second segment finds the first
 * one's trigger (EBUSY); split inside a number, the first fails alone
 * (the write drops its last byte: a segment must end with a newline).
 */
static const struct payload pay_psi[] = {
	P("[\"some 500000 2000000\\n\",\"\\n\"]", "some 500000 2000000\n\n",
	  2, { 20, 1 }),
	P("[\"some 5000\",\"00 2000000\"]", "some 500000 2000000", 2,
	  { 9, 10 }),
};
static const struct payload pay_comm[] = {
	P("[\"ab\",\"cd\"]", "abcd", 2, { 2, 2 }),
};
static const struct payload pay_coredump[] = {
	P("[\"0x2\",\"3\\n\"]", "0x23\n", 2, { 3, 2 }),
};
static const struct payload pay_slack[] = {
	P("[\"123\",\"456\"]", "123456", 2, { 3, 3 }),
};
static const struct payload pay_loginuid[] = {
	P("[\"10\",\"00\"]", "1000", 2, { 2, 2 }),
};
static const struct payload pay_clear_refs[] = {
	P("[\"5\",\"\\n\"]", "5\n", 2, { 1, 1 }),
	P("[\"1\",\"\\n\"]", "1\n", 2, { 1, 1 }),
};
static const struct payload pay_timens[] = {
	P("[\"monotonic_1\",\"_0\\n\"]", "monotonic 1 0\n", 2, { 11, 3 }),
	P("[line,line]", "monotonic 1 0\nboottime 2 0\n", 2, { 14, 13 }),
};
static const struct payload pay_sched[] = {
	P("[\"0\",\"\\n\"]", "0\n", 2, { 1, 1 }),
};
static const struct payload pay_idmap[] = {
	P("[\"0_\",\"0_1\\n\"]", "0 0 1\n", 2, { 2, 4 }),
	P("[line,line]", "0 0 1\n1 1 1\n", 2, { 6, 6 }),
};
static const struct payload pay_setgroups[] = {
	P("[\"de\",\"ny\\n\"]", "deny\n", 2, { 2, 3 }),
};
static const struct payload pay_attr[] = {
	P("[\"unc\",\"onfined\"]", "unconfined", 2, { 3, 7 }),
};
static const struct payload pay_fuse_limit[] = {
	P("[\"10\",\"1\"]", "101", 2, { 2, 1 }),
};
static const struct payload pay_fuse_abort[] = {
	P("[\"ab\",\"ort\\n\"]", "abort\n", 2, { 2, 4 }),
};
static const struct payload pay_fault_around[] = {
	P("[\"163\",\"84\"]", "16384", 2, { 3, 2 }),
};
static const struct payload pay_tlb[] = {
	P("[\"10\",\"1\"]", "101", 2, { 2, 1 }),
};
static const struct payload pay_pkru[] = {
	P("[\"0x5555\",\"5554\"]", "0x55555554", 2, { 6, 4 }),
};
static const struct payload pay_blk[] = {
	P("[\"ru\",\"n\\n\"]", "run\n", 2, { 2, 2 }),
	P("[\"ki\",\"ck\\n\"]", "kick\n", 2, { 2, 3 }),
};
static const struct payload pay_clear_warn[] = {
	P("[\"1\",\"\\n\"]", "1\n", 2, { 1, 1 }),
};
static const struct payload pay_vga[] = {
	P("[\"target_\",\"default\"]", "target default", 2, { 7, 7 }),
	P("[\"unlock_\",\"all\"]", "unlock all", 2, { 7, 3 }),
	P("[\"frob\",\"nicate\"]", "frobnicate", 2, { 4, 6 }),
};
static const struct payload pay_pci_intline[] = {
	P("[1,1]", "\x0a\x07", 2, { 1, 1 }),
};
static const struct payload pay_bytes[] = {
	P("[32,32]", "0123456789abcdef0123456789abcdef"
		     "0123456789abcdef0123456789abcdef", 2, { 32, 32 }),
};
static const struct payload pay_port[] = {
	P("[1,1]", "\x12\x34", 2, { 1, 1 }),
};
static const struct payload pay_vcs[] = {
	P("[3,5]", "DiffTest", 2, { 3, 5 }),
};
static const struct payload pay_vcsa[] = {
	P("[3,5]", "D\x07i\x07" "f\x07" "f\x07", 2, { 3, 5 }),
};
static const struct payload pay_vcsu[] = {
	P("[4,4]", "A\0\0\0B\0\0\0", 2, { 4, 4 }),
};
static struct fanotify_response fan_resp = { .fd = 999, .response = FAN_ALLOW };
static const struct payload pay_fanotify[] = {
	{ "[4,4]", &fan_resp, sizeof(fan_resp), 2, { 4, 4 } },
};
static struct input_event uin_ev[2] = {
	{ .type = EV_MSC, .code = MSC_SCAN, .value = 2000 },
	{ .type = EV_SYN, .code = SYN_REPORT },
};
static const struct payload pay_hidraw[] = {
	P("[1,8]", "\0abcdefgh", 2, { 1, 8 }),
	P("[5,4]", "\0abcdefgh", 2, { 5, 4 }),
};
static const struct payload pay_uinput[] = {
	{ "[30,18]", uin_ev, sizeof(uin_ev), 2, { 30, 18 } },
	{ "[24,24]", uin_ev, sizeof(uin_ev), 2, { 24, 24 } },
};

#define PAY(p) .pay = p, .npay = sizeof(p) / sizeof(p[0])
#define RO O_RDONLY
#define WO O_WRONLY
#define DIRF (O_RDONLY | O_DIRECTORY)
#define NOR .rflags = -1
#define NOW .wflags = -1

static const char *env_dir(const char *var)
{
	const char *d = getenv(var);

	return d ? d : "/nonexistent";
}

static const char *ext4_dir(void) { return env_dir("AIO_TEST_EXT4_DIR"); }
static const char *ext2_dir(void) { return env_dir("AIO_TEST_EXT2_DIR"); }
static const char *xfs_dir(void) { return env_dir("AIO_TEST_XFS_DIR"); }
static int ext4_present(void) { return !!getenv("AIO_TEST_EXT4_DIR"); }
static int ext2_present(void) { return !!getenv("AIO_TEST_EXT2_DIR"); }
static int xfs_present(void) { return !!getenv("AIO_TEST_XFS_DIR"); }

static const struct target targets[] = {
	/* eventfd: ->write converted (reads were ->read_iter already). */
	{ "eventfd", .open_fn = eventfd_open, .prime = eventfd_prime,
	  .state = eventfd_state, .rflags = RO, .wflags = WO, .off = -1,
	  .rlen = 8, .rsplit = 4, .content = C_HASH, PAY(pay_eventfd) },
	{ "inotify", .open_fn = inotify_open, .setup = mk_tmpdir,
	  .teardown = rm_tmpdir, .prime = create_f0, .rflags = RO, NOW,
	  .off = -1, .rlen = 320, .rsplit = 20, .content = C_HASH },
	{ "fanotify", .open_fn = fanotify_open, .setup = fanotify_setup,
	  .teardown = rm_tmpdir, .prime = fanotify_prime, .rflags = RO,
	  .wflags = WO, .off = -1, .rlen = 64, .rsplit = 8,
	  .content = C_FANOTIFY, PAY(pay_fanotify) },
	{ "fscontext", .open_fn = fscontext_open, .prime = fscontext_prime,
	  .rflags = RO, NOW, .off = -1, .rlen = 256, .rsplit = 8,
	  .content = C_HASH },
	{ "perf", .open_fn = perf_open, .rflags = RO, NOW, .off = -1,
	  .rlen = 64, .rsplit = 4, .content = C_PERF },
	{ "/dev/kmsg", "/dev/kmsg", .open_fn = kmsg_open, .prime = kmsg_prime,
	  .rflags = RO, NOW, .off = -1, .rlen = 208, .rsplit = 8,
	  .content = C_KMSG, .vol = 1 },
	{ "evdev", .path_fn = evdev_path_fn, .present = uinput_present,
	  .setup = input_setup, .teardown = input_teardown,
	  .prime = evdev_prime, .rflags = O_RDONLY | O_NONBLOCK, NOW,
	  .off = -1, .rlen = 72, .rsplit = 30, .content = C_EVDEV },
	{ "hidraw", .path_fn = hidraw_path_fn, .present = uhid_present,
	  .setup = uhid_setup, .teardown = uhid_teardown,
	  .prime = hidraw_prime, .state = hidraw_state,
	  .rflags = O_RDONLY | O_NONBLOCK, .wflags = O_WRONLY, .off = -1,
	  .rlen = 16, .rsplit = 3, .content = C_HASH, PAY(pay_hidraw) },
	{ "/dev/uinput", "/dev/uinput", .open_fn = uinput_open,
	  .setup = uinput_setup_w, .teardown = input_teardown,
	  .state = uinput_state_w, NOR, .wflags = WO, .off = -1,
	  PAY(pay_uinput) },

	/* /proc/PID: per-task attributes, seq files, mem and friends. */
	{ "/proc/self/environ", "/proc/self/environ", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 3, .content = C_REF },
	{ "/proc/self/auxv", "/proc/self/auxv", .rflags = RO, NOW, .off = 0,
	  .rlen = 1024, .rsplit = 4, .content = C_REF },
	{ "/proc/self/cmdline", "/proc/self/cmdline", .rflags = RO, NOW,
	  .off = 0, .rlen = 256, .rsplit = 3, .content = C_HASH },
	{ "/proc/self/comm", "/proc/self/comm", .state = comm_state,
	  .rflags = RO, .wflags = WO, .off = 0, .rlen = 64, .rsplit = 3,
	  .content = C_HASH, PAY(pay_comm) },
	{ "/proc/pressure/cpu", "/proc/pressure/cpu", NOR, .wflags = WO,
	  .off = -1, PAY(pay_psi) },
	{ "/proc/pressure/io", "/proc/pressure/io", NOR, .wflags = WO,
	  .off = -1, PAY(pay_psi) },
	{ "/proc/pressure/memory", "/proc/pressure/memory", NOR,
	  .wflags = WO, .off = -1, PAY(pay_psi) },
	{ "/proc/self/oom_score_adj", "/proc/self/oom_score_adj",
	  .state = oom_score_adj_state, .rflags = RO, .wflags = WO, .off = 0,
	  .rlen = 64, .rsplit = 1, .content = C_HASH, PAY(pay_oom) },
	{ "/proc/self/oom_adj", "/proc/self/oom_adj", .state = oom_adj_state,
	  .rflags = RO, .wflags = WO, .off = 0, .rlen = 64, .rsplit = 1,
	  .content = C_HASH, PAY(pay_oom_adj) },
	{ "/proc/self/coredump_filter", "/proc/self/coredump_filter",
	  .state = coredump_filter_state, .rflags = RO, .wflags = WO,
	  .off = 0, .rlen = 64, .rsplit = 4, .content = C_HASH,
	  PAY(pay_coredump) },
	{ "/proc/self/timerslack_ns", "/proc/self/timerslack_ns",
	  .state = timerslack_state, .rflags = RO, .wflags = WO, .off = 0,
	  .rlen = 64, .rsplit = 2, .content = C_HASH, PAY(pay_slack) },
	{ "/proc/self/loginuid", "/proc/self/loginuid",
	  .state = loginuid_state, .rflags = RO, .wflags = WO, .off = 0,
	  .rlen = 64, .rsplit = 3, .content = C_HASH, PAY(pay_loginuid) },
	{ "/proc/self/sessionid", "/proc/self/sessionid", .rflags = RO, NOW,
	  .off = 0, .rlen = 64, .rsplit = 3, .content = C_HASH },
	{ "/proc/self/make-it-fail", "/proc/self/make-it-fail", .rflags = RO,
	  NOW, .off = 0, .rlen = 64, .rsplit = 1, .content = C_HASH },
	{ "/proc/self/attr/current", "/proc/self/attr/current",
	  .state = attr_current_state, .rflags = RO, .wflags = WO, .off = 0,
	  .rlen = 64, .rsplit = 1, .content = C_REF, PAY(pay_attr) },
	{ "/proc/self/timens_offsets", "/proc/self/timens_offsets",
	  .setup = timens_setup, .state = timens_state, .rflags = RO,
	  .wflags = WO, .off = 0, .rlen = 256, .rsplit = 5, .content = C_HASH,
	  PAY(pay_timens) },
	{ "/proc/self/sched", "/proc/self/sched", .rflags = RO, .wflags = WO,
	  .off = 0, .rlen = 4096, .rsplit = 5, .content = C_SHAPE, .vol = 1,
	  PAY(pay_sched) },
	{ "/proc/self/personality", "/proc/self/personality", .rflags = RO,
	  NOW, .off = 0, .rlen = 64, .rsplit = 3, .content = C_HASH },
	{ "/proc/self/limits", "/proc/self/limits", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF },
	{ "/proc/self/stat", "/proc/self/stat", .rflags = RO, NOW, .off = 0,
	  .rlen = 4096, .rsplit = 3, .content = C_SHAPE, .vol = 1 },
	{ "/proc/self/statm", "/proc/self/statm", .rflags = RO, NOW, .off = 0,
	  .rlen = 4096, .rsplit = 3, .content = C_SHAPE, .vol = 1 },
	{ "/proc/self/status", "/proc/self/status", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_SHAPE, .vol = 1 },
	{ "/proc/self/maps", "/proc/self/maps", .rflags = RO, NOW, .off = 0,
	  .rlen = 8192, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/self/smaps_rollup", "/proc/self/smaps_rollup", .rflags = RO,
	  NOW, .off = 0, .rlen = 4096, .rsplit = 10, .content = C_SHAPE,
	  .vol = 1 },
	{ "/proc/self/fdinfo/0", "/proc/self/fdinfo/0", .rflags = RO, NOW,
	  .off = 0, .rlen = 1024, .rsplit = 3, .content = C_REF, .vol = 1 },
	{ "/proc/self/pagemap", "/proc/self/pagemap", .setup = pagemap_setup,
	  .off_fn = pagemap_off, .rflags = RO, NOW, .rlen = 64, .rsplit = 4,
	  .content = C_REF },
	{ "/proc/self/mem", "/proc/self/mem", .setup = mem_setup,
	  .off_fn = mem_off, .state = mem_state, .rflags = RO, .wflags = WO,
	  .rlen = 256, .rsplit = 3, .content = C_HASH, PAY(pay_bytes) },
	{ "/proc/self/clear_refs", "/proc/self/clear_refs",
	  .setup = clear_refs_setup, .state = clear_refs_state, NOR,
	  .wflags = WO, .off = -1, PAY(pay_clear_refs) },
	{ "/proc/PID/uid_map", .path_fn = ns_uid_map_path,
	  .setup = userns_setup, .teardown = ns_teardown,
	  .prime = uid_map_prime, .state = ns_uid_map_state, .rflags = RO,
	  .wflags = WO, .off = 0, .rlen = 64, .rsplit = 5, .content = C_HASH,
	  PAY(pay_idmap) },
	{ "/proc/PID/gid_map", .path_fn = ns_gid_map_path,
	  .setup = userns_setup, .teardown = ns_teardown,
	  .state = ns_gid_map_state, .rflags = RO, .wflags = WO, .off = 0,
	  .rlen = 64, .rsplit = 5, .content = C_HASH, PAY(pay_idmap) },
	{ "/proc/PID/setgroups", .path_fn = ns_setgroups_path,
	  .setup = userns_setup, .teardown = ns_teardown,
	  .state = ns_setgroups_state, .rflags = RO, .wflags = WO, .off = 0,
	  .rlen = 64, .rsplit = 2, .content = C_HASH, PAY(pay_setgroups) },
	{ "/proc/net/protocols", "/proc/net/protocols", .rflags = RO, NOW,
	  .off = 0, .rlen = 8192, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/net/sockstat", "/proc/net/sockstat", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	/*
	 * More proc_create_net*() entries: seq_file iterators of several
	 * records, read with one call per segment on 6.12.
	 */
	{ "/proc/net/netlink", "/proc/net/netlink", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/net/ptype", "/proc/net/ptype", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	/* Counters and timers that the NFS and SMB mounts' traffic moves. */
	{ "/proc/net/dev", "/proc/net/dev", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_SHAPE, .vol = 1 },
	{ "/proc/net/unix", "/proc/net/unix", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/net/unix[300sockets]", "/proc/net/unix",
	  .setup = many_unix_sockets, .rflags = RO, NOW, .off = 0,
	  .rlen = BUF_MAX, .rsplit = 100, .content = C_REF },
	{ "/proc/net/if_inet6", "/proc/net/if_inet6", .rflags = RO, NOW,
	  .off = 0, .rlen = 1024, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/net/ipv6_route", "/proc/net/ipv6_route", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/net/fib_trie", "/proc/net/fib_trie", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/net/route", "/proc/net/route", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	/* Counters and timers that the NFS and SMB mounts' traffic moves. */
	{ "/proc/net/snmp", "/proc/net/snmp", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_SHAPE, .vol = 1 },
	/* Counters and timers that the NFS and SMB mounts' traffic moves. */
	{ "/proc/net/tcp", "/proc/net/tcp", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_SHAPE, .vol = 1 },
	{ "/proc/net/udp", "/proc/net/udp", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/net/packet", "/proc/net/packet", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	/* proc_ops with ->proc_read: run through the loop by procfs. */
	{ "/proc/kpageflags", "/proc/kpageflags", .rflags = RO, NOW, .off = 0,
	  .rlen = 64, .rsplit = 4, .content = C_REF },
	{ "/proc/kpagecount", "/proc/kpagecount", .rflags = RO, NOW, .off = 0,
	  .rlen = 64, .rsplit = 4, .content = C_REF },
	{ "/proc/kmsg", "/proc/kmsg", .open_fn = proc_kmsg_open,
	  .prime = proc_kmsg_prime, .rflags = RO, NOW, .off = -1, .rlen = 64,
	  .rsplit = 4, .content = C_SYSLOG },
	{ "/proc/bus/pci/00/00.0", "/proc/bus/pci/00/00.0", .rflags = RO, NOW,
	  .off = 0, .rlen = 64, .rsplit = 3, .content = C_REF },
	/*
	 * Writes through ->proc_write_iter; before the series, through
	 * ->proc_write: the first virtio device's interrupt line register,
	 * written, then restored. (The guest has no /proc/irq masks, without
	 * CONFIG_SMP, and no /proc/net file that root may open for writing.)
	 */
	{ "/proc/bus/pci/virtio@0x3c", .path_fn = pci_virtio_path,
	  .present = pci_virtio_present, .setup = pci_intline_setup,
	  .teardown = pci_intline_teardown, .state = pci_intline_state,
	  .rflags = RO, .wflags = WO, .off = 0x3c, .rlen = 4, .rsplit = 1,
	  .content = C_HASH, PAY(pay_pci_intline) },
	/*
	 * proc_ops whose .proc_read was seq_read: seq_read_iter since
	 * cocci/proc_seq_read.cocci. Read only: what they accept
	 * as writes is not theirs to test here.
	 */
	{ "/proc/swaps", "/proc/swaps", .rflags = RO, NOW, .off = 0,
	  .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/kallsyms", "/proc/kallsyms", .rflags = RO, NOW, .off = 0,
	  .rlen = 8192, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/slabinfo", "/proc/slabinfo", .rflags = RO, NOW, .off = 0,
	  .rlen = 4096, .rsplit = 10, .content = C_SHAPE, .vol = 1 },
	{ "/proc/modules", "/proc/modules", .rflags = RO, NOW, .off = 0,
	  .rlen = 4096, .rsplit = 10, .content = C_REF, .vol = 1 },
	{ "/proc/bus/input/devices", "/proc/bus/input/devices", .rflags = RO,
	  NOW, .off = 0, .rlen = 4096, .rsplit = 10, .content = C_REF,
	  .vol = 1 },
	{ "/proc/bus/input/handlers", "/proc/bus/input/handlers",
	  .rflags = RO, NOW, .off = 0, .rlen = 4096, .rsplit = 10,
	  .content = C_REF, .vol = 1 },

	/* Directories: generic_dir_read_iter(). */
	{ "dir:/proc", "/proc", .rflags = DIRF, NOW, .off = -1, .rlen = 64 },
	{ "dir:/proc/self", "/proc/self", .rflags = DIRF, NOW, .off = -1,
	  .rlen = 64 },
	{ "dir:/sys/kernel(kernfs)", "/sys/kernel", .rflags = DIRF, NOW,
	  .off = -1, .rlen = 64 },
	{ "dir:/tmp(tmpfs)", "/tmp", .rflags = DIRF, NOW, .off = -1,
	  .rlen = 64 },
	{ "dir:/dev(devtmpfs)", "/dev", .rflags = DIRF, NOW, .off = -1,
	  .rlen = 64 },
	{ "dir:configfs", "/sys/kernel/config", .rflags = DIRF, NOW,
	  .off = -1, .rlen = 64 },
	{ "dir:debugfs", "/sys/kernel/debug", .rflags = DIRF, NOW, .off = -1,
	  .rlen = 64 },
	{ "dir:fusectl", "/sys/fs/fuse/connections", .rflags = DIRF, NOW,
	  .off = -1, .rlen = 64 },
	{ "dir:ext4", .path_fn = ext4_dir, .present = ext4_present,
	  .rflags = DIRF, NOW, .off = -1, .rlen = 64 },
	{ "dir:ext2", .path_fn = ext2_dir, .present = ext2_present,
	  .rflags = DIRF, NOW, .off = -1, .rlen = 64 },
	{ "dir:xfs", .path_fn = xfs_dir, .present = xfs_present,
	  .rflags = DIRF, NOW, .off = -1, .rlen = 64 },

	/* Character devices. */
	{ "/dev/null", "/dev/null", .rflags = RO, .wflags = WO, .off = -1,
	  .rlen = 64, .rsplit = 3, .content = C_HASH, PAY(pay_bytes) },
	{ "/dev/zero", "/dev/zero", .rflags = RO, .wflags = WO, .off = -1,
	  .rlen = 64, .rsplit = 3, .content = C_HASH, PAY(pay_bytes) },
	{ "/dev/full", "/dev/full", .rflags = RO, .wflags = WO, .off = -1,
	  .rlen = 64, .rsplit = 3, .content = C_HASH, PAY(pay_bytes) },
	{ "/dev/port", "/dev/port", .state = port_state, .rflags = RO,
	  .wflags = WO, .off = 0x80, .rlen = 4, .rsplit = 1, .content = C_REF,
	  PAY(pay_port) },
	{ "/dev/mem", "/dev/mem", .present = devmem_present,
	  .state = devmem_state, .rflags = RO, .wflags = WO, .off = 0x1000,
	  .rlen = 64, .rsplit = 3, .content = C_HASH, PAY(pay_bytes) },
	{ "/dev/mem@bios", "/dev/mem", .present = devmem_present,
	  .rflags = RO, NOW, .off = 0xfd800, .rlen = 8192, .rsplit = 4095,
	  .content = C_REF },
	{ "/dev/mem@2MiB", "/dev/mem", .present = devmem_present,
	  .rflags = RO, NOW, .off = 0x200000, .rlen = 64, .rsplit = 3,
	  .content = C_HASH },
	{ "/dev/hwrng", "/dev/hwrng", .rflags = RO, NOW, .off = -1, .rlen = 64,
	  .rsplit = 3, .content = C_SHAPE, .vol = 1, .nbwait = 1 },
	{ "/dev/rtc0", "/dev/rtc0", .rflags = O_RDONLY | O_NONBLOCK, NOW,
	  .off = -1, .rlen = 8, .rsplit = 4, .content = C_HASH },
	{ "/dev/cpu/0/msr", "/dev/cpu/0/msr", .rflags = RO, NOW, .off = 0x1b,
	  .rlen = 16, .rsplit = 4, .content = C_REF },
	{ "/dev/cpu/0/cpuid", "/dev/cpu/0/cpuid", .rflags = RO, NOW, .off = 0,
	  .rlen = 32, .rsplit = 8, .content = C_REF },
	{ "/dev/cpu_dma_latency", "/dev/cpu_dma_latency",
	  .state = dma_latency_state, .rflags = RO, .wflags = WO, .off = -1,
	  .rlen = 8, .rsplit = 2, .content = C_REF, PAY(pay_dma) },
	{ "/dev/watchdog0", "/dev/watchdog0", .state = watchdog_state,
	  .teardown = watchdog_teardown, NOR, .wflags = WO,
	  .off = -1, PAY(pay_watchdog) },
	{ "/dev/vcs1", "/dev/vcs1", .setup = vcs_setup,
	  .teardown = vcs_teardown, .state = vcs_state, .rflags = RO,
	  .wflags = WO, .off = 0, .rlen = 160, .rsplit = 3, .content = C_REF,
	  PAY(pay_vcs) },
	{ "/dev/vcsa1", "/dev/vcsa1", .setup = vcsa_setup,
	  .teardown = vcsa_teardown, .state = vcsa_state, .rflags = RO,
	  .wflags = WO, .off = 4, .rlen = 160, .rsplit = 3, .content = C_REF,
	  PAY(pay_vcsa) },
	{ "/dev/vcsu", "/dev/vcsu", .rflags = RO, .wflags = WO, .off = 0,
	  .rlen = 64, .rsplit = 6, .content = C_REF, PAY(pay_vcsu) },
	{ "/dev/vcs", "/dev/vcs", .rflags = RO, NOW, .off = 0, .rlen = 160,
	  .rsplit = 3, .content = C_REF },
	{ "/dev/vga_arbiter", "/dev/vga_arbiter", .state = vga_state,
	  .rflags = RO, .wflags = O_RDWR, .off = -1, .rlen = 128, .rsplit = 5,
	  .content = C_REF, PAY(pay_vga) },
	{ "usbfs:001/001", .path_fn = usbfs_path, .present = usbfs_present,
	  .rflags = RO, NOW, .off = 0, .rlen = 64, .rsplit = 9,
	  .content = C_REF },

	/* fuse control files. */
	{ "fusectl:waiting", .path_fn = fuse_waiting_path,
	  .present = fuse_present, .setup = fuse_setup,
	  .teardown = fuse_teardown, .rflags = RO, NOW, .off = -1, .rlen = 64,
	  .rsplit = 1, .content = C_HASH },
	{ "fusectl:max_background", .path_fn = fuse_max_background_path,
	  .present = fuse_present, .setup = fuse_setup,
	  .teardown = fuse_teardown, .state = fuse_max_background_state,
	  .rflags = RO, .wflags = WO, .off = -1, .rlen = 64, .rsplit = 1,
	  .content = C_HASH, PAY(pay_fuse_limit) },
	{ "fusectl:congestion_threshold",
	  .path_fn = fuse_congestion_threshold_path, .present = fuse_present,
	  .setup = fuse_setup, .teardown = fuse_teardown,
	  .state = fuse_congestion_threshold_state, .rflags = RO,
	  .wflags = WO, .off = -1, .rlen = 64, .rsplit = 1, .content = C_HASH,
	  PAY(pay_fuse_limit) },
	{ "fusectl:abort", .path_fn = fuse_abort_path, .present = fuse_present,
	  .setup = fuse_setup, .teardown = fuse_teardown,
	  .state = fuse_waiting_state, NOR, .wflags = WO, .off = -1,
	  PAY(pay_fuse_abort) },

	/* debugfs. */
	{ "debugfs:fault_around_bytes", FAULT_AROUND,
	  .setup = fault_around_setup, .teardown = restore_value,
	  .state = fault_around_state, .rflags = RO, .wflags = WO, .off = -1,
	  .rlen = 64, .rsplit = 2, .content = C_HASH, PAY(pay_fault_around) },
	{ "debugfs:clear_warn_once", "/sys/kernel/debug/clear_warn_once",
	  .rflags = RO, .wflags = WO, .off = -1, .rlen = 64, .rsplit = 1,
	  .content = C_HASH, PAY(pay_clear_warn) },
	{ "debugfs:sleep_time", "/sys/kernel/debug/sleep_time", .rflags = RO,
	  NOW, .off = 0, .rlen = 256, .rsplit = 10, .content = C_HASH },
	{ "debugfs:x86/tlb_single_page_flush_ceiling", TLB_CEILING,
	  .setup = tlb_setup, .teardown = restore_value, .state = tlb_state,
	  .rflags = RO, .wflags = WO, .off = 0, .rlen = 64, .rsplit = 1,
	  .content = C_HASH, PAY(pay_tlb) },
	{ "debugfs:x86/init_pkru", INIT_PKRU, .setup = pkru_setup,
	  .teardown = restore_value, .state = pkru_state, .rflags = RO,
	  .wflags = WO, .off = 0, .rlen = 64, .rsplit = 4, .content = C_REF,
	  PAY(pay_pkru) },
	{ "debugfs:x86/pat_memtype_list", "/sys/kernel/debug/x86/pat_memtype_list",
	  .rflags = RO, NOW, .off = 0, .rlen = 8192, .rsplit = 10,
	  .content = C_REF, .vol = 1 },
	{ "debugfs:x86/cpa_stats", "/sys/kernel/debug/x86/cpa_stats",
	  .rflags = RO, NOW, .off = 0, .rlen = 4096, .rsplit = 10,
	  .content = C_REF, .vol = 1 },
	{ "debugfs:x86/topo/domains", "/sys/kernel/debug/x86/topo/domains",
	  .rflags = RO, NOW, .off = 0, .rlen = 4096, .rsplit = 10,
	  .content = C_REF, .vol = 1 },
	{ "debugfs:x86/topo/cpus/0", "/sys/kernel/debug/x86/topo/cpus/0",
	  .rflags = RO, NOW, .off = 0, .rlen = 4096, .rsplit = 10,
	  .content = C_REF, .vol = 1 },
	{ "debugfs:x86/boot_params/setup_data/0/data",
	  "/sys/kernel/debug/x86/boot_params/setup_data/0/data", .rflags = RO,
	  NOW, .off = 0, .rlen = 64, .rsplit = 3, .content = C_REF },
	{ "debugfs:block/vdX/state", .path_fn = blk_state_path,
	  .present = blk_present, .state = blk_state, .rflags = RO,
	  .wflags = WO, .off = 0, .rlen = 256, .rsplit = 3, .content = C_REF,
	  .vol = 1, PAY(pay_blk) },
	{ "debugfs:usb/devices", "/sys/kernel/debug/usb/devices", .rflags = RO,
	  NOW, .off = 0, .rlen = 8192, .rsplit = 10, .content = C_REF,
	  .vol = 1 },
	/* Each generation's age in ms: the bytes change with jiffies. */
	{ "debugfs:lru_gen", "/sys/kernel/debug/lru_gen", .rflags = RO, NOW,
	  .off = 0, .rlen = 4096, .rsplit = 10, .content = C_SHAPE, .vol = 1 },
	{ "debugfs:slab", "/sys/kernel/debug/slab", .rflags = DIRF, NOW,
	  .off = -1, .rlen = 64 },
	{ "debugfs:hid", "/sys/kernel/debug/hid", .rflags = DIRF, NOW,
	  .off = -1, .rlen = 64 },
	{ "/dev/ptp0", "/dev/ptp0", .rflags = RO, NOW, .off = -1, .rlen = 64,
	  .content = C_SHAPE },
	{ "/dev/mei0", "/dev/mei0", .rflags = RO, NOW, .off = -1, .rlen = 64,
	  .content = C_SHAPE },
};

#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

/* ---- the operations ---- */

enum op {
	R_READ, R_PREAD, R_READV1, R_READV_UNEVEN, R_READV_BYTES,
	R_READV_SPLIT, R_READV_FAULT, R_READV_EMPTY, R_PREADV2, R_NONBLOCK, R_SPLICE,
	R_AIO_PREAD, R_AIO_PREADV, R_URING_READ, R_URING_READ0,
	R_URING_READV, R_URING_READ_FIXED, R_AIO_PREADV_RWF, R_AIO_PREAD_AT1,
	W_WRITE, W_PWRITE, W_WRITEV1, W_WRITEV_UNEVEN, W_WRITEV_BYTES,
	W_WRITEV_SPLIT, W_WRITEV_FAULT, W_WRITEV_EMPTY, W_PWRITEV2, W_NONBLOCK, W_SPLICE,
	W_AIO_PWRITE, W_AIO_PWRITEV, W_URING_WRITE, W_URING_WRITE0,
	W_URING_WRITEV, W_URING_WRITE_FIXED, W_AIO_PWRITEV_RWF, W_AIO_PWRITE_AT1,
};

static int is_uring(int op)
{
	return op == R_URING_READ || op == R_URING_READ0 ||
	       op == R_URING_READV || op == R_URING_READ_FIXED ||
	       op == W_URING_WRITE || op == W_URING_WRITE0 ||
	       op == W_URING_WRITEV || op == W_URING_WRITE_FIXED;
}

static int own_result(int op)
{
	return is_uring(op) || op == R_AIO_PREAD || op == R_AIO_PREADV ||
	       op == W_AIO_PWRITE || op == W_AIO_PWRITEV || op == R_SPLICE ||
	       op == W_SPLICE || op == R_AIO_PREADV_RWF ||
	       op == W_AIO_PWRITEV_RWF || op == R_AIO_PREAD_AT1 ||
	       op == W_AIO_PWRITE_AT1;
}

static const struct { const char *name; int flag; } rwf[] = {
	{ "HIPRI", RWF_HIPRI }, { "DSYNC", RWF_DSYNC }, { "SYNC", RWF_SYNC },
	{ "NOWAIT", RWF_NOWAIT }, { "APPEND", RWF_APPEND },
	{ "NOAPPEND", RWF_NOAPPEND },
};

static unsigned char buf[BUF_MAX], ref[BUF_MAX];
static long ref_len = -1;
static char *hole;	/* an unmapped page */

/* Segments over buf for a vector case. */
static int make_segs(enum op op, size_t len, const size_t *split, int nsplit,
		     struct iovec *iov, size_t *seglen)
{
	size_t e = len / 8 ? len / 8 : 1, done = 0;
	int n = 0, i;

	switch (op) {
	case R_READV1: case W_WRITEV1: case R_AIO_PREADV_RWF:
	case W_AIO_PWRITEV_RWF:
		seglen[n++] = len;
		break;
	case R_READV_UNEVEN: case W_WRITEV_UNEVEN: case R_AIO_PREADV:
	case W_AIO_PWRITEV: case R_URING_READV: case W_URING_WRITEV:
		if (len < 3) {
			seglen[n++] = len;
			break;
		}
		seglen[n++] = e;
		seglen[n++] = e;
		seglen[n++] = len - 2 * e;
		break;
	case R_READV_EMPTY: case W_WRITEV_EMPTY:
		/* Empty segments after the first: 6.12 stepped over them. */
		seglen[n++] = len < 2 ? len : e;
		seglen[n++] = 0;
		seglen[n++] = 0;
		if (len >= 2)
			seglen[n++] = len - e;
		break;
	case R_READV_BYTES: case W_WRITEV_BYTES:
		while (done < len && n < 32) {
			seglen[n++] = 1;
			done++;
		}
		if (done < len)
			seglen[n++] = len - done;
		break;
	case R_READV_SPLIT: case W_WRITEV_SPLIT: case R_READV_FAULT:
	case W_WRITEV_FAULT:
		for (i = 0; i < nsplit; i++)
			seglen[n++] = split[i];
		break;
	default:
		break;
	}
	done = 0;
	for (i = 0; i < n; i++) {
		iov[i].iov_base = buf + done;
		iov[i].iov_len = seglen[i];
		done += seglen[i];
	}
	if (op == R_READV_FAULT || op == W_WRITEV_FAULT)
		iov[n - 1].iov_base = hole;
	return n;
}

static void print_ret(long r)
{
	if (r <= -2000000L)
		out(" ret=nocompletion");
	else if (r <= -1000000L)
		out(" ret=submit:-%s", errname((int)(-r - 1000000L)));
	else if (r < 0)
		out(" ret=-%s", errname((int)-r));
	else if (cur->vol && r > 0)
		out(" ret=pos");
	else
		out(" ret=%ld", r);
}

static void print_segs(long r, const size_t *seglen, int n)
{
	int i;

	/* a swept file whose bytes change: its length may change too */
	if (n <= 1 || (cur->sweep && cur->content == C_SHAPE))
		return;
	out(" segs=");
	for (i = 0; i < n; i++) {
		size_t got = r > 0 ? ((size_t)r < seglen[i] ? (size_t)r : seglen[i]) : 0;

		if (r > 0)
			r -= got;
		if (cur->vol)
			out("%s%s", i ? "," : "",
			    got == seglen[i] ? "F" : got ? "P" : "0");
		else
			out("%s%zu", i ? "," : "", got);
	}
}

/* What landed in buf[0..n): its canonical form. */
static void print_data(long n)
{
	unsigned char c[BUF_MAX];
	const unsigned char *semi;
	long i;

	if (n <= 0)
		return;
	memcpy(c, buf, n);
	switch (cur->content) {
	case C_HASH:
		out(" data=%08x", fnv(c, n));
		break;
	case C_REF:
		out(" data=%s", ref_len >= n && !memcmp(c, ref, n) ? "ref" : "!ref");
		break;
	case C_SHAPE:
		break;
	case C_EVDEV:	/* input_event: 16 bytes of time, then type, code, value */
		for (i = 0; i < n; i++)
			if (i % 24 < 16)
				c[i] = 0;
		out(" data=%08x", fnv(c, n));
		break;
	case C_PERF:	/* value, then the id */
		for (i = 8; i < 16 && i < n; i++)
			c[i] = 0;
		out(" data=%08x", fnv(c, n));
		break;
	case C_FANOTIFY:	/* fd and pid at 16..23 */
		for (i = 16; i < 24 && i < n; i++)
			c[i] = 0;
		out(" data=%08x", fnv(c, n));
		break;
	case C_SYSLOG:	/* "<prio>[ secs.usecs] text\n": the time as zeros */
		/*
		 * The padding too: "[    9.9]" and "[   10.0]" must give one
		 * hash, since a slow or loaded host runs the case later.
		 */
		for (i = 0; i < n && c[i] != '['; i++)
			;
		for (; i < n && c[i] != ']'; i++)
			if ((c[i] >= '0' && c[i] <= '9') || c[i] == ' ')
				c[i] = '0';
		out(" data=%08x", fnv(c, n));
		break;
	case C_KMSG:	/* "prio,seq,usec,flags;text\n": the text only */
		semi = memchr(c, ';', n);
		if (semi)
			out(" data=hdr+%08x", fnv(semi + 1, c + n - semi - 1));
		else
			out(" data=nohdr");
		break;
	}
}

static int open_target(int wr, int extra)
{
	int flags = (wr ? cur->wflags : cur->rflags) | extra;

	if (cur->open_fn) {
		int fd = cur->open_fn(flags);

		if (fd >= 0 && (extra & O_NONBLOCK))
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		return fd;
	}
	return open(tpath(), flags);
}

/* The reference bytes: one plain read at the case's offset, fresh open. */
static void take_ref(void)
{
	long off = toff(0);
	int fd = open_target(0, 0);

	ref_len = -1;
	if (fd < 0)
		return;
	if (cur->prime)
		cur->prime(fd);
	ref_len = off >= 0 ? pread(fd, ref, cur->rlen, off) :
			     read(fd, ref, cur->rlen);
	close(fd);
}

static long do_splice(int wr, int fd, size_t len, long off)
{
	loff_t o = off;
	int p[2];
	ssize_t n;
	long r;

	if (pipe(p))
		return -errno;
	if (wr) {
		if (write(p[1], buf, len) != (ssize_t)len) {
			r = -EPIPE;
		} else {
			n = splice(p[0], NULL, fd, off >= 0 ? &o : NULL, len, 0);
			r = n < 0 ? -errno : n;
		}
	} else {
		/* Non-blocking pipe: never wait for room. */
		n = splice(fd, off >= 0 ? &o : NULL, p[1], NULL, len,
			   SPLICE_F_NONBLOCK);
		r = n < 0 ? -errno : n;
		if (n > 0 && read(p[0], buf, n) != n)
			r = -EPIPE;
	}
	close(p[0]);
	close(p[1]);
	return r;
}

/*
 * make difftest-reach: /dev/reach (guest/reach, loaded into the stock kernel
 * only) tells which file_operations a descriptor uses. Each case's child
 * appends what it opened to REACH_LOG; main() prints the distinct lines as
 * '#' lines, which the comparison ignores.
 */
#define REACH_LOG "/tmp/difftest.reach"
static int reach_dev = -1;

struct reach_info {
	int32_t fd;
	uint32_t flags;
	uint64_t fop;
	uint64_t inner;
};

#define REACH_QUERY	_IOWR('R', 1, struct reach_info)

static void reach_note(int fd)
{
	struct reach_info ri = { .fd = fd };
	char l[512];
	int log, n;

	if (reach_dev < 0 || ioctl(reach_dev, REACH_QUERY, &ri))
		return;
	n = snprintf(l, sizeof(l), "%s %s %llx %llx %x\n", cur->name,
		     cur->path_fn || cur->path ? tpath() : "-",
		     (unsigned long long)ri.fop, (unsigned long long)ri.inner,
		     ri.flags);
	log = open(REACH_LOG, O_WRONLY | O_APPEND | O_CREAT, 0600);
	if (log < 0)
		return;
	if (write(log, l, n) != n)
		n = 0;
	close(log);
}

static void reach_print(void)
{
	static char *seen[4096];
	char l[512];
	int n = 0, i;
	FILE *f;

	if (reach_dev < 0)
		return;
	f = fopen(REACH_LOG, "r");
	if (!f) {
		printf("# reach: nothing opened\n");
		return;
	}
	while (fgets(l, sizeof(l), f)) {
		l[strcspn(l, "\n")] = '\0';
		for (i = 0; i < n && seen[i] && strcmp(seen[i], l); i++)
			;
		if (i < n)
			continue;
		if (n < 4096)
			seen[n++] = strdup(l);
		printf("# reach %s\n", l);
	}
	fclose(f);
}

/* One case, in the child. Fills line[] (after the key). */
static void run_case(enum op op, int sub)
{
	struct iovec iov[MAX_SEGS];
	size_t seglen[MAX_SEGS], split[2], len;
	int wr = op >= W_WRITE, nseg = 0, fd, e, i;
	const struct payload *pay = NULL;
	long off = -1, r = 0;
	char st[256];

	if (cur->setup) {
		e = cur->setup();
		if (e) {
			out(" setup=-%s", errname(-e));
			goto teardown;
		}
	}
	off = toff(wr);
	if (wr) {
		pay = &cur->pay[op == W_WRITEV_SPLIT ? sub : 0];
		len = pay->len;
		memcpy(buf, pay->data, len);
	} else {
		len = cur->rlen;
		if (cur->content == C_REF)
			take_ref();
		memset(buf, 0xa5, len);
	}
	fd = open_target(wr, op == R_NONBLOCK || op == W_NONBLOCK ? O_NONBLOCK : 0);
	if (fd < 0) {
		out(" open=-%s", errname(errno));
		goto teardown;
	}
	cur_fd = fd;
	reach_note(fd);
	if (!wr && cur->prime && op != R_NONBLOCK)
		cur->prime(fd);
	if (off >= 0 && op != R_PREAD && op != W_PWRITE && lseek(fd, off, SEEK_SET) < 0) {
		/* Not seekable: the case runs at the position. */
	}
	switch (op) {
	case R_READ:
		r = read(fd, buf, len);
		break;
	case R_NONBLOCK:
		/*
		 * A device fed by the host (virtio-rng) has data or not by
		 * timing, on stock as on the patched kernel, and the hwrng
		 * fill thread competes for it. Such a target retries EAGAIN
		 * for up to 2 s: the case then shows that a nonblocking read
		 * returns the data once there is some.
		 */
		for (i = 0; ; i++) {
			r = read(fd, buf, len);
			if (r >= 0 || errno != EAGAIN || !cur->nbwait ||
			    i == 200)
				break;
			usleep(10000);
		}
		break;
	case W_WRITE: case W_NONBLOCK:
		r = write(fd, buf, len);
		break;
	case R_PREAD:
		r = pread(fd, buf, len, off < 0 ? 0 : off);
		break;
	case W_PWRITE:
		r = pwrite(fd, buf, len, off < 0 ? 0 : off);
		break;
	case R_READV1: case R_READV_UNEVEN: case R_READV_BYTES:
	case R_READV_SPLIT: case R_READV_FAULT: case R_READV_EMPTY:
		split[0] = op == R_READV_FAULT ? len / 2 : cur->rsplit;
		split[1] = len - split[0];
		nseg = make_segs(op, len, split, 2, iov, seglen);
		r = readv(fd, iov, nseg);
		break;
	case W_WRITEV1: case W_WRITEV_UNEVEN: case W_WRITEV_BYTES:
	case W_WRITEV_SPLIT: case W_WRITEV_FAULT: case W_WRITEV_EMPTY:
		if (op == W_WRITEV_FAULT) {
			split[0] = pay->seg[0];
			split[1] = len - split[0];
			nseg = make_segs(op, len, split, 2, iov, seglen);
		} else {
			nseg = make_segs(op, len, pay->seg, pay->nseg, iov, seglen);
		}
		r = writev(fd, iov, nseg);
		break;
	case R_PREADV2:
		iov[0].iov_base = buf;
		iov[0].iov_len = len;
		r = preadv2(fd, iov, 1, off, rwf[sub].flag);
		break;
	case W_PWRITEV2:
		iov[0].iov_base = buf;
		iov[0].iov_len = len;
		r = pwritev2(fd, iov, 1, off, rwf[sub].flag);
		break;
	case R_SPLICE: case W_SPLICE:
		r = do_splice(wr, fd, len, off);
		break;
	case R_AIO_PREAD: case W_AIO_PWRITE:
		r = aio_one(wr ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD, fd, buf, len,
			    off < 0 ? 0 : off);
		break;
	case R_AIO_PREADV: case W_AIO_PWRITEV:
		nseg = make_segs(op, len, NULL, 0, iov, seglen);
		r = aio_one(wr ? IOCB_CMD_PWRITEV : IOCB_CMD_PREADV, fd, iov,
			    nseg, off < 0 ? 0 : off);
		break;
	/*
	 * One byte past the case's offset: a file without positions refuses
	 * it at submission, with the errno it gave on 6.12.
	 */
	case R_AIO_PREAD_AT1: case W_AIO_PWRITE_AT1:
		r = aio_one(wr ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD, fd, buf, len,
			    (off < 0 ? 0 : off) + 1);
		break;
	case R_AIO_PREADV_RWF: case W_AIO_PWRITEV_RWF:
		nseg = make_segs(op, len, NULL, 0, iov, seglen);
		r = aio_one_rwf(wr ? IOCB_CMD_PWRITEV : IOCB_CMD_PREADV, fd,
				iov, nseg, off < 0 ? 0 : off, rwf[sub].flag);
		break;
	/* At the file position (-1) where the case has no offset. */
	case R_URING_READ: case W_URING_WRITE:
		r = uring_one(wr ? IORING_OP_WRITE : IORING_OP_READ, fd, buf,
			      len, off);
		break;
	case R_URING_READ0: case W_URING_WRITE0:
		r = uring_one(wr ? IORING_OP_WRITE : IORING_OP_READ, fd, buf,
			      0, off);
		break;
	case R_URING_READV: case W_URING_WRITEV:
		nseg = make_segs(op, len, NULL, 0, iov, seglen);
		r = uring_one(wr ? IORING_OP_WRITEV : IORING_OP_READV, fd, iov,
			      nseg, off);
		break;
	/* buf registered as buffer 0: sqe->buf_index is 0 as uring_one sets it */
	case R_URING_READ_FIXED: case W_URING_WRITE_FIXED:
		e = uring_register_buf(buf, sizeof(buf));
		if (e) {
			out(" register=-%s", errname(-e));
			break;
		}
		r = uring_one(wr ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED,
			      fd, buf, len, off);
		break;
	}
	/* aio, splice and io_uring give their own result, not errno */
	if (r < 0 && r > -1000000L && !own_result(op))
		r = -errno;
	print_ret(r);
	print_segs(r, seglen, nseg);
	if (!wr && r > 0 && r <= (long)len)
		print_data(r);
	if (wr && cur->state) {
		st[0] = '\0';
		cur->state(st, sizeof(st));
		out(" state=%s", st);
	}
	close(fd);
teardown:
	if (cur->teardown)
		cur->teardown();
}

/* ---- the parent: one child per case ---- */

static void wait_released(const char *path)
{
	int i, fd;

	for (i = 0; i < 50; i++) {
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd >= 0) {
			close(fd);
			return;
		}
		if (errno != EBUSY)
			return;
		usleep(100000);
	}
}

static int ncases, nfiles;

/*
 * Run fn(arg, fd) in a child process on cur, with a fresh AIO ring and an
 * unmapped page, killed after secs; what it writes to fd lands in res. A
 * child that exits with status 3 (a kmsg case that read a line the kernel
 * logged) runs again, three times at most. Returns the wait status, or -1
 * with the harness's error in res.
 */
static int in_child(void (*fn)(void *arg, int fd), void *arg,
		    unsigned int secs, char *res, size_t size)
{
	int p[2], status, attempt = 0;
	ssize_t n, got;
	pid_t pid;

again:
	fflush(stdout);
	if (pipe(p)) {
		snprintf(res, size, " harness:pipe-%s", errname(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		long page = sysconf(_SC_PAGESIZE);

		close(p[0]);
		alarm(secs);
		/* The AIO ring and the hole first: no mapping changes after. */
		syscall(__NR_io_setup, 4, &aio_ctx);
		hole = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
		munmap(hole, page);
		fn(arg, p[1]);
		_exit(rec_dirty ? 3 : 0);
	}
	close(p[1]);
	if (pid < 0) {
		snprintf(res, size, " harness:fork-%s", errname(errno));
		close(p[0]);
		return -1;
	}
	got = 0;
	while ((n = read(p[0], res + got, size - 1 - got)) > 0)
		got += n;
	res[got] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3 && ++attempt < 3)
		goto again;
	/*
	 * An io_uring read the timeout killed stays in io-wq until the ring's
	 * teardown cancels it, and holds the file until then: wait for an
	 * exclusive device (/dev/rtc0) to be free before the next case, or
	 * that case would find it busy or not by timing.
	 */
	if (WIFSIGNALED(status) && cur->path)
		wait_released(cur->path);
	return status;
}

static const char *killed_by(int status)
{
	return WTERMSIG(status) == SIGALRM ? "timeout" :
	       strsignal(WTERMSIG(status));
}

struct one_case {
	enum op op;
	int sub;
};

static void one_child(void *arg, int fd)
{
	const struct one_case *c = arg;

	if (is_uring(c->op))
		uring_setup();
	line[0] = '\0';
	run_case(c->op, c->sub);
	if (write(fd, line, strlen(line)) < 0)
		_exit(2);
}

static void one(const struct target *t, enum op op, int sub, const char *name)
{
	struct one_case c = { .op = op, .sub = sub };
	char res[2048];
	int status;

	ncases++;
	cur = t;
	/*
	 * io_uring waits for a pollable file to be ready where the
	 * nonblocking try fails (/proc/bus/input/devices, usbfs): such cases
	 * end in the timeout on stock too, so keep it short.
	 */
	status = in_child(one_child, &c, is_uring(op) || t->sweep ? 5 : 20,
			  res, sizeof(res));
	if (status != -1 && WIFSIGNALED(status))
		printf("%s %s killed:%s\n", t->name, name, killed_by(status));
	else
		printf("%s %s%s\n", t->name, name, res);
}

/*
 * The sweep: every readable file of debugfs, of /proc (its global files and
 * /proc/self's) and every character device of /dev that no target above
 * names, found at run time and driven with read cases only, opened with
 * O_NONBLOCK so that a file with nothing to read answers at once. Their
 * content and length may change between two reads (counters, times), so
 * each case prints the shape of its result and whether the bytes equal a
 * plain read() done just before. Writes are left to the targets above: a
 * write to an arbitrary kernel file can change anything.
 */
static const char *const sweep_roots[] = {
	"/sys/kernel/debug", "/proc", "/proc/self", "/dev",
};

/*
 * Not swept: files with a target above; files a read would change or
 * that arm something (/proc/kmsg drains the log, opening a watchdog starts
 * it); ttys (the console, the results line); per-task and per-descriptor
 * entries whose names change from one boot to the next; the series's own
 * test devices (lib/test_aio.c), which the stock kernel does not have.
 */
static const char *const sweep_skip[] = {
	"/proc/sys", "/proc/kmsg", "/proc/kcore", "/proc/self/task",
	"/proc/self/fd", "/proc/self/fdinfo", "/proc/self/map_files",
	"/proc/self/mem", "/proc/self/pagemap", "/proc/kpage*",
	"/dev/tty*", "/dev/console", "/dev/ptmx", "/dev/pts", "/dev/shm",
	"/dev/mqueue", "/dev/watchdog*", "/dev/mem", "/dev/port", "/dev/kmsg",
	"/dev/hwrng", "/dev/rtc*", "/dev/vcs*", "/dev/bus/usb",
	"/dev/input/event*", "/dev/cpu", "/dev/test_aio*", "/dev/pty*",
	"/dev/reach", "/sys/kernel/debug/tracing/per_cpu/cpu1",
	"/sys/kernel/debug/tracing/instances",
};

/*
 * tracefs has five files for each of hundreds of events, all sharing the
 * same few file_operations: the sweep reads those of one event and of its
 * subsystem only, and the files that describe all events.
 */
#define EVENTS "/sys/kernel/debug/tracing/events/"
static const char *const sweep_events_kept[] = {
	EVENTS "enable", EVENTS "header_page", EVENTS "header_event",
	EVENTS "sched", EVENTS "sched/enable", EVENTS "sched/filter",
	EVENTS "sched/sched_switch", EVENTS "sched/sched_switch/*",
};

/*
 * Swept files whose bytes change from one read to the next (counters,
 * times, the reading process's own registers and mappings): their cases
 * print no data, only the shape of the result.
 */
static const char *const sweep_volatile[] = {
	"/proc/stat", "/proc/zoneinfo", "/proc/vmstat", "/proc/meminfo",
	"/proc/timer_list", "/proc/interrupts", "/proc/softirqs",
	"/proc/uptime", "/proc/loadavg", "/proc/schedstat", "/proc/diskstats",
	"/proc/buddyinfo", "/proc/pagetypeinfo", "/proc/self/*",
	"/sys/kernel/debug/sched/debug", "/sys/kernel/debug/block/*",
	"/sys/kernel/debug/irq/*", "/sys/kernel/debug/lru_gen*",
	"/sys/kernel/debug/tracing/per_cpu/*", "/proc/fs/nfsd/*",
	"/proc/fs/cifs/*", "/sys/kernel/debug/page_tables/*",
	"/sys/kernel/debug/percpu_stats",
};

static struct target *swept;
static int nswept, swept_max;

/* path is one of list's, or starts like one of list's that ends in '*' */
static int listed(const char *path, const char *const *list, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = strlen(list[i]);
		if (list[i][len - 1] == '*' ? !strncmp(path, list[i], len - 1) :
		    !strcmp(path, list[i]))
			return 1;
	}
	return 0;
}

static int sweep_skipped(const char *path)
{
	size_t i;

	for (i = 0; i < NTARGETS; i++)
		if (targets[i].path && !strcmp(targets[i].path, path))
			return 1;
	if (!strncmp(path, EVENTS, strlen(EVENTS)) &&
	    !listed(path, sweep_events_kept, sizeof(sweep_events_kept) /
		    sizeof(sweep_events_kept[0])))
		return 1;
	return listed(path, sweep_skip,
		      sizeof(sweep_skip) / sizeof(sweep_skip[0]));
}

static void sweep_add(const char *path)
{
	struct target *t;
	char name[600];

	if (nswept == swept_max) {
		swept_max = swept_max ? 2 * swept_max : 256;
		swept = realloc(swept, swept_max * sizeof(*swept));
		if (!swept)
			exit(1);
	}
	t = &swept[nswept++];
	memset(t, 0, sizeof(*t));
	snprintf(name, sizeof(name), "sweep:%s", path);
	t->name = strdup(name);
	t->path = strdup(path);
	t->rflags = O_RDONLY | O_NONBLOCK;
	t->wflags = -1;
	t->off = -1;
	t->rlen = 4096;
	t->rsplit = 100;
	t->content = listed(path, sweep_volatile, sizeof(sweep_volatile) /
			    sizeof(sweep_volatile[0])) ? C_SHAPE : C_REF;
	t->vol = 1;
	t->sweep = 1;
}

/* Devices made on demand, before the sweep looks: one netdevsim device. */
static void sweep_prepare(void)
{
	if (access("/sys/bus/netdevsim/new_device", W_OK) == 0 &&
	    access("/sys/bus/netdevsim/devices/netdevsim1", F_OK) != 0)
		write_str("/sys/bus/netdevsim/new_device", "1 1");
}

static void sweep_dir(const char *dir, int depth)
{
	struct dirent **de;
	char path[512];
	struct stat st;
	int n, i;

	n = scandir(dir, &de, NULL, alphasort);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *d = de[i]->d_name;

		snprintf(path, sizeof(path), "%s/%s", dir, d);
		if (!strcmp(d, ".") || !strcmp(d, "..") ||
		    (!strcmp(dir, "/proc") && (*d >= '0' && *d <= '9')) ||
		    (!strcmp(dir, "/proc") && (!strcmp(d, "self") ||
					       !strcmp(d, "thread-self"))) ||
		    sweep_skipped(path) || lstat(path, &st))
			goto next;
		if (S_ISDIR(st.st_mode) && depth < 8)
			sweep_dir(path, depth + 1);
		else if (((S_ISREG(st.st_mode) && strcmp(dir, "/dev")) ||
			  S_ISCHR(st.st_mode)) && (st.st_mode & 0444))
			sweep_add(path);
next:
		free(de[i]);
	}
	free(de);
}

static int present(const struct target *t)
{
	if (t->present)
		return t->present();
	if (t->path)
		return !access(t->path, F_OK);
	return 1;
}

static void run_target(const struct target *t)
{
	char name[128];
	int i;

	if (!present(t)) {
		printf("%s absent\n", t->name);
		return;
	}
	nfiles++;
	if (t->sweep) {
		one(t, R_READ, 0, "read");
		one(t, R_PREAD, 0, "pread");
		one(t, R_READV_UNEVEN, 0, "readv[1/8,1/8,rest]");
		one(t, R_READV_BYTES, 0, "readv[1x32,rest]");
		one(t, R_READV_FAULT, 0, "readv[half,unmapped]");
		one(t, R_READV_EMPTY, 0, "readv[1/8,0,0,rest]");
		one(t, R_PREADV2, 3, "preadv2[NOWAIT]");
		one(t, R_AIO_PREADV, 0, "aio-PREADV[1/8,1/8,rest]");
		return;
	}
	if (t->rflags != -1) {
		one(t, R_READ, 0, "read");
		one(t, R_PREAD, 0, "pread");
		one(t, R_READV1, 0, "readv[one]");
		one(t, R_READV_UNEVEN, 0, "readv[1/8,1/8,rest]");
		one(t, R_READV_BYTES, 0, "readv[1x32,rest]");
		snprintf(name, sizeof(name), "readv[%zu,rest]", t->rsplit);
		one(t, R_READV_SPLIT, 0, name);
		one(t, R_READV_FAULT, 0, "readv[half,unmapped]");
		one(t, R_READV_EMPTY, 0, "readv[1/8,0,0,rest]");
		for (i = 0; i < 6; i++) {
			snprintf(name, sizeof(name), "preadv2[%s]", rwf[i].name);
			one(t, R_PREADV2, i, name);
		}
		one(t, R_NONBLOCK, 0, "read(O_NONBLOCK,unprimed)");
		one(t, R_SPLICE, 0, "splice-to-pipe");
		one(t, R_AIO_PREAD, 0, "aio-PREAD");
		one(t, R_AIO_PREADV, 0, "aio-PREADV[1/8,1/8,rest]");
		one(t, R_AIO_PREAD_AT1, 0, "aio-PREAD@+1");
		one(t, R_URING_READ, 0, "uring-READ");
		one(t, R_URING_READ0, 0, "uring-READ[0]");
		one(t, R_URING_READV, 0, "uring-READV[1/8,1/8,rest]");
		one(t, R_URING_READ_FIXED, 0, "uring-READ_FIXED");
		for (i = 0; i < 6; i++) {
			snprintf(name, sizeof(name), "aio-PREADV[%s]", rwf[i].name);
			one(t, R_AIO_PREADV_RWF, i, name);
		}
	}
	if (t->wflags != -1 && t->npay) {
		one(t, W_WRITE, 0, "write");
		one(t, W_PWRITE, 0, "pwrite");
		one(t, W_WRITEV1, 0, "writev[one]");
		one(t, W_WRITEV_UNEVEN, 0, "writev[1/8,1/8,rest]");
		one(t, W_WRITEV_BYTES, 0, "writev[1x32,rest]");
		for (i = 0; i < t->npay; i++) {
			snprintf(name, sizeof(name), "writev%s", t->pay[i].tag);
			one(t, W_WRITEV_SPLIT, i, name);
		}
		one(t, W_WRITEV_FAULT, 0, "writev[first,unmapped]");
		one(t, W_WRITEV_EMPTY, 0, "writev[1/8,0,0,rest]");
		for (i = 0; i < 6; i++) {
			snprintf(name, sizeof(name), "pwritev2[%s]", rwf[i].name);
			one(t, W_PWRITEV2, i, name);
		}
		one(t, W_NONBLOCK, 0, "write(O_NONBLOCK)");
		one(t, W_SPLICE, 0, "splice-from-pipe");
		one(t, W_AIO_PWRITE, 0, "aio-PWRITE");
		one(t, W_AIO_PWRITEV, 0, "aio-PWRITEV[1/8,1/8,rest]");
		one(t, W_AIO_PWRITE_AT1, 0, "aio-PWRITE@+1");
		one(t, W_URING_WRITE, 0, "uring-WRITE");
		one(t, W_URING_WRITE0, 0, "uring-WRITE[0]");
		one(t, W_URING_WRITEV, 0, "uring-WRITEV[1/8,1/8,rest]");
		one(t, W_URING_WRITE_FIXED, 0, "uring-WRITE_FIXED");
		for (i = 0; i < 6; i++) {
			snprintf(name, sizeof(name), "aio-PWRITEV[%s]", rwf[i].name);
			one(t, W_AIO_PWRITEV_RWF, i, name);
		}
	}
}

/* ---- make difftest-fuzz: seeded random cases ---- */

/*
 * "difftest fuzz SEED CASES [FIRST]" runs cases FIRST..FIRST+CASES-1 of
 * SEED. Case k draws everything from a generator seeded with SEED and k
 * alone, never from a result, so both kernels run the same calls and one
 * case can be run again by itself. A case picks a file (the targets above
 * and the sweep's, by a hash of the name, so that a file present on one
 * kernel only moves few cases), opens it (sometimes O_NONBLOCK), and makes
 * one to three calls on that descriptor: read, pread, readv, preadv,
 * preadv2, io_submit PREAD/PREADV, lseek; for a target that has payloads
 * also write, pwrite, writev, pwritev2, io_submit PWRITE/PWRITEV. Vectors
 * have 1 to 1025 segments of random sizes (empty ones, more than a page,
 * one unmapped); flags are random RWF_* sets, written {} when there are
 * none; reads go to random offsets
 * near the target's. A write sends the target's own payload, cut at random
 * places, at the target's offset: random bytes or offsets could write
 * anywhere (/dev/mem, /dev/port). Each call prints one line,
 * "<file> fz<k>.<step>:<call> <result>".
 */
#define FUZZ_SEGS	1025

static uint64_t fz_state;
static int fz_nb;	/* the case's descriptor is O_NONBLOCK */

static uint64_t fz_rnd(void)	/* splitmix64 */
{
	uint64_t z = (fz_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int fz(unsigned int n)
{
	return fz_rnd() % n;
}

static size_t fz_size(size_t max)
{
	static const size_t edge[] = { 0, 1, 4095, 4096, 4097 };
	size_t v;

	switch (fz(6)) {
	case 0:
		v = edge[fz(5)];
		break;
	case 1:
		v = 1 + fz(16);
		break;
	case 2:
		v = 1 + fz(512);
		break;
	case 3:
		v = 4097 + fz(4096);	/* more than a page */
		break;
	default:
		v = fz(cur->rlen + 1);
		break;
	}
	return v > max ? max : v;
}

static unsigned int fz_nsegs(void)
{
	switch (fz(16)) {
	case 0:
		return 1024;		/* UIO_MAXIOV */
	case 1:
		return 1025;		/* one too many: EINVAL */
	case 2: case 3:
		return 9 + fz(56);
	case 4: case 5: case 6: case 7:
		return 1;
	default:
		return 2 + fz(7);
	}
}

static struct iovec fz_iov[FUZZ_SEGS];
static size_t fz_len[FUZZ_SEGS];

/*
 * Targets read only at their own offset and for at most rlen bytes: other
 * physical addresses, I/O ports or MSRs may have side effects or change
 * between boots, and so do other bytes of the process's memory, its page
 * map and the page flags of other frames.
 */
static const char *const fz_bounded_list[] = {
	"/dev/mem*", "/dev/port", "/proc/self/mem", "/proc/self/pagemap",
	"/proc/kpage*", "/dev/cpu/0/msr",
};

static int fz_bounded(void)
{
	return listed(cur->name, fz_bounded_list,
		      sizeof(fz_bounded_list) / sizeof(fz_bounded_list[0]));
}

static size_t fz_max(void)
{
	return fz_bounded() ? cur->rlen : BUF_MAX;
}

static long fz_read_off(void)
{
	long off = toff(0);

	if (off < 0)
		off = 0;
	if (!fz_bounded() && fz(3))
		off += fz(2) ? fz(64) : fz(8193);
	return off;
}


static void fz_desc_segs(char *d, size_t size, int n, int hole_at)
{
	size_t len = 0;
	int i;

	if (n > 16) {
		snprintf(d, size, "[%d:%08x%s]", n, fnv(fz_len, n * sizeof(fz_len[0])),
			 hole_at >= 0 ? "X" : "");
		if (hole_at >= 0)
			snprintf(d + strlen(d) - 1, size - strlen(d) + 1, "@%d]", hole_at);
		return;
	}
	len += snprintf(d + len, size - len, "[");
	for (i = 0; i < n && len < size; i++)
		len += snprintf(d + len, size - len, "%s%zu%s", i ? "," : "",
				fz_len[i], i == hole_at ? "X" : "");
	if (len < size)
		snprintf(d + len, size - len, "]");
}

/*
 * The n segments of fz_len[] one after the other over buf, one in five
 * vectors with a segment moved to the unmapped page; their description
 * in d. Returns n.
 */
static int fz_lay_out(int n, char *d, size_t size)
{
	int i, hole_at = -1;
	size_t done = 0;

	if (!fz(5))
		hole_at = fz(n);
	for (i = 0; i < n; i++) {
		fz_iov[i].iov_base = i == hole_at ? (void *)hole : buf + done;
		fz_iov[i].iov_len = fz_len[i];
		done += fz_len[i];
	}
	fz_desc_segs(d, size, n, hole_at);
	return n;
}

/* A read vector over buf: random sizes, BUF_MAX in all at most. */
static int fz_read_segs(char *d, size_t size)
{
	int n = fz_nsegs(), i;
	size_t left = fz_max();

	for (i = 0; i < n; i++) {
		fz_len[i] = fz_size(left);
		left -= fz_len[i];
	}
	return fz_lay_out(n, d, size);
}

/* The payload's len bytes cut at random places, empty segments included. */
static int fz_write_segs(size_t len, char *d, size_t size)
{
	int n = fz_nsegs(), i;
	size_t left = len;

	for (i = 0; i < n; i++) {
		fz_len[i] = i == n - 1 ? left : fz(3) ? 0 : fz(left + 1);
		left -= fz_len[i];
	}
	return fz_lay_out(n, d, size);
}

/*
 * /dev/zero's read stops at a page boundary under RWF_NOWAIT when the
 * scheduler wants the CPU, on 6.12 as on the series: it gets no NOWAIT.
 */
static int fz_nowait_ok(void)
{
	return strcmp(cur->name, "/dev/zero");
}

static int fz_flags(char *d, size_t size)
{
	int f = 0, n, i, k;
	size_t len = 0;

	if (fz(2)) {
		snprintf(d, size, "{}");
		return 0;
	}
	n = 1 + fz(2);
	for (i = 0; i < n; i++) {
		k = fz(6);
		if ((f & rwf[k].flag) ||
		    (rwf[k].flag == RWF_NOWAIT && !fz_nowait_ok()))
			continue;
		f |= rwf[k].flag;
		len += snprintf(d + len, size - len, "%s%s", len ? "|" : "{",
				rwf[k].name);
	}
	snprintf(d + len, size - len, len ? "}" : "{}");
	return f;
}

/* An offset as the case's name shows it: relative to an address-based one */
static const char *fz_off(long off)
{
	static char o[2][32];
	static int i;

	i = !i;
	if (cur->off_fn && off >= 0)
		snprintf(o[i], sizeof(o[i]), "T+%ld", off - toff(0));
	else
		snprintf(o[i], sizeof(o[i]), "%ld", off);
	return o[i];
}

static void fz_result(long r, int nseg, int rd, size_t len)
{
	print_ret(r);
	if (nseg > 1 && nseg <= 16)
		print_segs(r, fz_len, nseg);
	if (rd && r > 0 && (size_t)r <= len && cur->content != C_REF)
		print_data(r);
}

static void fz_step(int fd, int wr, int k, int step)
{
	const struct payload *pay = wr ? &cur->pay[fz(cur->npay)] : NULL;
	char segs[160], fl[64], call[320], st[256];
	long r = 0, off;
	size_t len = 0;
	int nseg = 0, op, flags, i;

	line[0] = '\0';
	if (wr) {
		len = pay->len;
		memcpy(buf, pay->data, len);
		off = toff(1);
		op = fz(6);
		switch (op) {
		case 0:
			snprintf(call, sizeof(call), "write");
			r = write(fd, buf, len);
			break;
		case 1:
			snprintf(call, sizeof(call), "pwrite@%s", fz_off(off < 0 ? 0 : off));
			r = pwrite(fd, buf, len, off < 0 ? 0 : off);
			break;
		case 2:
			nseg = fz_write_segs(len, segs, sizeof(segs));
			snprintf(call, sizeof(call), "writev%s", segs);
			r = writev(fd, fz_iov, nseg);
			break;
		case 3:
			nseg = fz_write_segs(len, segs, sizeof(segs));
			flags = fz_flags(fl, sizeof(fl));
			snprintf(call, sizeof(call), "pwritev2%s@%s%s", segs, fz_off(off), fl);
			r = pwritev2(fd, fz_iov, nseg, off, flags);
			break;
		case 4:
			snprintf(call, sizeof(call), "aio-PWRITE@%s{}", fz_off(off < 0 ? 0 : off));
			r = aio_one(IOCB_CMD_PWRITE, fd, buf, len, off < 0 ? 0 : off);
			break;
		default:
			nseg = fz_write_segs(len, segs, sizeof(segs));
			flags = fz_flags(fl, sizeof(fl));
			snprintf(call, sizeof(call), "aio-PWRITEV%s@%s%s", segs,
				 fz_off(off < 0 ? 0 : off), fl);
			r = aio_one_rwf(IOCB_CMD_PWRITEV, fd, fz_iov, nseg,
					off < 0 ? 0 : off, flags);
			break;
		}
	} else {
		len = fz_size(fz_max());
		memset(buf, 0xa5, BUF_MAX);
		off = fz_read_off();
		op = fz(8);
		switch (op) {
		case 0:
			snprintf(call, sizeof(call), "read%zu", len);
			r = read(fd, buf, len);
			break;
		case 1:
			snprintf(call, sizeof(call), "pread%zu@%s", len, fz_off(off));
			r = pread(fd, buf, len, off);
			break;
		case 2:
			nseg = fz_read_segs(segs, sizeof(segs));
			snprintf(call, sizeof(call), "readv%s", segs);
			r = readv(fd, fz_iov, nseg);
			break;
		case 3:
			nseg = fz_read_segs(segs, sizeof(segs));
			snprintf(call, sizeof(call), "preadv%s@%s", segs, fz_off(off));
			r = preadv(fd, fz_iov, nseg, off);
			break;
		case 4:
			nseg = fz_read_segs(segs, sizeof(segs));
			flags = fz_flags(fl, sizeof(fl));
			if (!fz(3))
				off = -1;
			snprintf(call, sizeof(call), "preadv2%s@%s%s", segs, fz_off(off), fl);
			r = preadv2(fd, fz_iov, nseg, off, flags);
			break;
		case 5:
			snprintf(call, sizeof(call), "aio-PREAD%zu@%s{}", len, fz_off(off));
			r = aio_one(IOCB_CMD_PREAD, fd, buf, len, off);
			break;
		case 6:
			nseg = fz_read_segs(segs, sizeof(segs));
			flags = fz_flags(fl, sizeof(fl));
			snprintf(call, sizeof(call), "aio-PREADV%s@%s%s", segs, fz_off(off), fl);
			r = aio_one_rwf(IOCB_CMD_PREADV, fd, fz_iov, nseg, off, flags);
			break;
		default:
			snprintf(call, sizeof(call), "lseek@%s", fz_off(off));
			r = lseek(fd, off, SEEK_SET);
			break;
		}
		if (op != 2 && op != 3 && op != 4 && op != 6)
			nseg = 0;
		if (nseg) {
			for (len = 0, i = 0; i < nseg; i++)
				len += fz_len[i];
		}
	}
	/* aio gives its own result, a system call -1 and errno */
	if (r < 0 && r > -1000000L && (wr ? op <= 3 : op <= 4 || op == 7))
		r = -errno;
	/* lseek returns a position, not a length: print it as is */
	out("%s fz%d.%d:%s%s", cur->name, k, step, fz_nb ? "nb-" : "", call);
	if (!wr && op == 7)
		out(" ret=%s", r < 0 ? errname((int)-r) : r == off ? "off" : "other");
	else
		fz_result(r, nseg, !wr, len);
	if (wr && cur->state) {
		st[0] = '\0';
		cur->state(st, sizeof(st));
		out(" state=%s", st);
	}
	out("\n");
}

/*
 * Two rings of targets, each by the hash of the name: the targets above
 * (which have fixtures, and payloads to write) and the sweep's files. A
 * case takes one ring or the other with even odds, then the first target
 * at or after a random point.
 */
/*
 * Not in the fuzz: the OSS PCM devices, whose first read starts the
 * capture, and /dev/hwrng, fed by the host: what a later call finds
 * depends on the time; the kernel logs, whose next record after the
 * case's own is whatever the kernel logged; files whose length differs
 * between the two kernels, since their code, symbols and devices differ
 * (the series adds test devices to /proc/misc; /proc/self/stack names the
 * functions of the reader's own read call), or from one read to the
 * next (timers, load and uptime, whose numbers change width and whose
 * lines come and go; /proc/net/unix, whose lines carry inode numbers), so
 * that a random offset falls past the end on one kernel only.
 */
static const char *const fz_skip[] = {
	"sweep:/dev/dsp*", "sweep:/dev/adsp*", "sweep:/dev/audio*",
	"/dev/hwrng", "/dev/kmsg", "/proc/kmsg", "sweep:/proc/vmallocinfo",
	"sweep:/proc/iomem", "sweep:/proc/config.gz", "sweep:/proc/version",
	"/proc/kallsyms", "sweep:/proc/modules", "sweep:/proc/misc",
	"sweep:/proc/loadavg", "sweep:/proc/uptime", "sweep:/proc/timer_list",
	"/proc/net/unix*", "sweep:/proc/self/stack",
};

/*
 * /proc/irq/N/spurious prints the count of line N's interrupts, and line 3
 * is ttyS1, which carries this program's output: its length changes from
 * one read to the next.
 */
static int fz_irq_spurious(const char *path)
{
	static const char pre[] = "sweep:/proc/irq/", suf[] = "/spurious";
	size_t len = strlen(path);

	return !strncmp(path, pre, sizeof(pre) - 1) && len > sizeof(suf) - 1 &&
	       !strcmp(path + len - (sizeof(suf) - 1), suf);
}

struct fz_point {
	uint32_t hash;
	const struct target *t;
};

struct fz_ring {
	struct fz_point *p;
	int n;
};

static struct fz_ring fz_rings[2];

/* FZ_POINTS points a target on its ring, for even shares */
#define FZ_POINTS	16

static void fz_ring_add(struct fz_ring *r, const struct target *t)
{
	char point[700];
	int i;

	if (!present(t) ||
	    listed(t->name, fz_skip, sizeof(fz_skip) / sizeof(fz_skip[0])) ||
	    fz_irq_spurious(t->name))
		return;
	for (i = 0; i < FZ_POINTS; i++) {
		snprintf(point, sizeof(point), "%s#%d", t->name, i);
		r->p[r->n].hash = fnv(point, strlen(point));
		r->p[r->n++].t = t;
	}
}

static int fz_point_cmp(const void *a, const void *b)
{
	const struct fz_point *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return strcmp(x->t->name, y->t->name);
}

static void fz_build_rings(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		int max = i ? nswept : (int)NTARGETS;

		fz_rings[i].p = calloc(FZ_POINTS * max + 1,
				       sizeof(*fz_rings[i].p));
		if (!fz_rings[i].p)
			exit(1);
	}
	for (i = 0; i < (int)NTARGETS; i++)
		fz_ring_add(&fz_rings[0], &targets[i]);
	for (i = 0; i < nswept; i++)
		fz_ring_add(&fz_rings[1], &swept[i]);
	for (i = 0; i < 2; i++)
		qsort(fz_rings[i].p, fz_rings[i].n, sizeof(*fz_rings[i].p),
		      fz_point_cmp);
}

static void fz_seed(unsigned long long seed, int k)
{
	fz_state = seed * 0x100000001b3ULL ^ (uint64_t)k * 0x9e3779b97f4a7c15ULL;
	fz_rnd();
}

static const struct target *fz_pick(void)
{
	uint64_t v = fz_rnd();
	struct fz_ring *r = &fz_rings[v & 1];
	uint32_t h = v >> 32;
	int lo = 0, hi;

	if (!r->n)
		r = &fz_rings[!(v & 1)];
	hi = r->n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (r->p[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return r->p[lo == r->n ? 0 : lo].t;
}

/*
 * What a write case leaves in the hardware stays for the next case, and a
 * request one kernel serves and the other refuses leaves it different:
 * each fuzz case on these starts from the same bytes.
 */
static const struct {
	const char *name, *path;
	off_t off;
	size_t len;
} fz_resets[] = {
	{ "/dev/port", "/dev/port", 0x80, 2 },
	{ "/dev/mem", "/dev/mem", 0x1000, 64 },
};

static void fz_reset(void)
{
	static const unsigned char zero[64];
	size_t i;
	int fd;

	for (i = 0; i < sizeof(fz_resets) / sizeof(fz_resets[0]); i++) {
		if (strcmp(cur->name, fz_resets[i].name))
			continue;
		fd = open(fz_resets[i].path, O_WRONLY);
		if (fd < 0)
			return;
		if (pwrite(fd, zero, fz_resets[i].len, fz_resets[i].off) < 0)
			i = sizeof(fz_resets) / sizeof(fz_resets[0]);
		close(fd);
	}
}

static void fz_child(int k, int p)
{
	int nonblock, steps, wr, fd, e, i;

	/* All the calls of a case go one way, on a descriptor opened for it. */
	wr = cur->wflags != -1 && cur->npay && !cur->sweep &&
	     (cur->rflags == -1 || fz(2));
	nonblock = !fz(4);
	fz_nb = nonblock || (cur->rflags != -1 && (cur->rflags & O_NONBLOCK));
	steps = 1 + fz(3);
	fz_reset();
	if (cur->setup) {
		e = cur->setup();
		if (e) {
			dprintf(p, "%s fz%d.0:setup ret=-%s\n", cur->name, k,
				errname(-e));
			goto teardown;
		}
	}
	fd = open_target(wr, nonblock ? O_NONBLOCK : 0);
	if (fd < 0) {
		dprintf(p, "%s fz%d.0:open%s%s ret=-%s\n", cur->name, k,
			wr ? "W" : "R", nonblock ? "+NB" : "", errname(errno));
		goto teardown;
	}
	cur_fd = fd;
	reach_note(fd);
	if (!wr && cur->prime && fz(4))
		cur->prime(fd);
	if (toff(wr) >= 0)
		lseek(fd, toff(wr), SEEK_SET);
	for (i = 0; i < steps; i++) {
		fz_step(fd, wr, k, i);
		if (write(p, line, strlen(line)) < 0)
			_exit(2);
	}
	close(fd);
teardown:
	if (cur->teardown)
		cur->teardown();
}

static void fz_case_child(void *arg, int fd)
{
	fz_child(*(int *)arg, fd);
}

static void fz_case(unsigned long long seed, int k)
{
	char res[65536];
	int status;

	fz_seed(seed, k);
	cur = fz_pick();
	ncases++;
	status = in_child(fz_case_child, &k, 5, res, sizeof(res));
	if (status == -1) {
		printf("%s fz%d%s\n", cur->name, k, res);
		return;
	}
	fputs(res, stdout);
	if (WIFSIGNALED(status))
		printf("%s fz%d.end killed:%s\n", cur->name, k,
		       killed_by(status));
}

static int fuzz(int argc, char **argv)
{
	unsigned long long seed;
	int cases, first, k;
	size_t i;

	if (argc < 4)
		return fprintf(stderr, "usage: difftest fuzz SEED CASES [FIRST]\n"), 2;
	seed = strtoull(argv[2], NULL, 0);
	cases = atoi(argv[3]);
	first = argc > 4 ? atoi(argv[4]) : 0;
	sweep_prepare();
	for (i = 0; i < sizeof(sweep_roots) / sizeof(sweep_roots[0]); i++)
		sweep_dir(sweep_roots[i], 0);
	fz_build_rings();
	printf("# fuzz: seed %llu, cases %d..%d, %d targets and %d swept files\n",
	       seed, first, first + cases - 1, fz_rings[0].n / FZ_POINTS,
	       fz_rings[1].n / FZ_POINTS);
	for (k = first; k < first + cases; k++)
		fz_case(seed, k);
	reach_print();
	printf("# difftest fuzz: %d cases\n", ncases);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	/* configfs, for its directory. */
	if (access("/sys/kernel/config", F_OK) == 0)
		mount("configfs", "/sys/kernel/config", "configfs", 0, NULL);
	/* fusectl, for its directory and the control files. */
	if (access(FUSECTL, F_OK) == 0)
		mount("fusectl", FUSECTL, "fusectl", 0, NULL);
	reach_dev = open("/dev/reach", O_RDONLY);
	if (argc > 1 && !strcmp(argv[1], "fuzz"))
		return fuzz(argc, argv);
	for (i = 0; i < NTARGETS; i++)
		if (argc < 2 || strstr(targets[i].name, argv[1]))
			run_target(&targets[i]);
	if (argc < 2 || !strcmp(argv[1], "sweep")) {
		sweep_prepare();
		for (i = 0; i < sizeof(sweep_roots) / sizeof(sweep_roots[0]); i++)
			sweep_dir(sweep_roots[i], 0);
		for (i = 0; i < (size_t)nswept; i++)
			run_target(&swept[i]);
	}
	reach_print();
	printf("# difftest: %d files, %d cases\n", nfiles, ncases);
	return 0;
}
