#!/bin/bash
# Count the struct file_operations instances that still wire .read or .write:
# (a) in the sources of the objects built into the guest kernel (taken from
#     the patched build's object folder), (b) across the whole patched tree.
# An instance is a struct file_operations initializer with .read = or
# .write = in a .c file, or a use of one of the macros that expand to one
# (found in the tree's headers, e.g. DEFINE_SHOW_STORE_ATTRIBUTE). Writes the
# lists to build/legacy/.
# usage: legacy-report.sh [--list]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

obj=$(objdir patched)
[ -f "$obj/vmlinux" ] || die "$obj/vmlinux missing: build the patched kernel first (make build)"
out=$BUILD/legacy
mkdir -p "$out"

# The macros that expand to such an initializer, read from the tree's own
# headers: a #define whose body has a struct file_operations (or proc_ops)
# with .read/.write (.proc_read/.proc_write), or that uses such a macro.
legacy_macros() {
	git ls-files -- 'include/*.h' | xargs awk '
	function flush() {
		if (name != "") {
			body[name] = text
			if (text ~ /struct file_operations/ &&
			    text ~ /[.](read|write)[[:space:]]*=/)
				legacy[name] = "fops"
			if (text ~ /struct proc_ops/ &&
			    text ~ /[.]proc_(read|write)[[:space:]]*=/)
				legacy[name] = "proc_ops"
		}
		name = ""
		text = ""
	}
	/^#[[:space:]]*define[[:space:]]+[A-Za-z0-9_]+\(/ {
		flush()
		name = $0
		sub(/^#[[:space:]]*define[[:space:]]+/, "", name)
		sub(/\(.*/, "", name)
		text = $0
		cont = /\\$/
		if (!cont)
			flush()
		next
	}
	name != "" {
		text = text "\n" $0
		if ($0 !~ /\\$/)
			flush()
	}
	END {
		flush()
		do {
			changed = 0
			for (m in body) {
				if (m in legacy)
					continue
				for (l in legacy)
					if (body[m] ~ ("(^|[^A-Za-z0-9_])" l "\\(")) {
						legacy[m] = legacy[l]
						changed = 1
						break
					}
			}
		} while (changed)
		for (l in legacy)
			if (legacy[l] == kind)
				print l
	}' kind="$1" | sort | paste -sd'|'
}

# Print "file:line: name" for every legacy instance in the .c files on stdin;
# with "proc_ops" as argument, the same for struct proc_ops and ->proc_read/
# ->proc_write (entries that procfs runs through the emulation loop).
instances() {
	local kind=${1:-file_operations} m
	if [ "$kind" = proc_ops ]; then m=$proc_macros; else m=$fops_macros; fi
	xargs -r awk -v macros="^[[:space:]]*($m)\\(" -v kind="$kind" '
	FNR == 1 { infops = 0 }
	$0 ~ macros {
		name = $0
		sub(/^[[:space:]]*/, "", name)
		sub(/,.*/, ")", name)
		sub(/\).*/, ")", name)
		print FILENAME ":" FNR ": " name
		next
	}
	# The brace may open the next line (sound/core/info.c, fs/bad_inode.c).
	$0 ~ ("struct " kind "([[:space:]]+__[A-Za-z0-9_]+)*[[:space:]]+[A-Za-z0-9_]+[[:space:]]*=[[:space:]]*(\\{|$)") {
		infops = 1
		legacy = 0
		start = FNR
		name = $0
		sub(".*struct " kind "([[:space:]]+__[A-Za-z0-9_]+)*[[:space:]]+", "", name)
		sub(/[[:space:]]*=.*/, "", name)
		next
	}
	infops && kind == "file_operations" && /^[[:space:]]*\.(read|write)[[:space:]]*=/ { legacy = 1 }
	infops && kind == "proc_ops" && /^[[:space:]]*\.proc_(read|write)[[:space:]]*=/ { legacy = 1 }
	# A proc_ops initialized inside the initializer of another structure
	# (rtas_flash: ".ops.proc_read = ..."), whose type the line does not
	# name: the designator is specific enough.
	!infops && kind == "proc_ops" &&
	    /^[[:space:]]*\.[A-Za-z0-9_]+\.proc_(read|write)[[:space:]]*=/ {
		name = $0
		sub(/^[[:space:]]*\./, "", name)
		sub(/\.proc_.*/, "", name)
		# one instance per entry, not per method
		if (FILENAME != nfile || name != nname || FNR > nline + 8)
			print FILENAME ":" FNR ": ." name " (nested)"
		nfile = FILENAME
		nname = name
		nline = FNR
	}
	infops && /^};/ {
		if (legacy)
			print FILENAME ":" start ": " name
		infops = 0
	}'
}

cd "$TREE"
fops_macros=$(legacy_macros fops)
proc_macros=$(legacy_macros proc_ops)
fops_macros=${fops_macros:-NO_LEGACY_MACRO}
proc_macros=${proc_macros:-NO_LEGACY_MACRO}
# (a) The .c files behind the guest kernel's objects.
find "$obj" -name '*.o' ! -path "$obj/tools/*" ! -path "$obj/scripts/*" |
	sed "s|^$obj/||; s|\\.o\$|.c|" | while read -r f; do
		[ -f "$f" ] && echo "$f"
	done | sort -u >"$out/guest-sources.txt"
instances <"$out/guest-sources.txt" | sort >"$out/guest.txt"
instances proc_ops <"$out/guest-sources.txt" | sort >"$out/guest-proc.txt"
# (b) The whole tree, but for tools/ and samples/ builds of user space.
git ls-files -- '*.c' ':!tools/*' | instances | sort >"$out/tree.txt"
git ls-files -- '*.c' ':!tools/*' | instances proc_ops | sort >"$out/tree-proc.txt"

n_guest=$(wc -l <"$out/guest.txt")
n_guest_files=$(cut -d: -f1 "$out/guest.txt" | sort -u | wc -l)
n_tree=$(wc -l <"$out/tree.txt")
n_tree_files=$(cut -d: -f1 "$out/tree.txt" | sort -u | wc -l)
n_guest_proc=$(wc -l <"$out/guest-proc.txt")
n_tree_proc=$(wc -l <"$out/tree-proc.txt")
if [ "${1:-}" = --list ]; then
	echo "# built into the guest kernel:"
	cat "$out/guest.txt"
fi
echo "file_operations wiring .read/.write built into the guest kernel: $n_guest in $n_guest_files files (list: build/legacy/guest.txt)"
echo "file_operations wiring .read/.write in the whole tree: $n_tree in $n_tree_files files (list: build/legacy/tree.txt)"
echo "proc_ops wiring .proc_read/.proc_write (emulated by procfs): $n_guest_proc in the guest, $n_tree_proc in the tree (build/legacy/*-proc.txt)"
