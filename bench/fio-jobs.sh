#!/bin/sh
# make bench, in the guest (as /bin/bench-fio): Debian's fio against files on
# the ext4 scratch disk (/dev/vda), through the libaio and the io_uring
# engines: 4 KiB random reads and writes with O_DIRECT at queue depth 16;
# then 4096 buffered 4 KiB random reads (16 MiB, each block once) at queue
# depth 1 and 32 of a 160 MiB file whose page cache is dropped before each
# job (/proc/sys/vm/drop_caches: the guest kernel has no posix_fadvise(), so
# fio can neither invalidate the file nor advise random access), so that the
# reads wait for the disk.
# Prints fio's terse line (version 3) and a summary line a job:
#   fio <engine> <rw> <job> iops=<IOPS> lat_us=<mean latency, submission to
#       completion> slat_us=<mean submission latency: the time in io_submit()
#       or io_uring_enter() a request>
# fio-shm.so stands in for System V shared memory, which the guest kernel
# lacks (see bench/fio-shm.c).
dir=${AIO_TEST_EXT4_DIR:-}
if [ -z "$dir" ]; then
	echo "fio: the ext4 scratch disk is not mounted"
	exit 1
fi
runtime=${BENCH_FIO_RUNTIME:-5}
rc=0
# Terse v3: read iops is field 8, its mean submission latency (us) 12 and
# its mean total latency 40; write iops 49, and 53 and 81.
summary() {
	awk -F';' -v e="$1" -v rw="$2" -v job="$3" '$1 == 3 {
		if (rw ~ /read/)
			printf "fio %s %s %s iops=%s lat_us=%s slat_us=%s\n", e, rw, job, $8, $40, $12
		else
			printf "fio %s %s %s iops=%s lat_us=%s slat_us=%s\n", e, rw, job, $49, $81, $53
	}' /tmp/fio.out
}
for engine in libaio io_uring; do
	for rw in randread randwrite; do
		LD_PRELOAD=/lib/fio-shm.so fio --name="$engine-$rw" \
			--filename="$dir/fio.dat" --size=32M --bs=4k --direct=1 \
			--ioengine="$engine" --iodepth=16 --rw="$rw" \
			--time_based --runtime="$runtime" --ramp_time=1 --invalidate=0 \
			--output-format=terse --terse-version=3 >/tmp/fio.out 2>&1 || rc=1
		cat /tmp/fio.out
		summary "$engine" "$rw" 4k-qd16
	done
done
rm -f "$dir/fio.dat"
dd if=/dev/zero of="$dir/fio-buffered.dat" bs=1M count=160 2>/dev/null || rc=1
sync
for engine in libaio io_uring; do
	for qd in 1 32; do
		echo 1 >/proc/sys/vm/drop_caches || rc=1
		LD_PRELOAD=/lib/fio-shm.so fio --name="$engine-buffered-qd$qd" \
			--filename="$dir/fio-buffered.dat" --size=160M --bs=4k --direct=0 \
			--ioengine="$engine" --iodepth="$qd" --rw=randread \
			--number_ios=4096 --invalidate=0 \
			--output-format=terse --terse-version=3 >/tmp/fio.out 2>&1 || rc=1
		cat /tmp/fio.out
		summary "$engine" randread "4k-qd$qd-buffered"
	done
done
rm -f "$dir/fio-buffered.dat"
exit $rc
