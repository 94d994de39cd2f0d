#!/bin/sh
# make bench, in the guest (as /bin/bench-fio): Debian's fio against a file on
# the ext4 scratch disk (/dev/vda), 4 KiB random reads and writes with
# O_DIRECT at queue depth 16, through the libaio and the io_uring engines.
# Prints fio's terse line (version 3) and a summary line a job:
#   fio <engine> <rw> 4k-qd16 iops=<IOPS> lat_us=<mean latency, submission to completion>
# fio-shm.so stands in for System V shared memory, which the guest kernel
# lacks (see bench/fio-shm.c).
dir=${AIO_TEST_EXT4_DIR:-}
if [ -z "$dir" ]; then
	echo "fio: the ext4 scratch disk is not mounted"
	exit 1
fi
runtime=${BENCH_FIO_RUNTIME:-5}
rc=0
for engine in libaio io_uring; do
	for rw in randread randwrite; do
		LD_PRELOAD=/lib/fio-shm.so fio --name="$engine-$rw" \
			--filename="$dir/fio.dat" --size=32M --bs=4k --direct=1 \
			--ioengine="$engine" --iodepth=16 --rw="$rw" \
			--time_based --runtime="$runtime" --ramp_time=1 --invalidate=0 \
			--output-format=terse --terse-version=3 >/tmp/fio.out 2>&1 || rc=1
		cat /tmp/fio.out
		# Terse v3: read iops is field 8, its mean latency (us) 40;
		# write iops 49, its mean latency 81.
		awk -F';' -v e="$engine" -v rw="$rw" '$1 == 3 {
			if (rw ~ /read/)
				printf "fio %s %s 4k-qd16 iops=%s lat_us=%s\n", e, rw, $8, $40
			else
				printf "fio %s %s 4k-qd16 iops=%s lat_us=%s\n", e, rw, $49, $81
		}' /tmp/fio.out
	done
done
rm -f "$dir/fio.dat"
exit $rc
