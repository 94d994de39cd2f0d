#!/bin/bash
# make tcgstat: what QEMU's TCG does, per row of make bench's benchmark, on
# the stock and the patched kernel. make profile counts the guest's
# instructions; under TCG a call's time also depends on work that the
# guest's instruction count does not show, above all the lookups of the
# next translated block that miss TCG's jump cache (4096 entries, indexed
# by bits 0-23 of the block's address, so two hot blocks whose addresses
# agree there evict each other on every call). This counts that work.
#
# 1. Builds Debian's source of the installed qemu-system-x86 (same version,
#    Debian's patches) with bench/qemu-tcgstat.patch, x86_64 and TCG only,
#    in build/tcgstat/qemu (once; about 15 minutes on 2 cores).
# 2. Boots each kernel (and each of make bench's layouts that is built,
#    objdir <kernel> layout<n>) under it, -smp 1, with a guest that runs
#    make bench's vaio-bench of that layout (moved as make bench moves it,
#    user_pad in lib.sh) and nothing else. vaio-bench marks each
#    measured repetition with a CPUID leaf, which the patched QEMU turns
#    into sums per row: host time, lookups, jump cache misses, entries from
#    the main loop, translations, victim TLB hits, page walks, slow-path
#    loads and stores; and the blocks that missed, with the block that held
#    their entry.
#   TCGSTAT_KERNELS="stock patched"
#   TCGSTAT_LAYOUTS="0 1 ..."    layouts (default: 0 and every one built)
#   TCGSTAT_REPS=n               vaio-bench repetitions (default 5)
#   TCGSTAT_MOVE=0               the same benchmark binary in every layout
#                                (as make bench ran it before it moved it)
#   TCGSTAT_ROWS=regex           rows whose misses the report lists by block
#                                (default: make bench's single writes)
# Output: build/tcgstat/<kernel>-layout<n>.{out,stat}, build/tcgstat/report.txt.
# The guest has no raw disk and no test module: those rows fail with the
# same error on both kernels and are left out. One boot a layout: its host
# times are as noisy as one boot of make bench; the counts repeat.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernels=${TCGSTAT_KERNELS:-stock patched}
reps=${TCGSTAT_REPS:-5}
rows_re=${TCGSTAT_ROWS:-'^a (null|zero|eventfd|debugfs-fault_around_bytes|proc-oom_score_adj) (write|pwrite) '}
out=$BUILD/tcgstat
qdir=$out/qemu
qemu=$qdir/build/qemu-system-x86_64
mkdir -p "$out"

# 1. QEMU with the counters.
patch_sum=$(sha256sum <"$TOP/bench/qemu-tcgstat.patch" | cut -d' ' -f1)
if [ ! -x "$qemu" ] || [ "$(cat "$qdir/patch.sha256" 2>/dev/null)" != "$patch_sum" ]; then
	need=""
	for p in meson ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev flex bison; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need="$need $p"
	done
	if [ -n "$need" ]; then
		step "installing QEMU's build dependencies:$need"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need >"$out/apt.log" 2>&1 ||
			die "apt-get install$need failed: $out/apt.log"
	fi
	ver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86) || die "qemu-system-x86 is not installed"
	ver=${ver#*:}
	up=${ver%-*}
	src=$out/src
	mkdir -p "$src"
	dsc=qemu_$ver.dsc
	step "fetching Debian's qemu $ver source"
	for base in http://deb.debian.org/debian/pool/main/q/qemu http://deb.debian.org/debian-security/pool/updates/main/q/qemu; do
		curl -fsS -o "$src/$dsc" "$base/$dsc" 2>/dev/null && break
	done
	[ -s "$src/$dsc" ] || die "$dsc not found on deb.debian.org"
	# The files and their SHA256 sums, from the .dsc's Checksums-Sha256.
	awk '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 } on { print $1, $3 }' "$src/$dsc" |
	while read -r sum f; do
		[ -f "$src/$f" ] && echo "$sum  $src/$f" | sha256sum -c --quiet 2>/dev/null && continue
		curl -fsS -o "$src/$f" "$base/$f" || die "could not fetch $base/$f"
		echo "$sum  $src/$f" | sha256sum -c --quiet || die "$f: SHA256 does not match $dsc"
	done
	rm -rf "$qdir"
	mkdir -p "$qdir"
	tar -xf "$src/qemu_$up.orig.tar.xz" -C "$qdir" --strip-components=1
	tar -xf "$src/qemu_$ver.debian.tar.xz" -C "$qdir"
	(cd "$qdir" && while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		patch -p1 -s <"debian/patches/$p" || exit 1
	done <debian/patches/series) || die "Debian's patches do not apply"
	patch -d "$qdir" -p1 -s <"$TOP/bench/qemu-tcgstat.patch" || die "bench/qemu-tcgstat.patch does not apply to qemu $ver"
	step "building qemu-system-x86_64 (TCG only) in ${qdir#"$TOP"/}/build"
	mkdir -p "$qdir/build"
	(cd "$qdir/build" &&
		../configure --target-list=x86_64-softmmu --enable-tcg --disable-kvm --disable-xen \
			--enable-plugins --disable-docs --disable-werror --disable-user --disable-tools \
			--disable-gtk --disable-sdl --disable-vnc --disable-opengl --disable-spice \
			--disable-curses >"$out/configure.log" 2>&1 &&
		ninja -j"$(nproc)" qemu-system-x86_64 >"$out/ninja.log" 2>&1) ||
		die "QEMU did not build: $out/configure.log, $out/ninja.log"
	echo "$patch_sum" >"$qdir/patch.sha256"
fi

layouts=${TCGSTAT_LAYOUTS:-}
if [ -z "$layouts" ]; then
	layouts=0
	for j in 1 2 3 4 5 6 7 8 9; do
		ok=1
		for k in $kernels; do
			[ -f "$(objdir "$k" "layout$j")/arch/x86/boot/bzImage" ] || ok=0
		done
		[ "$ok" = 1 ] && layouts="$layouts $j"
	done
fi
# 2. The benchmark, built as make bench builds it for each layout (its code
# moved by user_pad), in a guest of its own that runs the layout's binary.
[ -d "$(objdir patched)/usr/include" ] || "$TOP/scripts/build-guest.sh"
stage=$out/root
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp}
cp /bin/busybox "$stage/bin/busybox"
for j in $layouts; do
	pad=$(user_pad "$j" "${BENCH_LAYOUTS:-5}")
	[ "${TCGSTAT_MOVE:-1}" = 1 ] || pad=0
	build_vaio_bench "$out/vaio-bench-$j" "$pad" ||
		die "bench/vaio-bench.c did not build"
	cp "$out/vaio-bench-$j" "$stage/bin/vaio-bench-$j"
done
cat >"$stage/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug; mount -t tmpfs tmpfs /tmp
BENCH_REPS=$reps /bin/vaio-bench-\$BENCH_LAYOUT >/dev/ttyS1 2>&1
sync; reboot -f
EOF
chmod 755 "$stage/init"
pack_initramfs "$stage" "$out/initramfs.cpio"

fw=(-L /usr/share/seabios -L /usr/lib/ipxe/qemu -L /usr/share/qemu)
heavy_lock
for j in $layouts; do
	for k in $kernels; do
		if [ "$j" = 0 ]; then o=$(objdir "$k"); else o=$(objdir "$k" "layout$j"); fi
		[ -f "$o/arch/x86/boot/bzImage" ] || die "$o/arch/x86/boot/bzImage missing: build it (make bench builds the layouts)"
		step "$k kernel, layout $j: vaio-bench, $reps repetitions, under the counting QEMU"
		rm -f "$out/$k-layout$j.stat"
		QEMU_TCGSTAT=$out/$k-layout$j.stat timeout -k 10 1800 "$qemu" "${fw[@]}" \
			-accel tcg -cpu max -smp 1 -m 1G -nographic -no-reboot -monitor none \
			-kernel "$o/arch/x86/boot/bzImage" -initrd "$out/initramfs.cpio" \
			-append "console=ttyS0 panic=-1 nokaslr quiet BENCH_LAYOUT=$j" \
			-serial "file:$out/$k-layout$j.console" -serial "file:$out/$k-layout$j.out" \
			-nic none </dev/null >"$out/$k-layout$j.qemu" 2>&1 || die "QEMU failed: $out/$k-layout$j.qemu"
		[ -s "$out/$k-layout$j.stat" ] || die "no counts from the $k guest: $out/$k-layout$j.console"
		cp "$o/System.map" "$out/$k-layout$j.map"
	done
done
exec 9>&-

python3 "$TOP/scripts/tcgstat-report.py" "$out" "$rows_re" $kernels -- $layouts |
	tee "$out/report.txt"
