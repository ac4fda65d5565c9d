#!/bin/sh
# SPDX-License-Identifier: MIT
# The [Source] column of wasmtime code from the module's own DWARF, end to end:
# a .cwasm (made here with build/tools/mkcwasm) whose function `work` maps,
# through its address map, each machine instruction to one instruction of
# test-data/srcline/inl.wasm (clang --target=wasm32 -g -O2, with inlining);
# a stream with samples on every instruction; `hotblocks --cwasm --wasm`.
# Expected cells come from llvm-symbolizer on the same module: the wasm offset,
# the innermost function, basename:line:col, and "(inlined into F)" for the
# outermost function when there are inlined frames (srcmap.h's short form).
. "$(dirname "$0")/lib.sh"

wasm=$top/test-data/srcline/inl.wasm
mk=$top/build/tools/mkcwasm
sym=llvm-symbolizer-14
command -v $sym >/dev/null 2>&1 || sym=llvm-symbolizer
cd "$tmp" || exit 1

# Instruction offsets of `work`'s loop body (func[1], wasm-objdump -d).
wasm-objdump -d "$wasm" | awk '/func\[1\]/ { on = 1; next } /func\[2\]/ { on = 0 }
	on && /^ [0-9a-f]+:/ { o = $1; sub(/:$/, "", o); print "0x" o }' | sed -n '10,25p' | sed 's/^0x0*/0x/' >woffs
n=$(wc -l <woffs)
code_start=0x$(wasm-objdump -h "$wasm" | sed -n 's/.*Code start=0x\([0-9a-f]*\).*/\1/p')

# One 4-byte instruction per wasm instruction: add eax, imm8 (83 c0 NN).
{
	echo '.text'
	echo '.type "wasm[0]::function[1]::work", @function'
	echo '"wasm[0]::function[1]::work":'
	i=0
	while [ $i -lt "$n" ]; do echo "	addl \$$((i + 1)), %eax; nop"; i=$((i + 1)); done
	echo '	ret'
	echo '.size "wasm[0]::function[1]::work", . - "wasm[0]::function[1]::work"'
} >t.S
as --64 -o t.o t.S
awk '{ printf "0x%x %s\n", (NR - 1) * 4, $1 }' woffs >addrmap.txt
echo "$((n * 4)) none" | awk '{ printf "0x%x none\n", $1 }' >>addrmap.txt
"$mk" --obj t.o --addrmap addrmap.txt --format blocks --engine 47 -o t.cwasm 2>mk.err ||
	{ not_ok "mkcwasm builds the .cwasm" mk.err; exit 0; }
objcopy -O binary -j .text t.o t.bin
size=$(wc -c <t.bin)
{
	echo 'hotblocks-stream 1'
	echo 'event 0 cpu-clock'
	echo "total 0 all $n $n"
	echo "total 0 native $n $n"
	echo "object 0 cwasm pid=1 e_machine=62 addr=0x7f0000001000 size=$size dso=/x/t.cwasm sym-start=0x1000 name=wasm[0]::function[1]::work"
	echo "code 0 0x0 $(od -An -v -tx1 t.bin | tr -d ' \n')"
	i=0
	while [ $i -lt "$n" ]; do printf 'sample 0 0 0x%x 1 1\n' $((i * 4)); i=$((i + 1)); done
	echo 'end'
} >s.hbs
"$POSTPROC" --json --all --cwasm t.cwasm --wasm "$wasm" s.hbs >s.json 2>post.err ||
	{ not_ok "hotblocks --cwasm --wasm runs" post.err; exit 0; }
node -e '
const d = JSON.parse(require("fs").readFileSync("s.json"));
for (const i of d.functions[0].instructions)
	if (i.samples) console.log("0x" + i.wasm_offset.toString(16) + "\t" + (i.source || "-"));' >ours

# llvm-symbolizer takes code-section offsets; it prints function / file:line:col
# pairs, innermost first, then a blank line.
while read -r w; do
	printf '%s\t' "$w"
	$sym --obj="$wasm" -f -i "$(printf '0x%x' $((w - code_start)))" | awk '
		NF == 0 { exit } NR % 2 == 1 { fn[++k] = $0 } NR % 2 == 0 { loc[k] = $0 }
		END { l = loc[1]; sub(/.*\//, "", l); sub(/:0:[0-9]+$/, "", l)	# line 0: file only
		      s = fn[1] " " l; if (k > 1) s = s " (inlined into " fn[k] ")"; print s }'
done <woffs | awk -F'\t' '{ print $1 "\t" $1 " " $2 }' >theirs
if [ "$n" -ge 6 ] && diff -u theirs ours >diff.out; then
	ok "wasm DWARF: the [Source] cells of $n instructions equal llvm-symbolizer's (with inlining)"
else
	not_ok "wasm DWARF: [Source] cells equal llvm-symbolizer's" diff.out
fi
check "wasm DWARF: some cells are inlined frames" grep -q "inlined into work" ours
"$POSTPROC" -p 100 --cwasm t.cwasm --wasm "$wasm" s.hbs >s.txt 2>/dev/null
check "wasm DWARF: the text table has [Wasm] and [Source] columns" grep -q '\[Wasm\] *\[Source\]' s.txt
