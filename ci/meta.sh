#!/usr/bin/env bash
# Checks of the series as mail: every patch signed off by its author, with a
# subsystem prefix in its subject; MAINTAINERS.snippet is the entry the
# series adds, and each of its F: patterns matches files the series adds.
# Prints "meta ok ..." / "meta FAIL ..." lines; exits non-zero on a failure.
source "$(dirname "$0")/lib.sh"

rc=0
for p in $(series_patches); do
	name=$(basename "$p")
	author=$(python3 - "$p" <<'PY'
import email, email.header, sys
m = email.message_from_file(open(sys.argv[1]))
print(" ".join(str(email.header.make_header(email.header.decode_header(m["From"]))).split()))
PY
)
	subject=$(sed -n '/^Subject: /{N;s/\n//;s/^Subject: \[PATCH[^]]*\] //p}' "$p" | head -n1)
	sob=$(grep -E '^Signed-off-by: ' "$p" | tail -n1 | sed 's/^Signed-off-by: //')
	if [ "$sob" != "$author" ]; then
		echo "meta FAIL $name: last Signed-off-by '$sob' is not the author '$author'"; rc=1
	elif ! printf '%s' "$subject" | grep -qE '^[A-Za-z0-9][A-Za-z0-9_./-]*(: [a-z0-9][a-z0-9_./-]*)?: [A-Z][a-z]'; then
		echo "meta FAIL $name: subject '$subject' lacks a 'subsystem: Verb ...' prefix"; rc=1
	else
		echo "meta ok   $name: signed off by the author; '$subject'"
	fi
done

snippet="$TOP/MAINTAINERS.snippet"
if ! python3 - "$snippet" "$TREE/MAINTAINERS" <<'PY'
import sys
snip = open(sys.argv[1]).read().strip("\n")
sys.exit(0 if ("\n" + snip + "\n") in open(sys.argv[2]).read() else 1)
PY
then
	echo "meta FAIL MAINTAINERS.snippet: not the entry in the tip's MAINTAINERS"; rc=1
else
	added=$(git -C "$TREE" diff --name-only --diff-filter=A "$(base_commit)..series")
	for f in $(sed -n 's/^F:[[:space:]]*//p' "$snippet"); do
		if printf '%s\n' "$added" | grep -qE "^${f//\*/.*}"; then
			echo "meta ok   MAINTAINERS.snippet F: $f matches files of the series"
		else
			echo "meta FAIL MAINTAINERS.snippet F: $f matches no file the series adds"; rc=1
		fi
	done
	for f in $added; do
		sed -n 's/^F:[[:space:]]*//p' "$snippet" | grep -qxF "$f" ||
			{ echo "meta FAIL $f: added by the series but not in MAINTAINERS.snippet"; rc=1; }
	done
fi
exit $rc
