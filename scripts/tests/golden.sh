#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden tests of postproc/hotblocks: one directory per case in test-data/golden/.
#   sh scripts/tests/golden.sh          run every case, print TAP ("ok N - case")
#   UPDATE=1 sh scripts/tests/golden.sh rewrite the expectations (review the diff!)
#   VALGRIND=1 ...                      run hotblocks under valgrind (errors fail the case)
#   HOTBLOCKS=path ...                  test another binary
# A case has `args` (one line of options, split on blanks), `input.hbs`, `expected.out`,
# and optionally `expected.err` (default: empty) and `exit` (default: 0). It runs as
#   cd CASE && hotblocks ARGS input.hbs </dev/null
# under LC_ALL=C, so args may name more files of the case. See test-data/golden/README.md.
set -u
export LC_ALL=C
unset NO_COLOR
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${HOTBLOCKS:-$top/postproc/hotblocks}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
vg=
if [ "${VALGRIND:-0}" = 1 ]; then
	vg="valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99"
fi

if [ ! -x "$bin" ]; then
	echo "not ok 1 - $bin is not built (make)"
	echo "1..1"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0 failed=0
for dir in "$top"/test-data/golden/*/; do
	dir=${dir%/}
	[ -f "$dir/args" ] || continue
	name=$(basename "$dir")
	n=$((n + 1))
	args=$(cat "$dir/args")
	# Word splitting of args is wanted; globbing is not.
	(cd "$dir" && set -f && exec $vg "$bin" $args input.hbs) \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?

	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp/out" "$dir/expected.out"
		if [ -s "$tmp/err" ]; then cp "$tmp/err" "$dir/expected.err"; else rm -f "$dir/expected.err"; fi
		if [ "$rc" -ne 0 ]; then echo "$rc" >"$dir/exit"; else rm -f "$dir/exit"; fi
		echo "ok $n - $name # updated"
		continue
	fi

	want_rc=0
	[ -f "$dir/exit" ] && want_rc=$(cat "$dir/exit")
	: >"$tmp/empty"
	want_err="$dir/expected.err"
	[ -f "$want_err" ] || want_err="$tmp/empty"
	ok=1
	if ! diff -u "$dir/expected.out" "$tmp/out" >"$tmp/diff" 2>&1; then
		ok=0
		sed 's/^/# /' "$tmp/diff"
	fi
	if ! diff -u "$want_err" "$tmp/err" >"$tmp/diff" 2>&1; then
		ok=0
		echo "# stderr:"
		sed 's/^/# /' "$tmp/diff"
	fi
	if [ "$rc" != "$want_rc" ]; then
		ok=0
		echo "# exit status $rc, expected $want_rc"
	fi
	if [ "$ok" = 1 ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
