#!/usr/bin/env bash
# Print the guest test plan of one boot at the tree's current commit as
# kernel arguments: "dt.tests=... dt.skip=...".
# usage: plan.sh BOOTNAME
source "$(dirname "$0")/lib.sh"

boot=$1
run=() skip=()
while read -r name boots req; do
	case $name in ''|'#'*) continue ;; esac
	if [ "$boots" != all ] && ! printf ',%s,' "$boots" | grep -q ",$boot,"; then
		continue
	fi
	# A boot that is named by some test runs only the tests naming it.
	if [ "$boots" = all ] && grep -qE "^[a-z_]+ +([a-z0-9,]*,)?$boot(,[a-z0-9,]*)? " "$TOP/ci/tests.conf"; then
		[ "$name" = sleep_sane ] || continue
	fi
	if [ "$req" = - ] || grep -qE "${req#*:}" "$TREE/${req%%:*}" 2>/dev/null; then
		run+=("$name")
	else
		skip+=("$name")
	fi
done <"$TOP/ci/tests.conf"
(IFS=,; echo "dt.tests=${run[*]} dt.skip=${skip[*]}")
