#!/bin/bash
# Count the struct file_operations instances that still wire .read or .write:
# (a) in the sources of the objects built into the guest kernel (taken from
#     the patched build's object folder), (b) across the whole patched tree.
# An instance is a struct file_operations initializer with .read = or
# .write = in a .c file, or a use of one of the macros that expand to one
# (found in the tree's headers, e.g. DEFINE_SHOW_STORE_ATTRIBUTE). Writes the
# lists to build/legacy/. scripts/legacy-scan.py adds a brace-matching scan
# of every .c and .h file, macros included.
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
	xargs -r awk -v macros="^[[:space:]]*($m)\\(" -v kind="$kind" \
		-v members="$embedded_members" '
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
	$0 ~ ("struct " kind "([[:space:]]+__[A-Za-z0-9_]+)*[[:space:]]+[A-Za-z0-9_]+(\\[[^]]*\\])?[[:space:]]*=[[:space:]]*(\\{|$)") {
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
	}
	# A file_operations embedded in another structure and filled in by
	# a nested initializer, often in a macro (carl9170, b43, lkdtm,
	# hfi1: ".fops = { .read = ..., .llseek = ... }"), whose type the
	# lines do not name: a nested block, of a member that some structure
	# of the tree declares as "struct file_operations <member>;", with
	# .read or .write and an .open, .llseek, .release, .poll or
	# .unlocked_ioctl (the .pstore = { .read, .write } of pstore is not one).
	!infops && kind == "file_operations" && !nest &&
	    $0 ~ ("^[[:space:]]*\\.(" members ")[[:space:]]*=[[:space:]]*\\{[[:space:]\\\\]*$") {
		nest = 1
		depth = 0
		nstart = FNR
		nrw = 0
		nfops = 0
		nname = $0
		sub(/^[[:space:]]*\./, "", nname)
		sub(/[[:space:]]*=.*/, "", nname)
	}
	nest {
		if ($0 ~ /^[[:space:]]*\.(read|write)[[:space:]]*=/)
			nrw = 1
		if ($0 ~ /^[[:space:]]*\.(llseek|open|poll|unlocked_ioctl|release)[[:space:]]*=/)
			nfops = 1
		line = $0
		depth += gsub(/\{/, "{", line)
		depth -= gsub(/\}/, "}", line)
		if (depth <= 0) {
			if (nrw && nfops)
				print FILENAME ":" nstart ": ." nname " (embedded)"
			nest = 0
		}
		next
	}
	# Methods stored at run time into a file_operations that is a member
	# of another structure (hv_utils_transport: "hvt->fops.read = ...").
	!infops && kind == "file_operations" &&
	    /(->|\.)(fops|f_ops|file_ops)\.(read|write)[[:space:]]*=[^=]/ {
		print FILENAME ":" FNR ": (assigned at run time)"
	}
	FNR == 1 { nest = 0 }'
}

cd "$TREE"
# The members that structures of the tree declare as an embedded
# struct file_operations (see instances()).
embedded_members=$(git grep -hE '^[[:space:]]*(const[[:space:]]+)?struct file_operations[[:space:]]+[A-Za-z0-9_]+;' -- '*.c' '*.h' |
	sed -E 's/.*struct file_operations[[:space:]]+([A-Za-z0-9_]+);.*/\1/' |
	sort -u | paste -sd'|')
embedded_members=${embedded_members:-NO_EMBEDDED_MEMBER}
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
# (c) The brace-matching scan (scripts/legacy-scan.py): initializers of any
# indentation or attribute, macros in .c files and private headers, bare
# initializers of arrays; the shapes the rules above missed until the
# compile after the removal of the members was tried.
python3 "$TOP/scripts/legacy-scan.py" "$TREE" | sort -u >"$out/tree-scan.txt"
n_scan=$(wc -l <"$out/tree-scan.txt")
n_scan_files=$(cut -d: -f1 "$out/tree-scan.txt" | sort -u | wc -l)
[ "${1:-}" = --list ] && cat "$out/tree-scan.txt"
echo "file_operations wiring .read/.write found by the brace-matching scan (any shape, macros in any file): $n_scan in $n_scan_files files (list: build/legacy/tree-scan.txt)"
