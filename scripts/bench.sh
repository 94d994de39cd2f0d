#!/bin/bash
# make bench: the patched kernel against the stock one, side by side.
# Builds both kernels (scripts/build-kernel.sh), builds bench/vaio-bench.c
# statically against the patched tree's UAPI headers, packs it with Debian's
# fio (and the libraries fio needs) into build/bench/initramfs.cpio, boots
# each kernel under the same QEMU settings (scripts/boot.sh, mode bench, with
# a raw disk for O_DIRECT), and writes bench/results/<date>-<accel>/: the
# guests' raw outputs, kernels.txt, sizes.txt, table.txt and ratios.png.
# Prints the table and the accelerator.
#   BENCH_ROUNDS=n      boot each kernel n times, alternating (default 2)
#   BENCH_REPS, BENCH_REP_MS, BENCH_FIO_RUNTIME   passed to the guest
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export DEBUG=0
bench=$BUILD/bench
stage=$bench/root
rounds=${BENCH_ROUNDS:-2}
reps=${BENCH_REPS:-7}
rep_ms=${BENCH_REP_MS:-20}
fio_runtime=${BENCH_FIO_RUNTIME:-5}
fio=/usr/bin/fio
[ -x "$fio" ] || die "$fio missing: apt-get install fio"
command -v gnuplot >/dev/null || die "gnuplot missing: apt-get install gnuplot-nox"
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# 1. Both kernels, same tree, same configuration (each build takes the lock).
"$TOP/scripts/build-kernel.sh" stock
"$TOP/scripts/build-kernel.sh" patched
obj=$(objdir patched)
stock_obj=$(objdir stock)
# What the patched image was built from (others may commit to the tree while
# the guests run).
patched_head=$(git -C "$TREE" log --oneline -1)
dirty=$(git -C "$TREE" status --porcelain --untracked-files=no | wc -l)
[ "$dirty" = 0 ] && dirty= || dirty=" plus uncommitted edits in $dirty files"

# 2. The benchmark, static, against the patched tree's UAPI headers, which
# scripts/build-guest.sh installs (make guest).
hdr_stamp=$obj/usr/include/.harness-stamp
if [ ! -f "$hdr_stamp" ] || [ -n "$(find "$TREE/include/uapi" "$TREE/arch/x86/include/uapi" -newer "$hdr_stamp" -print -quit)" ]; then
	step "the patched tree's UAPI headers are missing or stale: installing them with build-guest.sh"
	"$TOP/scripts/build-guest.sh"
fi
step "building the benchmark (static) and packing build/bench/initramfs.cpio"
mkdir -p "$bench"
gcc -static -O2 -Wall -Werror -isystem "$obj/usr/include" -o "$bench/vaio-bench" \
	"$TOP/bench/vaio-bench.c" -laio -luring || die "bench/vaio-bench.c did not build"
gcc -shared -fPIC -O2 -Wall -Werror -o "$bench/fio-shm.so" "$TOP/bench/fio-shm.c" ||
	die "bench/fio-shm.c did not build"

# 3. The bench initramfs: busybox, guest/init, the benchmark, fio with every
# shared library ldd names, at the same paths, and the dynamic loader.
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,lib}
cp /bin/busybox "$stage/bin/busybox"
cp "$TOP/guest/init" "$stage/init"
chmod 755 "$stage/init"
cp "$bench/vaio-bench" "$stage/bin/vaio-bench"
cp "$TOP/bench/fio-jobs.sh" "$stage/bin/bench-fio"
chmod 755 "$stage/bin/bench-fio"
cp "$bench/fio-shm.so" "$stage/lib/fio-shm.so"
cp "$fio" "$stage/bin/fio"
libs=$(ldd "$fio" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
[ -n "$libs" ] || die "ldd $fio named no library"
for lib in $libs; do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done
pack_initramfs "$stage" "$bench/initramfs.cpio"
step "bench initramfs: $(du -k "$bench/initramfs.cpio" | cut -f1) KiB (fio and $(echo "$libs" | wc -w) libraries)"

# 4. Boot each kernel under the same QEMU settings, stock first, then
# alternating: stock patched, patched stock, ... The guest must time with
# the TSC, which QEMU takes from the host's under TCG: on a busy host the
# guest's calibration against the emulated PIT can fail, and its clocksource
# watchdog can find the TSC "unstable" against jiffies (whose ticks come
# late), and either way it falls back to jiffies, 4 ms a step. So both
# kernels are told the host's TSC frequency (tsc_early_khz) and to trust it
# (tsc=reliable), and a guest that still timed with anything else is booted
# again, up to twice.
tsc_khz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: \(Refined TSC clocksource calibration:\|Detected\) \([0-9]*\)\.\([0-9]\{3\}\) MHz.*/\2\3/p' | tail -1)
[ -n "$tsc_khz" ] || tsc_khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
cmdline="tsc=reliable${tsc_khz:+ tsc_early_khz=$tsc_khz}"
cmdline+=" BENCH_REPS=$reps BENCH_REP_MS=$rep_ms BENCH_FIO_RUNTIME=$fio_runtime"
run=$bench/run
rm -rf "$run"
mkdir -p "$run"
boot_one() {
	local k=$1 r=$2 try cs ext
	for try in 1 2 3; do
		rm -f "$bench/raw-disk.img"
		truncate -s 64M "$bench/raw-disk.img"
		HARNESS_GUEST=$bench HARNESS_LOGS=$bench/logs BENCH_DISK=$bench/raw-disk.img \
			BOOT_TIMEOUT=${BOOT_TIMEOUT:-900} CMDLINE="$cmdline" \
			"$TOP/scripts/boot.sh" "$k" bench
		for ext in out console accel; do
			cp "$bench/logs/$k-bench.$ext" "$run/$k-$r.$ext"
		done
		if ! grep -q '^### end vaio-bench rc=0' "$run/$k-$r.out" || ! grep -q '^### done' "$run/$k-$r.out"; then
			tail -20 "$run/$k-$r.console" >&2
			die "the $k guest did not finish the benchmark: see $run/$k-$r.out and .console"
		fi
		grep -q '^### end fio rc=0' "$run/$k-$r.out" ||
			step "warning: fio failed in the $k guest (round $r): see $run/$k-$r.out"
		cs=$(sed -n 's/^# vaio-bench: .*, clocksource \([^ ]*\) .*/\1/p' "$run/$k-$r.out")
		case "$cs" in
		tsc | kvm-clock) return 0 ;;
		esac
		step "the $k guest timed with clocksource '$cs', not the TSC (attempt $try of 3)"
	done
	die "the $k guest never timed with the TSC: see $run/$k-$r.console"
}
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then order="stock patched"; else order="patched stock"; fi
	for k in $order; do
		boot_one "$k" "$r"
	done
done
rm -f "$bench/raw-disk.img"
accel=$(cat "$run"/*.accel | sort -u | paste -sd+)

# 5. Results: raw outputs, the kernels, vmlinux sizes, the table, the plot.
date=$(date +%F)
res=$TOP/bench/results/$date-$accel
rm -rf "$res"
mkdir -p "$res"
cp "$run"/*.out "$res/"
guest_kernel() { sed -n 's/^### kernel \([^ ]*\) .* \(#[0-9]*\) .*/\1 \2/p' "$run/$1-1.out"; }
{
	echo "date: $(date '+%F %T %z')"
	echo "accelerator: $accel (qemu-system-x86_64 $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p'), -smp 2 -m 1G, same settings for both kernels)"
	echo "host: $(uname -r), $(nproc) cores, load average before the run: $load0"
	echo "stock:   $(guest_kernel stock), $(git -C "$STOCK_TREE" log --oneline -1) (tag pristine)"
	echo "patched: $(guest_kernel patched), build/linux at $patched_head$dirty"
	echo "boots: $rounds per kernel, alternating; vaio-bench: $reps repetitions of about $rep_ms ms; fio: ${fio_runtime}s a job"
	echo "guest command line adds: $cmdline; clocksource of each boot: $(cd "$run" && grep -H -o 'clocksource [^ ]*' ./*.out | sed 's|^\./||; s|\.out:clocksource|:|' | paste -sd' ')"
} >"$res/kernels.txt"
(cd "$TOP" && size "${stock_obj#"$TOP"/}/vmlinux" "${obj#"$TOP"/}/vmlinux") >"$res/sizes.txt"
{
	echo "make bench, $date, accelerator $accel: patched/stock, median of each operation"
	cat "$res/kernels.txt"
	awk -v dat="$res/ratios.dat" -f "$TOP/bench/table.awk" "$run"/stock-*.out "$run"/patched-*.out
	echo
	echo "(e) vmlinux size (size(1), bytes)"
	awk 'NR == 1 { next }
		{ k = NR == 2 ? "stock" : "patched"; t[k] = $1; d[k] = $2; b[k] = $3; s[k] = $4 }
		END {
			printf "%-8s %10s %10s %10s %10s\n", "", "text", "data", "bss", "total"
			printf "%-8s %10d %10d %10d %10d\n", "stock", t["stock"], d["stock"], b["stock"], s["stock"]
			printf "%-8s %10d %10d %10d %10d\n", "patched", t["patched"], d["patched"], b["patched"], s["patched"]
			printf "%-8s %+10d %+10d %+10d %+10d\n", "diff", t["patched"] - t["stock"], d["patched"] - d["stock"], b["patched"] - b["stock"], s["patched"] - s["stock"]
		}' "$res/sizes.txt"
} >"$res/table.txt"
gnuplot -e "dat='$res/ratios.dat'; out='$res/ratios.png'; title='make bench $date ($accel): patched/stock, median time per operation; (a) blue, (b) green, (c) red'" \
	"$TOP/bench/plot.gp" || die "gnuplot failed on $res/ratios.dat"

cat "$res/table.txt"
echo
step "accelerator: $accel; results in ${res#"$TOP"/}/ (table.txt, ratios.png, raw outputs)"
