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
	fi
	# An index that fails to download (a mirror in the middle of a sync
	# serves a Packages file that does not match the signed Release) is
	# left out by apt-get update, which then fails: the others still count.
	update() { $sudo apt-get update -q >/dev/null || say "distro: apt-get update reported errors (above)"; }
	download() { (cd "$dir/dl" && apt-get download -q -o APT::Sandbox::User=root "linux-config-6.1:i386=$1" >/dev/null); }
	rm -rf "$dir/dl" && mkdir -p "$dir/dl"
	got=$ver
	if ! download "$ver"; then
		update
		if ! download "$ver"; then
			# The version is only in an index apt could not verify: take
			# the newest one it can, and say so (its configuration differs
			# from $ver's only where Debian changed it; olddefconfig fills
			# in the symbols of the newer source).
			got=$(apt-cache policy linux-config-6.1:i386 | awk '/Candidate:/ { print $2 }')
			if [ -z "$got" ] || [ "$got" = "(none)" ] || ! download "$got"; then
				die "cannot download linux-config-6.1:i386 $ver (the linux-source-6.1 version) nor any other version"
			fi
			say "distro: WARNING: linux-config-6.1:i386 $ver is in no index apt could verify; using $got, the newest that is"
		fi
	fi
	dpkg-deb -x "$dir"/dl/linux-config-6.1_*_i386.deb "$dir/$got"
	src="$dir/$got/usr/src/linux-config-6.1/$name"
	[ -r "$src" ] || die "no $name in linux-config-6.1:i386 $got"
fi
out="$dir/686-pae-nomodules.config"
xzcat "$src" | sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' >"$out.tmp"
mv "$out.tmp" "$out"
say "distro: $src ($(xzcat "$src" | grep -c '=m$') modules turned off)"
echo "$out"
