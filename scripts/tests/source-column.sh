#!/bin/sh
# SPDX-License-Identifier: MIT
# The [Source] column end to end, on code compiled and recorded here:
#  1. native code (gcc -g -O2, with inlined helpers; a PIE, a non-PIE, an lld
#     PIE, compressed DWARF): for every sampled instruction of the program's
#     own functions, the cell's innermost function and file:line, and the
#     outermost function when inlined, equal what `addr2line -f -i` says for
#     that instruction's address (not its file offset);
#  2. --source-lines prints, above the instructions, exactly the lines of the
#     source file the cells name;
#  3. V8 TurboFan code (node --perf-prof, jitdump DEBUG_INFO): the hot JS
#     function's cells name hot.js lines inside that function;
#  4. --no-source removes the column;
#  5. node's own code (a non-PIE with DWARF for libuv) in the real recordings
#     test-data/v8-wasm and diff/v8-base, as in 1.
. "$(dirname "$0")/lib.sh"

src=$top/test-data/srcline
cd "$tmp" || exit 1

# cells_vs_addr2line TAG FILE: the [Source] cell of every sampled instruction
# of FILE's functions in $TAG.json against `addr2line -f -i` at that
# instruction's address. The stream gives file offsets (sym_start,
# STREAM.md); the address is computed here from `readelf -l`'s PT_LOAD
# segments (the first holding the offset), independently of hotblocks. Where
# addr2line knows no line, the cell must be empty. Leaves $TAG.ours
# ("ADDR<TAB>CELL") and sets n (the instructions compared).
cells_vs_addr2line() {
	tag=$1 file=$2
	readelf -lW "$file" | awk '$1 == "LOAD" { print $2, $3, $5 }' >"$tag.loads"
	node -e '
const fs = require("fs");
const [json, loads, file] = process.argv.slice(1);
const d = JSON.parse(fs.readFileSync(json));
const segs = fs.readFileSync(loads, "utf8").trim().split("\n").map(l => l.split(" ").map(BigInt));
for (const f of d.functions) {
	if (f.dso !== file) continue;
	for (const i of f.instructions) {
		if (!i.samples) continue;
		const off = BigInt(f.sym_start + i.offset);
		const s = segs.find(([o, v, sz]) => off >= o && off < o + sz);
		const addr = s ? off - s[0] + s[1] : -1n;
		console.log("0x" + addr.toString(16) + "\t" + (i.source || "-"));
	}
}' "$tag.json" "$tag.loads" "$file" | sort -u >"$tag.ours"
	n=$(wc -l <"$tag.ours")
	# addr2line's view of the same addresses: innermost function + basename:line,
	# plus the outermost function when there are inlined frames; "-" for no line.
	cut -f1 "$tag.ours" | addr2line -f -i -a -e "$file" | awk '
		function flush() { if (addr != "") { s = fn[1] " " loc[1]; if (k > 1) s = s " (inlined into " fn[k] ")"; print addr "\t" s } }
		/^0x/ { flush(); addr = $0; sub(/^0x0*/, "0x", addr); k = 0; next }
		{ if (nextfn) { loc[k] = $0; nextfn = 0 } else { k++; fn[k] = $0; nextfn = 1 } }
		END { flush() }' | sed 's/ (discriminator [0-9]*)//' | awk -F'\t' '{ n = split($2, a, " "); l = a[2]; sub(/.*\//, "", l)
			out = a[1] " " l; for (i = 3; i <= n; i++) out = out " " a[i]
			# (no line: "??:0", or a file from the symbol table alone: "string.cc:?")
			if (l ~ /^\?\?:/ || l ~ /:\?$/) out = "-"
			print $1 "\t" out }' >"$tag.theirs"
	# Ours without the column numbers (addr2line prints none).
	awk -F'\t' '{ c = $2; sub(/:[0-9]+ /, " ", c); sub(/:[0-9]+$/, "", c); print $1 "\t" c }' "$tag.ours" |
		awk -F'\t' '{ sub(/^0x0*/, "0x", $1); print $1 "\t" $2 }' >"$tag.cmp"
	diff -u "$tag.theirs" "$tag.cmp" >"$tag.diff"
}

# native_case TAG CC FLAGS...: build main.c + inl.c + other.c as prog-TAG,
# record it, and compare the [Source] cells of the program's own functions
# with addr2line's (cells_vs_addr2line).
native_case() {
	tag=$1 cc=$2; shift 2
	p=prog-$tag
	if ! $cc -g -O2 "$@" -o "$p" "$src/main.c" "$src/inl.c" "$src/other.c" 2>cc.err; then
		not_ok "native $tag: $cc builds it" cc.err
		return
	fi
	perf record -q -k mono -e cpu-clock -F 2999 -o "$tag.data" "./$p" 60000000 >/dev/null 2>&1
	plugin_stream "$tag.data" "$tag.hbs" 2>/dev/null
	"$POSTPROC" --json --all "$tag.hbs" >"$tag.json" 2>/dev/null
	# cpu-clock samples of this loop land on few instructions (on a VM without a
	# PMU typically 2 in work and 1 in sum_to), so 3 is the floor.
	if cells_vs_addr2line "$tag" "$PWD/$p" && [ "$n" -ge 3 ]; then
		ok "native $tag: the [Source] cells of $n sampled instructions equal addr2line -f -i"
	else
		echo "$n sampled instructions" >>"$tag.diff"
		not_ok "native $tag: [Source] cells equal addr2line -f -i" "$tag.diff"
	fi
	check "native $tag: some sampled instructions are in inlined code" grep -q "inlined into work" "$tag.ours"
}

# A PIE as gcc links it (text at the address of its file offset); a non-PIE
# executable as Debian's node and python3.11 are (text at 0x401000, file
# offset 0x1000); lld's PIE (text one page above its file offset; DWARF 4:
# binutils 2.40 addr2line misses clang's DWARF 5 inlined frames, as
# srcline-vs-tools.sh says); and one whose DWARF sections are compressed (as
# Debian's debug files are).
native_case pie gcc
native_case no-pie gcc -no-pie
native_case lld clang -gdwarf-4 -fuse-ld=lld
native_case gz gcc -gz=zlib
check "native: the non-PIE's and lld's text are at other addresses than their file offsets" sh -c "
	awk '\$1 != \$2' no-pie.loads | grep -q . && awk '\$1 != \$2' lld.loads | grep -q ."

# node's own code in the real recordings of test-data (v8-wasm, diff/v8-base):
# nodejs.org's node 20.20.2 is a non-PIE (text at 0xb72000, file offset
# 0x772000) whose libuv and c-ares carry DWARF; each recording has a sample
# in libuv. Every sampled instruction of /usr/bin/node against addr2line on
# the recorded build. That build is /usr/bin/node where it was recorded, and
# build/test-node's node everywhere (scripts/ensure-deps installs the same
# nodejs.org build from npm); perf and the plugin are given it through a
# build-id cache (as `perf buildid-cache` keeps one), and the stream's
# dso=/usr/bin/node is pointed at it for the post-processor, which reads the
# file the stream names.
want=$(perf buildid-list -i "$top/test-data/v8-wasm/perf.data" 2>/dev/null | awk '$2 == "/usr/bin/node" { print $1 }')
rnode=
for c in /usr/bin/node "$top"/build/test-node/node_modules/node-linux-*/bin/node; do
	[ -n "$want" ] && [ -f "$c" ] || continue
	[ "$(readelf -n "$c" 2>/dev/null | awk '/Build ID:/ { print $3 }')" = "$want" ] && { rnode=$c; break; }
done
if [ -z "$rnode" ]; then
	not_ok "node: the recorded build of node ($want) is /usr/bin/node or build/test-node's (scripts/ensure-deps check installs it)"
else
	mkdir -p "bid/.build-id/$(echo "$want" | cut -c1-2)"
	ln -s "$rnode" "bid/.build-id/$(echo "$want" | cut -c1-2)/$(echo "$want" | cut -c3-)"
	ln -s "$rnode" recorded-node
	for c in v8-wasm diff/v8-base; do
		t=node-$(basename "$c")
		perf --no-pager --buildid-dir "$PWD/bid" script -i "$top/test-data/$c/perf.data" \
			--dlfilter "$PLUGIN" --dlarg "out=$t.raw" 2>/dev/null
		sed "s| dso=/usr/bin/node | dso=$PWD/recorded-node |" "$t.raw" >"$t.hbs"
		"$POSTPROC" --json --all "$t.hbs" >"$t.json" 2>/dev/null
		if cells_vs_addr2line "$t" "$PWD/recorded-node" && [ "$n" -ge 20 ] && grep -q "$(printf '\tuv')" "$t.ours"; then
			ok "node, $c: the [Source] cells of $n sampled instructions of node equal addr2line -f -i's ($(grep -vc '	-$' "$t.ours") with a line: libuv's)"
		else
			echo "$n sampled instructions" >>"$t.diff"
			not_ok "node, $c: the [Source] cells of node equal addr2line -f -i's, some in libuv" "$t.diff"
		fi
	done
fi

cp pie.hbs s.hbs

"$POSTPROC" -p 100 --function work --source-lines s.hbs >lines.txt 2>/dev/null
# Every printed source line "   inl.c:N:  TEXT" must be line N of inl.c, its
# tabs as spaces to every 8th column as coreutils' expand writes them.
awk '/^             [a-z_.]+\.c:[0-9]+:  / { print }' lines.txt >printed
bad=0
while IFS= read -r l; do
	f=$(echo "$l" | sed 's/^ *\([^:]*\):\([0-9]*\):  .*/\1/')
	ln=$(echo "$l" | sed 's/^ *\([^:]*\):\([0-9]*\):  .*/\2/')
	text=$(echo "$l" | sed 's/^ *[^:]*:[0-9]*:  //')
	[ "$text" = "$(sed -n "${ln}p" "$src/$f" | sed 's/\r$//' | expand)" ] || { echo "mismatch: $l" >>bad.out; bad=1; }
done <printed
check "--source-lines prints the source lines the cells name ($(wc -l <printed) lines)" \
	test "$bad" -eq 0 -a "$(wc -l <printed)" -gt 2
"$POSTPROC" -p 100 --function work --no-source s.hbs >nosrc.txt 2>/dev/null
check "--no-source removes the [Source] column" sh -c '! grep -q "\[Source\]" nosrc.txt && grep -q "\[Source\]" lines.txt'

# V8: DEBUG_INFO of TurboFan code. hot.js's work() spans lines 5-10 and mix()
# (inlined into it) line 4, so every cell of `JS:*work` names hot.js:4..10.
mkdir v8 && cd v8 || exit 1
perf record -q -k mono -e cpu-clock -F 2999 -o perf.data node --perf-prof "$src/hot.js" >/dev/null 2>&1
plugin_stream perf.data s.hbs 2>/dev/null
"$POSTPROC" --json --all s.hbs >s.json 2>/dev/null
hot_js_work_lines s.json >v8.out
read -r n nbad rest <v8.out
check "V8 TurboFan: $n sampled instructions have hot.js lines of work() ($nbad outside: $rest)" \
	test "${n:-0}" -ge 2 -a "${nbad:-1}" -eq 0
