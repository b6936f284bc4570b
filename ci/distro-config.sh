#!/usr/bin/env bash
# Debian's own i386 686-pae kernel configuration for the installed
# linux-source-6.1, from the package linux-config-6.1 of the same version
# (architecture i386: the amd64 package has amd64 configurations only),
# with every module turned off. kconfig-fragments/distro.config then turns
# back on the modules that use what the series changes, and the feature.
# Prints the path of the configuration. usage: distro-config.sh
source "$(dirname "$0")/lib.sh"

dir="$WORK/distro"
ver=$(installed_source_version)
name=config.i386_none_686-pae.xz
src=/usr/src/linux-config-6.1/$name
mkdir -p "$dir"
if [ "$(dpkg-query -W -f='${Version}' linux-config-6.1:i386 2>/dev/null)" = "$ver" ] && [ -r "$src" ]; then
	: # installed, same version
elif [ -r "$dir/$ver/usr/src/linux-config-6.1/$name" ]; then
	src="$dir/$ver/usr/src/linux-config-6.1/$name"
else
	say "distro: fetching linux-config-6.1:i386 $ver"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		say "distro: adding the i386 architecture to dpkg (to download, not to install, its packages)"
		$sudo dpkg --add-architecture i386
		$sudo apt-get update -q >/dev/null
	fi
	rm -rf "$dir/dl" && mkdir -p "$dir/dl"
	(cd "$dir/dl" && apt-get download -q -o APT::Sandbox::User=root "linux-config-6.1:i386=$ver" >/dev/null) ||
		{ $sudo apt-get update -q >/dev/null && (cd "$dir/dl" && apt-get download -q -o APT::Sandbox::User=root "linux-config-6.1:i386=$ver" >/dev/null); } ||
		die "cannot download linux-config-6.1:i386 $ver (the linux-source-6.1 version)"
	dpkg-deb -x "$dir"/dl/linux-config-6.1_*_i386.deb "$dir/$ver"
	src="$dir/$ver/usr/src/linux-config-6.1/$name"
	[ -r "$src" ] || die "no $name in linux-config-6.1:i386 $ver"
fi
out="$dir/686-pae-nomodules.config"
xzcat "$src" | sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' >"$out.tmp"
mv "$out.tmp" "$out"
say "distro: $src ($(xzcat "$src" | grep -c '=m$') modules turned off)"
echo "$out"
