#!/usr/bin/env bash
# Print the guest test plan of one boot at the tree's current commit as
# kernel arguments: "dt.tests=... dt.skip=...".
# usage: plan.sh BOOTNAME
# The BOOTS column of ci/tests.conf: "all" (every boot), "smp" (every boot
# of more than one vCPU in ci/boots.conf), or boot names (a boot that some
# test names runs only sleep_sane and the tests that name it).
# Fails, with nothing on stdout, when BOOTNAME is not a boot of
# ci/boots.conf, or when ci/tests.conf has a line without a requirement
# ("-" or FILE:REGEX), an invalid REGEX, or a test naming a boot that
# ci/boots.conf does not have (such a test would never run).
source "$(dirname "$0")/lib.sh"

conf=$TOP/ci/tests.conf
boot=${1:?usage: plan.sh BOOTNAME}
known_boots=$(awk '$1 !~ /^(#|$)/ { print $1 }' "$TOP/ci/boots.conf")
grep -qxF -- "$boot" <<<"$known_boots" || die "plan: no boot '$boot' in ci/boots.conf"
vcpus=$(awk -v b="$boot" '$1 == b { print $2 }' "$TOP/ci/boots.conf")
[[ $vcpus =~ ^[0-9]+$ ]] || die "plan: boot '$boot' has no vCPU count in ci/boots.conf"

# Check every line first, whichever boot it is for.
n=0
while read -r name boots req; do
	n=$((n + 1))
	case $name in ''|'#'*) continue ;; esac
	where="ci/tests.conf line $n ($name)"
	[ -n "$boots" ] && [ -n "$req" ] || die "plan: $where: expected TEST BOOTS REQUIREMENT"
	if [ "$boots" != all ] && [ "$boots" != smp ]; then
		for b in ${boots//,/ }; do
			grep -qxF -- "$b" <<<"$known_boots" || die "plan: $where: boot '$b' is not in ci/boots.conf"
		done
	fi
	[ "$req" = - ] && continue
	[[ $req == ?*:?* ]] || die "plan: $where: requirement '$req' is not FILE:REGEX or -"
	rc=0; grep -qE -- "${req#*:}" /dev/null 2>/dev/null || rc=$?
	[ $rc = 1 ] || die "plan: $where: invalid regular expression '${req#*:}'"
done <"$conf"

run=() skip=()
while read -r name boots req; do
	case $name in ''|'#'*) continue ;; esac
	case $boots in
	all) ;;
	smp) [ "$vcpus" -gt 1 ] || continue ;;
	*) printf ',%s,' "$boots" | grep -q ",$boot," || continue ;;
	esac
	# A boot that is named by some test runs only the tests naming it.
	if { [ "$boots" = all ] || [ "$boots" = smp ]; } && grep -qE "^[a-z_]+ +([a-z0-9,]*,)?$boot(,[a-z0-9,]*)? " "$conf"; then
		[ "$name" = sleep_sane ] || continue
	fi
	if [ "$req" = - ] || grep -qE -- "${req#*:}" "$TREE/${req%%:*}" 2>/dev/null; then
		run+=("$name")
	else
		skip+=("$name")
	fi
done <"$conf"
(IFS=,; echo "dt.tests=${run[*]} dt.skip=${skip[*]}")
