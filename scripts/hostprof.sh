#!/bin/bash
# make hostprof: where the host's time goes when QEMU's TCG runs one
# operation of make profile in a loop, on the stock and the patched kernel.
# make profile counts what the guest executes; this splits what the host
# spends on it between the translated guest code (perf's [JIT] samples) and
# QEMU itself (its helpers, the lookup of the next translated block, the
# software TLB), to tell a row whose time follows its instructions from one
# whose time TCG charges elsewhere.
#
# Per kernel: one boot (TCG, -smp 1, nokaslr, no plugin) whose init runs
# bench/callprof for the row HOSTPROF_ITERS times (and as many again before,
# to warm up), timed in the guest with /proc/uptime, while
# `perf record -e cpu-clock` (a software event, no host privilege needed
# beyond perf_event_paranoid 2) samples the QEMU process for
# HOSTPROF_SECONDS from HOSTPROF_DELAY seconds after the start.
#   HOSTPROF_ROW="label path op len"   the row (default: /dev/null write 1)
#   HOSTPROF_ITERS=n                   operations a half (default 10000000)
#   HOSTPROF_KERNELS="stock patched"
#   HOSTPROF_DELAY=s, HOSTPROF_SECONDS=s   the sampled window (default 5 and 6)
#   HOSTPROF_TEXT=addr                 where callprof's code is linked (default
#                                      0x10000000): moving the loop's code
#                                      shows whether a time follows code
#                                      addresses rather than the kernel
# Output: build/hostprof/<kernel>.{out,perf,perf.log,console}, build/hostprof/report.txt.
# Debian's QEMU is stripped: only its exported symbols have names.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

row=${HOSTPROF_ROW:-null-write-1 /dev/null write 1}
iters=${HOSTPROF_ITERS:-10000000}
kernels=${HOSTPROF_KERNELS:-stock patched}
text=${HOSTPROF_TEXT:-0x10000000}
delay=${HOSTPROF_DELAY:-5}
seconds=${HOSTPROF_SECONDS:-6}
out=$BUILD/hostprof
stage=$out/root
command -v perf >/dev/null || die "perf missing: apt-get install linux-perf"
read -r label path op len <<<"$row"
[ -n "$len" ] || die "HOSTPROF_ROW=\"$row\": expected label path op len"
mkdir -p "$out"

stage_callprof_root "$stage" "$out/callprof" "$text"
cat >"$stage/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
a=\$(cut -d' ' -f1 /proc/uptime)
/bin/callprof $label $path $op $len $iters >/dev/ttyS1 2>&1
b=\$(cut -d' ' -f1 /proc/uptime)
echo "seconds \$a \$b" >/dev/ttyS1
sync; reboot -f
EOF
chmod 755 "$stage/init"
pack_initramfs "$stage" "$out/initramfs.cpio"

for k in $kernels; do
	image=$(built_image "$k")
	heavy_lock
	step "$k kernel: $label, 2 x $iters operations, perf from ${delay}s for ${seconds}s"
	rm -f "$out/$k.out" "$out/$k.perf"
	timeout -k 10 900 qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m 512M -nographic \
		-no-reboot -monitor none -kernel "$image" \
		-initrd "$out/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 nokaslr quiet" \
		-serial "file:$out/$k.console" -serial "file:$out/$k.out" \
		-nic none </dev/null >"$out/$k.qemu" 2>&1 &
	qpid=$!
	sleep "$delay"
	perf record -q -e cpu-clock -F 4000 -p "$qpid" -o "$out/$k.perf" \
		-- sleep "$seconds" >"$out/$k.perf.log" 2>&1 || true
	wait "$qpid" || die "qemu failed or timed out: $out/$k.qemu"
	[ -s "$out/$k.perf" ] || die "perf recorded nothing: $out/$k.perf.log"
	grep -q '^seconds ' "$out/$k.out" || die "the $k guest did not finish: $out/$k.console"
done

{
	echo "make hostprof: host time under TCG, $label ($path $op $len), 2 x $iters operations, callprof at $text"
	for k in $kernels; do
		read -r _ a b < <(grep '^seconds ' "$out/$k.out")
		ns=$(awk -v a="$a" -v b="$b" -v n="$iters" 'BEGIN { printf "%.1f", (b - a) * 1e9 / (2 * n) }')
		echo
		echo "== $k: $ns ns per operation (guest clock, warm-up included)"
		echo "   share of the host samples by object:"
		perf report -i "$out/$k.perf" --sort dso --stdio 2>/dev/null |
			awk '!/^#/ && NF { printf "   %s\n", $0 }' | head -4
		echo "   QEMU's named functions above 0.3 %:"
		perf report -i "$out/$k.perf" --dsos qemu-system-x86_64 --sort sym --stdio 2>/dev/null |
			awk '!/^#/ && NF && $3 !~ /^0x/ && $1 + 0 >= 0.3 { printf "   %s\n", $0 }' | head -12
	done
} | tee "$out/report.txt"
