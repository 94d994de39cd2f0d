#!/bin/bash
# Import Debian's linux-source-6.12 into build/linux as a git repository whose
# first commit, tagged 'pristine', is the tree exactly as Debian ships it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || die "$tarball not found; run scripts/install-deps.sh (apt-get install linux-source-6.12)"
version=$(dpkg-query -W -f='${Version}' linux-source-6.12)
made_on=$(cat "$TOP/config/tree-version")

if [ -d "$TREE/.git" ] && git -C "$TREE" rev-parse -q --verify refs/tags/pristine >/dev/null; then
	have=$(git -C "$TREE" tag -l --format='%(contents:subject)' pristine | sed 's/.* //')
	if [ "$have" = "$version" ]; then
		exit 0
	fi
	step "linux-source-6.12 is now $version, build/linux holds $have: importing again"
	if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
		die "build/linux has uncommitted edits; commit and export them (make export) or remove build/ first"
	fi
	rm -rf "$TREE" "$STOCK_TREE"
fi

step "importing linux-source-6.12 $version into build/linux"
[ "$version" = "$made_on" ] ||
	echo "note: the series was made against $made_on; trying it on $version"
mkdir -p "$BUILD"
tmp=$(mktemp -d "$BUILD/import.XXXXXX")
tar -C "$tmp" -xJf "$tarball"
rm -rf "$TREE"
mv "$tmp"/linux-source-6.12 "$TREE"
rmdir "$tmp"

cd "$TREE"
git init -q -b series
git config user.name >/dev/null || git config user.name "$(git -C "$TOP" config user.name || echo harness)"
git config user.email >/dev/null || git config user.email "$(git -C "$TOP" config user.email || echo harness@localhost)"
git config gc.auto 0
# Object folders live inside the tree (see objdir in lib.sh); git must not see them.
printf '/obj*/\n' >>.git/info/exclude
git add -A -f .
GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
	git commit -q -m "Debian linux-source-6.12 $version"
git tag -a -m "linux-source-6.12 $version" pristine
step "build/linux: pristine tree imported and tagged"
