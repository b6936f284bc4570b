#!/usr/bin/env bash
# Install what the workbench needs from Debian's archive, if missing.
# Idempotent; says what it installs; uses sudo when not root.
source "$(dirname "$0")/lib.sh"

pkgs=(linux-source-6.1 git git-email gcc gcc-multilib make perl python3
      python3-ply python3-git qemu-system-x86 flex bison bc libelf-dev
      libssl-dev ccache cpio xz-utils sparse bsdextrautils gnuplot-nox
      libmailtools-perl python3-sphinx)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} = 0 ]; then
	say "deps: all ${#pkgs[@]} packages present"
	exit 0
fi
say "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
say "deps: installed ${missing[*]}"
