#!/bin/bash
# make profile: where the instructions of one read() or write() go, on the
# stock and the patched kernel. Counts, with a TCG plugin
# (bench/insnprof.c), the guest instructions executed per operation of each
# row below (bench/callprof.c, one boot per kernel, -smp 1, nokaslr), and
# prints per row the instructions per operation of each kernel and, per
# function, those that differ. Instruction counts are exact and do not
# depend on the host's load, unlike make bench's times, but they are not
# times: an instruction that TCG emulates slowly counts for one.
#   PROFILE_ITERS=n    operations counted per row (default 20000)
#   PROFILE_KERNELS="stock patched"   which kernels
# Output: build/profile/<kernel>.windows (raw), build/profile/report.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

iters=${PROFILE_ITERS:-20000}
kernels=${PROFILE_KERNELS:-stock patched}
prof=$BUILD/profile
stage=$prof/root
mkdir -p "$prof"

# label path op len: the single-call rows of make bench, a few more,
# vectors of a file whose ->write_iter runs once per segment (op-<segments>),
# and io_submit() of one request with the io_getevents() that reaps it
# (aio-pread, aio-pwrite; /tmp is a tmpfs whose file has its page cached).
rows="null-read-1 /dev/null read 1
null-write-1 /dev/null write 1
null-write-65536 /dev/null write 65536
zero-read-1 /dev/zero read 1
zero-read-4096 /dev/zero read 4096
zero-read-65536 /dev/zero read 65536
zero-write-1 /dev/zero write 1
eventfd-write-8 eventfd write 8
eventfd-read-8 eventfd read 8
eventfd-writev-8x8 eventfd writev-8 8
eventfd-writev-64x8 eventfd writev-64 8
oom_score_adj-pread-4096 /proc/self/oom_score_adj pread 4096
oom_score_adj-pwrite-1 /proc/self/oom_score_adj pwrite 1
oom_score_adj-pwritev-2x2 /proc/self/oom_score_adj pwritev-2 2
oom_score_adj-preadv-1x8 /proc/self/oom_score_adj preadv-1 8
oom_score_adj-preadv-8x8 /proc/self/oom_score_adj preadv-8 8
swaps-pread-4096 /proc/swaps pread 4096
personality-pread-4096 /proc/self/personality pread 4096
debugfs-sleep_time-pread-4096 /sys/kernel/debug/sleep_time pread 4096
debugfs-attr-read-64 /sys/kernel/debug/fault_around_bytes read 64
debugfs-attr-write-6 /sys/kernel/debug/fault_around_bytes write 6
control-sysfs-pread-4096 /sys/devices/system/cpu/online pread 4096
aio-eventfd-pread-8 eventfd aio-pread 8
aio-null-pwrite-1 /dev/null aio-pwrite 1
aio-zero-pread-4096 /dev/zero aio-pread 4096
aio-tmpfs-pread-4096 /tmp/profile.dat aio-pread 4096"

gcc -shared -fPIC -O2 -Wall -Werror -o "$prof/insnprof.so" "$TOP/bench/insnprof.c"
stage_callprof_root "$stage" "$prof/callprof"
start=$(nm "$prof/callprof" | awk '$3 == "prof_start" { print $1 }')
stop=$(nm "$prof/callprof" | awk '$3 == "prof_stop" { print $1 }')
{
	echo '#!/bin/busybox sh'
	echo '/bin/busybox --install -s /bin'
	echo 'mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev'
	echo 'mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null'
	echo 'mount -t tmpfs tmpfs /tmp; dd if=/dev/zero of=/tmp/profile.dat bs=4096 count=1 2>/dev/null'
	echo "while read -r label path op len; do /bin/callprof \"\$label\" \"\$path\" \"\$op\" \"\$len\" $iters >/dev/ttyS1 2>&1; done <<'ROWS'"
	echo "$rows"
	echo 'ROWS'
	echo 'echo "### done" >/dev/ttyS1; sync; reboot -f'
} >"$stage/init"
chmod 755 "$stage/init"
pack_initramfs "$stage" "$prof/initramfs.cpio"

for k in $kernels; do
	image=$(built_image "$k")
	heavy_lock
	step "profiling the $k kernel: $(echo "$rows" | wc -l) rows of $iters operations"
	rm -f "$prof/$k.windows"
	timeout --foreground -k 10 1200 qemu-system-x86_64 -accel tcg -cpu max \
		-smp 1 -m 512M -nographic -no-reboot -monitor none \
		-kernel "$image" -initrd "$prof/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 nokaslr quiet" \
		-plugin "$prof/insnprof.so,start=$start,stop=$stop,out=$prof/$k.windows" \
		-serial "file:$prof/$k.console" -serial "file:$prof/$k.out" \
		-nic none </dev/null >"$prof/$k.qemu" 2>&1 || die "qemu failed: $prof/$k.qemu"
	grep -q '^### done' "$prof/$k.out" || die "the $k guest did not finish: $prof/$k.console"
	nm -n "$(objdir "$k")/vmlinux" >"$prof/$k.nm"
done

python3 "$TOP/scripts/profile-report.py" "$prof" "$iters" "$rows" $kernels | tee "$prof/report.txt"
