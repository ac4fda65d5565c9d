#!/bin/sh
# SPDX-License-Identifier: MIT
# Warnings only when something is wrong for the user: `make run` (the demo)
# on a fresh machine warns of nothing. Its recordings were made elsewhere:
# their dumps are found beside perf.data, not at the paths perf.data names
# (the usual way a recording moves: no warning); their [vdso] is another
# kernel's and a program they ran is not here (a few samples: one note, not
# a warning per file); one stripped library has 1 sample (one short note, not
# the advice on debug symbols). "Fresh" is a build-id cache of this test's
# own, empty, as scripts/capture-outputs makes it. The notes are at most
# three lines for each of the demo's three recordings, each line short.
. "$(dirname "$0")/lib.sh"
need_private_tmp

bid=$tmp/perf-buildid
mkdir -p "$bid"
printf '[buildid]\n\tdir = %s\n' "$bid" >"$bid.perf-config"
# make's own variables unset: make check runs this test.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PERF_CONFIG="$bid.perf-config" HOTBLOCKS_PERF_BUILDID="$bid" \
	make -s --no-print-directory -C "$top" -o build/.deps-run run >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
check "make run with an empty build-id cache: exit 0, the three recordings reported" sh -c \
	"test $rc -eq 0 && test \"\$(grep -c '^Collected ' '$tmp/run.out')\" -eq 3"
check "make run on a fresh machine: no warning" sh -c "! grep -i 'warning' '$tmp/run.err'"
check "... not that a jitdump is gone (each is found beside its perf.data)" sh -c "! grep 'is gone' '$tmp/run.err'"
# The notes, case by case (make run's "== test-data/..." lines on stdout
# delimit them only there, so count them all): at most 3 for each of 3.
check "make run: at most 9 lines of notes in all, none longer than 250 bytes" sh -c \
	"test \"\$(grep -c . '$tmp/run.err')\" -le 9 && ! grep -q '.\{251\\}' '$tmp/run.err'"
check "make run: the stripped library's 1 sample is a one-line note without the debug-symbol advice" sh -c \
	"grep -q '^hotblocks: note: 1 sample in functions without symbols, of 1 stripped file (libstdc++.so.6.0.30 100.0%): named by their .eh_frame bounds (FILE+0xOFFSET)$' '$tmp/run.err' &&
	! grep -q DEBUGINFOD_URLS '$tmp/run.err'"
check "make run: the fakejit recording's files not found here are one note, with their samples" \
	grep -q '^hotblocks: note: [0-9]* samples in code no symbol or .eh_frame entry covers: .*\[vdso\] [0-9]* (' "$tmp/run.err"
echo "1..$tap_n"
