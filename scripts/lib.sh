# Common helpers for the harness scripts; sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$TOP/build
# HARNESS_TREE, HARNESS_GUEST and HARNESS_LOGS let a second worktree of the
# series (a work in progress) use the harness without touching the main one.
TREE=${HARNESS_TREE:-$BUILD/linux}	# git tree: pristine + series (the "patched" kernel)
GUEST=${HARNESS_GUEST:-$BUILD/guest}	# guest programs and initramfs
LOGS=${HARNESS_LOGS:-$BUILD/logs}	# guest logs and the scratch disk
STOCK_TREE=$BUILD/stock		# git worktree of the pristine tag (the "stock" kernel)
SERIES_DIR=$TOP/patches

BISECT_TREE=$BUILD/bisect	# git worktree where check-series builds each commit

# The source tree of a kernel flavour.
srcdir() {
	case "$1" in
	stock) echo "$STOCK_TREE" ;;
	patched) echo "$TREE" ;;
	bisect) echo "$BISECT_TREE" ;;
	*) die "unknown kernel '$1' (expected stock, patched or bisect)" ;;
	esac
}

# Check out the pristine tree as build/stock (a git worktree) if it is not
# there yet.
stock_tree() {
	[ -e "$STOCK_TREE/.git" ] && return 0
	step "checking out the pristine tree as build/stock"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$STOCK_TREE" pristine
}

# The folder of objects for a kernel flavour, inside its source tree so that
# all flavours compile with the same relative paths and share ccache.
# usage: objdir stock|patched|bisect [suffix]
objdir() {
	echo "$(srcdir "$1")/obj${2:+-$2}"
}

_t0=${HARNESS_T0:-$(date +%s)}
export HARNESS_T0=$_t0

step() {
	local now
	now=$(date +%s)
	printf '[%4ds] %s\n' $((now - _t0)) "$*"
}

# Kernel builds and QEMU boots each take the whole machine (2 cores): take
# this lock first so that two of them never run at once. A script that holds
# it over several boots (scripts/durability.sh) passes it down to them on
# descriptor 9: they take it through that same open file, at once.
heavy_lock() {
	mkdir -p "$BUILD"
	if [ "$(readlink -f /proc/self/fd/9 2>/dev/null)" != "$(readlink -f "$BUILD/heavy.lock")" ]; then
		exec 9>"$BUILD/heavy.lock"
	fi
	if ! flock -n 9; then
		step "waiting for another kernel build or boot to finish (build/heavy.lock)"
		flock 9
	fi
}

# Pack a staged root into a reproducible newc cpio archive; keep the old
# archive (and its time) when nothing changed.
# usage: pack_initramfs <stage dir> <archive>
pack_initramfs() {
	local stage=$1 out=$2
	find "$stage" -exec touch -h -d @0 {} +
	(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --reproducible --quiet) >"$out.new"
	if cmp -s "$out.new" "$out"; then
		rm "$out.new"
	else
		mv "$out.new" "$out"
	fi
}

# Stage the root of a guest that runs bench/callprof: the program, built
# static and not PIE with its code at <text> (default 0x10000000, away from
# busybox's 0x400000, so that its markers are where no other process runs),
# busybox, and the folders its init mounts on. The init is the caller's.
# usage: stage_callprof_root <stage> <callprof binary> [text]
stage_callprof_root() {
	local stage=$1 bin=$2 text=${3:-0x10000000}
	gcc -static -no-pie -O2 -Wall -Werror -Wl,-Ttext-segment="$text" \
		-o "$bin" "$TOP/bench/callprof.c"
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,dev,proc,sys,tmp}
	cp /bin/busybox "$stage/bin/busybox"
	cp "$bin" "$stage/bin/callprof"
}

# Build bench/vaio-bench.c statically into $1 against the patched tree's
# UAPI headers, with its code, and the C library's after it, moved by $2
# bytes (make bench's user-space layouts): a function of that many bytes
# linked before it.
build_vaio_bench() {
	local out=$1 pad=${2:-0} pads=()
	if [ "$pad" != 0 ]; then
		printf '/* make bench: vaio-bench moved by %d bytes */\nvoid vaio_bench_pad(void);\n__attribute__((used)) void vaio_bench_pad(void)\n{\n\t__asm__ volatile(".skip %d, 0x90");\n}\n' \
			"$pad" "$pad" >"$out-pad.c"
		pads=("$out-pad.c")
	fi
	gcc -static -O2 -Wall -Werror -isystem "$(objdir patched)/usr/include" -o "$out" \
		"${pads[@]}" "$TOP/bench/vaio-bench.c" -laio -luring
}

# How far make bench's layout $1 of $2 moves vaio-bench: a page and the
# kernel's step (layout_pad in bench.sh) for each layout, so that both the
# offsets within a page and the page numbers that TCG's jump cache hashes
# change from layout to layout.
user_pad() {
	echo $(($1 * (4096 + 4096 / $2 / 16 * 16)))
}

# The bzImage of a kernel flavour; fails if that kernel is not built.
built_image() {
	local image
	image=$(objdir "$1")/arch/x86/boot/bzImage
	[ -f "$image" ] || die "$image missing: build the $1 kernel first"
	echo "$image"
}

die() {
	echo "error: $*" >&2
	exit 1
}

# The patches of patches/series, in order.
series_patches() {
	grep -v '^[[:space:]]*\(#\|$\)' "$SERIES_DIR/series" || true
}

# A hash of patches/series and every patch it names: what the tree was built from.
series_hash() {
	(
		cat "$SERIES_DIR/series"
		series_patches | sed "s|^|$SERIES_DIR/|" | xargs -r cat
	) | sha256sum | cut -d' ' -f1
}
