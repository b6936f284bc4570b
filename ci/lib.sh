# shellcheck shell=bash
# Common settings of the dyn-tick workbench; sourced by the other scripts.
# Every path can be overridden from the environment (or make VAR=...).

set -euo pipefail

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WORK=${WORK:-$TOP/.work}
TREE=${TREE:-$WORK/linux}
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
FRAG=${FRAG:-$TOP/kconfig-fragments}
LOGDIR=${LOGDIR:-$WORK/logs}
JOBS=${JOBS:-$(nproc)}
# The linux-source package version the series was last verified on.
VERIFIED_ON=${VERIFIED_ON:-6.1.192-3}

export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dyntick-ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$WORK}
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-time_macros}
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2000-01-01}
export KBUILD_BUILD_USER=dyntick
export KBUILD_BUILD_HOST=workbench
export LC_ALL=C

say() { printf '%s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# Base commit identity: fixed so that one tarball always gives one commit id.
base_git() {
	GIT_AUTHOR_NAME="linux-source" GIT_AUTHOR_EMAIL="linux-source@debian" \
	GIT_COMMITTER_NAME="linux-source" GIT_COMMITTER_EMAIL="linux-source@debian" \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git "$@"
}

installed_source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown
}

series_patches() {
	ls "$TOP"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | sort || true
}

base_commit() {
	git -C "$TREE" rev-parse dyntick-base
}

kmake() {
	local out=$1; shift
	make -s -C "$TREE" O="$out" ARCH=i386 -j"$JOBS" \
		CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}
