#!/bin/sh
# SPDX-License-Identifier: MIT
# Nothing the user owns is lost to an output:
#  1. every writer of hotblocks and hotblocks diff (-o, --html=, --dot=,
#     --json -o) refuses an output that is one of its inputs -- a stream
#     (named, or standard input), --cwasm, --wasm, a file of --clif, the
#     perf.data and the jitdump the stream was made from -- by its own name,
#     a symlink or a hard link: exit 2, a message naming both, the input
#     byte for byte as it was;
#  2. a run ended while writing (here by the file size limit, SIGXFSZ)
#     leaves the earlier report as it was and no temporary file beside it;
#     a symlink is written through (the link stays);
#  3. the plugin's out= likewise: a run ended while writing the stream
#     leaves the earlier file as it was.
# The inputs are copies of the committed recordings in this test's own
# directory, compared with cmp against their originals.
. "$(dirname "$0")/lib.sh"
need_private_tmp

w=$tmp/w
mkdir -p "$w"
cp "$top/test-data/fakejit/perf.data" "$w/perf.data"
cp "$top"/test-data/fakejit/jit-*.dump "$w/"
dump=$(ls "$w"/jit-*.dump)
wt=$top/test-data/wasmtime-real
cp "$wt/48.0.2/switch/module.cwasm" "$wt/switch.wasm" "$w/"
cp -r "$wt/48.0.2/switch/clif" "$w/clif"
clif1=$(ls "$w"/clif/* | head -n 1)
# The stream names $w/perf.data and the dump it read beside it.
(cd "$w" && plugin_stream perf.data a.hbs "jitdir=$w" 2>/dev/null)
cp "$w/a.hbs" "$w/b.hbs"
for f in a.hbs b.hbs perf.data module.cwasm switch.wasm; do cp "$w/$f" "$w/$f.orig"; done
cp "$dump" "$w/dump.orig"
cp "$clif1" "$w/clif1.orig"
ln -s a.hbs "$w/a.link"
ln "$w/a.hbs" "$w/a.hard"

check "the stream names the copies of perf.data and the dump (set-up)" \
	sh -c "grep -qx 'input perf.data' '$w/a.hbs' && grep -q '^jitdump $dump ' '$w/a.hbs'"

H=$POSTPROC
refused "-o names the input stream" "$w" "$w/a.hbs" "$w/a.hbs.orig" \
	"error: the output a.hbs is the input stream a.hbs: refusing to overwrite it" "$H" -o a.hbs a.hbs
refused "--html= names the input stream" "$w" "$w/a.hbs" "$w/a.hbs.orig" \
	"the output a.hbs is the input stream a.hbs" "$H" --html=a.hbs a.hbs
refused "--dot= names a symlink to the input stream" "$w" "$w/a.hbs" "$w/a.hbs.orig" \
	"the output a.link is the input stream a.hbs" "$H" --dot=a.link a.hbs
refused "--json -o names a hard link of the input stream" "$w" "$w/a.hbs" "$w/a.hbs.orig" \
	"the output a.hard is the input stream a.hbs" "$H" --json -o a.hard a.hbs
refused "-o names the file on standard input" "$w" "$w/a.hbs" "$w/a.hbs.orig" \
	"the output a.hbs is the input <stdin>" sh -c '"$1" -o a.hbs <a.hbs' - "$H"
refused "-o names the second of several streams" "$w" "$w/b.hbs" "$w/b.hbs.orig" \
	"the output b.hbs is the input stream b.hbs" "$H" -o b.hbs a.hbs b.hbs
refused "-o names the --cwasm file" "$w" "$w/module.cwasm" "$w/module.cwasm.orig" \
	"the output module.cwasm is the --cwasm file module.cwasm" "$H" --cwasm module.cwasm -o module.cwasm a.hbs
refused "--html= names the --wasm file" "$w" "$w/switch.wasm" "$w/switch.wasm.orig" \
	"the output switch.wasm is the --wasm file switch.wasm" "$H" --wasm switch.wasm --html=switch.wasm a.hbs
refused "-o names a file of the --clif directory" "$w" "$clif1" "$w/clif1.orig" \
	"is a file of the --clif directory clif" "$H" --clif clif -o "$clif1" a.hbs
refused "-o names the perf.data the stream was made from" "$w" "$w/perf.data" "$w/perf.data.orig" \
	"the output perf.data is the recording perf.data that a.hbs was made from" "$H" -o perf.data a.hbs
refused "-o names the jitdump the stream was made from" "$w" "$dump" "$w/dump.orig" \
	"the output $dump is the jitdump $dump that a.hbs was made from" "$H" -o "$dump" a.hbs
refused "diff --html= names NEW" "$w" "$w/b.hbs" "$w/b.hbs.orig" \
	"the output b.hbs is the input stream b.hbs" "$H" diff --html=b.hbs a.hbs b.hbs
refused "diff -o names BASE through a symlink" "$w" "$w/a.hbs" "$w/a.hbs.orig" \
	"the output a.link is the input stream a.hbs" "$H" diff -o a.link a.hbs b.hbs
refused "diff -o names --new-wasm" "$w" "$w/switch.wasm" "$w/switch.wasm.orig" \
	"the output switch.wasm is the --wasm file switch.wasm" "$H" diff --new-wasm switch.wasm -o switch.wasm a.hbs b.hbs
refused "diff --json -o names the perf.data BASE was made from" "$w" "$w/perf.data" "$w/perf.data.orig" \
	"the output perf.data is the recording perf.data that a.hbs was made from" "$H" diff --json -o perf.data a.hbs b.hbs

# 2. An earlier report survives a run ended while it writes: the page is
# larger than the file size limit, so the kernel ends hotblocks with SIGXFSZ
# in the middle of the render (ulimit -f counts 512-byte blocks in dash, 1024
# in bash: 8 is at most 8 KiB, the page is ~30 KiB).
(cd "$w" && "$H" --html -o report.html a.hbs 2>/dev/null)
cp "$w/report.html" "$w/report.html.orig"
# (the shell that reports the signal, with its stderr thrown away too)
sh -c '(cd "$1" && ulimit -f 8 && exec "$2" --html -o report.html a.hbs); exit $?' - "$w" "$H" 2>/dev/null
rc=$?
check "a run ended by SIGXFSZ while writing fails (exit $rc)" test "$rc" -ne 0
check "... and the earlier report is as it was" cmp "$w/report.html" "$w/report.html.orig"
check "... and no temporary file is left beside it" \
	sh -c "! ls -A '$w' | grep -q '^\.report\.html\.'"
# 3. The plugin's out= likewise (perf itself is ended by SIGXFSZ).
(cd "$w" && ulimit -f 4 && plugin_stream perf.data b.hbs "jitdir=$w") >/dev/null 2>&1
check "out=FILE: a run ended while writing the stream leaves the earlier file as it was" \
	cmp "$w/b.hbs" "$w/b.hbs.orig"

ln -s report.html "$w/latest.html"
(cd "$w" && "$H" -o latest.html a.hbs 2>/dev/null)
check "-o through a symlink replaces the file it names; the link stays" \
	sh -c "test -L '$w/latest.html' && grep -q '^Collected ' '$w/report.html'"
echo "an earlier report" >"$w/old.txt"
(cd "$w" && "$H" -o old.txt a.hbs 2>/dev/null)
check "-o replaces an earlier report with the new one" grep -q '^Collected ' "$w/old.txt"
