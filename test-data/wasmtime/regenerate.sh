#!/bin/sh
# SPDX-License-Identifier: MIT
# Rebuilds the wasmtime-format fixtures from their sources: hot.wat -> hot.wasm
# (jco parse: the `wat` crate), hot.S -> hot.o (GNU as) -> addrmap.txt,
# meta.txt (mkcwasm --extract-*), module.cwasm (block address map, engine
# "47") and module-v46.cwasm (plain address map, engine "46").
#
# Deterministic: run twice, get the same bytes (checked at the end).  Needs
# make, cc, libelf, GNU as/objdump, node + npm (jco is installed once under
# build/jco, or $JCO_DIR), wabt's wasm-objdump.  clif/ is written by hand and
# is not touched here.
# Usage: regenerate.sh [--check]   (--check: rebuild into build/ and compare)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
JCO_VERSION=1.35.0
JCO_DIR=${JCO_DIR:-$top/build/jco}
work=$top/build/wasmtime-fixture
check=0
[ "${1:-}" = --check ] && check=1

for tool in as objdump node npm wasm-objdump; do
	command -v "$tool" >/dev/null 2>&1 ||
		{ echo "regenerate.sh: needs $tool" >&2; exit 1; }
done
make -C "$top" --no-print-directory build/tools/mkcwasm build/tools/cwasm-run
mkcwasm=$top/build/tools/mkcwasm
"$mkcwasm" --self-test >/dev/null ||
	{ "$mkcwasm" --self-test; echo "regenerate.sh: mkcwasm self-test failed" >&2; exit 1; }

jco=$JCO_DIR/node_modules/.bin/jco
if [ ! -x "$jco" ] || [ "$("$jco" --version)" != "$JCO_VERSION" ]; then
	npm install --prefix "$JCO_DIR" --no-audit --no-fund \
		"@bytecodealliance/jco@$JCO_VERSION" >/dev/null
fi

rm -rf "$work"
mkdir -p "$work"
cd "$work"

# 1. The module, encoded by the same `wat` crate wasmtime uses (label names
#    included).  wat2wasm would give other bytes.
"$jco" parse "$here/hot.wat" -o hot.wasm

# 2. The code.
as --64 -o hot.o "$here/hot.S"
objdump -d -M intel --no-show-raw-insn hot.o >hot.objdump
wasm-objdump -d hot.wasm >hot.wasm-objdump

# 3. The tables, from hot.S's I/TRAP/CALLSITE annotations, with each line
#    commented by its instruction (objdump) and wasm instruction
#    (wasm-objdump).  Every text offset must start an instruction.
"$mkcwasm" --extract-meta hot.o | sed 's|(mkcwasm --extract-meta .*)|(mkcwasm --extract-meta hot.o)|' >meta.txt
"$mkcwasm" --extract-addrmap hot.o >addrmap.raw
awk '
function hex(s,    i, c, v) {		# mawk has no strtonum
	sub(/^0x/, "", s); v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		if (c < 0) return -1
		v = v * 16 + c
	}
	return v
}
FNR == 1 { file++ }
file == 1 && /^ *[0-9a-f]+:\t/ {			# objdump -d
	split($0, p, ":\t"); off = p[1]; sub(/^ +/, "", off)
	txt = p[2]; gsub(/ +/, " ", txt); sub(/ *#.*/, "", txt)
	asm[hex(off)] = txt; next
}
file == 2 && /^ [0-9a-f]+: / {				# wasm-objdump -d
	off = substr($1, 1, length($1) - 1)
	i = index($0, "| "); if (!i) next
	w = substr($0, i + 2); sub(/^ +/, "", w)
	wat[hex(off)] = w; next
}
file == 3 {
	if ($0 ~ /^#/) {
		sub(/\(mkcwasm --extract-addrmap .*\)/, "(mkcwasm --extract-addrmap hot.o)")
		print; next
	}
	o = hex($1)
	if (!(o in asm)) { printf "addrmap offset %s is not an instruction start\n", $1 > "/dev/stderr"; bad = 1 }
	w = ($2 == "none") ? "-" : (hex($2) in wat ? wat[hex($2)] : "?")
	if (w == "?") { printf "wasm offset %s is not an instruction\n", $2 > "/dev/stderr"; bad = 1 }
	printf "%s %-8s # %-26s | %s\n", $1, $2, asm[o], w
}
END { exit bad }
' hot.objdump hot.wasm-objdump addrmap.raw >addrmap.txt

# 4. The artifacts.
"$mkcwasm" --obj hot.o --addrmap addrmap.txt --meta meta.txt --format blocks --engine 47 \
	-o module.cwasm
"$mkcwasm" --obj hot.o --addrmap addrmap.txt --meta meta.txt --format plain --engine 46 \
	-o module-v46.cwasm

# 5. The code computes what the wasm computes: V8 runs hot.wasm, cwasm-run
#    runs module.cwasm.
for n in 0 1 10 200 100000; do
	want=$(node --input-type=module -e "
		import { readFileSync } from 'node:fs';
		const { instance } = await WebAssembly.instantiate(readFileSync('hot.wasm'));
		console.log(instance.exports.run($n));")
	got=$("$top/build/tools/cwasm-run" module.cwasm 0 "$n" | sed 's/^[^=]*= \(-*[0-9]*\) .*/\1/')
	if [ "$want" != "$got" ]; then
		echo "regenerate.sh: run($n): V8 says $want, module.cwasm says $got" >&2
		exit 1
	fi
done

outputs="hot.wasm addrmap.txt meta.txt module.cwasm module-v46.cwasm"
if [ $check = 1 ]; then
	status=0
	for f in $outputs; do
		cmp -s "$f" "$here/$f" || { echo "differs: test-data/wasmtime/$f"; status=1; }
	done
	[ $status = 0 ] && echo "regenerate.sh --check: all outputs identical"
	exit $status
fi
for f in $outputs; do
	cp "$f" "$here/$f"
done
echo "regenerated: $outputs (in $here)"
