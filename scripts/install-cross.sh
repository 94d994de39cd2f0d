#!/bin/bash
# Unpack Debian's cross compilers into build/cross/ for make compile-proof,
# without installing them: Debian 12's gcc-multilib, which make check needs
# for the -m32 tests, conflicts with every gcc-12-<triplet> cross package,
# and apt-get would remove one for the other. The packages are fetched with
# apt-get download and unpacked with dpkg -x; GCC finds its cc1 and the
# target's binutils relative to where its driver lies, so the unpacked tree
# works from any folder once build/cross/usr/bin is on PATH
# (scripts/compile-proof.sh puts it there). Some cross binutils (powerpc64le
# in Debian 12's 2.40-2) link against a libopcodes of their own that dpkg -x
# puts in build/cross/usr/lib/x86_64-linux-gnu, so that folder goes on
# LD_LIBRARY_PATH too.
# usage: install-cross.sh [triplet...]   (default: all of toolchains below)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dest=$BUILD/cross
debs=$dest/debs
mkdir -p "$debs"

# triplet  Debian architecture of its libraries
all="aarch64-linux-gnu:arm64 powerpc64le-linux-gnu:ppc64el s390x-linux-gnu:s390x
riscv64-linux-gnu:riscv64 arm-linux-gnueabihf:armhf mips64el-linux-gnuabi64:mips64el
sparc64-linux-gnu:sparc64 m68k-linux-gnu:m68k alpha-linux-gnu:alpha sh4-linux-gnu:sh4
hppa-linux-gnu:hppa hppa64-linux-gnu:hppa arc-linux-gnu:arc"

want=("$@")
for ta in $all; do
	t=${ta%%:*}
	if [ ${#want[@]} -gt 0 ] && [[ " ${want[*]} " != *" $t "* ]]; then
		continue
	fi
	if [ -x "$dest/usr/bin/$t-gcc" ]; then
		step "$t: already in build/cross"
		continue
	fi
	step "$t: fetching and unpacking gcc-12 and binutils"
	(cd "$debs" && apt-get download -q "gcc-12-$t" "binutils-$t" >/dev/null) ||
		die "$t: apt-get download failed"
	# hppa64's gcc-12 package carries its own cpp and needs no -base;
	# parisc's 64-bit kernel links its 32-bit vdso with hppa's libgcc.a
	for p in "cpp-12-$t" "gcc-12-$t-base" "libgcc-12-dev-${ta#*:}-cross"; do
		(cd "$debs" && apt-get download -q "$p" >/dev/null 2>&1) || true
	done
	for deb in "$debs"/*"$t"*.deb "$debs"/binutils-"$t"_*.deb "$debs"/libgcc-12-dev-"${ta#*:}"-cross_*.deb; do
		[ -f "$deb" ] && dpkg -x "$deb" "$dest"
	done
	ln -sf "$t-gcc-12" "$dest/usr/bin/$t-gcc"
	ln -sf "$t-cpp-12" "$dest/usr/bin/$t-cpp"
	echo 'int f(int x) { return x + 1; }' >"$dest/t.c"
	PATH=$dest/usr/bin:$PATH LD_LIBRARY_PATH=$dest/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		"$t-gcc" -c -o "$dest/t.o" "$dest/t.c" ||
		die "$t: the unpacked compiler does not compile"
	rm -f "$dest/t.c" "$dest/t.o"
	step "$t: $("$dest/usr/bin/$t-gcc" --version | head -1)"
done
