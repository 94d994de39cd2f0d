#!/bin/bash
# Build bzImage for one kernel flavour into its O= folder, through ccache.
# Skips kbuild entirely when no source file is newer than the last image.
# usage: build-kernel.sh stock|patched
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: build-kernel.sh stock|patched}
src=$(srcdir "$kernel")
suffix=
[ "${DEBUG:-0}" = 1 ] && suffix=debug
obj=$(objdir "$kernel" $suffix)
image=$obj/arch/x86/boot/bzImage
heavy_lock

if [ "$kernel" = stock ]; then
	stock_tree
fi
"$TOP/scripts/configure.sh" "$kernel"

if [ -f "$image" ] && [ "$image" -nt "$obj/.config" ]; then
	changed=$(find "$src" -path "$src/obj*" -prune -o -path "$src/.git" -prune -o \
		-path "$src/tools" -prune -o -type f -newer "$image" -print -quit)
	if [ -z "$changed" ]; then
		step "$kernel kernel is up to date ($image)"
		exit 0
	fi
fi

export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export KBUILD_BUILD_TIMESTAMP='2000-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=qemu
step "building $kernel kernel${suffix:+ ($suffix)} in ${obj#"$TOP"/} (make -j$(nproc), ccache)"
log=$obj/build.log
# The image gets the time the build started, so that a source edited while
# make was running is seen as newer next time.
started=$obj/.build-started
touch "$started"
if ! make -C "$src" O="$obj" -j"$(nproc)" CC="ccache gcc" bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "the $kernel kernel did not build; full log: $log"
fi
grep -E 'warning:' "$log" | head -20 || true
touch -r "$started" "$image"
step "$kernel kernel built: $(du -k "$image" | cut -f1) KiB bzImage"
