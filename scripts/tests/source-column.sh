#!/bin/sh
# SPDX-License-Identifier: MIT
# The [Source] column end to end, on code compiled and recorded here:
#  1. native code (gcc -g -O2, with inlined helpers): for every sampled
#     instruction of the program's own functions, the cell's innermost
#     function and file:line, and the outermost function when inlined, equal
#     what `addr2line -f -i` says for that address;
#  2. --source-lines prints, above the instructions, exactly the lines of the
#     source file the cells name;
#  3. V8 TurboFan code (node --perf-prof, jitdump DEBUG_INFO): the hot JS
#     function's cells name hot.js lines inside that function;
#  4. --no-source removes the column.
. "$(dirname "$0")/lib.sh"

src=$top/test-data/srcline
cd "$tmp" || exit 1
gcc -g -O2 -o prog "$src/main.c" "$src/inl.c" "$src/other.c"
perf record -q -k mono -e cpu-clock -F 2999 -o perf.data ./prog 60000000 >/dev/null 2>&1
plugin_stream perf.data s.hbs 2>/dev/null
"$POSTPROC" --json --all s.hbs >s.json 2>/dev/null

# Our cells for the program's own sampled instructions: "ADDR<TAB>CELL".
node -e '
const d = JSON.parse(require("fs").readFileSync("s.json"));
for (const f of d.functions) {
	if (!f.dso || !f.dso.endsWith("/prog")) continue;
	for (const i of f.instructions)
		if (i.samples) console.log("0x" + (f.sym_start + i.offset).toString(16) + "\t" + (i.source || "-"));
}' >ours.tsv
n=$(wc -l <ours.tsv)
# addr2line's view of the same addresses: innermost function + basename:line,
# plus the outermost function when there are inlined frames.
cut -f1 ours.tsv | addr2line -f -i -a -e prog | awk '
	function flush() { if (addr != "") { s = fn[1] " " loc[1]; if (k > 1) s = s " (inlined into " fn[k] ")"; print addr "\t" s } }
	/^0x/ { flush(); addr = $0; sub(/^0x0*/, "0x", addr); k = 0; next }
	{ if (nextfn) { loc[k] = $0; nextfn = 0 } else { k++; fn[k] = $0; nextfn = 1 } }
	END { flush() }' | sed 's/ (discriminator [0-9]*)//' | awk -F'\t' '{ n = split($2, a, " "); l = a[2]; sub(/.*\//, "", l)
		out = a[1] " " l; for (i = 3; i <= n; i++) out = out " " a[i]; print $1 "\t" out }' >theirs.tsv
# Ours without the column numbers (addr2line prints none).
awk -F'\t' '{ c = $2; sub(/:[0-9]+ /, " ", c); sub(/:[0-9]+$/, "", c); print $1 "\t" c }' ours.tsv |
	awk -F'\t' '{ sub(/^0x0*/, "0x", $1); print $1 "\t" $2 }' >ours.cmp
# cpu-clock samples of this loop land on few instructions (on a VM without a
# PMU typically 2 in work and 1 in sum_to), so 3 is the floor.
if [ "$n" -ge 3 ] && diff -u theirs.tsv ours.cmp >diff.out; then
	ok "native: the [Source] cells of $n sampled instructions equal addr2line -f -i"
else
	echo "$n sampled instructions" >>diff.out; not_ok "native: [Source] cells equal addr2line -f -i" diff.out
fi
check "native: some sampled instructions are in inlined code" grep -q "inlined into work" ours.tsv

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
