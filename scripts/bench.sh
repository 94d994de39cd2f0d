#!/bin/bash
# make bench: the patched kernel against the stock one, side by side.
# Builds both kernels (scripts/build-kernel.sh), builds bench/vaio-bench.c
# statically against the patched tree's UAPI headers, packs it with Debian's
# fio (and the libraries fio needs) into build/bench/initramfs.cpio, boots
# each kernel under the same QEMU settings (scripts/boot.sh, mode bench, with
# a raw disk for O_DIRECT), and writes bench/results/<date>-<accel>/: the
# guests' raw outputs, kernels.txt, sizes.txt, table.txt and ratios.png.
# Prints the table and the accelerator.
#   BENCH_LAYOUTS=n     build each kernel in n code layouts, and the
#                       benchmark in as many (default 5)
#   BENCH_ROUNDS=n      boot each layout of each kernel n times (default 2;
#                       1 with BENCH_PAIRED=0); the order of the two sides
#                       alternates from round to round
#   BENCH_REPS, BENCH_REP_MS, BENCH_FIO_RUNTIME   passed to the guest
#   BENCH_AA=1          make bench-aa: one kernel against itself, the A/A
#                       test: BENCH_KERNEL (patched, or stock) on both sides,
#                       columns <kernel>-a and <kernel>-b, booted
#                       alternately as above (a b, b a, ...), so each ratio
#                       shows the noise of its row; only that kernel is
#                       built, and build/heavy.lock is held from its build
#                       to the last boot, so that both sides boot the same
#                       image. Results in bench/results/<date>-<accel>-aa/
#                       (-aa-stock/ for the stock kernel).
#   BENCH_PAIRED=1      boot the two sides of each round at the same time,
#                       each guest with one CPU (-smp 1) and its QEMU pinned
#                       to one host core (taskset), the cores swapped from
#                       round to round: a slow spell of the host then falls
#                       on both sides of a round alike (default 1; 0 boots
#                       them one after the other, -smp 2, as before); before
#                       each round, bench/corespeed.c times one loop on both
#                       cores at once, and kernels.txt gives the ratio
#   BENCH_PIN=0         paired boots without taskset (the host schedules
#                       both QEMUs; its A/A spread was wider, see README)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export DEBUG=0
bench=$BUILD/bench
stage=$bench/root
rounds=${BENCH_ROUNDS:-}
layouts=${BENCH_LAYOUTS:-5}
reps=${BENCH_REPS:-7}
rep_ms=${BENCH_REP_MS:-20}
fio_runtime=${BENCH_FIO_RUNTIME:-5}
paired=${BENCH_PAIRED:-1}
pin=${BENCH_PIN:-1}
[ -n "$rounds" ] || { [ "$paired" = 1 ] && rounds=2 || rounds=1; }
case "$paired" in
0) smp=2 ;;
1) smp=1
	command -v taskset >/dev/null || die "taskset missing: apt-get install util-linux"
	[ "$(nproc)" -ge 2 ] || die "BENCH_PAIRED=1 needs 2 host cores, this host has $(nproc)" ;;
*) die "BENCH_PAIRED=$paired: expected 0 or 1" ;;
esac
fio=/usr/bin/fio
[ -x "$fio" ] || die "$fio missing: apt-get install fio"
command -v gnuplot >/dev/null || die "gnuplot missing: apt-get install gnuplot-nox"
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# The two sides of the table: the file names of the guests' outputs
# (<side>-<round>.out), and the kernel each boots.
aa=${BENCH_AA:-0}
if [ "$aa" = 1 ]; then
	kernel=${BENCH_KERNEL:-patched}
	case "$kernel" in
	stock | patched) ;;
	*) die "BENCH_KERNEL=$kernel: expected stock or patched" ;;
	esac
	side_a=$kernel-a
	side_b=$kernel-b
	suffix=-aa
	[ "$kernel" = patched ] || suffix=-aa-$kernel
else
	side_a=stock
	side_b=patched
	suffix=
fi
side_kernel() {
	case "$1" in
	stock | stock-?) echo stock ;;
	*) echo patched ;;
	esac
}

# 1. Both kernels, same tree, same configuration (each build takes the lock).
# A/A: only the one kernel, and the lock from its build to the last boot.
obj=$(objdir patched)
if [ "$aa" = 1 ]; then
	heavy_lock
	"$TOP/scripts/build-kernel.sh" "$kernel"
else
	"$TOP/scripts/build-kernel.sh" stock
	"$TOP/scripts/build-kernel.sh" patched
fi
# What the images were built from (others may commit to the tree while the
# guests run).
patched_head=$(git -C "$TREE" log --oneline -1)
dirty=$(git -C "$TREE" status --porcelain --untracked-files=no | wc -l)
[ "$dirty" = 0 ] && dirty= || dirty=" plus uncommitted edits in $dirty files"

# 1b. Code layouts. Under TCG the time of a system call may depend on where
# its code lies, not only on what it executes: the same patched source with
# its text moved by 1008 bytes gave single-call ratios of 0.84 to 1.16
# against itself (2026-12-04), and the benchmark's own code is on every
# call's path as much as the kernel's. So each kernel is also built with its
# text after
# init/main.o moved by layout number / layouts of a 4 KiB page, in steps of
# 16 bytes (a function of that many bytes appended to init/main.c, which
# the series does not touch, in its own O= folder, objdir <kernel>
# layout<n>), and the benchmark with its code moved by as many pages plus
# the same step (user_pad in lib.sh; BENCH_LAYOUT=<n> on the kernel command
# line picks /bin/vaio-bench-<n> in the guest), so that each layout is a
# new draw of where the code of a call's path lies, the same for both
# kernels. The
# table takes the median over every boot of every layout, and the smallest
# time over all of them. init/main.c gets its content and time back after
# each build, and the lock is held meanwhile.
layout_pad() { echo $(($1 * 4096 / layouts / 16 * 16)); }
layout_image() {
	local k=$1 j=$2
	if [ "$j" = 0 ]; then
		echo "$(objdir "$k")/arch/x86/boot/bzImage"
	else
		echo "$(objdir "$k" "layout$j")/arch/x86/boot/bzImage"
	fi
}
build_layout() {
	local k=$1 j=$2 src lobj pad main
	src=$(srcdir "$k")
	lobj=$(objdir "$k" "layout$j")
	pad=$(layout_pad "$j")
	main=$src/init/main.c
	heavy_lock
	step "building the $k kernel in layout $j (text after init/main.o moved by $pad bytes) in ${lobj#"$TOP"/}"
	mkdir -p "$bench"
	cp -p "$main" "$bench/main.c.orig"
	trap 'cp -p "$bench/main.c.orig" "$main"' EXIT
	printf '\n/* make bench, layout %d: the text after this file moved by %d bytes */\nstatic __used noinline void bench_layout_pad(void)\n{\n\tasm volatile(".skip %d, 0x90");\n}\n' \
		"$j" "$pad" "$pad" >>"$main"
	mkdir -p "$lobj"
	cp "$(objdir "$k")/.config" "$lobj/.config"
	if ! (export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} KBUILD_BUILD_TIMESTAMP='2000-01-01' \
			KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=qemu
		make -C "$src" O="$lobj" -s olddefconfig &&
		make -C "$src" O="$lobj" -j"$(nproc)" CC="ccache gcc" bzImage) >"$lobj/build.log" 2>&1; then
		cp -p "$bench/main.c.orig" "$main"
		trap - EXIT
		die "the $k kernel in layout $j did not build: see ${lobj#"$TOP"/}/build.log"
	fi
	cp -p "$bench/main.c.orig" "$main"
	trap - EXIT
}
if [ "$aa" = 1 ]; then
	layout_kernels=$kernel
else
	layout_kernels="stock patched"
fi
for k in $layout_kernels; do
	for j in $(seq 1 $((layouts - 1))); do
		build_layout "$k" "$j"
	done
done
# Outside A/A, let the others build while the benchmark is prepared.
[ "$aa" = 1 ] || exec 9>&-

# 2. The benchmark, static, against the patched tree's UAPI headers, which
# scripts/build-guest.sh installs (make guest).
hdr_stamp=$obj/usr/include/.harness-stamp
if [ ! -f "$hdr_stamp" ] || [ -n "$(find "$TREE/include/uapi" "$TREE/arch/x86/include/uapi" -newer "$hdr_stamp" -print -quit)" ]; then
	step "the patched tree's UAPI headers are missing or stale: installing them with build-guest.sh"
	"$TOP/scripts/build-guest.sh"
fi
step "building the benchmark (static) in $layouts layouts and packing build/bench/initramfs.cpio"
mkdir -p "$bench"
for j in $(seq 0 $((layouts - 1))); do
	build_vaio_bench "$bench/vaio-bench-$j" "$(user_pad "$j" "$layouts")" ||
		die "bench/vaio-bench.c did not build"
done
gcc -shared -fPIC -O2 -Wall -Werror -o "$bench/fio-shm.so" "$TOP/bench/fio-shm.c" ||
	die "bench/fio-shm.c did not build"
gcc -O2 -Wall -Werror -o "$bench/corespeed" "$TOP/bench/corespeed.c" ||
	die "bench/corespeed.c did not build"

# 3. The bench initramfs: busybox, guest/init, the benchmark, fio with every
# shared library ldd names, at the same paths, and the dynamic loader.
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,lib}
cp /bin/busybox "$stage/bin/busybox"
cp "$TOP/guest/init" "$stage/init"
chmod 755 "$stage/init"
for j in $(seq 0 $((layouts - 1))); do
	cp "$bench/vaio-bench-$j" "$stage/bin/vaio-bench-$j"
done
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
# usage: boot_one <side> <boot number> <layout> [host core]
# Each side has its own logs, scratch disks and raw disk, so that the two
# sides of a paired round can run at the same time; with a host core, QEMU
# runs pinned to it.
boot_one() {
	local s=$1 r=$2 j=$3 core=${4:-} k try cs ext logs disk pin=()
	k=$(side_kernel "$s")
	logs=$bench/logs-$s
	disk=$bench/raw-disk-$s.img
	[ -z "$core" ] || pin=(taskset -c "$core")
	for try in 1 2 3; do
		rm -f "$disk"
		truncate -s 64M "$disk"
		HARNESS_GUEST=$bench HARNESS_LOGS=$logs BENCH_DISK=$disk QEMU_SMP=$smp \
			BOOT_TIMEOUT=${BOOT_TIMEOUT:-900} CMDLINE="$cmdline BENCH_LAYOUT=$j" \
			BOOT_IMAGE=$(layout_image "$k" "$j") \
			"${pin[@]}" "$TOP/scripts/boot.sh" "$k" bench
		for ext in out console accel; do
			cp "$logs/$k-bench.$ext" "$run/$s-$r.$ext"
		done
		echo "${core:-any}" >"$run/$s-$r.core"
		if ! grep -q '^### end vaio-bench rc=0' "$run/$s-$r.out" || ! grep -q '^### done' "$run/$s-$r.out"; then
			tail -20 "$run/$s-$r.console" >&2
			die "the $s guest did not finish the benchmark: see $run/$s-$r.out and .console"
		fi
		grep -q '^### end fio rc=0' "$run/$s-$r.out" ||
			step "warning: fio failed in the $s guest (round $r): see $run/$s-$r.out"
		cs=$(sed -n 's/^# vaio-bench: .*, clocksource \([^ ]*\) .*/\1/p' "$run/$s-$r.out")
		case "$cs" in
		tsc | kvm-clock) return 0 ;;
		esac
		step "the $s guest timed with clocksource '$cs', not the TSC (attempt $try of 3)"
	done
	die "the $s guest never timed with the TSC: see $run/$s-$r.console"
}
boots=
n=0
for j in $(seq 0 $((layouts - 1))); do
	for r in $(seq 1 "$rounds"); do
		n=$((n + 1))
		if [ $((n % 2)) = 1 ]; then order="$side_a $side_b"; else order="$side_b $side_a"; fi
		if [ "$paired" = 1 ]; then
			# Both sides at once, the first of the order on core 0;
			# the lock is held over the pair (boot.sh inherits it).
			heavy_lock
			# How fast each core is now: the same loop on both at once.
			if [ "$pin" = 1 ]; then
				taskset -c 0 "$bench/corespeed" >"$run/speed-$n-0" &
				taskset -c 1 "$bench/corespeed" >"$run/speed-$n-1"
				wait $!
			fi
			pids=()
			c=0
			for s in $order; do
				if [ "$pin" = 1 ]; then
					boot_one "$s" "$n" "$j" "$c" &
				else
					boot_one "$s" "$n" "$j" &
				fi
				pids+=($!)
				c=$((c + 1))
			done
			fail=0
			for p in "${pids[@]}"; do
				wait "$p" || fail=1
			done
			[ "$aa" = 1 ] || exec 9>&-
			[ "$fail" = 0 ] || die "a guest of round $n failed (see above)"
		else
			for s in $order; do
				boot_one "$s" "$n" "$j"
			done
		fi
		boots+="${boots:+, }$n: layout $j (+$(layout_pad "$j") bytes)"
	done
done
rm -f "$bench"/raw-disk-*.img
accel=$(cat "$run"/*.accel | sort -u | paste -sd+)
# A/A: every boot must have run the same build; the boots are over, let
# the others build and boot.
if [ "$aa" = 1 ]; then
	if [ "$(grep -h '^### kernel ' "$run"/*.out | sort -u | wc -l)" -gt "$layouts" ]; then
		grep -H '^### kernel ' "$run"/*.out >&2
		die "the A/A boots ran more kernel builds than there are layouts"
	fi
	exec 9>&-
fi

# 5. Results: raw outputs, the kernels, vmlinux sizes, the table, the plot.
# A/A results go to <date>-<accel>-aa/, never over the A/B run's; the n-th
# run of the same name on one day gets -n (<date>-<accel>-2, ...), and
# BENCH_NAME=<name> names the folder <date>-<name>-<accel>...
date=$(date +%F)
res=$TOP/bench/results/$date${BENCH_NAME:+-$BENCH_NAME}-$accel$suffix
if [ -e "$res" ]; then
	n=2
	while [ -e "$res-$n" ]; do n=$((n + 1)); done
	res=$res-$n
fi
rm -rf "$res"
mkdir -p "$res"
cp "$run"/*.out "$res/"
guest_kernel() { sed -n 's/^### kernel \([^ ]*\) .* \(#[0-9]*\) .*/\1 \2/p' "$run/$1-1.out"; }
stock_desc="$(git -C "$STOCK_TREE" log --oneline -1) (tag pristine)"
patched_desc="build/linux at $patched_head$dirty"
{
	echo "date: $date"
	echo "accelerator: $accel (qemu-system-x86_64 $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p'), -smp $smp -m 1G, same settings for both kernels)"
	echo "host: $(uname -r), $(nproc) cores, load average before the run: $load0"
	if [ "$aa" = 1 ]; then
		[ "$kernel" = stock ] && desc=$stock_desc || desc=$patched_desc
		echo "A/A: the $kernel kernel on both sides, the same image: $side_a and $side_b are its boots in alternate order"
		echo "$kernel: $(guest_kernel "$side_a"), $desc"
	else
		echo "stock:   $(guest_kernel stock), $stock_desc"
		echo "patched: $(guest_kernel patched), $patched_desc"
	fi
	echo "boots: $layouts layouts of each kernel, $rounds boot(s) of each layout, $([ "$paired" = 1 ] && { [ "$pin" = 1 ] && echo "the two sides of a round at the same time, each QEMU pinned to one host core, the cores swapped every round" || echo "the two sides of a round at the same time, not pinned"; } || echo "alternating between the sides"); boot $boots; vaio-bench: $reps repetitions of about $rep_ms ms; fio: ${fio_runtime}s a job"
	if [ "$paired" = 1 ] && [ "$pin" = 1 ]; then
		echo "host cores: time of one loop (bench/corespeed.c) on core 0 over core 1, both at once, before each boot: $(for f in "$run"/speed-*-0; do i=${f%-0}; i=${i##*speed-}; echo "$i: $(awk -v a="$(cat "$f")" -v b="$(cat "$run/speed-$i-1")" 'BEGIN { printf "%.2f", a / b }')"; done | sort -n | paste -sd' ' | sed 's/ /, /g; s/:,/:/g')"
	fi
	echo "guest command line adds: $cmdline; clocksource of each boot: $(cd "$run" && grep -H -o 'clocksource [^ ]*' ./*.out | sed 's|^\./||; s|\.out:clocksource|:|' | paste -sd' ')"
} >"$res/kernels.txt"
if [ "$aa" = 1 ]; then
	k_obj=$(objdir "$kernel")
	(cd "$TOP" && size "${k_obj#"$TOP"/}/vmlinux") >"$res/sizes.txt"
	heading="make bench-aa, $date, accelerator $accel: $side_b/$side_a, the same $kernel kernel on both sides (each ratio is noise), median of each operation"
	plot_title="make bench-aa $date ($accel): $side_b/$side_a, the same $kernel kernel, median time per operation; (a) blue, control grey, (b) green, (c) red"
	ylab="$side_b / $side_a (the same kernel), median time per operation (log scale)"
else
	stock_obj=$(objdir stock)
	(cd "$TOP" && size "${stock_obj#"$TOP"/}/vmlinux" "${obj#"$TOP"/}/vmlinux") >"$res/sizes.txt"
	heading="make bench, $date, accelerator $accel: patched/stock, median of each operation"
	plot_title="make bench $date ($accel): patched/stock, median time per operation; (a) blue, control grey, (b) green, (c) red"
	ylab="patched / stock, median time per operation (log scale)"
fi
{
	echo "$heading"
	cat "$res/kernels.txt"
	awk -v dat="$res/ratios.dat" -v ka="$side_a" -v kb="$side_b" -f "$TOP/bench/table.awk" \
		"$run/$side_a"-*.out "$run/$side_b"-*.out
	echo
	echo "(e) vmlinux size (size(1), bytes)"
	if [ "$aa" = 1 ]; then
		awk -v k="$kernel" 'NR == 2 {
				printf "%-8s %10s %10s %10s %10s\n", "", "text", "data", "bss", "total"
				printf "%-8s %10d %10d %10d %10d\n", k, $1, $2, $3, $4
			}' "$res/sizes.txt"
	else
		awk 'NR == 1 { next }
			{ k = NR == 2 ? "stock" : "patched"; t[k] = $1; d[k] = $2; b[k] = $3; s[k] = $4 }
			END {
				printf "%-8s %10s %10s %10s %10s\n", "", "text", "data", "bss", "total"
				printf "%-8s %10d %10d %10d %10d\n", "stock", t["stock"], d["stock"], b["stock"], s["stock"]
				printf "%-8s %10d %10d %10d %10d\n", "patched", t["patched"], d["patched"], b["patched"], s["patched"]
				printf "%-8s %+10d %+10d %+10d %+10d\n", "diff", t["patched"] - t["stock"], d["patched"] - d["stock"], b["patched"] - b["stock"], s["patched"] - s["stock"]
			}' "$res/sizes.txt"
	fi
} >"$res/table.txt"
gnuplot -e "dat='$res/ratios.dat'; out='$res/ratios.png'; title='$plot_title'; ylab='$ylab'" \
	"$TOP/bench/plot.gp" || die "gnuplot failed on $res/ratios.dat"

cat "$res/table.txt"
echo
step "accelerator: $accel; results in ${res#"$TOP"/}/ (table.txt, ratios.png, raw outputs)"
