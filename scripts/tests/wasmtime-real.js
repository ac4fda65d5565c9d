// SPDX-License-Identifier: MIT
// Independent checks of a hotblocks JSON report (--json --all) of a real
// wasmtime recording; used by wasmtime-real.sh and cranelift-targets.sh. Each check prints one line
// "<name> ok|FAIL <summary>" followed by up to 10 "  detail" lines.
//
//   node wasmtime-real.js JSON PERF-SCRIPT CWASM CLIF-DIR|- PRINTED|- [REFERENCE-TXT OUR-TXT]
//
// JSON          hotblocks --json --all of the recording
// PERF-SCRIPT   perf script -F ip,sym,symoff,dso of the same perf.data
// CWASM         the .cwasm that ran: its .wasmtime.addrmap is decoded here
//               (both encodings, chosen by the engine version in .wasmtime.engine)
// CLIF-DIR      wasmtime compile --emit-clif's directory (- when there is none)
// PRINTED       "OFFSET<TAB>TEXT" lines: wasmprinter's text of every instruction
//               (- to skip the Wasm check)
// REFERENCE-TXT what `wasmtime hot-blocks` printed for this perf.data, and
// OUR-TXT       what hotblocks printed for it with the same -p
//
//   node wasmtime-real.js --printed OBJDUMP-D PRINTED  >  "OFFSET<TAB>TEXT" lines
//
// pairs the instructions of `wasm-objdump -d` (their offsets) with the lines
// of `jco print` (wasmprinter's text), function by function, in order: flat
// wasmprinter prints one line per instruction, and the function's closing
// ")" stands for its final `end` (no text, as in the reference's Wasm map).
//
//   node wasmtime-real.js --same-blocks OBJDUMP-D JSON...
//
// The same code gets the same blocks however it was seen: for each .cwasm
// function in several reports of one .cwasm (a jitdump, a perfmap and the
// reference's recording: code loads of kind jit, the mapped .cwasm of kind
// cwasm), its code_end and blocks are equal in all; and no block reaches the
// constants the function loads (`objdump -d -M intel` of the .cwasm: the
// targets of its `PTR [rip+...]` operands inside the function, which Cranelift
// puts in a pool after the code). Prints "same-blocks ok|FAIL ...".
"use strict";
const fs = require("fs");

/*
 * A share as the reference prints it, "%.2f" of the double: an exact tie (the
 * only ones a double can hold at two decimals are odd multiples of 1/8, e.g.
 * 13 of 800 samples = 1.625) goes to the even digit. JavaScript's toFixed
 * takes the larger one there (1.63), so it cannot be used alone.
 */
function fixed2(x) {
	const eighths = x * 8;
	return (Number.isInteger(eighths) && eighths % 2 ? 2 * Math.round(x * 50) / 100 : x).toFixed(2);
}
if (process.argv[2] === "--printed") {
	const offs = [];	// per function: instruction offsets
	for (const l of fs.readFileSync(process.argv[3], "utf8").split("\n")) {
		if (/^[0-9a-f]+ func\[\d+\]/.test(l)) { offs.push([]); continue; }
		const m = l.match(/^ ([0-9a-f]+): [0-9a-f ]*\|(.*)$/);
		if (!m || !offs.length) continue;
		const t = m[2].trim();
		if (t === "" || t.startsWith("local[")) continue;
		offs[offs.length - 1].push(parseInt(m[1], 16));
	}
	const bodies = [];	// per function: printed lines, the closing ")" included
	let cur = null, indent = 0;
	for (const l of fs.readFileSync(process.argv[4], "utf8").split("\n")) {
		const t = l.trimStart(), d = l.length - t.length;
		if (cur === null) {
			if (!t.startsWith("(func ")) continue;
			// An empty body closes on the same line: `(func $f (type 7))`.
			const open = (t.match(/\(/g) || []).length, close = (t.match(/\)/g) || []).length;
			if (open === close) bodies.push([null]);
			else { cur = []; indent = d; }
			continue;
		}
		if (d === indent && t === ")") { cur.push(null); bodies.push(cur); cur = null; continue; }
		if (t.startsWith("(local")) continue;
		cur.push(t);
	}
	if (offs.length !== bodies.length) throw new Error(`${offs.length} functions in wasm-objdump, ${bodies.length} printed`);
	const out = [];
	offs.forEach((o, f) => {
		if (o.length !== bodies[f].length) throw new Error(`function ${f}: ${o.length} instructions in wasm-objdump, ${bodies[f].length} printed lines`);
		o.forEach((off, i) => { if (bodies[f][i] !== null) out.push(`${off.toString(16)}\t${bodies[f][i]}`); });
	});
	process.stdout.write(out.join("\n") + "\n");
	process.exit(0);
}
let failed = false;

function result(name, bad, summary) {
	console.log(`${name} ${bad.length ? "FAIL" : "ok"} ${summary}`);
	for (const b of bad.slice(0, 10)) console.log("  " + b);
	if (bad.length) failed = true;
}

if (process.argv[2] === "--same-blocks") {
	// objdump: per symbol, the lowest offset in it that the code loads from
	const pool = new Map();
	let sym = null;
	for (const l of fs.readFileSync(process.argv[3], "utf8").split("\n")) {
		const h = l.match(/^[0-9a-f]+ <(.*)>:$/);
		if (h) { sym = h[1]; continue; }
		const m = l.match(/PTR \[rip[+-]0x[0-9a-f]+\]\s+# [0-9a-f]+ <(.*)\+0x([0-9a-f]+)>$/);
		if (m && m[1] === sym) pool.set(sym, Math.min(pool.has(sym) ? pool.get(sym) : Infinity, parseInt(m[2], 16)));
	}
	const seen = new Map();	// symbol -> [report, code_end, blocks text]
	const bad = [];
	let compared = 0, kinds = new Set();
	const pooled = new Set();
	for (const j of process.argv.slice(4)) {
		const d = JSON.parse(fs.readFileSync(j, "utf8"));
		for (const f of d.functions) {
			if (!f.wasm_function || !f.disassembled) continue;
			const sy = f.wasm_function.symbol;
			kinds.add(f.kind);
			const blocks = f.blocks.map(b => `${b.start.toString(16)}-${b.end.toString(16)}`).join(" ");
			if (pool.has(sy)) {
				pooled.add(sy);
				const last = f.blocks.reduce((e, b) => Math.max(e, b.end), 0);
				if (f.code_end > pool.get(sy) || last > pool.get(sy))
					bad.push(`${j} ${sy} (${f.kind}): code_end 0x${f.code_end.toString(16)}, blocks up to 0x${last.toString(16)}, but its constants start by 0x${pool.get(sy).toString(16)}`);
			}
			if (!seen.has(sy)) { seen.set(sy, [j, f.kind, f.code_end, blocks]); continue; }
			const [j0, k0, e0, b0] = seen.get(sy);
			compared++;
			if (e0 !== f.code_end || b0 !== blocks)
				bad.push(`${sy}: ${k0} in ${j0}: code_end 0x${e0.toString(16)}, blocks ${b0}; ${f.kind} in ${j}: code_end 0x${f.code_end.toString(16)}, blocks ${blocks}`);
		}
	}
	if (!compared) bad.push("no function in two reports");
	result("same-blocks", bad, `${compared} functions compared across ${process.argv.length - 4} reports (${[...kinds].sort().join(", ")}); ` +
		`${pooled.size} with a constant pool (${[...pooled].map(k => k.replace(/.*::/, "")).join(", ")})`);
	process.exit(failed ? 1 : 0);
}
const [jsonPath, perfPath, cwasmPath, clifDir, printedPath, refPath, oursPath] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(jsonPath, "utf8"));

// ---- the .cwasm: ELF64 section headers (big-endian for s390x: EI_DATA 2),
// .text, .wasmtime.addrmap (little-endian on every target)
const elf = fs.readFileSync(cwasmPath);
const be = elf[5] === 2;
const u16 = o => be ? elf.readUInt16BE(o) : elf.readUInt16LE(o);
const u32 = o => be ? elf.readUInt32BE(o) : elf.readUInt32LE(o);
const u64 = o => Number(be ? elf.readBigUInt64BE(o) : elf.readBigUInt64LE(o));
const shoff = u64(0x28), shentsize = u16(0x3a);
const shnum = u16(0x3c), shstrndx = u16(0x3e);
const sh = i => ({
	name: u32(shoff + i * shentsize),
	offset: u64(shoff + i * shentsize + 0x18),
	size: u64(shoff + i * shentsize + 0x20),
});
const strtab = sh(shstrndx);
const sections = new Map();
for (let i = 0; i < shnum; i++) {
	const s = sh(i);
	const end = elf.indexOf(0, strtab.offset + s.name);
	sections.set(elf.toString("latin1", strtab.offset + s.name, end), s);
}
const engine = sections.get(".wasmtime.engine");
const version = elf.toString("latin1", engine.offset + 2, engine.offset + 2 + elf[engine.offset + 1]);
const am = sections.get(".wasmtime.addrmap");
const map = [];		// [text offset, wasm offset or null], ascending
{
	const b = elf.subarray(am.offset, am.offset + am.size);
	const n = b.readUInt32LE(0);
	if (parseInt(version, 10) >= 47) {
		// Blocks of 128 entries: an index of (first offset, body position),
		// then per entry a uleb token (delta << 1 | none) and, unless none,
		// the position: absolute uleb first, then sleb deltas.
		const blocks = b.readUInt32LE(4), bodies = 8 + 8 * blocks;
		for (let k = 0; k < blocks; k++) {
			let off = b.readUInt32LE(8 + 8 * k), p = bodies + b.readUInt32LE(12 + 8 * k), pos = null;
			const uleb = () => { let v = 0, s = 0, c; do { c = b[p++]; v += (c & 0x7f) * 2 ** s; s += 7; } while (c & 0x80); return v; };
			const sleb = () => { let v = 0, s = 0, c; do { c = b[p++]; v += (c & 0x7f) * 2 ** s; s += 7; } while (c & 0x80); return c & 0x40 ? v - 2 ** s : v; };
			for (let e = 0; e < Math.min(128, n - 128 * k); e++) {
				const t = uleb();
				off += Math.floor(t / 2);
				if (t & 1) { map.push([off, null]); continue; }
				pos = pos === null ? uleb() : pos + sleb();
				map.push([off, pos]);
			}
		}
	} else {
		if (am.size !== 4 + 8 * n) throw new Error(`plain address map of ${n} entries is ${am.size} bytes`);
		for (let i = 0; i < n; i++) {
			const pos = b.readUInt32LE(4 + 4 * n + 4 * i);
			map.push([b.readUInt32LE(4 + 4 * i), pos === 0xffffffff ? null : pos]);
		}
	}
}
function wasmOffset(fnStart, fnEnd, t) {	// the last entry of this function at or before t
	let lo = 0, hi = map.length;
	while (lo < hi) { const m = (lo + hi) >> 1; if (map[m][0] <= t) lo = m + 1; else hi = m; }
	return lo > 0 && map[lo - 1][0] >= fnStart && map[lo - 1][0] < fnEnd ? map[lo - 1][1] : null;
}

// ---- CLIF files: symbol (first line) -> offset -> texts; every hex digit read.
// wasmtime 50 may name a function's CLIF "SYMBOL_wasm_call" (a component
// trampoline's ABI left in a reused Cranelift context; which functions varies
// from run to run): such a file is SYMBOL's when no file names SYMBOL itself.
const clif = new Map();
const staleAbi = new Set();	// symbols whose CLIF came from a suffixed header
function clifOf(sym) {
	if (clif.has(sym)) return clif.get(sym);
	for (const sfx of ["_wasm_call", "_array_call", "_patchable_call"])
		if (clif.has(sym + sfx)) { staleAbi.add(sym); return clif.get(sym + sfx); }
	return undefined;
}
if (clifDir !== "-") {
	// (in name order, and one file per symbol: what the map holds does not
	// depend on the order the directory lists them)
	const fileOf = new Map();
	for (const f of fs.readdirSync(clifDir).sort()) {
		const lines = fs.readFileSync(`${clifDir}/${f}`, "utf8").split("\n");
		const sym = lines[0].match(/^;; Intermediate Representation of function <(.*)>:$/)[1];
		if (fileOf.has(sym)) throw new Error(`${clifDir}: ${fileOf.get(sym)} and ${f} are both the CLIF of ${sym}`);
		fileOf.set(sym, f);
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
}
const printed = new Map();
if (printedPath !== "-")
	for (const l of fs.readFileSync(printedPath, "utf8").split("\n")) {
		const i = l.indexOf("\t");
		if (i > 0) printed.set(parseInt(l.slice(0, i), 16), l.slice(i + 1));
	}

// ---- perf's own attribution: samples per (symbol, offset) in the .cwasm
const perf = new Map();
let perfTotal = 0, perfCwasm = 0;
for (const l of fs.readFileSync(perfPath, "utf8").split("\n")) {
	if (!l.trim()) continue;
	perfTotal++;
	const m = l.match(/^\s*[0-9a-f]+ (.*)\+0x([0-9a-f]+) \((.*)\)$/);
	if (!m || !m[3].endsWith(".cwasm")) continue;
	perfCwasm++;
	const k = `${m[1]}+0x${m[2]}`;
	perf.set(k, (perf.get(k) || 0) + 1);
}

const wasmFns = report.functions.filter(f => f.wasm_function);
const ours = new Map();
let nInsn = 0, nMapped = 0, nClif = 0, nWasm = 0;
const badSamples = [], badMap = [], badClif = [], badWasm = [];
for (const f of wasmFns) {
	const w = f.wasm_function, start = w.text_offset, cm = clifOf(w.symbol);
	for (const i of f.instructions) {
		nInsn++;
		if (i.samples) ours.set(`${w.symbol}+0x${i.offset.toString(16)}`, (ours.get(`${w.symbol}+0x${i.offset.toString(16)}`) || 0) + i.samples);
		const want = wasmOffset(start, start + f.size, start + i.offset);
		if (i.wasm_offset !== want)
			badMap.push(`${w.symbol}+0x${i.offset.toString(16)}: wasm offset ${i.wasm_offset}, the address map says ${want}`);
		if (want === null) continue;
		nMapped++;
		const c = cm && cm.has(want) ? cm.get(want).join("; ") : null;
		if (i.clif !== c)
			badClif.push(`${w.symbol}+0x${i.offset.toString(16)} @${want.toString(16)}: ${JSON.stringify(i.clif)}, the CLIF file has ${JSON.stringify(c)}`);
		else if (c !== null) nClif++;
		if (printedPath !== "-") {
			const p = printed.has(want) ? printed.get(want) : null;
			if (i.wasm !== p)
				badWasm.push(`${w.symbol}+0x${i.offset.toString(16)} @${want.toString(16)}: ${JSON.stringify(i.wasm)}, wasmprinter has ${JSON.stringify(p)}`);
			else if (p !== null) nWasm++;
		}
	}
}
// Every perf sample in the .cwasm is one of ours at the same symbol and offset.
for (const [k, n] of perf) if (ours.get(k) !== n) badSamples.push(`${k}: perf ${n}, hotblocks ${ours.get(k) || 0}`);
for (const [k, n] of ours) if (!perf.has(k)) badSamples.push(`${k}: perf 0, hotblocks ${n}`);
if (report.total_samples !== perfTotal) badSamples.push(`total: perf ${perfTotal}, hotblocks ${report.total_samples}`);
result("samples", badSamples, `${perfCwasm} .cwasm samples at ${perf.size} symbol offsets, ${perfTotal} in all`);
result("addrmap", badMap.concat(nInsn ? [] : ["no wasmtime instruction in the report"]),
	`${nInsn} instructions of ${wasmFns.length} functions, ${nMapped} with a wasm offset (engine "${version}", ${map.length} entries)`);
result("clif", badClif, `${nClif} instructions with CLIF text` +
	(staleAbi.size ? ` (${staleAbi.size} functions' CLIF named with wasmtime 50's stale ABI suffix)` : ""));
if (printedPath !== "-") result("wasm", badWasm, `${nWasm} instructions with Wasm text`);

// ---- names: with JITDUMP=FILE (the recording's jit-<pid>.dump), every wasm
// function's display name is one that wasmtime itself registered at its
// address: the name-section name demangled as wasmtime demangles it, or the
// ELF symbol (a component's code is registered once per core module).
// With PERFMAP=FILE (its /tmp/perf-<pid>.map), the same from the perf map.
// With NAMES=FILE ("M<TAB>F<TAB>NAME" lines: wasmprinter's $names of the core
// modules, demangled by c++filt), a function that wasmtime registered by its
// bare symbol wasm[M]::function[F] only (wasmtime 50 drops a name section
// whose names are out of index order, as the WASI adapter's are) may be shown
// by the name the module's name section gives it.
if (process.env.JITDUMP || process.env.PERFMAP) {
	const sectionNames = new Map();
	if (process.env.NAMES)
		for (const l of fs.readFileSync(process.env.NAMES, "utf8").split("\n")) {
			const [m, fi, name] = l.split("\t");
			if (name !== undefined) sectionNames.set(`wasm[${m}]::function[${fi}]`, name);
		}
	const names = new Map();
	const add = (addr, name) => { if (!names.has(addr)) names.set(addr, []); names.get(addr).push(name); };
	if (process.env.PERFMAP)
		for (const l of fs.readFileSync(process.env.PERFMAP, "utf8").split("\n")) {
			const m = l.match(/^(0x[0-9a-f]+) [0-9a-f]+ (.*)$/);
			if (m) add(parseInt(m[1], 16), m[2]);
		}
	const j = process.env.JITDUMP ? fs.readFileSync(process.env.JITDUMP) : Buffer.alloc(16);
	for (let p = process.env.JITDUMP ? j.readUInt32LE(8) : 16; p + 16 <= j.length;) {
		const id = j.readUInt32LE(p), size = j.readUInt32LE(p + 4);
		if (id === 0) add(Number(j.readBigUInt64LE(p + 32)), j.toString("utf8", p + 56, j.indexOf(0, p + 56)));
		p += size;
	}
	const bad = [];
	let n = 0, demangled = 0, unread = 0;
	for (const f of wasmFns) {
		const have = names.get(f.address) || [], sym = f.wasm_function.symbol;
		n++;
		if (have.length && have.every(h => h === sym) && /^wasm\[\d+\]::function\[\d+\]$/.test(sym) &&
		    sectionNames.has(sym) && f.display_name === sectionNames.get(sym))
			unread++;
		else if (!have.includes(f.display_name)) bad.push(`${sym}: shown as ${JSON.stringify(f.display_name)}, wasmtime registered ${JSON.stringify(have)}`);
		else if (!sym.endsWith("::" + f.display_name) && f.display_name !== sym) demangled++;
	}
	result("names", bad, `${n} functions named as wasmtime registered them, ${demangled} of them demangled` +
		(unread ? `; ${unread} by the name section wasmtime did not read` : ""));
}

// ---- side by side with what `wasmtime hot-blocks` printed for this perf.data
if (refPath) {
	const ref = fs.readFileSync(refPath, "utf8").split("\n");
	const our = fs.readFileSync(oursPath, "utf8").split("\n");
	const bad = [], T = report.total_samples;
	const h = ref[0].match(/^Collected (\d+) total samples; (\d+) \(([\d.]+)%\) Wasm samples\.$/);
	const o = our[0].match(/^Collected (\d+) total samples; (\d+) \(([\d.]+)%\) JIT samples\.$/);
	if (!h || !o || h[1] !== o[1] || h[2] !== o[2] || h[3] !== o[3])
		bad.push(`header: reference ${JSON.stringify(ref[0])}, ours ${JSON.stringify(our[0])}`);
	const byName = new Map();	// the reference's block name: the raw name-section name, else the symbol
	for (const f of wasmFns) {
		byName.set(f.wasm_function.symbol, f);
		const m = f.wasm_function.symbol.match(/^wasm\[\d+\]::function\[\d+\]::(.*)$/);
		if (m) byName.set(m[1], f);
	}
	let rows = 0, blocks = 0, longOffsets = 0, targets = 0, outside = 0, staleCells = 0, skewed = 0;
	// The reference decodes an inline jump table as instructions, and may
	// stay out of step with the code after it for a few rows. When none of
	// the instructions it decodes in step got a sample, its block header
	// falls back to the block's first (out-of-step) offset, which is inside
	// one of our jump-table (.long) rows. Then skip its rows, which can have
	// no samples (a sample is at an instruction start, which is ours), until
	// one is ours again after the table's end; the samples of our
	// instructions between the table's end and that row count in its block's
	// total only. Returns [our index, its row, those samples], or why not.
	function resync(f, at, ref, first, asmAt, asmEnd) {
		const ins = f.instructions;
		const t = ins.findIndex((i, n) => i.offset <= at && (n + 1 === ins.length || ins[n + 1].offset > at));
		if (t < 0 || !ins[t].asm.startsWith(".long "))
			return `its start 0x${at.toString(16)} is not one of our instructions, and in no jump-table row of ours`;
		let end = t;
		while (end < ins.length && ins[end].asm.startsWith(".long ")) end++;
		for (let r = first; r < ref.length && ref[r] !== ""; r++) {
			const asm = ref[r].slice(asmAt, asmEnd).trimEnd();
			// ours up to the first branch, return or data row after the table
			for (let k = end, sum = 0; k < ins.length; sum += ins[k].samples, k++) {
				if (ins[k].asm.slice(0, asmEnd - asmAt).trimEnd() === asm) return [k, r, sum];
				if (/^(j|ret|ud2|\.)/.test(ins[k].asm)) break;
			}
			if (ref[r].slice(0, 10).trim() !== "")
				return `its row ${r - first + 1} (${JSON.stringify(asm)}) has samples but is none of our instructions`;
		}
		return `its rows never come back in step with our instructions after the jump table at 0x${ins[t].offset.toString(16)}`;
	}
	const refRows = new Map();	// function -> offsets the reference shows a row at
	const blockGaps = [];		// [function, first row offset, samples the rows lack]
	for (let l = 0; l < ref.length; l++) {
		const b = ref[l].match(/^`(.*)` :: block 0x([0-9a-f]+) :: ([\d.]+)% total samples$/);
		if (!b) continue;
		blocks++;
		const f = byName.get(b[1]);
		if (!f) { bad.push(`block ${ref[l]}: no such function in our report`); continue; }
		const hdr = ref[l + 2], asmAt = hdr.indexOf("[Assembly]"), clifAt = hdr.indexOf("[CLIF]"), wasmAt = hdr.indexOf("[Wasm]");
		let k = f.instructions.findIndex(i => i.offset === parseInt(b[2], 16));
		let prevClif = null, prevWasm = null, blockSum = 0, r = l + 3;
		if (k < 0) {
			const s = resync(f, parseInt(b[2], 16), ref, r, asmAt, clifAt - 3);
			if (typeof s === "string") { bad.push(`block ${ref[l]}: ${s}`); continue; }
			[k, r, blockSum] = s;
			skewed += blockSum;
		}
		for (; r < ref.length && ref[r] !== ""; r++, k++) {
			rows++;
			const row = ref[r], i = f.instructions[k];
			const where = `${b[1]}+0x${i ? i.offset.toString(16) : "?"}`;
			if (!i) { bad.push(`${where}: the reference has more rows than the function has instructions`); break; }
			const pct = row.slice(0, 10).trim(), asm = row.slice(asmAt, clifAt - 3).trimEnd();
			const rc = row.slice(clifAt, wasmAt - 3).trimEnd(), rw = row.slice(wasmAt);
			const width = clifAt - 3 - asmAt;
			const want = i.samples ? fixed2(i.samples / T * 100) + "%" : "";
			if (pct !== want) bad.push(`${where}: samples ${JSON.stringify(pct)} in the reference, ${i.samples} here (${want})`);
			blockSum += i.samples;
			if (!refRows.has(f)) refRows.set(f, new Set());
			refRows.get(f).add(i.offset);
			// Branch targets: the reference's are .text-relative; ours inside the
			// function are function-relative, and one outside it is its run-time
			// address (target_address: the function's address plus the target's
			// distance from the function's .text offset), named by the function
			// of the module whose .text range holds it, when the report has it.
			const rt = asm.match(/^(\S+ +)0x([0-9a-f]+)$/), ot = i.asm.match(/^(\S+ +)(.*)$/);
			const inside = rt && ot && rt[1] === ot[1] && ot[2] === "0x" + (parseInt(rt[2], 16) - f.wasm_function.text_offset).toString(16);
			if (rt && ot && rt[1] === ot[1] && !inside && i.target_address !== undefined) {
				const toff = parseInt(rt[2], 16), want = f.address - f.wasm_function.text_offset + toff;
				const g = wasmFns.find(x => toff >= x.wasm_function.text_offset && toff < x.wasm_function.text_offset + x.size);
				const wantName = g ? g.display_name + (toff > g.wasm_function.text_offset ? "+0x" + (toff - g.wasm_function.text_offset).toString(16) : "") : null;
				if (i.target_address !== want)
					bad.push(`${where}: target address 0x${i.target_address.toString(16)}, the reference's .text offset 0x${rt[2]} gives 0x${want.toString(16)}`);
				else if (wantName !== null && (i.target_name !== wantName || ot[2] !== wantName))
					bad.push(`${where}: target named ${JSON.stringify(ot[2])} (${JSON.stringify(i.target_name)}), the reference's .text offset 0x${rt[2]} is ${wantName}`);
				else if (wantName === null && i.target_name === null && ot[2] !== "0x" + i.target_address.toString(16))
					bad.push(`${where}: an unnamed target shows ${JSON.stringify(ot[2])}, not its address`);
				else
					targets++, outside++;
			} else if (inside)
				targets++;
			else if (asm !== i.asm.slice(0, width).trimEnd())
				bad.push(`${where}: assembly ${JSON.stringify(asm)} vs ${JSON.stringify(i.asm)}`);
			// The reference reads 4 hex digits after '@': past 0x10000 its CLIF is "-".
			const long = i.wasm_offset !== null && i.wasm_offset >= 0x10000;
			const refClif = rc === '"' ? prevClif : rc === "-" ? null : rc;
			prevClif = rc === "-" ? null : refClif;
			const ourClif = i.clif === null ? null : i.clif.slice(0, wasmAt - 3 - clifAt).trimEnd();
			if (long && refClif === null && i.clif !== null) longOffsets++;
			// The reference looks for wasm[M]--function[F](--name).clif only.
			else if (staleAbi.has(f.wasm_function.symbol) && refClif === null && i.clif !== null) staleCells++;
			else if (refClif !== ourClif) bad.push(`${where}: CLIF ${JSON.stringify(rc)} vs ${JSON.stringify(i.clif)}`);
			const refWasm = rw === '"' ? prevWasm : rw === "-" ? null : rw;
			prevWasm = rw === "-" ? null : refWasm;
			const ourWasm = i.wasm === null ? null : i.wasm.slice(0, 40);
			if (refWasm !== ourWasm) bad.push(`${where}: Wasm ${JSON.stringify(rw)} vs ${JSON.stringify(i.wasm)}`);
		}
		if (fixed2(blockSum / T * 100) !== b[3]) blockGaps.push([f, parseInt(b[2], 16), blockSum, b[3], ref[l]]);
	}
	// The reference decodes an inline jump table as instructions, out of step
	// with the code after it: a sample at an instruction start it does not
	// decode counts in its block's total but in no row (its rows start at the
	// first sampled instruction it has). Such samples must be exactly ours at
	// offsets where the reference shows no row, right after one of our
	// jump-table rows (with no row of the reference between them), and before
	// that block's first row.
	let hidden = 0;
	for (const [f, first, sum, pct, line] of blockGaps) {
		const shown = refRows.get(f);
		let extra = 0, afterTable = false;
		for (let k = f.instructions.findIndex(i => i.offset === first) - 1; k >= 0; k--) {
			const i = f.instructions[k];
			if (i.asm.startsWith(".long ")) { afterTable = true; break; }
			if (shown.has(i.offset)) break;
			extra += i.samples;
		}
		if (afterTable && extra && fixed2((sum + extra) / T * 100) === pct) hidden += extra;
		else bad.push(`block ${line}: its rows sum to ${sum} samples here`);
	}
	// The reference drops samples outside wasm[M]::function[F] symbols (trampolines):
	// they are ours too, in rows of their own.
	let tramp = 0;
	for (const [k, n] of perf) {
		if (/^wasm\[\d+\]::function\[\d+\]/.test(k)) continue;
		tramp += n;
		const sym = k.slice(0, k.lastIndexOf("+"));
		if (!our.some(l => l.startsWith("`" + sym + "` :: block ")))
			bad.push(`${k}: ${n} samples, but no block of ${sym} in our report`);
	}
	result("reference", bad.concat(blocks ? [] : ["the reference printed no block"]),
		`${blocks} blocks, ${rows} rows compared; ${targets} branch targets .text-relative there, function-relative here ` +
		`(${outside} out of the function: its address, named by the module's function there); ` +
		`${longOffsets} CLIF cells past 0x10000 that the reference leaves "-"; ` +
		(staleCells ? `${staleCells} CLIF cells of files named with wasmtime 50's stale ABI suffix, "-" there; ` : "") +
		(hidden + skewed ? `${hidden + skewed} samples after an inline jump table the reference decodes out of step, in its block totals only` +
			(skewed ? ` (${skewed} in a block whose rows start out of step)` : "") + "; " : "") +
		`${tramp} trampoline samples, in rows of their own here, in the reference's header only`);
}
process.exit(failed ? 1 : 0);
