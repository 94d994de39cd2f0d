// SPDX-License-Identifier: GPL-2.0
/*
 * aiofuse: a small FUSE file system for the conformance tests, one
 * directory of regular files kept in memory. It speaks the kernel's
 * protocol on /dev/fuse itself: the guest has no libfuse.
 *
 * usage: aiofuse <mount point>
 * Mounts, then serves from a child in the background; exits 0 once the
 * mount is there, 1 if it could not be made.
 *
 * What it answers: INIT, LOOKUP, FORGET, GETATTR, SETATTR (mode, size),
 * CREATE, OPEN, READ, WRITE, FLUSH, RELEASE, FSYNC, UNLINK, OPENDIR,
 * READDIR (empty), RELEASEDIR, STATFS, ACCESS and DESTROY; ENOSYS to the
 * rest, which the kernel then stops asking for (xattrs, locks).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/fuse.h>

#define MAX_NODES	1024
#define MAX_WRITE	(1 << 20)
#define BUF_SIZE	(MAX_WRITE + 65536)

struct node {
	bool used;
	bool unlinked;
	char name[256];
	mode_t mode;
	unsigned char *data;
	size_t size, cap;
	uint64_t nlookup;
	struct timespec mtime;
};

/* nodes[FUSE_ROOT_ID] is the directory; the node id is the index. */
static struct node nodes[MAX_NODES];
static int dev_fd;

static void reply(const struct fuse_in_header *in, int error,
		  const void *a, size_t alen, const void *b, size_t blen)
{
	struct fuse_out_header out = {
		.len = sizeof(out) + (error ? 0 : alen + blen),
		.error = -error,
		.unique = in->unique,
	};
	struct iovec iov[3] = {
		{ &out, sizeof(out) },
		{ (void *)a, error ? 0 : alen },
		{ (void *)b, error ? 0 : blen },
	};

	if (writev(dev_fd, iov, 3) < 0 && errno != ENOENT)
		perror("aiofuse: reply");
}

static void fill_attr(uint64_t id, struct fuse_attr *attr)
{
	struct node *n = &nodes[id];

	memset(attr, 0, sizeof(*attr));
	attr->ino = id;
	attr->size = n->size;
	attr->blocks = (n->size + 511) / 512;
	attr->atime = attr->mtime = attr->ctime = n->mtime.tv_sec;
	attr->atimensec = attr->mtimensec = attr->ctimensec = n->mtime.tv_nsec;
	attr->mode = n->mode;
	attr->nlink = S_ISDIR(n->mode) ? 2 : 1;
	attr->blksize = 4096;
}

static void reply_entry(const struct fuse_in_header *in, uint64_t id,
			const void *more, size_t morelen)
{
	struct fuse_entry_out e = {
		.nodeid = id,
		.entry_valid = 1,
		.attr_valid = 1,
	};

	fill_attr(id, &e.attr);
	nodes[id].nlookup++;
	reply(in, 0, &e, sizeof(e), more, morelen);
}

static void reply_attr(const struct fuse_in_header *in, uint64_t id)
{
	struct fuse_attr_out a = { .attr_valid = 1 };

	fill_attr(id, &a.attr);
	reply(in, 0, &a, sizeof(a), NULL, 0);
}

static uint64_t find(const char *name)
{
	uint64_t i;

	for (i = FUSE_ROOT_ID + 1; i < MAX_NODES; i++)
		if (nodes[i].used && !nodes[i].unlinked &&
		    !strcmp(nodes[i].name, name))
			return i;
	return 0;
}

static void drop(uint64_t id)
{
	struct node *n = &nodes[id];

	if (id == FUSE_ROOT_ID || !n->used || n->nlookup || !n->unlinked)
		return;
	free(n->data);
	memset(n, 0, sizeof(*n));
}

static int resize(struct node *n, size_t size)
{
	if (size > n->cap) {
		size_t cap = n->cap ? n->cap : 4096;
		unsigned char *d;

		while (cap < size)
			cap *= 2;
		d = realloc(n->data, cap);
		if (!d)
			return -ENOSPC;
		n->data = d;
		n->cap = cap;
	}
	if (size > n->size)
		memset(n->data + n->size, 0, size - n->size);
	n->size = size;
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	return 0;
}

static void do_create(const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_create_in *c = arg;
	const char *name = (const char *)(c + 1);
	struct fuse_open_out o = { 0 };
	uint64_t id = find(name);

	if (in->nodeid != FUSE_ROOT_ID)
		return reply(in, ENOENT, NULL, 0, NULL, 0);
	if (strlen(name) >= sizeof(nodes[0].name))
		return reply(in, ENAMETOOLONG, NULL, 0, NULL, 0);
	if (id && (c->flags & O_EXCL))
		return reply(in, EEXIST, NULL, 0, NULL, 0);
	if (!id) {
		for (id = FUSE_ROOT_ID + 1; id < MAX_NODES; id++)
			if (!nodes[id].used)
				break;
		if (id == MAX_NODES)
			return reply(in, ENOSPC, NULL, 0, NULL, 0);
		memset(&nodes[id], 0, sizeof(nodes[id]));
		nodes[id].used = true;
		strcpy(nodes[id].name, name);
		nodes[id].mode = S_IFREG | (c->mode & 07777 & ~c->umask);
		clock_gettime(CLOCK_REALTIME, &nodes[id].mtime);
	} else if (c->flags & O_TRUNC) {
		resize(&nodes[id], 0);
	}
	o.fh = id;
	reply_entry(in, id, &o, sizeof(o));
}

static void do_setattr(const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_setattr_in *s = arg;
	struct node *n = &nodes[in->nodeid];
	int err;

	if (s->valid & FATTR_SIZE) {
		if (S_ISDIR(n->mode))
			return reply(in, EISDIR, NULL, 0, NULL, 0);
		err = resize(n, s->size);
		if (err)
			return reply(in, -err, NULL, 0, NULL, 0);
	}
	if (s->valid & FATTR_MODE)
		n->mode = (n->mode & S_IFMT) | (s->mode & 07777);
	reply_attr(in, in->nodeid);
}

static void do_read(const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_read_in *r = arg;
	struct node *n = &nodes[in->nodeid];
	size_t len = 0;

	if (r->offset < n->size) {
		len = n->size - r->offset;
		if (len > r->size)
			len = r->size;
	}
	reply(in, 0, n->data ? n->data + r->offset : NULL, len, NULL, 0);
}

static void do_write(const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_write_in *w = arg;
	struct node *n = &nodes[in->nodeid];
	struct fuse_write_out o = { .size = w->size };
	int err = 0;

	if (w->offset + w->size > n->size)
		err = resize(n, w->offset + w->size);
	if (err)
		return reply(in, -err, NULL, 0, NULL, 0);
	memcpy(n->data + w->offset, w + 1, w->size);
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	reply(in, 0, &o, sizeof(o), NULL, 0);
}

static void do_forget(uint64_t id, uint64_t nlookup)
{
	if (id >= MAX_NODES || !nodes[id].used)
		return;
	nodes[id].nlookup -= nlookup < nodes[id].nlookup ?
			     nlookup : nodes[id].nlookup;
	drop(id);
}

/* One request; returns 0 to go on, 1 when the file system goes away. */
static int serve(const struct fuse_in_header *in, const void *arg)
{
	struct fuse_open_out o = { .fh = in->nodeid };
	uint64_t id;

	if (in->opcode != FUSE_INIT && in->opcode != FUSE_FORGET &&
	    in->opcode != FUSE_BATCH_FORGET &&
	    (in->nodeid >= MAX_NODES || !nodes[in->nodeid].used)) {
		reply(in, ENOENT, NULL, 0, NULL, 0);
		return 0;
	}
	switch (in->opcode) {
	case FUSE_INIT: {
		const struct fuse_init_in *i = arg;
		struct fuse_init_out out = {
			.major = FUSE_KERNEL_VERSION,
			.minor = FUSE_KERNEL_MINOR_VERSION,
			.max_readahead = i->max_readahead,
			.flags = i->flags & (FUSE_ASYNC_READ | FUSE_BIG_WRITES |
					     FUSE_ASYNC_DIO | FUSE_MAX_PAGES |
					     FUSE_ATOMIC_O_TRUNC),
			.max_background = 16,
			.congestion_threshold = 12,
			.max_write = MAX_WRITE,
			.time_gran = 1,
			.max_pages = MAX_WRITE / 4096,
		};

		reply(in, 0, &out, sizeof(out), NULL, 0);
		break;
	}
	case FUSE_LOOKUP:
		id = in->nodeid == FUSE_ROOT_ID ? find(arg) : 0;
		if (!id)
			reply(in, ENOENT, NULL, 0, NULL, 0);
		else
			reply_entry(in, id, NULL, 0);
		break;
	case FUSE_FORGET:
		do_forget(in->nodeid,
			  ((const struct fuse_forget_in *)arg)->nlookup);
		break;
	case FUSE_BATCH_FORGET: {
		const struct fuse_batch_forget_in *b = arg;
		const struct fuse_forget_one *f = (const void *)(b + 1);
		uint32_t k;

		for (k = 0; k < b->count; k++)
			do_forget(f[k].nodeid, f[k].nlookup);
		break;
	}
	case FUSE_GETATTR:
		reply_attr(in, in->nodeid);
		break;
	case FUSE_SETATTR:
		do_setattr(in, arg);
		break;
	case FUSE_CREATE:
		do_create(in, arg);
		break;
	case FUSE_OPEN:
		if (((const struct fuse_open_in *)arg)->flags & O_TRUNC)
			resize(&nodes[in->nodeid], 0);
		reply(in, 0, &o, sizeof(o), NULL, 0);
		break;
	case FUSE_OPENDIR:
		reply(in, 0, &o, sizeof(o), NULL, 0);
		break;
	case FUSE_READ:
		do_read(in, arg);
		break;
	case FUSE_WRITE:
		do_write(in, arg);
		break;
	case FUSE_UNLINK:
		id = in->nodeid == FUSE_ROOT_ID ? find(arg) : 0;
		if (!id) {
			reply(in, ENOENT, NULL, 0, NULL, 0);
			break;
		}
		nodes[id].unlinked = true;
		drop(id);
		reply(in, 0, NULL, 0, NULL, 0);
		break;
	case FUSE_READDIR:
		reply(in, 0, NULL, 0, NULL, 0);
		break;
	case FUSE_STATFS: {
		struct fuse_statfs_out s = {
			.st = { .blocks = 65536, .bfree = 32768,
				.bavail = 32768, .files = MAX_NODES,
				.ffree = MAX_NODES / 2, .bsize = 4096,
				.namelen = 255, .frsize = 4096 },
		};

		reply(in, 0, &s, sizeof(s), NULL, 0);
		break;
	}
	case FUSE_FLUSH:
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
	case FUSE_FSYNC:
	case FUSE_FSYNCDIR:
	case FUSE_ACCESS:
		reply(in, 0, NULL, 0, NULL, 0);
		break;
	case FUSE_INTERRUPT:
		break;
	case FUSE_DESTROY:
		reply(in, 0, NULL, 0, NULL, 0);
		return 1;
	default:
		reply(in, ENOSYS, NULL, 0, NULL, 0);
		break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char opts[128];
	unsigned char *buf;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <mount point>\n", argv[0]);
		return 2;
	}
	dev_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (dev_fd < 0) {
		perror("aiofuse: /dev/fuse");
		return 1;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40755,user_id=0,group_id=0,allow_other",
		 dev_fd);
	if (mount("aiofuse", argv[1], "fuse", MS_NOSUID | MS_NODEV, opts)) {
		perror("aiofuse: mount");
		return 1;
	}
	nodes[FUSE_ROOT_ID].used = true;
	nodes[FUSE_ROOT_ID].mode = S_IFDIR | 0755;
	nodes[FUSE_ROOT_ID].nlookup = 1;
	clock_gettime(CLOCK_REALTIME, &nodes[FUSE_ROOT_ID].mtime);
	buf = malloc(BUF_SIZE);
	if (!buf)
		return 1;
	pid = fork();
	if (pid < 0) {
		perror("aiofuse: fork");
		return 1;
	}
	if (pid)
		return 0;
	setsid();
	signal(SIGHUP, SIG_IGN);
	for (;;) {
		ssize_t n = read(dev_fd, buf, BUF_SIZE);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == ENOENT)
				continue;
			if (errno != ENODEV)
				perror("aiofuse: read");
			return 0;
		}
		if ((size_t)n < sizeof(struct fuse_in_header))
			continue;
		if (serve((struct fuse_in_header *)buf,
			  buf + sizeof(struct fuse_in_header)))
			return 0;
	}
}
