#!/bin/bash
# make difftest-reach: which file_operations (and proc_ops) the differential
# test opens, and how many of them the series converted. Boots the stock
# kernel in diff mode with guest/reach/reach.ko built for it and added to the
# initramfs; difftest asks /dev/reach about every descriptor a case opens.
# A definition counts as converted when it had ->read or ->write
# (->proc_read or ->proc_write) on the stock kernel. Writes
# difftest/reach.txt (one line per definition) and prints the summary.
# usage: reach.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(srcdir stock)
obj=$(objdir stock)
[ -f "$obj/vmlinux" ] || die "$obj/vmlinux missing: build the stock kernel first (make build KERNEL=stock)"
work=$BUILD/reach
mkdir -p "$work"

step "building reach.ko for the stock kernel"
[ -f "$obj/scripts/module.lds" ] || make -C "$src" O="$obj" -s modules_prepare
rm -rf "$work/mod"
cp -r "$TOP/guest/reach" "$work/mod"
# No Module.symvers: the guest kernel's modules are not built, so modpost
# cannot check the imports; the kernel resolves them at insmod.
make -C "$src" O="$obj" M="$work/mod" KBUILD_MODPOST_WARN=1 -s modules 2>"$work/modpost.log" ||
	{ cat "$work/modpost.log" >&2; die "reach.ko did not build"; }

"$TOP/scripts/build-guest.sh"
step "adding reach.ko to a copy of the initramfs"
rm -rf "$work/root"
mkdir -p "$work/root/lib"
cp "$work/mod/reach.ko" "$work/root/lib/"
(cd "$work/root" && find . | cpio -o -H newc --quiet) >"$work/extra.cpio"
# The kernel unpacks concatenated archives one after the other.
cat "$GUEST/initramfs.cpio" "$work/extra.cpio" >"$work/initramfs.cpio"

INITRD=$work/initramfs.cpio "$TOP/scripts/boot.sh" stock reach
res=$LOGS/stock-reach.out
grep -q '^### end difftest rc=0' <(tr -d '\r' <"$res") ||
	die "difftest did not finish on the stock kernel: see $res and $LOGS/stock-reach.console"
grep -q '### reach: insmod failed' "$res" && die "reach.ko did not load: see $LOGS/stock-reach.console"

step "naming what was opened"
nm -n "$obj/vmlinux" | awk '{ print $1, $3 }' >"$work/symbols"
out=$TOP/difftest/reach.txt
tr -d '\r' <"$res" | awk -v symf="$work/symbols" -v out="$out" -v day="$(date +%F)" '
function hex(h,   v, i) {
	v = 0
	for (i = 1; i <= length(h); i++)
		v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v
}
function bit(v, b) { return int(v / b) % 2 }
function group(name, path,   p, n) {
	if (path == "-") return name
	if (path ~ /^\/sys\/kernel\/debug\//) {
		n = split(path, p, "/")
		return n > 5 ? "debugfs/" p[5] : "debugfs"
	}
	if (path ~ /^\/proc\/(self|[0-9]+)\//) return "proc/<pid>"
	if (path ~ /^\/proc\/sys\//) return "proc/sys"
	if (path ~ /^\/proc\//) return "proc"
	if (path ~ /^\/sys\/fs\/fuse\//) return "fusectl"
	if (path ~ /^\/sys\//) return "sysfs"
	if (path ~ /^\/dev\//) {
		n = split(path, p, "/")
		if (n > 3) return "dev/" p[3]
		sub(/[0-9]+$/, "", p[3])
		return "dev/" p[3]
	}
	return "fs: " name
}
BEGIN {
	while ((getline l < symf) > 0) {
		split(l, f, " ")
		a = f[1]
		sub(/^0+/, "", a)
		if (!(a in sym)) sym[a] = f[2]
	}
}
/^# reach / {
	name = $3; path = $4; fop = $5; inner = $6; fl = hex($7)
	def = inner != "0" ? inner : fop
	if (def in seen) next
	seen[def] = 1
	if (bit(fl, 16)) { kind = "debugfs"; r = bit(fl, 64); w = bit(fl, 128) }
	else if (bit(fl, 32)) { kind = "proc_ops"; r = bit(fl, 64); w = bit(fl, 128) }
	else { kind = "fops"; r = bit(fl, 1); w = bit(fl, 2) }
	legacy = (r ? "r" : "") (w ? "w" : "")
	if (legacy == "") legacy = "-"
	s = def in sym ? sym[def] : "?" def
	g = group(name, path)
	lines[++n] = sprintf("%-40s %-8s %-3s %-28s %s %s", s, kind, legacy, g, name, path)
	total++
	if (legacy != "-") { conv++; gconv[g]++ }
	gall[g]++
}
END {
	print "# make difftest-reach, " day ": the file_operations and proc_ops the" > out
	print "# differential test opened on the stock kernel, one line per definition:" > out
	print "# symbol, kind (fops, proc_ops, debugfs: the real fops behind debugfs'"'"'s proxy)," > out
	print "# the legacy methods it had on 6.12 (r: ->read or ->proc_read, w: ->write or" > out
	print "# ->proc_write, -: none; r or w means the series converted it), group," > out
	print "# the first difftest target that opened it, and its path." > out
	close(out)
	cmd = "sort -k4,4 -k1,1 >> " out
	for (i = 1; i <= n; i++) print lines[i] | cmd
	close(cmd)
	printf "definitions opened: %d; converted by the series (->read/->write on 6.12): %d\n", total, conv
	printf "%-28s %9s %6s\n", "group", "converted", "opened"
	cmd = "sort"
	for (g in gall) printf "%-28s %9d %6d\n", g, gconv[g], gall[g] | cmd
	close(cmd)
}'
step "written: difftest/reach.txt"
