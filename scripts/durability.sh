#!/bin/bash
# The reboot half of the durability check, for make check: data written by
# IOCB_CMD_PWRITEV and synced by IOCB_CMD_FDSYNC to ext4 on the scratch
# disk must be there, byte for byte, after the guest went down at once,
# without sync or unmount. Two boots of the same kernel (guest/durable.c):
# durability-write on fresh disks, which reboots right after the sync;
# then durability-verify on the same disks (KEEP_DISKS=1), which mounts
# the file system (replaying its journal) and reads the file back.
# scripts/read-results.sh counts the pair as one test. Unmount and mount
# within one boot is the kselftest durability_test's part.
#
# The drives use cache=unsafe: QEMU ignores the guest's flushes and leaves
# its writes in the host's page cache, unsynced. That does not weaken this
# check: it is about the guest. The next QEMU reads the image file through
# the same host page cache, so every write the virtual disk completed is
# there at the second boot whatever the cache mode; what the abrupt reboot
# throws away is what the guest kept in its own memory (dirty page cache,
# delayed allocation, an uncommitted journal transaction), and only the
# guest's IOCB_CMD_FDSYNC can have pushed that to the disk. (What cache=unsafe
# gives up is durability against a crash of the host, which is not tested.)
#
# Both boots hold build/heavy.lock at once, so that no other boot
# recreates the disks between them.
# usage: durability.sh stock|patched   (DEBUG=1: the debug kernel)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: durability.sh stock|patched}
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-300}
heavy_lock
"$TOP/scripts/boot.sh" "$kernel" durability-write
KEEP_DISKS=1 "$TOP/scripts/boot.sh" "$kernel" durability-verify
