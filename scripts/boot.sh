#!/bin/bash
# Boot a kernel in QEMU with the guest initramfs and the scratch disk.
# The kernel console (ttyS0) goes to build/logs/<kernel>-<mode>.console, the
# guest's results (ttyS1) to build/logs/<kernel>-<mode>.out.
# usage: boot.sh stock|patched check|run|bench|durability-write|durability-verify
#   KEEP_DISKS=1   boot on the previous boot's disks (below)
#   QEMU_SMP=n     n guest CPUs (default 2; make bench's paired boots use 1)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: boot.sh stock|patched mode}
mode=${2:?usage: boot.sh stock|patched mode}
suffix=
[ "${DEBUG:-0}" = 1 ] && suffix=debug
# BOOT_IMAGE=path boots that image instead (make bench's other layouts).
image=${BOOT_IMAGE:-$(objdir "$kernel" $suffix)/arch/x86/boot/bzImage}
# INITRD=path boots that initramfs instead (make difftest-reach).
initrd=${INITRD:-$GUEST/initramfs.cpio}
[ -f "$image" ] || die "$image missing: build it first (make build)"
[ -f "$initrd" ] || die "$initrd missing: build it first (make guest)"
logs=$LOGS
mkdir -p "$logs"
heavy_lock
tag=$kernel${suffix:+-$suffix}-$mode
# The debug kernel runs the suite about twice as slowly, then the fault
# injection groups and the kmemleak scan.
timeout_s=${BOOT_TIMEOUT:-$([ -n "$suffix" ] && echo 3000 || echo 1200)}

# The accelerator: KVM only if a short probe boot reaches init and back.
# /dev/kvm can exist and open while KVM guests still fail to boot, so the
# node alone proves nothing. The verdict is kept for this host boot.
accel_file=$BUILD/accel
boot_id=$(cat /proc/sys/kernel/random/boot_id)
tcg=(-accel tcg -cpu max)
kvm=(-enable-kvm -cpu host)
accel=
if [ -f "$accel_file" ] && [ "$(sed -n 1p "$accel_file")" = "$boot_id" ]; then
	accel=$(sed -n 2p "$accel_file")
fi
if [ -n "${ACCEL:-}" ]; then
	accel=$ACCEL
elif [ -z "$accel" ]; then
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		step "probing KVM with a short boot"
		rm -f "$logs/probe.out"
		timeout 20 qemu-system-x86_64 "${kvm[@]}" -m 256M -nographic -no-reboot \
			-kernel "$image" -initrd "$initrd" -monitor none \
			-append "console=ttyS0 panic=-1 harness.mode=probe" \
			-serial "file:$logs/probe.console" -serial "file:$logs/probe.out" \
			>/dev/null 2>&1 || true
		grep -q '### probe ok' "$logs/probe.out" 2>/dev/null && accel=kvm
	fi
	printf '%s\n%s\n' "$boot_id" "$accel" >"$accel_file"
fi
case "$accel" in
kvm) accel_args=("${kvm[@]}") ;;
tcg) accel_args=("${tcg[@]}") ;;
*) die "ACCEL=$accel: expected kvm or tcg" ;;
esac

# Fresh disks every boot, so that no run sees another's files: the ext4
# scratch disk, a raw one for the block-device tests, an ext2 and an xfs
# one, vfat, jfs and ntfs3 ones (made by Debian's mkfs.vfat, mkfs.jfs and
# mkntfs), and a small ext4 one that QEMU reads at 2 MiB/s (the test that
# io_submit() of a buffered read does not wait for the disk needs a read
# that lasts). The guest tells them apart by their serial, aio-<name>.
# KEEP_DISKS=1: boot on the disks of the previous boot as they are, not
# recreated (scripts/durability.sh: a second boot reads what the first
# wrote; it holds build/heavy.lock over both, so that no other boot
# recreates them in between).
disk=$LOGS/scratch.img
raw=$LOGS/raw.img
ext2=$LOGS/ext2.img
xfs=$LOGS/xfs.img
slow=$LOGS/slow.img
vfat=$LOGS/vfat.img
jfs=$LOGS/jfs.img
ntfs=$LOGS/ntfs.img
if [ "${KEEP_DISKS:-0}" = 1 ]; then
	for d in "$disk" "$raw" "$ext2" "$xfs" "$slow" "$vfat" "$jfs" "$ntfs"; do
		[ -f "$d" ] || die "KEEP_DISKS=1: $d missing (no previous boot to keep the disks of)"
	done
	step "keeping the disks of the previous boot (KEEP_DISKS=1)"
else
	rm -f "$disk"
	truncate -s 256M "$disk"
	mkfs.ext4 -q -F -L scratch "$disk"
	rm -f "$raw"
	truncate -s 64M "$raw"
	rm -f "$ext2"
	truncate -s 64M "$ext2"
	mkfs.ext2 -q -F -L aio-ext2 "$ext2"
	rm -f "$xfs"
	truncate -s 300M "$xfs"	# mkfs.xfs refuses less than 300 MiB; the file stays sparse
	mkfs.xfs -q -f -L aio-xfs "$xfs"
	rm -f "$slow"
	truncate -s 16M "$slow"
	mkfs.ext4 -q -F -L aio-slow "$slow"
	rm -f "$vfat" "$jfs" "$ntfs"
	truncate -s 64M "$vfat" "$jfs" "$ntfs"
	mkfs.vfat -n AIOVFAT "$vfat" >/dev/null
	mkfs.jfs -q -L aio-jfs "$jfs" >/dev/null
	mkntfs -F -Q -q -L aio-ntfs "$ntfs" >/dev/null 2>&1 ||
		die "mkntfs could not make $ntfs"
fi
drives=()
for d in ext4:"$disk" raw:"$raw" ext2:"$ext2" xfs:"$xfs" slow:"$slow" \
	vfat:"$vfat" jfs:"$jfs" ntfs3:"$ntfs"; do
	throttle=
	[ "${d%%:*}" = slow ] && throttle=,throttling.bps-read=2097152
	drives+=(-drive "file=${d#*:},if=none,id=${d%%:*},format=raw,cache=unsafe$throttle"
		-device "virtio-blk-pci,drive=${d%%:*},serial=aio-${d%%:*}")
done

# make bench: one more disk, raw, for O_DIRECT, only when asked for
# (BENCH_DISK=path). It sits in the last PCI slot, so that it is probed, and
# named, after every other disk; the guest finds it by its serial.
bench_disk=()
if [ -n "${BENCH_DISK:-}" ]; then
	bench_disk=(-drive "file=$BENCH_DISK,if=none,id=bench,format=raw,cache=unsafe"
		-device "virtio-blk-pci,drive=bench,serial=bench-raw,addr=0x1f")
fi

# The virtual devices of config/guest.config that need a parameter to
# create one: a vfb frame buffer (built in, vfb reads "video=vfb:", not
# its module parameter; given its default mode, because with an empty
# option vfb_init() drops the string fb_get_options() allocated, a leak of
# 6.12 that kmemleak reports on debug kernels); an 8-line gpio-mockup
# chip; the loopback sound card first, as card 0, where the PCM tests
# look for it; a second dummy USB controller for guest/init's configfs
# gadget (gadgetfs keeps the first); vivid with its video output node
# only, which refuses read() at once (a capture node would start
# streaming).
DEVICE_ARGS="video=vfb:640x480-8 gpio_mockup.gpio_mockup_ranges=-1,8"
DEVICE_ARGS+=" snd_aloop.index=0 snd_dummy.index=1"
DEVICE_ARGS+=" dummy_hcd.num=2 vivid.node_types=0x100"

step "booting $kernel kernel${suffix:+ ($suffix)} ($accel), mode $mode, timeout ${timeout_s}s"
rm -f "$logs/$tag.console" "$logs/$tag.out"
t0=$(date +%s)
rc=0
timeout --foreground -k 10 "$timeout_s" qemu-system-x86_64 "${accel_args[@]}" \
	-smp "${QEMU_SMP:-2}" -m 1G -nographic -no-reboot -monitor none \
	-kernel "$image" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic softdog.soft_noboot=1 $DEVICE_ARGS harness.mode=$mode ${CMDLINE:-}" \
	-serial "file:$logs/$tag.console" -serial "file:$logs/$tag.out" \
	"${bench_disk[@]}" \
	"${drives[@]}" -device virtio-rng-pci -nic none </dev/null >"$logs/$tag.qemu" 2>&1 || rc=$?
echo "$accel" >"$logs/$tag.accel"
step "guest ended after $(($(date +%s) - t0))s (qemu exit $rc)"
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "timeout: the guest did not finish within ${timeout_s}s" >>"$logs/$tag.out"
fi
exit 0
