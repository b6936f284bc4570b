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

# seed_build FROM TO: a build directory that does not exist yet starts as a
# copy of FROM, built from the same tree (kbuild's dependency files name the
# source tree): make then rebuilds what the commit and the configuration
# change, instead of every object (with ccache hits, minutes on 2 cores).
seed_build() {
	[ -e "$2/.config" ] || [ ! -e "$1/vmlinux" ] || { rm -rf "$2" && cp -a "$1" "$2"; }
}

kmake() {
	local out=$1; shift
	make -s -C "$TREE" O="$out" ARCH=i386 -j"$JOBS" \
		CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# --- Work in the tree that the patch files do not carry ------------------
# FORCE=1 (make VAR or environment) throws such work away on purpose.
force() { case ${FORCE:-0} in 0 | '') return 1 ;; *) return 0 ;; esac; }

# The stamp: the series commit id that the last apply (tree.sh) or export
# (export.sh) left, and a hash of the patch files it applied or wrote. Its
# commits came from patch files or went into them, so they are never "lost";
# this tells "the patch files changed under me (git pull)", where series is
# still the stamp, from "I committed", where it is not.
STAMP=${STAMP:-$WORK/series.stamp}
stamp_get() { [ -r "$STAMP" ] || return 0; sed -n "s/^$1 //p" "$STAMP" | head -n1; }
stamp_put() {	# COMMIT PATCHES-HASH
	mkdir -p "$(dirname "$STAMP")"
	printf 'commit %s\npatches %s\n' "$1" "$2" >"$STAMP.tmp" && mv "$STAMP.tmp" "$STAMP"
}
stamp_commit() {	# the stamp's commit, if the tree has it
	local c
	c=$(stamp_get commit)
	[ -n "$c" ] && git -C "$TREE" cat-file -e "$c^{commit}" 2>/dev/null && echo "$c"
	return 0
}
patches_hash() {	# DIR: hash of its NNNN-*.patch files, names and contents
	(cd "$1" || exit 0; sha256sum [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null || true) | sha256sum | cut -d' ' -f1
}

# mail_identity <MAIL: what git am makes of one patch mail (author, date,
# subject and message as git mailinfo reads them, and the diff byte for
# byte), as one hash. A commit and a patch file with the same identity
# re-apply to the same content.
mail_identity() {
	local d
	d=$(mktemp -d "${DYNTICK_RUN:-${TMPDIR:-/tmp}}/mail.XXXXXX")
	git -C "$TREE" mailinfo "$d/msg" "$d/patch" >"$d/info"
	{ cat "$d/info" "$d/msg"; sed -n '/^diff --git /,$p' "$d/patch"; } | sha1sum | cut -d' ' -f1
	rm -rf "$d"
}

# unexported_commits REV...: commits reachable from REV... that re-applying
# the patch files would drop, oldest first: not on the base, not reachable
# from the stamp, and not identical to one of the patch files. The last test
# covers a tree applied before the stamp existed (or whose stamp is gone):
# its commits are the patch files' own, so it is re-applied without a word.
# Fails (and the callers refuse) when git cannot tell.
unexported_commits() {
	local excl=() s c id cands known
	if git -C "$TREE" rev-parse -q --verify dyntick-base >/dev/null; then
		excl+=(^dyntick-base)
	else
		excl+=(--min-parents=1)	# a tree without its tag: all but the root
	fi
	s=$(stamp_commit)
	[ -z "$s" ] || excl+=("^$s")
	cands=$(git -C "$TREE" rev-list --reverse --topo-order "$@" "${excl[@]}") || return 1
	[ -n "$cands" ] || return 0
	known=$(for p in $(series_patches); do mail_identity <"$p"; done)
	for c in $cands; do
		id=$(git -C "$TREE" format-patch -1 --stdout --zero-commit --no-signature "$c" | mail_identity)
		grep -qxF "$id" <<<"$known" || echo "$c"
	done
}

# uncommitted_edits: what git checkout -f and git clean -fdx would throw
# away, as git status --porcelain lines: tracked files changed in the index
# or the worktree, and new files that the kernel's own .gitignore rules do
# not ignore. The Debian tarball's .gitignore ends with "/*", which hides
# every new file; --exclude='!/*/' re-includes the top-level directories (a
# command-line pattern wins over .gitignore) and nothing else, so build
# output (*.o, .*.cmd, include/generated/, __pycache__/) still does not
# count. New files at the top level do not count either.
uncommitted_edits() {
	local changed new
	changed=$(git -C "$TREE" status --porcelain -uno) || return 1
	new=$(git -C "$TREE" ls-files -o --exclude-standard --exclude='!/*/') || return 1
	[ -z "$changed" ] || printf '%s\n' "$changed"
	[ -z "$new" ] || printf '%s\n' "$new" | sed 's/^/?? /'
}

git_op_in_progress() {	# an am, rebase, merge, cherry-pick or revert the user left open
	local d f
	d=$(git -C "$TREE" rev-parse --absolute-git-dir) || return 1
	for f in rebase-apply rebase-merge MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD; do
		[ ! -e "$d/$f" ] || echo "a git am/rebase/merge/cherry-pick is in progress ($d/$f)"
	done
}

show_commits() {	# COMMIT...: "    abc1234 subject" lines to stderr
	local c note
	for c in "$@"; do
		note=""
		git -C "$TREE" merge-base --is-ancestor "$c" refs/heads/series 2>/dev/null ||
			note="   (not on series)"
		say "    $(git -C "$TREE" log -1 --format='%h %s' "$c")$note"
	done
}

show_edits() {	# LINES: the first 20 git status lines to stderr
	local n
	n=$(printf '%s\n' "$1" | wc -l)
	printf '%s\n' "$1" | head -n 20 | sed 's/^/    /' >&2
	[ "$n" -le 20 ] || say "    ... and $((n - 20)) more"
}

# series_warnings LOG: the compiler warnings in LOG that are in a file the
# series touches (git diff dyntick-base..series), whatever the build's path
# prefix; no output when there are none. The matrix's kernels and the random
# configurations fail on them.
series_warnings() {
	local files
	files=$(git -C "$TREE" diff --name-only "$(base_commit)..series" | paste -sd'|' -)
	grep -E "^(.*/)?($files):[0-9]+:[0-9]+: warning:" "$1" || true
}

# warning_lines: the compiler's, sparse's and kernel-doc's warnings and
# errors on stdin, normalised so that the parent's and the commit's compare:
# paths relative to the tree (however the build named them), no line or
# column numbers (code that moves is not a new warning), sorted.
warning_lines() {
	{ grep -E 'warning:|error:' || true; } |
		sed -E 's#^(\.\./)*(linux/)?##; s#^'"$TREE"'/##; s#:[0-9]+(:[0-9]+)?:#:#' | sort
}

# new_lines PARENT COMMIT: the lines of the file COMMIT that the file PARENT
# lacks (both sorted; a line twice in COMMIT and once in PARENT counts once):
# the warnings a commit adds to its parent's. A missing file is an error
# (exit 2, saying which), never "no new warnings".
new_lines() {
	local f
	for f in "$1" "$2"; do
		[ -f "$f" ] || { echo "no warnings file $f"; return 2; }
	done
	comm -13 "$1" "$2"
}

# --- Results of the checks (ci/check.sh, ci/checks/) -----------------------
# Every check writes its results, one a line, tab-separated, to a file of
# the run's results directory (ci/check.sh: $LOGDIR/results/NN for commit
# NN, 00 for the base, "series" for the checks of the whole series), and
# ci/checks/report.sh makes the table and the totals from those files alone:
#   ok|FAIL|skip COUNT WHAT   COUNT results passed, failed or skipped
#   cell COLUMN VALUE         the commit's cell of the per-commit table
#   time KEY SECONDS          time spent, summed per KEY
# A check's exit status when nothing after it can be judged (ci/check.sh)
STOP=3
result() {	# FILE STATUS COUNT WHAT
	printf '%s\t%s\t%s\n' "$2" "$3" "$4" >>"$1"
	[ "$2" != FAIL ] || say "FAIL: $4"
}
tool_results() {	# FILE TOOL RC PREFIX: TOOL's output on stdin, TOOL exited RC
	# One result per "TOOL ok WHAT" and "TOOL FAIL WHAT" line, as PREFIX
	# WHAT; a TOOL that failed without such a line is a failure of its own.
	local f=$1 tool=$2 rc=$3 prefix=$4 l what named=0
	while IFS= read -r l; do
		what=$(sed -E "s/^$tool (ok|FAIL) +//" <<<"$l")
		case $l in
		"$tool ok "*) result "$f" ok 1 "$prefix$what" ;;
		"$tool FAIL "*) result "$f" FAIL 1 "$prefix$what"; named=1 ;;
		esac
	done
	[ "$rc" = 0 ] || [ $named = 1 ] || result "$f" FAIL 1 "${prefix}ci/$tool.sh exited with $rc and named no failure"
}
cell() { printf 'cell\t%s\t%s\n' "$2" "$3" >>"$1"; }	# FILE COLUMN VALUE
cell_of() {	# FILE COLUMN: the cell's last value, or "-"
	awk -F'\t' -v c="$2" '$1 == "cell" && $2 == c { v = $3 } END { print (v == "" ? "-" : v) }' "$1"
}

# mutant_split LINE: the fields of a ci/mutants.conf line into mf[], each
# trimmed. Fields are separated by " | " exactly: a substitution may hold
# "|". A good line has 6 (name, file, substitution, vCPUs, kernel
# arguments, catcher).
mutant_split() {
	local rest=$1
	mf=()
	while [[ $rest == *" | "* ]]; do
		mf+=("$(sed -E 's/^ +//; s/ +$//' <<<"${rest%% | *}")")
		rest=${rest#* | }
	done
	mf+=("$(sed -E 's/^ +//; s/ +$//' <<<"$rest")")
}

# --- Boots of ci/boots.conf -------------------------------------------------
# summary_count KEY LINE: N of KEY=N in the verdict's summary line
# (ci/verdict.sh: "boot=ok tests_pass=N tests_skip=N tests_fail=N secs=N"),
# 0 when absent. Read, never evaluated.
summary_count() { sed -n "s/.*\\b$1=\\([0-9][0-9]*\\).*/\\1/p" <<<"$2" | tail -n1 | grep . || echo 0; }

# run_boot NAME VCPUS ARGS IMAGE LOG HZ IDLE: the boot NAME of ci/boots.conf
# with its test plan (ci/plan.sh) through ci/boot.sh, the guest idle for
# IDLE seconds where a test judges a long idle. Sets boot_plan, boot_rc (0:
# the boot passed), tests_pass, tests_skip and tests_fail, and prints the
# KTAP results to stderr. Returns 2, booting nothing, when the plan fails.
# The one boot loop of check.sh and retest.sh.
boot_conf() {	# NAME: "VCPUS ARGS" of the boot NAME of ci/boots.conf ("-": no ARGS)
	local line
	line=$(awk -v b="$1" '$1 == b { $1 = ""; if ($3 == "-") $3 = ""; sub(/^ +/, ""); sub(/ +$/, ""); print; exit }' "$TOP/ci/boots.conf")
	[ -n "$line" ] || die "no boot '$1' in ci/boots.conf"
	printf '%s\n' "$line"
}
boot_args() {	# NAME: the kernel arguments of the boot NAME of ci/boots.conf
	local conf vcpus args
	conf=$(boot_conf "$1")
	read -r vcpus args <<<"$conf"
	printf '%s\n' "$args"
}

# ktap_counts LOG: what the tree's own KTAP parser (kunit.py parse) reads
# in a guest's log, "passed=P skipped=S failed=F crashed=C errors=E"
ktap_counts() {
	local log line k n out=""
	log=$(realpath "$1")
	line=$(cd "$TREE" && python3 tools/testing/kunit/kunit.py parse "$log" 2>&1 |
		grep 'Testing complete' | tail -n1 || true)
	for k in passed skipped failed crashed errors; do
		n=$(grep -oE "$k: [0-9]+" <<<"$line" | grep -oE '[0-9]+' || echo 0)
		out+="$k=$n "
	done
	printf '%s\n' "${out% }"
}

run_boot() {
	local name=$1 vcpus=$2 args=$3 image=$4 log=$5 hz=$6 idle=$7 res
	tests_pass=0 tests_skip=0 tests_fail=0 boot_rc=1 boot_plan=""
	[ "$args" != - ] || args=""
	boot_plan=$(bash "$TOP/ci/plan.sh" "$name") || return 2
	res=$(bash "$TOP/ci/boot.sh" "$image" "$log" "$vcpus" \
		"$args dt.hz=$hz dt.idle=$idle $boot_plan" 600 </dev/null) && boot_rc=0 || boot_rc=$?
	tests_pass=$(summary_count tests_pass "$res")
	tests_skip=$(summary_count tests_skip "$res")
	tests_fail=$(summary_count tests_fail "$res")
	grep -E '^(not )?ok ' "$log" | sed "s/^/    [$name] /" >&2 || true
}

# The benchmarks' kernels (make bench, make wakes): the unpatched periodic
# kernel in $WORK/build-base and mainline NO_HZ_IDLE in $WORK/build-nohz,
# both from the worktree at the base commit (so that they share ccache with
# the check's builds of the base), the series' tip with NO_IDLE_HZ in
# $WORK/build-on, and the guest. The caller runs under guard: the tree
# goes back on its branch also when the run is interrupted.
bench_kernels() {	# WHO: the command, for the message
	if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
		die "$1: $TREE has uncommitted edits; commit (and make export) or stash them first: make $1 checks out the base commit"
	fi
	say "$1: building the three kernels"
	git -C "$TREE" checkout -q "$(base_commit)"
	seed_build "$WORK/build-off" "$WORK/build-base"
	bash "$TOP/ci/build.sh" "$WORK/build-base" base dyntick-off >/dev/null
	seed_build "$WORK/build-base" "$WORK/build-nohz"
	bash "$TOP/ci/build.sh" "$WORK/build-nohz" base nohz-idle >/dev/null
	git -C "$TREE" checkout -q series
	bash "$TOP/ci/build.sh" "$WORK/build-on" base dyntick-on >/dev/null
	bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null
	grep -q '^CONFIG_NO_HZ_IDLE=y' "$WORK/build-nohz/.config" || die "nohz kernel lacks NO_HZ_IDLE"
	grep -q '^CONFIG_NO_IDLE_HZ=y' "$WORK/build-on/.config" || die "dyn-tick kernel lacks NO_IDLE_HZ"
}

# --- Interrupted runs ------------------------------------------------------
# guard "$@": the first command of a script that moves the tree or starts
# QEMU (check.sh, selftest.sh). An interrupted run (Ctrl-C, the SIGTERM of a
# CI timeout) must put the tree back, kill its QEMUs and remove its files.
# Bash runs a trap only when its foreground command has ended, so a SIGTERM
# during a 600 s boot would wait for the boot, and a signal sent to the
# script alone never reaches QEMU. So the script runs again as a child in a
# session of its own, and this parent only waits (a trapped signal ends the
# wait at once). On INT/TERM/HUP it sends TERM to every process of that
# session (KILL after 30 s, which leaves the scripts' own traps time to undo
# their edits); then it kills any QEMU that wrote its pid file into the
# run's directory $DYNTICK_RUN (boot.sh, qemu_run.py: one that left the
# session), checks out the ref the tree had when the run began, and removes
# $DYNTICK_RUN, where the scripts keep their temporary files. A script that
# a guarded one runs (selftest.sh under check.sh) inherits DYNTICK_RUN and
# is guarded by it.
guard() {
	[ -z "${DYNTICK_RUN:-}" ] || return 0
	DYNTICK_RUN=$(mktemp -d "${TMPDIR:-/tmp}/dyntick-run.XXXXXX")
	export DYNTICK_RUN
	guard_ref=$(tree_ref)
	guard_sig=0 guard_pid=""
	trap 'guard_signal 130 INT' INT
	trap 'guard_signal 143 TERM' TERM
	trap 'guard_signal 129 HUP' HUP
	trap guard_cleanup EXIT
	setsid bash "${BASH_SOURCE[1]}" "$@" </dev/null &
	guard_pid=$!
	local rc=0
	wait "$guard_pid" || rc=$?
	exit "$rc"
}

tree_ref() {	# refs/heads/BRANCH, or the commit of a detached HEAD
	git -C "$TREE" symbolic-ref -q HEAD 2>/dev/null ||
		git -C "$TREE" rev-parse -q --verify HEAD 2>/dev/null || true
}

guard_signal() {	# EXIT-CODE NAME
	guard_sig=$1
	say "interrupted (SIG$2): stopping the run"
	exit "$1"
}

guard_alive() {	# processes of the child's session that have not ended (never this one)
	{ ps --sid "$guard_pid" -o pid=,stat= 2>/dev/null
	  ps -p "$guard_pid" -o pid=,stat= 2>/dev/null; } |
		awk -v self=$$ '$1 != self && $2 !~ /^Z/ { print $1 }' | sort -u
}

guard_stop() {
	local p
	if [ -z "$guard_pid" ] || [ "$guard_pid" -le 1 ]; then return 0; fi
	for p in $(guard_alive); do kill -TERM "$p" 2>/dev/null || true; done
	for _ in $(seq 300); do
		[ -n "$(guard_alive)" ] || break
		sleep 0.1
	done
	for p in $(guard_alive); do kill -KILL "$p" 2>/dev/null || true; done
	wait "$guard_pid" 2>/dev/null || true
}

runs_with() {	# PID FILE: PID is a live process with FILE in its command line
	[[ $1 =~ ^[0-9]+$ ]] && [ "$1" -gt 1 ] &&
		tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF -- "$2"
}

guard_kill_qemu() {	# a pid file names its QEMU while that QEMU runs with it
	local f pid
	for f in "$DYNTICK_RUN"/qemu.*.pid; do
		pid=$(cat "$f" 2>/dev/null) || continue
		runs_with "$pid" "$f" || continue
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 50); do runs_with "$pid" "$f" || break; sleep 0.1; done
		! runs_with "$pid" "$f" || kill -KILL "$pid" 2>/dev/null || true
		say "guard: killed QEMU $pid, which outlived its run"
	done
}

guard_restore() {	# the tree back on the ref it had when the run began
	local now
	[ -n "$guard_ref" ] || return 0
	now=$(tree_ref)
	[ "$now" != "$guard_ref" ] || return 0
	if git -C "$TREE" checkout -q "${guard_ref#refs/heads/}" -- 2>/dev/null; then
		say "interrupted: $TREE is back on ${guard_ref#refs/heads/}"
	else
		say "interrupted: could not put $TREE back on ${guard_ref#refs/heads/} (now at $now): git -C $TREE status"
	fi
}

guard_cleanup() {
	local rc=$?
	trap '' INT TERM HUP	# a second Ctrl-C must not cut the cleanup short
	guard_stop
	guard_kill_qemu
	# A run that ended by itself left the tree where it meant to (check.sh:
	# on series); an interrupted or killed one goes back to where it began.
	if [ "$guard_sig" != 0 ] || [ "$rc" -ge 128 ]; then guard_restore; fi
	rm -rf "$DYNTICK_RUN"
	exit "$rc"
}
