#!/bin/bash
# Count the struct file_operations instances that still wire .read or .write:
# (a) in the sources of the objects built into the guest kernel (taken from
#     the patched build's object folder), (b) across the whole patched tree.
# An instance is a struct file_operations initializer with .read = or
# .write = in a .c file, or a use of one of the macros that expand to one
# (DEFINE_SHOW_ATTRIBUTE and friends). Writes the lists to build/legacy/.
# usage: legacy-report.sh [--list]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

obj=$(objdir patched)
[ -f "$obj/vmlinux" ] || die "$obj/vmlinux missing: build the patched kernel first (make build)"
out=$BUILD/legacy
mkdir -p "$out"

macros='DEFINE_SHOW_ATTRIBUTE|DEFINE_SHOW_STORE_ATTRIBUTE|DEFINE_SEQ_ATTRIBUTE|DEFINE_SIMPLE_ATTRIBUTE(_SIGNED|_XSIGNED)?|DEFINE_DEBUGFS_ATTRIBUTE(_SIGNED|_XSIGNED)?'

# Print "file:line: name" for every legacy instance in the .c files on stdin.
instances() {
	xargs -r awk -v macros="^[[:space:]]*($macros)\\(" '
	FNR == 1 { infops = 0 }
	$0 ~ macros {
		name = $0
		sub(/^[[:space:]]*/, "", name)
		sub(/,.*/, ")", name)
		sub(/\).*/, ")", name)
		print FILENAME ":" FNR ": " name
		next
	}
	/struct file_operations[[:space:]]+[A-Za-z0-9_]+[[:space:]]*=[[:space:]]*\{/ {
		infops = 1
		legacy = 0
		start = FNR
		name = $0
		sub(/.*struct file_operations[[:space:]]+/, "", name)
		sub(/[[:space:]]*=.*/, "", name)
		next
	}
	infops && /^[[:space:]]*\.(read|write)[[:space:]]*=/ { legacy = 1 }
	infops && /^};/ {
		if (legacy)
			print FILENAME ":" start ": " name
		infops = 0
	}'
}

cd "$TREE"
# (a) The .c files behind the guest kernel's objects.
find "$obj" -name '*.o' ! -path "$obj/tools/*" ! -path "$obj/scripts/*" |
	sed "s|^$obj/||; s|\\.o\$|.c|" | while read -r f; do
		[ -f "$f" ] && echo "$f"
	done | sort -u >"$out/guest-sources.txt"
instances <"$out/guest-sources.txt" | sort >"$out/guest.txt"
# (b) The whole tree, but for tools/ and samples/ builds of user space.
git ls-files -- '*.c' ':!tools/*' | instances | sort >"$out/tree.txt"

n_guest=$(wc -l <"$out/guest.txt")
n_guest_files=$(cut -d: -f1 "$out/guest.txt" | sort -u | wc -l)
n_tree=$(wc -l <"$out/tree.txt")
n_tree_files=$(cut -d: -f1 "$out/tree.txt" | sort -u | wc -l)
if [ "${1:-}" = --list ]; then
	echo "# built into the guest kernel:"
	cat "$out/guest.txt"
fi
echo "file_operations wiring .read/.write built into the guest kernel: $n_guest in $n_guest_files files (list: build/legacy/guest.txt)"
echo "file_operations wiring .read/.write in the whole tree: $n_tree in $n_tree_files files (list: build/legacy/tree.txt)"
