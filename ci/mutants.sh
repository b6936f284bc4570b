#!/usr/bin/env bash
# Mutation test of the series (make mutants): for every mutant of
# ci/mutants.conf, put its bug into the tip's worktree, build the kernel
# with the feature on, run its catcher, and put the file back. A mutant
# whose catcher passes has survived. Ends with "N passed, N failed" (a
# killed mutant passes). usage: mutants.sh [NAME...]   (default: all)
#
# The worktree must be at the series tip with no edits: the mutants edit it,
# and this refuses rather than mix a mutant with someone's work.
source "$(dirname "$0")/lib.sh"

conf="$TOP/ci/mutants.conf"
out="$WORK/build-mutant"
mkdir -p "$LOGDIR"
want=" $* "

cd "$TREE" || exit 1
[ "$(git rev-parse HEAD)" = "$(git rev-parse series)" ] ||
	die "mutants: $TREE is not at the series tip (git checkout series)"
edits=$(git status --porcelain --untracked-files=no)
[ -z "$edits" ] || die "mutants: $TREE has uncommitted edits; commit and make export them first:
$edits"

mutated=""
restore() {
	[ -n "$mutated" ] && git -C "$TREE" checkout -q -- "$mutated"
	mutated=""
}
trap restore EXIT
trap 'restore; exit 130' INT
trap 'restore; exit 143' TERM

bash "$TOP/ci/guest.sh" "$WORK/guest" >/dev/null || die "guest userland does not build"

# The kernel a mutant is built in: tiny (tinyconfig, base, dyntick-on; a
# copy of the tip's build-on to start from) or debian (Debian's own
# configuration, the kernel of the matrix rows debian*: a copy of theirs).
mutant_out() { [ "$1" = debian ] && echo "$out-debian" || echo "$out"; }
build_mutant() {
	local cfg
	if [ "$1" = debian ]; then
		cfg=$(bash "$TOP/ci/distro-config.sh") &&
			seed_build "$WORK/build-m-debian-distro" "$out-debian" &&
			BASECONFIG=$cfg bash "$TOP/ci/build.sh" "$out-debian" distro
	else
		seed_build "$WORK/build-on" "$out" && bash "$TOP/ci/build.sh" "$out" base dyntick-on
	fi
}

passed=0 failed=0 n=0
table=("mutant|catcher|result")
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	mutant_split "$line"
	[ ${#mf[@]} = 6 ] || die "mutants: ci/mutants.conf: not 6 fields: $line"
	name=${mf[0]} file=${mf[1]} subst=${mf[2]}
	vcpus=${mf[3]} args=${mf[4]} catcher=${mf[5]}
	kernel=tiny
	[[ $vcpus != *@* ]] || kernel=${vcpus#*@} vcpus=${vcpus%%@*}
	case $kernel in tiny | debian) ;; *) die "mutants: ci/mutants.conf: $name: no kernel '$kernel' (tiny or debian)" ;; esac
	[ $# = 0 ] || [[ $want == *" $name "* ]] || continue
	n=$((n + 1))
	say ""
	say "=== mutant $name: $file: $subst"

	mutated=$file
	perl -0pi -e "$subst" "$file"
	if git diff --quiet -- "$file"; then
		restore
		failed=$((failed + 1)); table+=("$name|$catcher|FAIL: the substitution does not change $file")
		continue
	fi
	git --no-pager diff -U0 -- "$file" | grep -E '^[-+][^-+]' | sed 's/^/    /' >&2

	verdict=""
	if [ "$catcher" = kunit ]; then
		if bash "$TOP/ci/kunit.sh" "$LOGDIR/mutant-$name.log" >/dev/null 2>&1; then
			verdict="SURVIVED: the KUnit suite passes"
		elif grep -q 'Testing complete.*failed: [1-9]' "$LOGDIR/mutant-$name.log" ||
		     grep -q '\[FAILED\]' "$LOGDIR/mutant-$name.log"; then
			verdict="killed: $(grep -m1 '\[FAILED\]' "$LOGDIR/mutant-$name.log" | sed 's/^.*\[FAILED\] //')"
		else
			verdict="FAIL: the KUnit run broke (log $LOGDIR/mutant-$name.log)"
		fi
	elif ! build_mutant "$kernel" >"$LOGDIR/mutant-$name-build.log" 2>&1; then
		if [ "$catcher" = build ]; then
			verdict="killed: $(grep -m1 -E 'ERROR|error:' "$LOGDIR/mutant-$name-build.log" | cut -c1-160)"
		else
			verdict="FAIL: does not build (log $LOGDIR/mutant-$name-build.log)"
		fi
	elif [ "$catcher" = build ]; then
		verdict="SURVIVED: it builds"
	else
		hz=$(sed -n 's/^CONFIG_HZ=//p' "$(mutant_out "$kernel")/.config")
		[ "$args" = - ] && args=""
		# boot:NAME, the arguments of that boot of ci/boots.conf
		[[ $args != boot:* ]] || args=$(boot_args "${args#boot:}")
		rc=0
		bash "$TOP/ci/boot.sh" "$(mutant_out "$kernel")/arch/x86/boot/bzImage" "$LOGDIR/mutant-$name.log" \
			"$vcpus" "$args dt.hz=$hz dt.idle=5 dt.tests=$catcher" 600 \
			</dev/null >/dev/null 2>&1 || rc=$?
		if [ $rc = 0 ]; then
			verdict="SURVIVED: $catcher passes"
		elif caught=$(grep -aE "^not ok [0-9]+ (${catcher//,/|})( |$)" "$LOGDIR/mutant-$name.log" |
			      grep -v '# unknown test$'); then
			verdict="killed: $(printf '%s\n' "$caught" | head -n1 | cut -c1-160)"
		else
			verdict="FAIL: the boot failed, but not in $catcher (log $LOGDIR/mutant-$name.log)"
		fi
	fi
	restore
	say "mutant $name: $verdict"
	case $verdict in
	killed*) passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	table+=("$name|$catcher|$verdict")
done <"$conf"
[ $n -gt 0 ] || die "mutants: no such mutant: $*"

say ""
printf '%s\n' "${table[@]}" | column -t -s '|' >&2
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
