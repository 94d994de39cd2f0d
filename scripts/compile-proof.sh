#!/bin/bash
# make compile-proof: build, with W=1, every object whose source the series
# touches, in each architecture's allmodconfig, on the patched tree and on
# the pristine one, and report each warning the patched object gives that
# the pristine object does not. For drivers and arch/ code that cannot boot
# here this is the proof that a conversion compiles.
#
# For each architecture: its own O= folders build/proof/<arch>/{stock,patched}
# (configured once: allmodconfig with the settings of config/proof.config,
# then modules_prepare), the objects built with make -k in one run per side,
# through ccache (build/ccache-proof). An object that an architecture's
# allmodconfig does not build (its Kconfig symbol cannot be set there, or
# the file is not a kbuild object) is "not built" there; a file that no
# architecture builds is listed at the end with its reason.
# Warnings are compared per object as "file: message [-Wflag]" without line
# numbers, which the series shifts; a warning is new when the patched side
# has it more often than the pristine side.
#
#   PROOF_ARCHES="x86_64 arm64 ..."   architectures (default: x86_64, um, and
#                                     every architecture whose Debian cross
#                                     compiler is installed; see toolchains())
#   PROOF_BASE=rev                    the files touched in rev..HEAD (default
#                                     pristine: the whole series)
#   PROOF_FILES=file                  a list of .c files instead (one a line)
#   PROOF_EXTRA_ONLY=1                only the configurations of
#                                     config/proof-extra.txt, for every file
#                                     they name (after a change to them)
#   PROOF_CROSS_ALL=1                 every file on every architecture; by
#                                     default a cross architecture builds only
#                                     the files that no architecture before it
#                                     in the list built (x86_64 and i386 build
#                                     them all)
# Then the files no allmodconfig built, in the configurations of
# config/proof-extra.txt (unless PROOF_ARCHES is set).
# Writes build/proof/report.txt; fails if a patched object fails to build
# where its pristine object builds, or gives a new warning.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base=${PROOF_BASE:-pristine}
# Cross compilers unpacked by scripts/install-cross.sh (they conflict with
# gcc-multilib as packages), before any installed ones.
export PATH=$BUILD/cross/usr/bin:$PATH
export LD_LIBRARY_PATH=$BUILD/cross/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
proof=$BUILD/proof
mkdir -p "$proof"
report=$proof/report.txt

# arch  kbuild ARCH  CROSS_COMPILE prefix  Debian package, from
# config/toolchains.txt: the allmodconfig architectures, and the ones only
# config/proof-extra.txt uses
toolchains() {
	awk -v use="${1:-allmodconfig}" '!/^#/ && $4 == use {
		print $1, $2, $3, ($3 == "-" ? "-" : "gcc-" substr($3, 1, length($3) - 1)) }' \
		"$TOP/config/toolchains.txt"
}

if [ -n "${PROOF_ARCHES:-}" ]; then
	arches=$PROOF_ARCHES
else
	arches=$(toolchains | while read -r a _ c _; do
		if [ "$c" = - ] || command -v "${c}gcc" >/dev/null; then echo "$a"; fi
	done | paste -sd' ')
fi

# The .c files to build: kernel sources only (not tools/, which kbuild does
# not build, nor scripts/ and Documentation/).
files=$proof/files.txt
if [ -n "${PROOF_FILES:-}" ]; then
	grep -v '^[[:space:]]*$' "$PROOF_FILES" | sort -u >"$files"
else
	git -C "$TREE" diff --name-only --diff-filter=AM "$base" HEAD -- '*.c' |
		grep -Ev '^(tools|scripts|Documentation|usr)/' | sort -u >"$files" || true
fi
nfiles=$(wc -l <"$files")
[ "$nfiles" -gt 0 ] || die "no .c files to build (base $base)"

heavy_lock
stock_tree
export CCACHE_DIR=$BUILD/ccache-proof CCACHE_MAXSIZE=${CCACHE_MAXSIZE_PROOF:-8G}
export KBUILD_BUILD_TIMESTAMP='2000-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=qemu

# fresh <obj> <key>: whether the folder is configured for this key; if
# not, make it ready to be configured again.
fresh() {
	[ -f "$1/.proof-key" ] && [ "$(cat "$1/.proof-key")" = "$2" ] && return 0
	mkdir -p "$1"
	rm -f "$1/.proof-key"
	return 1
}

# Configure one side of one architecture once; again only when the
# configuration fragment, the compiler, the tree's Kconfig files or the
# architecture Makefiles changed (as git's index of the tree has them).
# Whatever else the objects need kbuild brings up to date itself.
configure() {
	local src=$1 obj=$2 arch=$3 cross=$4 key
	key=$( (cat "$TOP/config/proof.config"; "${cross}gcc" --version | head -1
		git -C "$src" ls-files -s -- '*Kconfig*' 'arch/*/Makefile') |
		sha1sum | cut -c1-12)
	fresh "$obj" "$key" && return 0
	make -C "$src" O="$obj" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} \
		KCONFIG_ALLCONFIG="$TOP/config/proof.config" allmodconfig >"$obj/config.log" 2>&1 ||
		{ tail -5 "$obj/config.log" >&2; return 1; }
	make -C "$src" O="$obj" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} \
		CC="ccache ${cross}gcc" -j"$(nproc)" modules_prepare >>"$obj/config.log" 2>&1 ||
		{ tail -5 "$obj/config.log" >&2; return 1; }
	echo "$key" >"$obj/.proof-key"
}

# The object that compiles a .c file: its own, or, for a file that its
# directory's Makefile does not name but another .c file of the directory
# includes (kernel/sched/psi.c in build_utility.c), that file's.
obj_of() {
	local f=$1 d b inc
	case $f in
	drivers/gpu/drm/amd/amdkfd/*.c | drivers/gpu/drm/amd/display/*.c | drivers/gpu/drm/amd/pm/*.c)
		# amdgpu's Makefile names these through ../ paths
		f=${f#drivers/gpu/drm/amd/}
		echo "drivers/gpu/drm/amd/amdgpu/../${f%.c}.o"
		return
		;;
	esac
	d=$(dirname "$f")
	b=$(basename "$f" .c)
	if ! grep -qsw "$b\.o" "$TREE/$d/Makefile" "$TREE/$d/Kbuild"; then
		inc=$(grep -lsE "^#[[:space:]]*include[[:space:]]+\"$b\.c\"" "$TREE/$d"/*.c | head -1)
		[ -n "$inc" ] && b=$(basename "$inc" .c)
	fi
	echo "$d/$b.o"
}

# Build the objects of the files that exist in src; print the build log.
build_objects() {
	local src=$1 obj=$2 arch=$3 cross=$4 f o
	local targets=()
	while read -r f o; do
		[ -f "$src/$f" ] || continue
		rm -f "$obj/$o"
		targets+=("$o")
	done <"$objects"
	[ ${#targets[@]} -gt 0 ] || return 0
	mapfile -t targets < <(printf '%s\n' "${targets[@]}" | sort -u)
	make -C "$src" O="$obj" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} \
		CC="ccache ${cross}gcc" W=1 -k -j"$(nproc)" "${targets[@]}" 2>&1 || true
	# kbuild may compile a single object twice at once, for the kernel and
	# as a module ("CC" and "CC [M]"); the two compilers race for the
	# object's .d file and one fails ("fixdep: error opening file"). Build
	# the objects that are missing once more, one at a time.
	local missing=()
	for o in "${targets[@]}"; do
		[ -f "$obj/$o" ] || missing+=("$o")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "compile-proof: building ${#missing[@]} missing objects again with -j1"
	make -C "$src" O="$obj" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} \
		CC="ccache ${cross}gcc" W=1 -k -j1 "${missing[@]}" 2>&1 || true
}

# "file: message [-Wflag]" for each warning in a build log, line numbers
# and columns dropped, one line per occurrence, paths relative to the tree.
# usage: warnings <log> <source tree>
warnings() {
	sed -nE 's|^([^ :]+\.[ch]):[0-9]+:([0-9]+:)? warning: (.*)$|\1: \3|p' "$1" |
		sed -E -e "s|^$2/||" -e 's|^(\.\./)+||' | sort
}

# Build the objects of $objects on both sides of folder d, compare, report
# one line, and remember what built.
# usage: prove <label> <folder> <kbuild ARCH> <CROSS_COMPILE>
prove() {
	local label=$1 d=$2 karch=$3 cross=$4 t0 narch f o side nbuilt nnot nbroken nnew nstock line
	t0=$(date +%s)
	narch=$(wc -l <"$objects")
	step "$label: building the objects of $narch files with W=1, stock and patched"
	build_objects "$STOCK_TREE" "$d/stock" "$karch" "$cross" >"$d/stock.log"
	build_objects "$TREE" "$d/patched" "$karch" "$cross" >"$d/patched.log"
	nbuilt=0 nnot=0 nbroken=0
	: >"$d/not-built.txt"
	: >"$d/broken.txt"
	# Warnings of a file whose object did not build on a side are the
	# noise of a failed compilation there: leave them out.
	: >"$d/unbuilt.sed"
	while read -r f o; do
		for side in stock patched; do
			[ -f "$d/$side/$o" ] || echo "$side $f" >>"$d/unbuilt.sed"
		done
	done <"$objects"
	warnings "$d/stock.log" "$STOCK_TREE" |
		grep -vFf <(sed -n 's/^stock \(.*\)/\1: /p' "$d/unbuilt.sed" | grep . || echo '//none//') \
		>"$d/stock.warnings" || true
	warnings "$d/patched.log" "$TREE" |
		grep -vFf <(sed -n 's/^patched \(.*\)/\1: /p' "$d/unbuilt.sed" | grep . || echo '//none//') \
		>"$d/patched.warnings" || true
	# Warnings the patched side gives more often than the stock side.
	comm -13 "$d/stock.warnings" "$d/patched.warnings" >"$d/new.warnings"
	while read -r f o; do
		if [ -f "$d/patched/$o" ]; then
			nbuilt=$((nbuilt + 1))
			built_somewhere[$f]=1
		elif [ -f "$d/stock/$o" ]; then
			nbroken=$((nbroken + 1))
			echo "$f" >>"$d/broken.txt"
		else
			nnot=$((nnot + 1))
			echo "$f" >>"$d/not-built.txt"
		fi
	done <"$objects"
	nnew=$(wc -l <"$d/new.warnings")
	nstock=$(wc -l <"$d/stock.warnings")
	line="$label: $nbuilt built, $nnot not built by this configuration, $nbroken fail where stock builds, $nnew new warnings ($nstock on stock), $(($(date +%s) - t0)) s"
	step "$line"
	echo "$line" >>"$report"
	if [ "$nnew" -gt 0 ] || [ "$nbroken" -gt 0 ]; then
		fail=1
		sed 's/^/  new warning: /' "$d/new.warnings" >>"$report"
		sed 's/^/  fails to build: /' "$d/broken.txt" >>"$report"
	fi
}

objects=$proof/objects.txt
while read -r f; do
	echo "$f $(obj_of "$f")"
done <"$files" >"$objects"

: >"$report"
{
	echo "make compile-proof: $(date -u +%F), $(nproc) cores${PROOF_EXTRA_ONLY:+, only the configurations of config/proof-extra.txt}"
	echo "patched: build/linux at $(git -C "$TREE" log -1 --format='%h %s')"
	echo "files: $nfiles .c files (${PROOF_FILES:-touched in $base..HEAD}); W=1; allmodconfig + config/proof.config"
} >>"$report"

fail=0
declare -A built_somewhere
while read -r arch karch cross pkg; do
	[ -z "${PROOF_EXTRA_ONLY:-}" ] || break
	case " $arches " in *" $arch "*) ;; *) continue ;; esac
	[ "$cross" = - ] && cross=
	if [ -n "$cross" ] && ! command -v "${cross}gcc" >/dev/null; then
		echo "$arch: ${cross}gcc missing (scripts/install-cross.sh ${cross%-}, or apt-get install $pkg)" | tee -a "$report"
		continue
	fi
	t0=$(date +%s)
	d=$proof/$arch
	# A file under arch/ is built only for its own architecture (kbuild
	# would compile arch/um/kernel/exitcode.c with x86's headers, which
	# proves nothing). Another architecture than x86_64 and i386 builds
	# only the files that no architecture before it in the list built,
	# unless PROOF_CROSS_ALL=1.
	objects=$d.objects
	while read -r f o; do
		case $f in
		arch/*)
			fa=${f#arch/}
			[ "${fa%%/*}" = "$karch" ] || { [ "${fa%%/*}" = x86 ] && [ "$karch" = i386 ]; } || continue
			;;
		esac
		if [ "$arch" != x86_64 ] && [ "$arch" != i386 ] &&
		   [ "${PROOF_CROSS_ALL:-0}" != 1 ] && [ -n "${built_somewhere[$f]:-}" ]; then
			continue
		fi
		echo "$f $o"
	done <"$proof/objects.txt" >"$objects"
	if [ ! -s "$objects" ]; then
		echo "$arch: nothing to build (every file built on an architecture before it, or belongs to another)" | tee -a "$report"
		continue
	fi
	step "$arch: configuring allmodconfig (stock and patched)"
	configure "$STOCK_TREE" "$d/stock" "$karch" "$cross" || die "$arch: stock allmodconfig failed ($d/stock/config.log)"
	configure "$TREE" "$d/patched" "$karch" "$cross" || die "$arch: patched allmodconfig failed ($d/patched/config.log)"
	prove "$arch" "$d" "$karch" "$cross"
done < <(toolchains)

# The files no allmodconfig built, in the configurations of
# config/proof-extra.txt: a defconfig and a few options each.
toolchain_of() {
	{ toolchains; toolchains extra; } | awk -v a="$1" '$1 == a'
}

# usage: configure_extra <src> <obj> <karch> <cross> <target> [CONFIG_X=y|m|n ...]
configure_extra() {
	local src=$1 obj=$2 karch=$3 cross=$4 target=$5 key o
	shift 5
	key=$( (echo "ARCH=$karch $target $*"; "${cross}gcc" --version | head -1
		git -C "$src" ls-files -s -- '*Kconfig*' 'arch/*/Makefile' "arch/$karch/configs") |
		sha1sum | cut -c1-12)
	fresh "$obj" "$key" && return 0
	make -C "$src" O="$obj" ARCH="$karch" ${cross:+CROSS_COMPILE=$cross} \
		"$target" >"$obj/config.log" 2>&1 || { tail -5 "$obj/config.log" >&2; return 1; }
	# -k: scripts/config would otherwise capitalise symbols such as M548x
	for o in "$@" CONFIG_WERROR=n; do
		case ${o#*=} in
		y) "$src/scripts/config" --file "$obj/.config" -k --enable "${o%%=*}" ;;
		m) "$src/scripts/config" --file "$obj/.config" -k --module "${o%%=*}" ;;
		n) "$src/scripts/config" --file "$obj/.config" -k --disable "${o%%=*}" ;;
		esac
	done
	make -C "$src" O="$obj" ARCH="$karch" ${cross:+CROSS_COMPILE=$cross} \
		olddefconfig >>"$obj/config.log" 2>&1 || { tail -5 "$obj/config.log" >&2; return 1; }
	for o in "$@"; do
		case $o in
		*=n) ! grep -qE "^${o%=n}=[ym]$" "$obj/.config" ;;
		*) grep -qx "$o" "$obj/.config" ;;
		esac || { echo "$target: $o does not stick" >&2; return 1; }
	done
	make -C "$src" O="$obj" ARCH="$karch" ${cross:+CROSS_COMPILE=$cross} \
		CC="ccache ${cross}gcc" -j"$(nproc)" modules_prepare >>"$obj/config.log" 2>&1 ||
		{ tail -5 "$obj/config.log" >&2; return 1; }
	echo "$key" >"$obj/.proof-key"
}

extra=$TOP/config/proof-extra.txt
if [ -z "${PROOF_ARCHES:-}" ] && [ -f "$extra" ]; then
	# "file<TAB>its configuration line"
	awk '/^#/ || /^[[:space:]]*$/ { next }
	     /^[^[:space:]]/ { cfg = $0; next }
	     { print $1 "\t" cfg }' "$extra" >"$proof/extra.txt"
	while IFS= read -r cfgline; do
		read -r name arch target opts <<<"$cfgline"
		objects=$proof/extra-$name.objects
		awk -F'\t' -v c="$cfgline" '$2 == c { print $1 }' "$proof/extra.txt" | while read -r f; do
			grep -qxF "$f" "$files" || continue
			[ -n "${built_somewhere[$f]:-}" ] && continue
			echo "$f $(obj_of "$f")"
		done >"$objects"
		[ -s "$objects" ] || continue
		read -r _ karch cross _ <<<"$(toolchain_of "$arch")"
		[ -n "$karch" ] || die "config/proof-extra.txt: $name: unknown architecture $arch"
		[ "$cross" = - ] && cross=
		if [ -n "$cross" ] && ! command -v "${cross}gcc" >/dev/null; then
			echo "$name: ${cross}gcc missing (scripts/install-cross.sh ${cross%-})" | tee -a "$report"
			continue
		fi
		d=$proof/extra-$name
		step "$name: configuring $arch $target $opts (stock and patched)"
		# shellcheck disable=SC2086
		configure_extra "$STOCK_TREE" "$d/stock" "$karch" "$cross" "$target" $opts ||
			die "$name: stock configuration failed ($d/stock/config.log)"
		# shellcheck disable=SC2086
		configure_extra "$TREE" "$d/patched" "$karch" "$cross" "$target" $opts ||
			die "$name: patched configuration failed ($d/patched/config.log)"
		prove "$name ($arch $target)" "$d" "$karch" "$cross"
	done < <(cut -f2 "$proof/extra.txt" | awk '!seen[$0]++')
fi

nowhere=0
if [ -n "${PROOF_EXTRA_ONLY:-}" ]; then
	# Only the files the configurations name: the others were not tried.
	cut -f1 "$proof/extra.txt" | sort -u | grep -xFf "$files" >"$proof/extra-files.txt" || true
	files=$proof/extra-files.txt
	nfiles=$(wc -l <"$files")
fi
while read -r f; do
	[ -n "${built_somewhere[$f]:-}" ] && continue
	nowhere=$((nowhere + 1))
	why="its object, $(obj_of "$f"), is not built by these configurations"
	echo "  built nowhere: $f: $why" >>"$report"
done <"$files"
echo "built on no architecture: $nowhere of $nfiles" >>"$report"
cat "$report"
[ "$fail" = 0 ] || die "new warnings or build failures: $report"
