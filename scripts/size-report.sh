#!/bin/bash
# make size-report: vmlinux size (text, data, bss) of the patched kernel
# against stock, for the guest configuration (the kernels make check and
# make check KERNEL=stock build) and for x86_64 defconfig, which this
# script builds in build/defconfig/{stock,patched} (ccache: build/ccache;
# about 23 minutes a side on 2 cores when the cache is cold).
# Writes build/size-report.txt and prints it.
# usage: size-report.sh [--no-defconfig]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/size-report.txt
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export KBUILD_BUILD_TIMESTAMP='2000-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=qemu

sizes() { size "$1" | awk 'NR == 2 { print $1, $2, $3 }'; }

row() {	# label stock-vmlinux patched-vmlinux
	local s p
	s=$(sizes "$2") p=$(sizes "$3")
	set -- "$1" $s $p
	printf '| %s | %s / %s / %s | %s / %s / %s | %+d / %+d / %+d |\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7" $(($5 - $2)) $(($6 - $3)) $(($7 - $4))
}

{
	echo "make size-report: $(date -u +%F), patched: build/linux at $(git -C "$TREE" log -1 --format='%h %s')"
	echo
	echo "| configuration | stock text / data / bss | patched text / data / bss | patched - stock |"
	echo "| --- | --- | --- | --- |"
} >"$out"

guest_s=$(objdir stock)/vmlinux guest_p=$(objdir patched)/vmlinux
if [ -f "$guest_s" ] && [ -f "$guest_p" ]; then
	row "guest (tinyconfig + config/guest.config)" "$guest_s" "$guest_p" >>"$out"
else
	echo "| guest | not built (make build, make build KERNEL=stock) | | |" >>"$out"
fi

if [ "${1:-}" != --no-defconfig ]; then
	heavy_lock
	stock_tree
	for side in stock patched; do
		src=$TREE
		[ $side = stock ] && src=$STOCK_TREE
		obj=$BUILD/defconfig/$side
		mkdir -p "$obj"
		step "x86_64 defconfig, $side: building vmlinux in $obj"
		t0=$(date +%s)
		make -C "$src" O="$obj" -s defconfig >/dev/null
		make -C "$src" O="$obj" -s CC="ccache gcc" -j"$(nproc)" vmlinux >"$obj/build.log" 2>&1 ||
			{ tail -20 "$obj/build.log" >&2; die "defconfig build failed ($side): $obj/build.log"; }
		step "x86_64 defconfig, $side: $(($(date +%s) - t0)) s"
	done
	row "x86_64 defconfig" "$BUILD/defconfig/stock/vmlinux" "$BUILD/defconfig/patched/vmlinux" >>"$out"
fi
cat "$out"
