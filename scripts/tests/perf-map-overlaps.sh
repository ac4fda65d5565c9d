#!/bin/sh
# SPDX-License-Identifier: MIT
# Where symbols overlap, perf's answer depends on the shape of its red-black
# tree of symbols; the plugin builds the same tree (plugin/symbols/symtree.c) and must
# answer as perf does, sample by sample. A perf map takes every line as it
# comes (no fix-ups, duplicates kept), so the real recording
# test-data/v8-perfmap is given maps of overlapping lines over its hot code
# (random starts and sizes around it, a few hundred lines, several seeds),
# and each time the plugin's function and offset for every sample in the map
# is compared with `perf script -F ip,sym,symoff,dso`'s.
. "$(dirname "$0")/lib.sh"

restore_recording v8-perfmap || { not_ok "v8-perfmap is restored" "$tmp/restore-v8-perfmap.out"; exit 0; }
pd=$(recording_data v8-perfmap)
map=$(recording_map v8-perfmap)
# the hot code: the map's line of JS:*fib
hot=$(awk '$3 == "JS:*fib" { print $1, $2 }' "$map")
[ -n "$hot" ] || { not_ok "the map names JS:*fib" "$map"; exit 0; }

keys_perf() {
	perf --no-pager script -i "$pd" -F ip,sym,symoff,dso 2>/dev/null | awk -v m="($map)" '
		$NF == m { s = $0; sub(/^ *[0-9a-f]+ /, "", s); sub(/ \(\/tmp\/perf-[0-9]+\.map\)$/, "", s); n[s]++ }
		END { for (k in n) print k "|" n[k] }' | sort
}
keys_ours() {
	plugin_stream "$pd" "$tmp/s.hbs" 2>/dev/null
	awk -v m="dso=$map" '
		function hexval(c) { return index("0123456789abcdef", tolower(c)) - 1 }
		function unesc(s,   out, i) { out = ""; while ((i = index(s, "%")) > 0) {
			out = out substr(s, 1, i - 1) sprintf("%c", hexval(substr(s, i + 1, 1)) * 16 + hexval(substr(s, i + 2, 1)))
			s = substr(s, i + 3) } return out s }
		$1 == "object" { inmap = 0; for (i = 4; i <= NF; i++) { if ($i == m) inmap = 1; if ($i ~ /^name=/) nm = unesc(substr($i, 6)) }
			if (inmap) name[$2] = nm }
		$1 == "sample" && ($2 in name) { n[name[$2] "+" $4] += $5 }
		END { for (k in n) print k "|" n[k] }' "$tmp/s.hbs" | sort
}

cp "$map" "$tmp/orig.map"
for seed in 1 2 3 4 5; do
	# node's own lines, then overlapping ones over the hot code, in an order of their own
	# (awk holds the 47-bit addresses exactly in its doubles; its printf %x does not)
	awk -v hot="$hot" -v seed="$seed" 'function h(s,   v, i) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
		function x(v,   s) { s = ""; do { s = substr("0123456789abcdef", v % 16 + 1, 1) s; v = int(v / 16) } while (v > 0); return s }
		BEGIN { srand(seed); split(hot, a, " "); base = h(a[1]); size = h(a[2])
			for (i = 0; i < 150 + 50 * seed; i++) {
				st = base - 64 + int(rand() * (size + 128)); len = int(rand() * size * (rand() < 0.3 ? 2 : 0.5))
				printf "%s %s over%d_%d\n", x(st), x(len), seed, i
			} }' >"$tmp/extra"
	cat "$tmp/orig.map" "$tmp/extra" >"$map"
	keys_perf >"$tmp/perf.$seed"
	keys_ours >"$tmp/ours.$seed"
	n=$(awk -F'|' '{ s += $2 } END { print s + 0 }' "$tmp/perf.$seed")
	names=$(cut -d'|' -f1 "$tmp/perf.$seed" | sed 's/+0x.*//' | sort -u | wc -l)
	check "seed $seed: $(wc -l <"$tmp/extra") overlapping lines: the plugin names the $n samples perf's tree names ($names functions) as perf does" \
		sh -c "test $n -gt 0 && test $names -gt 1 && diff -u '$tmp/perf.$seed' '$tmp/ours.$seed'"
done
cp "$tmp/orig.map" "$map"
