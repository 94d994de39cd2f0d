#!/bin/bash
# Configure one kernel: x86_64 tinyconfig with config/guest.config merged over it
# (plus config/debug.config when DEBUG=1). Checks that every option the
# fragments ask for made it into the final .config.
# usage: configure.sh stock|patched|bisect
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: configure.sh stock|patched|bisect}
src=$(srcdir "$kernel")
frags=("$TOP/config/guest.config")
suffix=
if [ "${DEBUG:-0}" = 1 ]; then
	[ -f "$TOP/config/debug.config" ] ||
		die "DEBUG=1 needs config/debug.config, which does not exist yet"
	frags+=("$TOP/config/debug.config")
	suffix=debug
fi
obj=$(objdir "$kernel" $suffix)
mkdir -p "$obj"

# Reconfigure only when a fragment or a Kconfig file is newer than .config.
if [ -f "$obj/.config" ] && [ -f "$obj/.config.stamp" ]; then
	newer=$(find "${frags[@]}" -newer "$obj/.config.stamp" | head -1)
	kc=$(cd "$src" && git diff --name-only "$(cat "$obj/.config.stamp")" -- '*Kconfig*' 2>/dev/null | head -1) || kc=x
	[ -z "$newer" ] && [ -z "$kc" ] && exit 0
fi

step "configuring $kernel${suffix:+ ($suffix)}: tinyconfig + ${frags[*]##*/}"
mk=(make -C "$src" O="$obj" -s)
"${mk[@]}" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >"$obj/merge_config.log" 2>&1 ||
	die "merge_config.sh failed, see $obj/merge_config.log"
"${mk[@]}" olddefconfig >/dev/null

# Every CONFIG_X=y/m/value asked for must be in the result; a dependency that
# is not met makes Kconfig drop it silently.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$obj/.config" && continue
		sym=${line%%=*}
		# An option the series adds does not exist in the stock tree.
		if ! grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$src"; then
			echo "config: $sym is not in this tree's Kconfig; left out"
			continue
		fi
		echo "config: asked for $line, got: $(grep -E "^(# )?$sym[= ]" "$obj/.config" || echo 'nothing')"
		bad=1
		;;
	esac
done < <(cat "${frags[@]}")
[ $bad -eq 0 ] || die "the configuration fragment asks for options Kconfig refused (dependencies?)"
git -C "$src" rev-parse HEAD >"$obj/.config.stamp"
