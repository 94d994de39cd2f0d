#!/bin/bash
# Pool the guest outputs of several make bench runs of the same images into
# one table: bench/table.awk over all their boots, as if one run had booted
# each kernel that many times. Only meaningful when the runs booted the same
# kernels (compare the "stock:"/"patched:" lines of their kernels.txt).
#   scripts/bench-pool.sh bench/results/<run> bench/results/<run>... >table
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 <results dir> <results dir>..."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for k in stock patched; do
	n=0
	for d in "$@"; do
		[ -f "$d/kernels.txt" ] || die "$d: not a make bench results directory"
		for f in "$d/$k"-*.out; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			cp "$f" "$tmp/$k-$n.out"
		done
	done
	[ "$n" -gt 0 ] || die "no $k outputs in $*"
done
echo "make bench, pooled: $*"
for d in "$@"; do
	sed -n 's/^\(stock\|patched\):/  &/p' "$d/kernels.txt" | sed "s|^|${d##*/}|"
done
echo "boots: $(ls "$tmp"/stock-*.out | wc -l) of stock, $(ls "$tmp"/patched-*.out | wc -l) of patched"
echo
awk -v dat="$tmp/ratios.dat" -f "$TOP/bench/table.awk" "$tmp"/stock-*.out "$tmp"/patched-*.out
