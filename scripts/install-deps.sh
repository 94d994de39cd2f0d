#!/bin/bash
# Install the Debian packages the harness needs (run as root on Debian 12).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(
	linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev
	cpio xz-utils rsync e2fsprogs xfsprogs dosfstools jfsutils ntfs-3g
	ccache qemu-system-x86 busybox-static
	libaio-dev liburing-dev gcc-multilib fio gnuplot-nox git file
	python3-ply python3-git
	libglib2.0-0 libnl-3-200 libnl-genl-3-200
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

step "installing packages: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || die "packages missing (${missing[*]}); run as root or install them"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null ||
	die "apt-get install failed for: ${missing[*]}"
