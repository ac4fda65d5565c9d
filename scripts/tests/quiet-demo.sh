#!/bin/sh
# SPDX-License-Identifier: MIT
# Warnings only when something is wrong for the user: `make run` (the demo)
# on a fresh machine warns of nothing. Its recordings were made elsewhere,
# under another kernel (perf.data's "os release"): their dumps are found
# beside perf.data, not at the paths perf.data names (the usual way a
# recording moves: no warning); their [vdso] is the other kernel's and a
# program they ran is not here (or another build): one note, naming the
# files by their base names, not by the recording machine's paths, which
# would read as this machine's. A class of samples the plugin's note told
# is not counted again in the report's note on unattributed samples. One
# stripped library has 1 sample (one short note, not the advice on debug
# symbols). "Fresh" is a build-id cache of this test's own, empty, as
# scripts/capture-outputs makes it, and /tmp of its own (no recording put
# back at its recorded path). This test runs what `make run` runs and fails
# on any warning line.
. "$(dirname "$0")/lib.sh"
need_private_tmp

# The empty cache outside /tmp: make run puts a /tmp of its own over this
# test's (with-private-tmp), which hid a cache under $tmp, so that perf and
# the plugin ran with none at all, and the wasmtime recording's note was not
# the one a fresh machine gets.
mkdir -p "$top/build/tmp" && bid=$(mktemp -d "$top/build/tmp/quiet-demo-bid.XXXXXX") || exit 1
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp" "$bid" "$bid.perf-config"' EXIT
printf '[buildid]\n\tdir = %s\n' "$bid" >"$bid.perf-config"
# make's own variables unset: make check runs this test. Standard error with
# standard output, so that each note is under its recording's "== " line.
# Under a kernel release that is surely not the recordings' (setarch
# --uname-2.6: uname says 2.6.*), so that the notes are those of a machine
# other than the recording one, whatever kernel runs the test (on the
# recording's own kernel the plugin cannot tell the files were elsewhere).
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PERF_CONFIG="$bid.perf-config" HOTBLOCKS_PERF_BUILDID="$bid" \
	setarch "$(uname -m)" --uname-2.6 \
	make -s --no-print-directory -C "$top" -o build/.deps-run run >"$tmp/run.all" 2>&1
rc=$?
grep '^hotblocks: ' "$tmp/run.all" >"$tmp/run.err"
check "make run with an empty build-id cache: exit 0, the three recordings reported" sh -c \
	"test $rc -eq 0 && test \"\$(grep -c '^Collected ' '$tmp/run.all')\" -eq 3"
check "make run on a fresh machine: no warning line" sh -c "! grep -i 'warning' '$tmp/run.all'"
check "... not that a jitdump is gone (each is found beside its perf.data)" sh -c "! grep 'is gone' '$tmp/run.all'"
# The notes of each recording: those after its "== " line.
awk '/^== /{ n++ } /^hotblocks: /{ c[n]++ } END { for (i = 1; i <= n; i++) print c[i] + 0 }' "$tmp/run.all" >"$tmp/per-case"
check "make run: at most 3 lines of notes for each recording ($(tr '\n' ' ' <"$tmp/per-case")), none longer than 250 bytes" sh -c \
	"test \"\$(wc -l <'$tmp/per-case')\" -eq 3 && awk '\$1 > 3 { bad = 1 } END { exit bad }' '$tmp/per-case' &&
	! grep -q '.\{251\\}' '$tmp/run.err'"
check "make run: the stripped library's 1 sample is a one-line note without the debug-symbol advice" sh -c \
	"grep -q '^hotblocks: note: 1 sample in functions without symbols, of 1 stripped file (libstdc++.so.6.0.30 100.0%): named by their .eh_frame bounds (FILE+0xOFFSET)$' '$tmp/run.err' &&
	! grep -q DEBUGINFOD_URLS '$tmp/run.err'"
check "make run: the fakejit recording's files not as recorded are one note, by base name, its kernel said" \
	grep -q '^hotblocks: note: recorded under kernel 6\.18\.44-fc-v669, not this one: 7 samples in code no symbol or \.eh_frame entry covers: fakejit 3 ([a-z ]*); \[vdso\] 4 (its kernel'"'"'s); counted as unattributed\.no-symbol$' "$tmp/run.err"
# No path of the machine that made a recording (perf.data's build-id
# table names every file it sampled) in a note: fakejit was run from a
# checkout there, wasmtime from /tmp/hotblocks-rec; only the jitdumps'
# recorded paths, said to be not where perf.data says.
for c in v8-wasm fakejit wasmtime-real/48.0.2/switch/jitdump; do
	perf buildid-list -i "$top/test-data/$c/perf.data" 2>/dev/null | awk '$2 ~ /^\// { print $2 }'
done | sort -u >"$tmp/recorded-paths"
grep -v '/libc\.so\.6$\|/ld-linux-x86-64\.so\.2$\|/libstdc++\.so\.6\.0\.30$' "$tmp/recorded-paths" >"$tmp/theirs" || true
check "make run: the notes name none of the recordings' own programs by their paths there ($(wc -l <"$tmp/theirs") paths)" sh -c \
	"test -s '$tmp/theirs' && ! grep -F -f '$tmp/theirs' '$tmp/run.err'"
# Counted once: the plugin's notes say their class, and the report's note
# on unattributed samples leaves a class told in full out.
check "make run: no count said twice (no 'samples unattributed' note after the plugin's notes told each class)" sh -c \
	"test \"\$(grep -c 'counted as unattributed\.' '$tmp/run.err')\" -ge 3 && ! grep -q 'samples\? unattributed (' '$tmp/run.err'"
echo "1..$tap_n"
