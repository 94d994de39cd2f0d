// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: System V shared memory for fio on a kernel without it.
 *
 * fio keeps its job table in a System V shared memory segment, and the
 * guest kernel (tinyconfig) has no CONFIG_SYSVIPC: shmget() fails with
 * ENOSYS and fio gives up before any I/O. Preloaded into fio
 * (LD_PRELOAD), this gives it private segments made of anonymous shared
 * mappings instead: the job processes fio forks inherit them, which is all
 * fio needs. Nothing here touches the I/O paths being measured.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/shm.h>

#define NSEG 64

static struct {
	void *addr;
	size_t size;
} seg[NSEG];

int shmget(key_t key, size_t size, int flags)
{
	int i;

	(void)flags;
	if (key != IPC_PRIVATE) {
		errno = ENOSYS;
		return -1;
	}
	for (i = 0; i < NSEG; i++) {
		if (seg[i].addr)
			continue;
		seg[i].addr = mmap(NULL, size, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (seg[i].addr == MAP_FAILED) {
			seg[i].addr = NULL;
			errno = ENOMEM;
			return -1;
		}
		seg[i].size = size;
		return i + 1;
	}
	errno = ENOSPC;
	return -1;
}

void *shmat(int id, const void *addr, int flags)
{
	(void)addr;
	(void)flags;
	if (id < 1 || id > NSEG || !seg[id - 1].addr) {
		errno = EINVAL;
		return (void *)-1;
	}
	return seg[id - 1].addr;
}

/* fio marks a segment removed (IPC_RMID) as soon as it has attached it,
 * as Linux allows: the mapping goes only when it is detached. */
int shmdt(const void *addr)
{
	int i;

	for (i = 0; i < NSEG; i++) {
		if (seg[i].addr && seg[i].addr == addr) {
			munmap(seg[i].addr, seg[i].size);
			seg[i].addr = NULL;
			return 0;
		}
	}
	errno = EINVAL;
	return -1;
}

int shmctl(int id, int cmd, struct shmid_ds *buf)
{
	(void)id;
	(void)cmd;
	(void)buf;
	return 0;
}
