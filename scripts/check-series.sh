#!/bin/bash
# Check that every patch of the series stands on its own: for each commit of
# build/linux since pristine, in order, build the kernel (vmlinux, guest
# configuration: the link is what matters, not the compressed image) and the
# aio selftests in a separate worktree, build/bisect, and run checkpatch
# --strict on the commit. Prints one line a commit and fails if
# any of them fails.
# A commit that passed is remembered in build/check-series.ok under a key
# made of what decides the result: its tree, its message (checkpatch reads
# it), the guest configuration fragment and the compiler. A later run skips
# a commit whose key is there ("ok, checked before"), so that after a rebase
# only the commits whose tree or message changed are built again.
#   CHECK_SERIES_ALL=1   check every commit, ignoring (and refilling) the cache
#   CHECK_SERIES_FROM=rev   check only the commits after rev, for a fresh
#                        clone whose cache is empty: the commits up to rev
#                        are listed as skipped, not as checked, and the last
#                        line says how many were skipped
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bisect=$BISECT_TREE
obj=$(objdir bisect)
[ -d "$TREE/.git" ] || die "build/linux missing: run make tree first"
heavy_lock
if [ ! -e "$bisect/.git" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$bisect" pristine
fi
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export KBUILD_BUILD_TIMESTAMP='2000-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=qemu
# checkpatch's SPDX check wants Debian's python3 (python3-ply, python3-git).
export PATH=/usr/bin:$PATH

# obsolete_only <checkpatch output>: if its only messages are the OBSOLETE
# warning for files of config/obsolete-changes.txt, print those files.
obsolete_only() {
	local msgs files f
	msgs=$(grep -E '^(ERROR|WARNING|CHECK):' <<<"$1" || true)
	[ -n "$msgs" ] || return 1
	grep -qvE "^WARNING: [^ ]+ is marked as 'obsolete' in the MAINTAINERS hierarchy" <<<"$msgs" && return 1
	files=$(sed -nE "s/^WARNING: ([^ ]+) is marked as 'obsolete'.*/\1/p" <<<"$msgs" | sort -u)
	for f in $files; do
		grep -qE "^$f[[:space:]]" "$TOP/config/obsolete-changes.txt" || return 1
	done
	echo $files
}

cache=$BUILD/check-series.ok
touch "$cache"
[ "${CHECK_SERIES_ALL:-0}" = 1 ] && : >"$cache"
env_key=$(cat "$TOP/config/guest.config" <(gcc --version | head -1) | sha1sum | cut -c1-12)
t_start=$(date +%s)
bad=0
n=0
built=0
skipped=0
range=pristine..HEAD
if [ -n "${CHECK_SERIES_FROM:-}" ]; then
	from=$(git -C "$TREE" rev-parse --verify "$CHECK_SERIES_FROM^{commit}") ||
		die "CHECK_SERIES_FROM=$CHECK_SERIES_FROM: no such commit"
	git -C "$TREE" merge-base --is-ancestor pristine "$from" &&
		git -C "$TREE" merge-base --is-ancestor "$from" HEAD ||
		die "CHECK_SERIES_FROM=$CHECK_SERIES_FROM is not in the series"
	# the commits up to it keep their numbers but are not looked at
	skipped=$(git -C "$TREE" rev-list --count pristine.."$from")
	n=$skipped
	range=$from..HEAD
fi
for c in $(git -C "$TREE" rev-list --reverse "$range"); do
	n=$((n + 1))
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	key="$(git -C "$TREE" rev-parse "$c^{tree}") $(git -C "$TREE" log -1 --format=%B "$c" | sha1sum | cut -c1-12) $env_key"
	if grep -qxF "$key" "$cache"; then
		step "$(printf '%02d %-62.62s %s' "$n" "$subject" "ok, checked before")"
		continue
	fi
	built=$((built + 1))
	git -C "$bisect" checkout -q --detach "$c"
	result=ok
	if ! DEBUG=0 "$TOP/scripts/configure.sh" bisect >"$BUILD/bisect-config.log" 2>&1; then
		result="configuration failed (build/bisect-config.log)"
	elif ! make -C "$bisect" O="$obj" -j"$(nproc)" CC="ccache gcc" vmlinux \
		>"$obj/build-$n.log" 2>&1; then
		result="kernel build failed (build/bisect/obj/build-$n.log)"
	elif ! mkdir -p "$obj/kselftest/aio" ||
	     ! make -C "$bisect" O="$obj" -s headers >/dev/null 2>&1 ||
	     ! make -C "$bisect/tools/testing/selftests/aio" -s \
		OUTPUT="$obj/kselftest/aio" KHDR_INCLUDES="-isystem $obj/usr/include" \
		>"$obj/selftests-$n.log" 2>&1; then
		result="selftests build failed (build/bisect/obj/selftests-$n.log)"
	else
		cp_full=$(cd "$bisect" && ./scripts/checkpatch.pl --strict -q -g "$c" 2>&1 || true)
		cp_out=$(grep -E '^total:' <<<"$cp_full" || true)
		if [ -n "$cp_out" ]; then
			result="checkpatch: $cp_out"
			accepted=$(obsolete_only "$cp_full") &&
				result="ok, but checkpatch's OBSOLETE warning on $accepted (config/obsolete-changes.txt)"
		fi
	fi
	if [ "${result%%,*}" = ok ]; then
		echo "$key" >>"$cache"
	else
		bad=1
	fi
	step "$(printf '%02d %-62.62s %s' "$n" "$subject" "$result")"
done
[ $bad -eq 0 ] || die "some patches do not stand on their own (see above)"
if [ "$skipped" -gt 0 ]; then
	step "the $((n - skipped)) patches after ${CHECK_SERIES_FROM} build (kernel and aio selftests) and pass checkpatch --strict ($built checked now, $((n - skipped - built)) before; $skipped earlier patches skipped, not checked; $(($(date +%s) - t_start)) s)"
else
	step "all $n patches build (kernel and aio selftests) and pass checkpatch --strict ($built checked now, $((n - built)) before; $(($(date +%s) - t_start)) s)"
fi
