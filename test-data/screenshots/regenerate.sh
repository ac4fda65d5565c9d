#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the README's screenshot, wasmtime-switch.png, from a committed real
# recording: the wasmtime 48.0.2 run of test-data/wasmtime-real/src/switch.c
# (test-data/wasmtime-real/48.0.2/switch), reported as the HTML page with the
# CLIF, Wasm and Source columns, opened in headless Chromium
# (scripts/tests/browser-check.mjs) and taken as the window shows it.
#   test-data/screenshots/regenerate.sh [WIDTHxHEIGHT]   (default 1600x860)
# Needs `make` and what `make check` sets up (playwright-core, chromium).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
size=${1:-1600x860}
R=$top/test-data/wasmtime-real
w=$R/48.0.2/switch
# The path the recording names: its .cwasm and dump go back there while perf reads it.
rec=/tmp/hotblocks-rec/wasmtime-48.0.2-switch
if [ -e "$rec" ]; then
	echo "regenerate.sh: $rec exists (a test using it?); try again when it is gone" >&2
	exit 1
fi
work=$(mktemp -d /tmp/hotblocks-shot.XXXXXX)
trap 'rm -rf "$work" "$rec"' EXIT
mkdir -p "$rec/jitdump"
cp "$w/module.cwasm" "$rec/"
cp "$w"/jitdump/jit-*.dump "$rec/jitdump/"
perf --no-pager script -i "$w/jitdump/perf.data" --dlfilter "$top/plugin/hotblocks.so" >"$work/switch.hbs"
rm -rf "$rec"

"$top/postproc/hotblocks" --html -o "$work/report.html" -p 80 \
	--cwasm "$w/module.cwasm" --clif "$w/clif" --wasm "$R/switch.wasm" "$work/switch.hbs"
cat >"$work/spec.json" <<'SPEC'
{ "steps": [
	{ "name": "the page shows step with its graph", "selector": "section.func svg.cfg", "count": 1 },
	{ "name": "and CLIF, Wasm and Source cells", "eval": "['clif', 'wasm', 'src'].every((c) => document.querySelector('td.' + c + ':not(.same):not(.none)'))" },
	{ "name": "a click on the box of block 0x76 marks the block", "click": "#f0-b76", "selector": "#f0-l76", "hasClass": "hl" }
] }
SPEC
node=node
[ -x "$top/build/test-node/bin/node" ] && node=$top/build/test-node/bin/node
"$node" "$top/scripts/tests/browser-check.mjs" --window "$size" --view "$work/shot.png" \
	"$work/report.html" "$work/spec.json"
mv "$work/shot.png" "$top/test-data/screenshots/wasmtime-switch.png"
echo "test-data/screenshots/wasmtime-switch.png: $(wc -c <"$top/test-data/screenshots/wasmtime-switch.png") bytes"
