#!/bin/sh
# SPDX-License-Identifier: MIT
# The code shapes of the real recordings (test-data/*/README.md) that a linear
# disassembly from the entry gets wrong, each checked against an independent
# reading of the same bytes:
#  - v8-osr: V8's on-stack-replacement code is entered after an int3 (the entry
#    at offset 0 only aborts): the OSR entry and the loop are code, in blocks,
#    with every sample of the load on them.
#  - v8-switch: TurboFan's jump table (64-bit addresses after the code): every
#    case target starts a block. The table is read here with objdump (the lea
#    that addresses it, the bounds check before it) and node (the 8-byte
#    entries), not by hotblocks' own decoder.
#  - glibc-evex: the assembly text of every sampled instruction of glibc's
#    AVX-512 string functions equals objdump -d -M intel's, normalised as below.
. "$(dirname "$0")/lib.sh"
need_private_tmp

report() {	# case -> $tmp/CASE.hbs and $tmp/CASE.json (--json --all)
	restore_recording "$1"
	pd=$(recording_data "$1")
	plugin_stream "$pd" "$tmp/$1.hbs" 2>"$tmp/$1.err" &&
		"$POSTPROC" --json --all "$tmp/$1.hbs" >"$tmp/$1.json" 2>>"$tmp/$1.err"
}

# --- v8-osr -----------------------------------------------------------------
if report v8-osr; then
	# An OSR load: within its first 0x30 bytes, a call through r13 (V8's
	# root register: the abort builtin) followed by an int3.
	node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	let osr = 0, osrSamples = 0;
	const bad = [];
	for (const f of d.functions.filter((f) => f.kind === "jit" && f.disassembled)) {
		const ins = f.instructions;
		const k = ins.findIndex((i) => i.asm === "int3");
		if (k < 1 || ins[k].offset >= 0x30 || !/^call +qword ptr \[r13 /.test(ins[k - 1].asm))
			continue;
		osr++;
		osrSamples += f.samples;
		const entry = ins[k + 1].offset, name = `${f.name} (code index ${f.code_index})`;
		if (!f.blocks.some((b) => b.start === entry))
			bad.push(`${name}: no block starts at the OSR entry 0x${entry.toString(16)}`);
		if (f.code_end <= entry)
			bad.push(`${name}: code_end 0x${f.code_end.toString(16)} is not past the int3`);
		for (const i of ins.filter((i) => i.samples))
			if (!f.blocks.some((b) => b.start <= i.offset && i.offset < b.end))
				bad.push(`${name}: sampled 0x${i.offset.toString(16)} is in no block`);
		const inBlocks = f.blocks.reduce((a, b) => a + b.samples, 0);
		if (inBlocks !== f.samples)
			bad.push(`${name}: ${inBlocks} samples in blocks of ${f.samples}`);
	}
	if (osr < 2) bad.push(`only ${osr} sampled OSR loads`);
	console.log(`${osr} ${osrSamples}`);
	for (const b of bad) console.error(b);
	process.exit(bad.length ? 1 : 0);
	' "$tmp/v8-osr.json" >"$tmp/osr.out" 2>"$tmp/osr.err"
	if [ $? -eq 0 ]; then
		read -r n s <"$tmp/osr.out"
		ok "v8-osr: $n sampled OSR loads ($s samples): a block at each OSR entry, every sample in a block"
	else
		not_ok "v8-osr: OSR entries start blocks, every sample in a block" "$tmp/osr.err"
	fi
else
	not_ok "v8-osr: perf script | hotblocks --json --all" "$tmp/v8-osr.err"
fi

# --- v8-switch --------------------------------------------------------------
if report v8-switch; then
	# the TurboFan code's bytes, from the stream
	awk '$1 == "object" && / name=JS:run-0-turbofan$/ { id = $2; for (i = 3; i <= NF; i++) if ($i ~ /^addr=/) print substr($i, 6) > "'"$tmp"'/sw.addr" }
	     $1 == "code" && id != "" && $2 == id { printf "%s", $4 }' "$tmp/v8-switch.hbs" >"$tmp/sw.hex"
	node -e 'require("fs").writeFileSync(process.argv[2], Buffer.from(require("fs").readFileSync(process.argv[1], "utf8"), "hex"))' \
		"$tmp/sw.hex" "$tmp/sw.bin"
	objdump -D -b binary -m i386:x86-64 -M intel -w "$tmp/sw.bin" >"$tmp/sw.objdump" 2>"$tmp/sw.err"
	node -e '
	const fs = require("fs");
	const [json, bin, od, addrFile] = process.argv.slice(1);
	const d = JSON.parse(fs.readFileSync(json));
	const code = fs.readFileSync(bin), addr = BigInt(fs.readFileSync(addrFile, "utf8").trim());
	const lines = fs.readFileSync(od, "utf8").split("\n");
	// objdump: "cmp r8d,0x11" ... "lea r10,[rip+0xad9]  # 0xd50" then "jmp QWORD PTR [r10+r8*8]"
	let table = -1, count = -1;
	for (let i = 0; i < lines.length; i++) {
		const j = lines[i].match(/\tjmp +QWORD PTR \[(r\w+)\+(r\w+)\*8\]$/);
		if (!j) continue;
		for (let k = i - 1; k >= i - 4; k--) {
			const l = lines[k].match(new RegExp(`\\tlea +${j[1]},\\[rip\\+0x[0-9a-f]+\\] +# 0x([0-9a-f]+)`));
			if (l) table = parseInt(l[1], 16);
			const c = lines[k].match(new RegExp(`\\tcmp +${j[2].replace(/^r(\d+)$/, "r$1d")},0x([0-9a-f]+)$`));
			if (c) count = parseInt(c[1], 16);
		}
	}
	const bad = [];
	if (table < 0 || count < 2) bad.push(`objdump shows no table switch (table ${table}, count ${count})`);
	const f = d.functions.find((f) => f.name === "JS:run-0-turbofan");
	const starts = new Set(f.blocks.map((b) => b.start));
	const byOff = new Map(f.instructions.map((i, k) => [i.offset, k]));
	let fallsIn = 0;
	for (let e = 0; e < count; e++) {
		const t = Number(code.readBigUInt64LE(table + 8 * e) - addr);
		const row = f.instructions[byOff.get(table + 8 * e)];
		if (!row || !row.asm.startsWith(".quad") || !row.asm.endsWith(" + 0x" + t.toString(16)))
			bad.push(`entry ${e} at 0x${(table + 8 * e).toString(16)}: hotblocks has ${row ? row.asm : "no row"}, the bytes say case 0x${t.toString(16)}`);
		if (!starts.has(t)) bad.push(`case 0x${t.toString(16)} starts no block`);
		const prev = f.instructions[byOff.get(t) - 1];
		if (prev && !/^(jmp|ret|nop|int3|ud2)\b/.test(prev.asm)) fallsIn++;
	}
	console.log(`${count} ${fallsIn} 0x${table.toString(16)}`);
	for (const b of bad) console.error(b);
	process.exit(bad.length ? 1 : 0);
	' "$tmp/v8-switch.json" "$tmp/sw.bin" "$tmp/sw.objdump" "$tmp/sw.addr" >"$tmp/sw.out" 2>>"$tmp/sw.err"
	if [ $? -eq 0 ]; then
		read -r n fall at <"$tmp/sw.out"
		ok "v8-switch: all $n cases of TurboFan's table at $at start blocks ($fall entered by fall-through too)"
	else
		not_ok "v8-switch: every jump-table case starts a block" "$tmp/sw.err"
	fi
else
	not_ok "v8-switch: perf script | hotblocks --json --all" "$tmp/v8-switch.err"
fi

# --- glibc-evex -------------------------------------------------------------
# Normalisation (objdump's spelling -> capstone's): lower case, no "# ..."
# comments or "<symbol>" labels, no spaces around , + - * [ ] { }, no "*1"
# index scale and no "ds:" segment (objdump writes them, capstone leaves them
# out), branch targets function-relative, numbers compared as values with
# objdump's 8- and 16-digit hex taken as the 32/64-bit two's complement it
# prints for a negative immediate (capstone writes -0x80).
if report glibc-evex; then
	libc=/usr/lib/x86_64-linux-gnu/libc.so.6
	node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	for (const f of d.functions.filter((f) => f.dso === process.argv[2]))
		console.log(`${f.sym_start} ${f.sym_start + f.size}`);
	' "$tmp/glibc-evex.json" "$libc" >"$tmp/ranges"
	while read -r a b; do
		objdump -d -M intel -w --start-address="$a" --stop-address="$b" "$libc"
	done <"$tmp/ranges" | grep -E '^ +[0-9a-f]+:' >"$tmp/libc.objdump"
	node -e '
	const fs = require("fs");
	const [json, od, libc] = process.argv.slice(1);
	const d = JSON.parse(fs.readFileSync(json));
	const ref = new Map();
	for (const line of fs.readFileSync(od, "utf8").split("\n")) {
		const m = line.match(/^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(.*)$/);
		if (m) ref.set(parseInt(m[1], 16), { bytes: m[2].trim(), asm: m[3] });
	}
	const num = (h) => {
		let v = BigInt("0x" + h);
		if (h.length === 8 && v >= 0x80000000n) v -= 0x100000000n;
		if (h.length === 16 && v >= 0x8000000000000000n) v -= 0x10000000000000000n;
		return v.toString();
	};
	const norm = (s) => s.replace(/\s+#.*$/, "").replace(/<[^>]*>/g, "").toLowerCase()
		.replace(/\b(ds|es|ss|cs):(?=\[)/g, "")
		.replace(/(-?)0x([0-9a-f]+)\b/g, (_, m, h) => m ? m + BigInt("0x" + h) : num(h))
		.replace(/\s+/g, " ").trim()
		.replace(/ ?([,+\-*\[\]{}]) ?/g, "$1").replace(/\*1(?![0-9])/g, "");
	let n = 0, evex = 0;
	const bad = [], fns = new Set();
	for (const f of d.functions.filter((f) => f.dso === libc)) {
		for (const i of f.instructions.filter((i) => i.samples)) {
			const o = ref.get(f.sym_start + i.offset);
			n++;
			if (!o) { bad.push(`${f.symbol}+0x${i.offset.toString(16)}: objdump has no instruction there`); continue; }
			const theirs = o.asm.replace(/^((?:bnd |notrack )?(?:j\w+|call|loop\w*))\s+([0-9a-f]+)\b/,
				(_, op, t) => op + " 0x" + (parseInt(t, 16) - f.sym_start).toString(16));
			if (/^((f2|f3|66|67) )*62 /.test(o.bytes)) { evex++; fns.add(f.symbol); }
			if (norm(i.asm) !== norm(theirs))
				bad.push(`${f.symbol}+0x${i.offset.toString(16)}: "${i.asm}" vs objdump "${o.asm}" (${o.bytes})`);
		}
	}
	for (const want of ["__strlen_evex", "__memchr_evex", "__memcmp_evex_movbe", "__strcmp_evex"])
		if (!fns.has(want)) bad.push(`no sampled EVEX instruction in ${want}`);
	console.log(`${n} ${evex}`);
	for (const b of bad) console.error(b);
	process.exit(bad.length ? 1 : 0);
	' "$tmp/glibc-evex.json" "$tmp/libc.objdump" "$libc" >"$tmp/evex.out" 2>"$tmp/evex.err"
	if [ $? -eq 0 ]; then
		read -r n e <"$tmp/evex.out"
		ok "glibc-evex ($(tail -n 1 "$tmp/restore-glibc-evex.out")): the $n sampled libc instructions ($e AVX-512) read as objdump -d -M intel reads them"
	else
		echo "(a hotblocks built against capstone 4, make CAPSTONE=system on Debian 12, cannot decode AVX-512)" >>"$tmp/evex.err"
		not_ok "glibc-evex: sampled libc instructions read as objdump reads them" "$tmp/evex.err"
	fi
else
	not_ok "glibc-evex: perf script | hotblocks --json --all" "$tmp/glibc-evex.err"
fi
