#!/bin/bash
# Build the guest's user space from the patched tree: the kselftests of
# tools/testing/selftests/aio, the demo and the harness's guest programs
# (guest/*.c), all statically linked, and pack
# them with Debian's static busybox and guest/init into an initramfs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

obj=$(objdir patched)
stage=$GUEST/root
cpio_out=$GUEST/initramfs.cpio
busybox=/bin/busybox
[ -x "$busybox" ] || die "$busybox missing: apt-get install busybox-static"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "$busybox is not static: apt-get install busybox-static"

# UAPI headers of the patched tree, for the tests.
hdr_stamp=$obj/usr/include/.harness-stamp
if [ ! -f "$hdr_stamp" ] || [ -n "$(find "$TREE/include/uapi" "$TREE/arch/x86/include/uapi" -newer "$hdr_stamp" -print -quit)" ]; then
	step "installing the patched tree's UAPI headers"
	mkdir -p "$obj"
	make -C "$TREE" O="$obj" -s headers >/dev/null
	touch "$hdr_stamp"
fi

step "building guest programs (static)"
mkdir -p "$GUEST/aio"
make -C "$TREE/tools/testing/selftests/aio" -s \
	OUTPUT="$GUEST/aio" KHDR_INCLUDES="-isystem $obj/usr/include" \
	LDFLAGS=-static || die "the aio kselftests did not build (tools/testing/selftests/aio)"
# The same tests for 32-bit x86, run under the kernel's IA32 emulation: the
# compat paths (compat iovec import, compat io_submit). Only for a tree whose
# tests run as 32-bit programs: their io_getevents() uses 64-bit time.
rm -rf "$GUEST/aio32"
if grep -q __NR_io_pgetevents_time64 "$TREE/tools/testing/selftests/aio/aio_syscalls.h"; then
	mkdir -p "$GUEST/aio32"
	make -C "$TREE/tools/testing/selftests/aio" -s \
		OUTPUT="$GUEST/aio32" CC="gcc -m32" KHDR_INCLUDES="-isystem $obj/usr/include" \
		LDFLAGS=-static || die "the aio kselftests did not build with -m32 (gcc-multilib installed?)"
else
	step "no -m32 build: this tree's aio kselftests do not run as 32-bit programs yet"
fi
mkdir -p "$GUEST/bin"
for src in "$TOP"/demo/*.c; do
	[ -e "$src" ] || continue
	prog=$GUEST/bin/$(basename "$src" .c)
	if [ ! -f "$prog" ] || [ "$src" -nt "$prog" ]; then
		gcc -static -O2 -Wall -Werror -isystem "$obj/usr/include" -o "$prog" "$src" -laio -luring ||
			die "$src did not build"
	fi
done
# The harness's own guest programs (guest/*.c): the kernel's UAPI headers
# only, no library.
for src in "$TOP"/guest/*.c; do
	[ -e "$src" ] || continue
	prog=$GUEST/bin/$(basename "$src" .c)
	if [ ! -f "$prog" ] || [ "$src" -nt "$prog" ]; then
		gcc -static -O2 -Wall -Werror -isystem "$obj/usr/include" -o "$prog" "$src" ||
			die "$src did not build"
	fi
done

# Stage and pack; keep the old archive when nothing changed.
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,tests}
cp "$busybox" "$stage/bin/busybox"
cp "$TOP/guest/init" "$stage/init"
chmod 755 "$stage/init"
# Only the programs the tree's Makefile lists (its emit_tests target): the
# output folders are kept between runs, and a test the series dropped or
# renamed must not run from an old build.
progs=$(make -C "$TREE/tools/testing/selftests/aio" -s --no-print-directory \
	OUTPUT="$GUEST/aio" emit_tests | sed 's/^[^:]*://')
[ -n "$progs" ] || die "no test listed by tools/testing/selftests/aio (make emit_tests)"
for prog in $progs; do
	cp "$GUEST/aio/$prog" "$stage/tests/"
done
if [ -d "$GUEST/aio32" ]; then
	mkdir -p "$stage/tests32"
	for prog in $progs; do
		cp "$GUEST/aio32/$prog" "$stage/tests32/"
	done
fi
cp "$GUEST"/bin/* "$stage/bin/" 2>/dev/null || true

# ksmbd's user-space half, Debian's ksmbd.mountd, for the CIFS conformance
# row: unpacked from its package into build/ (never installed on the host,
# whose service would load ksmbd into the host's kernel), with the shared
# libraries it links. One share, aio, on the guest's /srv/smb, and one
# user, root, password aiotest (the line is what ksmbd.adduser writes: the
# user and the base64 of the password's NT hash).
ksmbd_dir=$GUEST/ksmbd-tools
if [ ! -x "$ksmbd_dir/usr/libexec/ksmbd.tools" ]; then
	step "fetching Debian's ksmbd-tools (unpacked, not installed)"
	rm -rf "$ksmbd_dir" && mkdir -p "$ksmbd_dir"
	(cd "$ksmbd_dir" && apt-get download -q ksmbd-tools >/dev/null 2>&1) ||
		die "apt-get download ksmbd-tools failed"
	dpkg-deb -x "$ksmbd_dir"/ksmbd-tools_*.deb "$ksmbd_dir" ||
		die "could not unpack $(ls "$ksmbd_dir"/*.deb)"
fi
# A dynamically linked host program $1 in the guest's /bin as $2, with the
# shared libraries it links.
stage_program() {
	local libs
	libs=$(ldd "$1")
	! grep -q 'not found' <<<"$libs" ||
		die "$1 needs libraries the host lacks: $(grep 'not found' <<<"$libs")"
	cp "$1" "$stage/bin/$2"
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' <<<"$libs" |
	while read -r lib; do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}
stage_program "$ksmbd_dir/usr/libexec/ksmbd.tools" ksmbd.tools
ln -s ksmbd.tools "$stage/bin/ksmbd.mountd"

# The mkfs programs conformance_fs_test runs when no directory is named
# for a file system: Debian's, from the packages install-deps.sh installs.
for prog in mke2fs mkfs.xfs mkfs.fat mkfs.jfs mkntfs; do
	path=$(PATH=/usr/sbin:/sbin:$PATH command -v $prog) ||
		die "$prog missing (e2fsprogs, xfsprogs, dosfstools, jfsutils, ntfs-3g)"
	stage_program "$path" $prog
done
ln -s mke2fs "$stage/bin/mkfs.ext4"
ln -s mke2fs "$stage/bin/mkfs.ext2"
ln -s mkfs.fat "$stage/bin/mkfs.vfat"
ln -s mkntfs "$stage/bin/mkfs.ntfs"
mkdir -p "$stage/etc"
cp /etc/mke2fs.conf "$stage/etc/"
mkdir -p "$stage/etc/ksmbd"
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
cat >"$stage/etc/ksmbd/ksmbd.conf" <<'CONF'
[global]
	server string = aio
	store dos attributes = no
[aio]
	path = /srv/smb
	read only = no
	force user = root
	force group = root
CONF
echo 'root:ywgi8ehdFFr9Qxq0yCoyLQ==' >"$stage/etc/ksmbd/ksmbdpwd.db"
pack_initramfs "$stage" "$cpio_out"
step "guest initramfs: $(du -k "$cpio_out" | cut -f1) KiB, tests: $(ls "$stage/tests" | tr '\n' ' ')$([ -d "$stage/tests32" ] && echo "(and their -m32 builds)")"
