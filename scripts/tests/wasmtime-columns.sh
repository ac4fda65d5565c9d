#!/bin/sh
# SPDX-License-Identifier: MIT
# The [CLIF] and [Wasm] columns over the wasmtime-format fixture
# (test-data/wasmtime/README.md says what is known to be true about it):
#  1. the full mixed tables for both recordings (file-backed .cwasm with the
#     block-encoded address map; jitdump loads against the plain-encoded
#     v46 map) equal the goldens in test-data/wasmtime/expected/, whose rows
#     were checked by hand (test-data/wasmtime/expected/README.md);
#  2. for EVERY instruction of every sampled wasmtime function (--json --all),
#     the wasm offset equals the hand-derived test-data/wasmtime/addrmap.txt,
#     and the CLIF cell equals the CLIF file's lines with that offset joined
#     by "; " (parsed here independently, all hex digits: `far` lies past
#     0x10000);
#  3. a .cwasm that is not what ran is reported, not silently used.
. "$(dirname "$0")/lib.sh"

wt=$top/test-data/wasmtime
exp=$wt/expected
for c in cwasm jitdump; do
	rm -rf "/tmp/hotblocks-rec/wasmtime-$c"
	mkdir -p "/tmp/hotblocks-rec/wasmtime-$c"
	cp "$wt/$c"/* "/tmp/hotblocks-rec/wasmtime-$c/"
	plugin_stream "$wt/$c/perf.data" "$tmp/$c.hbs" 2>/dev/null
done

cols="--clif $wt/clif --wasm $wt/hot.wasm"
# -p 90: the wasm blocks only. Colder blocks are native code ([vdso], libc, the
# runner) whose bytes and symbols depend on the machine replaying the recording.
# shellcheck disable=SC2086
"$POSTPROC" -p 90 --cwasm "$wt/module.cwasm" $cols "$tmp/cwasm.hbs" >"$tmp/cwasm.txt" 2>"$tmp/cwasm.err"
check "file-backed .cwasm (block address map): the mixed table equals the golden" \
	diff -u "$exp/cwasm.txt" "$tmp/cwasm.txt"
# shellcheck disable=SC2086
"$POSTPROC" -p 90 --cwasm "$wt/module-v46.cwasm" $cols "$tmp/jitdump.hbs" >"$tmp/jitdump.txt" 2>"$tmp/jitdump.err"
check "jitdump loads matched by code bytes (plain address map): the mixed table equals the golden" \
	diff -u "$exp/jitdump-v46.txt" "$tmp/jitdump.txt"
# The runner's own samples are native code perf resolves through the runner's
# file at the path it was recorded from, which exists only on the recording
# machine: elsewhere they are "unattributed" notes, which are not about the .cwasm.
grep -hv "samples unattributed" "$tmp/cwasm.err" "$tmp/jitdump.err" >"$tmp/warn.err"
check "no warnings about the matching .cwasm" test ! -s "$tmp/warn.err"

# Every instruction, against addrmap.txt and the CLIF files.
per_insn() {	# json
	node -e '
	const fs = require("fs");
	const [json, amap, clifdir] = process.argv.slice(1);
	const want = new Map();		// text offset -> wasm offset or null
	for (const l of fs.readFileSync(amap, "utf8").split("\n")) {
		const m = l.match(/^(0x[0-9a-f]+)\s+(none|0x[0-9a-f]+)/);
		if (m) want.set(parseInt(m[1], 16), m[2] === "none" ? null : parseInt(m[2], 16));
	}
	const clif = new Map();		// symbol -> Map(offset -> [texts])
	for (const f of fs.readdirSync(clifdir)) {
		const lines = fs.readFileSync(clifdir + "/" + f, "utf8").split("\n");
		const sym = lines[0].match(/^;; Intermediate Representation of function <(.*)>:$/)[1];
		const m = new Map();
		for (const l of lines) {
			const t = l.trimStart().match(/^@([0-9a-f]+) (.*)$/);
			if (!t) continue;
			const o = parseInt(t[1], 16);
			if (!m.has(o)) m.set(o, []);
			m.get(o).push(t[2].trim());
		}
		clif.set(sym, m);
	}
	const d = JSON.parse(fs.readFileSync(json));
	let n = 0, bad = 0;
	for (const f of d.functions) {
		if (!f.wasm_function) continue;
		const base = f.wasm_function.text_offset, cm = clif.get(f.wasm_function.symbol);
		for (const i of f.instructions) {
			// No line in addrmap.txt (the trampoline has no wasm source): no offset.
			const t = base + i.offset, w = want.has(t) ? want.get(t) : null;
			const c = w === null || !cm || !cm.has(w) ? null : cm.get(w).join("; ");
			n++;
			if (i.wasm_offset !== w || i.clif !== c) {
				bad++;
				console.log(`${f.wasm_function.symbol}+0x${i.offset.toString(16)} (text 0x${t.toString(16)}):` +
					` wasm_offset ${i.wasm_offset} clif ${JSON.stringify(i.clif)}; want ${w} ${JSON.stringify(c)}`);
			}
		}
	}
	console.log(`${n} instructions checked, ${bad} differ`);
	process.exit(bad || !n ? 1 : 0);
	' "$1" "$wt/addrmap.txt" "$wt/clif"
}
for c in cwasm jitdump; do
	map=$wt/module.cwasm
	[ $c = jitdump ] && map=$wt/module-v46.cwasm
	# shellcheck disable=SC2086
	"$POSTPROC" --json --all --cwasm "$map" $cols "$tmp/$c.hbs" >"$tmp/$c.json" 2>/dev/null
	per_insn "$tmp/$c.json" >"$tmp/$c.insn" 2>&1
	check "$c: every instruction's wasm offset and CLIF cell agree with addrmap.txt and clif/ ($(tail -1 "$tmp/$c.insn"))" \
		test "$(tail -1 "$tmp/$c.insn" | cut -d' ' -f4)" = 0
done

# A stale .cwasm: one byte of fib's code changed (text 0x80 + 0x19, the lea of
# the loop; .text starts at file offset 0x1000, README.md).
cp "$wt/module.cwasm" "$tmp/stale.cwasm"
printf '\220' | dd of="$tmp/stale.cwasm" bs=1 seek=$((0x1000 + 0x80 + 0x1c)) conv=notrunc status=none
# shellcheck disable=SC2086
"$POSTPROC" -p 100 --cwasm "$tmp/stale.cwasm" $cols "$tmp/cwasm.hbs" >/dev/null 2>"$tmp/stale.err"
check "a .cwasm whose code differs from what ran is reported as stale" \
	grep -q "differ from the .cwasm's code (e.g. wasm\[0\]::function\[1\]::fib)" "$tmp/stale.err"
# Another module altogether (test-data/cwasm's fib).
# shellcheck disable=SC2086
"$POSTPROC" -p 100 --cwasm "$top/test-data/cwasm/fib-x86_64.cwasm" "$tmp/jitdump.hbs" >/dev/null 2>"$tmp/other.err"
check "a .cwasm of another module is reported: no sampled code matches it" \
	grep -q "no sampled code matches the .cwasm" "$tmp/other.err"
