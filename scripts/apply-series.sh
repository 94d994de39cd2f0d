#!/bin/bash
# Bring build/linux to pristine + patches/ (git am, in the order of
# patches/series). Does nothing when patches/ has not changed since the last
# apply or export, so work committed in the tree is never thrown away
# silently. Also makes build/stock, a worktree of the pristine tag.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "build/linux missing: run scripts/fetch-tree.sh first"
stamp=$BUILD/series.stamp

want=$(series_hash)
head=$(git -C "$TREE" rev-parse HEAD)
if [ -f "$stamp" ]; then
	have_hash=$(sed -n 1p "$stamp")
	have_head=$(sed -n 2p "$stamp")
	if [ "$have_hash" = "$want" ]; then
		[ "$have_head" = "$head" ] ||
			step "build/linux has commits not yet in patches/ (make export saves them); building the tree as it is"
		exit 0
	fi
	if [ "$have_head" != "$head" ] && [ "${FORCE:-0}" != 1 ]; then
		die "patches/ changed, but build/linux also has commits that patches/ lacks.
  Save them with 'make export' (then merge patches/ by hand), or discard them
  with 'make apply FORCE=1'."
	fi
fi
if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	[ "${FORCE:-0}" = 1 ] || die "build/linux has uncommitted edits and patches/ changed.
  Commit and export them (make export), or discard them with 'make apply FORCE=1'."
fi

n=$(series_patches | wc -l)
step "applying the series to pristine ($n patches)"
cd "$TREE"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f -B series pristine
git clean -q -fd -e '/obj*/' >/dev/null
mapfile -t files < <(series_patches)
for p in "${files[@]}"; do
	[ -f "$SERIES_DIR/$p" ] || die "patches/series names $p, which is not in patches/"
done
# One git am for the whole series: a process per patch costs minutes.
if ! out=$(git am -q --3way "${files[@]/#/$SERIES_DIR/}" 2>&1); then
	done_n=$(git rev-list --count pristine..HEAD)
	p=${files[$done_n]:-?}
	errfiles=$(echo "$out" | sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \(.*\): does not exist in index/\1/p; s/^CONFLICT.*in \(.*\)$/\1/p' | sort -u | tr '\n' ' ')
	git am --abort >/dev/null 2>&1 || true
	echo "$out" | head -20 >&2
	die "patch $p does not apply${errfiles:+ (in: $errfiles)}; build/linux is left at pristine"
fi
printf '%s\n%s\n' "$want" "$(git rev-parse HEAD)" >"$stamp"
step "series applied: build/linux is at $(git log -1 --format='%h %s')"
