#!/bin/sh
# SPDX-License-Identifier: MIT
# The same input gives the same bytes, however many threads fold the
# functions and however often it runs: the HTML page of every function of the
# real recording test-data/v8-wasm (241 graphs laid out by Graphviz, whose
# routing of parallel edges follows the order of its objects' addresses) and
# the diff page of two real recordings, each made 3 times at each of 1, 2, 3
# and 8 threads. Before the ranking kept the workers' memory away from the
# thread that lays out, one graph (f115, a function with a collapsed region
# joined to its neighbours by edges of both kinds in both directions) came
# out in three or four shapes over twelve runs.
. "$(dirname "$0")/lib.sh"
need_private_tmp

restore_recording v8-wasm
plugin_stream "$top/test-data/v8-wasm/perf.data" "$tmp/w.hbs" 2>/dev/null
diff_stream v8-base "$tmp/a.hbs" 2>/dev/null
diff_stream v8-changed "$tmp/b.hbs" 2>/dev/null
same() {	# description command...: its output is the same every time
	d=$1; shift
	: >"$tmp/sums"; : >"$tmp/sums.raw"
	for t in 1 2 3 8; do
		for i in 1 2 3; do
			HOTBLOCKS_THREADS=$t "$@" 2>/dev/null | cksum | sed "s/^/$t /" >>"$tmp/sums.raw"; tail -n 1 "$tmp/sums.raw" | cut -d" " -f2- >>"$tmp/sums"
		done
	done
	n=$(sort -u "$tmp/sums" | wc -l)
	if [ "$n" -eq 1 ] && ! grep -q '^4294967295 0' "$tmp/sums"; then ok "$d"
	else cat "$tmp/sums.raw" >"$tmp/sums.count"; not_ok "$d ($n different outputs)" "$tmp/sums.count"; fi
}
same "hotblocks --html --all of v8-wasm: one output at 1, 2, 3 and 8 threads, 3 runs each" \
	"$POSTPROC" --html --all "$tmp/w.hbs"
same "hotblocks diff --html of v8-base and v8-changed: one output at 1, 2, 3 and 8 threads" \
	"$POSTPROC" diff --html "$tmp/a.hbs" "$tmp/b.hbs"
same "hotblocks --json --all of v8-wasm: one output at 1, 2, 3 and 8 threads" \
	"$POSTPROC" --json --all "$tmp/w.hbs"
echo "1..$tap_n"
