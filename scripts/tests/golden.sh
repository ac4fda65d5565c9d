#!/bin/sh
# SPDX-License-Identifier: MIT
# One golden case of postproc/hotblocks, test-data/golden/CASE/ (its README
# says what a case holds and how each expectation was made). scripts/run-tests
# runs each case as the test golden/CASE: make check T=golden/CASE for one,
# TESTS=golden scripts/run-tests for all.
#   sh scripts/tests/golden.sh CASE           one TAP line: the output is the expected one
#   UPDATE=1 ...                              rewrite the case's expectations (review the diff!)
#   VALGRIND=1 ...                            run hotblocks under valgrind (errors fail the case)
#   HOTBLOCKS=path ...                        test another binary
# A case has `args` (one line of options, split on blanks), `input.hbs`, `expected.out`,
# and optionally `expected.err` (default: empty) and `exit` (default: 0). It runs as
#   cd CASE && hotblocks ARGS input.hbs </dev/null
# under LC_ALL=C, so args may name more files of the case.
set -u
export LC_ALL=C
unset NO_COLOR
top=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: sh scripts/tests/golden.sh CASE (a directory of test-data/golden/)}
dir=$top/test-data/golden/$name
bin=${HOTBLOCKS:-$top/postproc/hotblocks}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
vg=
if [ "${VALGRIND:-0}" = 1 ]; then
	vg="valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99"
fi

echo "1..1"
if [ ! -f "$dir/args" ]; then
	echo "not ok 1 - $name: test-data/golden/$name/args does not exist"
	exit 1
fi
if [ ! -x "$bin" ]; then
	echo "not ok 1 - $name: $bin is not built (make)"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
args=$(cat "$dir/args")
# Word splitting of args is wanted; globbing is not.
(cd "$dir" && set -f && exec $vg "$bin" $args input.hbs) \
	>"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?

if [ "${UPDATE:-0}" = 1 ]; then
	cp "$tmp/out" "$dir/expected.out"
	if [ -s "$tmp/err" ]; then cp "$tmp/err" "$dir/expected.err"; else rm -f "$dir/expected.err"; fi
	if [ "$rc" -ne 0 ]; then echo "$rc" >"$dir/exit"; else rm -f "$dir/exit"; fi
	echo "ok 1 - $name # updated"
	exit 0
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
	echo "ok 1 - $name"
else
	echo "not ok 1 - $name"
	exit 1
fi
