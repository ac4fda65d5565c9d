// SPDX-License-Identifier: MIT
// Independent checks of hotblocks' instructions, blocks and jump tables on
// Cranelift's aarch64, riscv64 and s390x code (test-data/cranelift-targets),
// against LLVM's disassembler; used by cranelift-targets.sh. Each check prints
// "ok - NAME" or "not ok - NAME" and "# ..." details (checks.js).
//
//   node cranelift-targets.js ARCH JSON OBJDUMP [DOT]
//
// ARCH     aarch64, riscv64 or s390x
// JSON     hotblocks --json --all of a stream over the module's functions
// OBJDUMP  llvm-objdump -d -z --triple=... of the .cwasm (every byte shown)
// DOT      hotblocks --dot of the same stream: the edges of the table jumps
//
// Jump tables are found here from LLVM's text alone, by the shape Cranelift
// gives its br_table (the bounds check gives the number of entries N):
//   aarch64  cmp wI, #N; mov xD, #N; csel xD, xI, xD, lo; adr xT, #d; ldrsw;
//            add; br xT, N + 1 little-endian 32-bit entries at T (relative to
//            T), the last the default's (wasmtime 50; wasmtime 49 branched
//            to the default instead, cmp; b.hs default; csel, and had N)
//   s390x    clgfi %rI, N; jghe default; larl %rT, T; agf %rT, 0(%rX,%rT);
//            br %rT, N big-endian 32-bit entries at T (relative to T)
//   riscv64  li aX, N; bltu rI, aX, L; auipc a0, 0; jr D(a0) (default); L:
//            auipc aT, 0; slli; add aT, aT, aO; jr D(aT): at T = L + D, N
//            jumps of 8 bytes, each auipc aY, HI; jr LO(aY) to T + 8k + HI*4096 + LO
// and checked:
//   boundaries  every row of ours starts and ends where an instruction of
//               LLVM's does, and the reverse, outside the data tables (where
//               LLVM decodes data as instructions)
//   tables      inside a data table our rows are its N entries, 4 bytes each,
//               none sampled, each ".long CASE - TABLE" with the case LLVM's
//               bytes give; every case (and riscv64's every entry) starts
//               a block; with DOT, the table jump's block has a case edge to
//               each of them
"use strict";
const fs = require("fs");
const checks = require("./checks.js");
const [arch, jsonPath, odPath, dotPath] = process.argv.slice(2);
const report = checks.read(jsonPath);
const result = (name, bad, summary) => checks.report(!bad.length, `${name}: ${summary}`, bad.slice(0, 10).join("\n"));

// ---- LLVM's disassembly: per symbol, its address and instructions with their bytes
const od = new Map();
let cur = null;
for (const l of fs.readFileSync(odPath, "utf8").split("\n")) {
	let m = l.match(/^([0-9a-f]+) <(.*)>:$/);
	if (m) {
		cur = { start: parseInt(m[1], 16), insns: [] };
		od.set(m[2], cur);
		continue;
	}
	m = l.match(/^\s*([0-9a-f]+):\s((?:[0-9a-f]{2} )+)\s*(.*)$/);
	if (!m || !cur) continue;
	const bytes = m[2].trim().split(" ").map(h => parseInt(h, 16));
	const text = m[3].replace(/\t/g, " ").replace(/\s+/g, " ").trim();
	cur.insns.push({ addr: parseInt(m[1], 16), bytes, text });
}

// The byte at address a of function o (from LLVM's byte columns).
function byteAt(o, a) {
	for (const i of o.insns)
		if (a >= i.addr && a < i.addr + i.bytes.length) return i.bytes[a - i.addr];
	return undefined;
}
function int32(o, a, big) {
	const b = [0, 1, 2, 3].map(k => byteAt(o, a + k));
	if (b.some(x => x === undefined)) return undefined;
	const [x0, x1, x2, x3] = big ? b : b.reverse();
	return ((x0 << 24) | (x1 << 16) | (x2 << 8) | x3) | 0;
}
const sext20 = v => (v & 0x80000) ? v - 0x100000 : v;

// The tables of function o: { start, end, data, cases[], entries[] } in
// text addresses.
function tablesOf(o) {
	const t = [], ins = o.insns;
	for (let i = 0; i < ins.length; i++) {
		const a = ins[i];
		if (arch === "aarch64") {
			const m = a.text.match(/^adr (x\d+), #(-?\d+)$/);
			if (!m) continue;
			const br = ins.slice(i + 1, i + 4).find(x => x.text === `br ${m[1]}`);
			const before = ins.slice(Math.max(0, i - 4), i);
			const cmp = before.slice().reverse().map(x => x.text.match(/^cmp w\d+, #(\d+)$/)).find(x => x);
			if (!br || !cmp) continue;
			// no branch to the default: the index is clamped to N, the default's entry
			const clamped = !before.some(x => /^b\.hs /.test(x.text));
			const start = a.addr + parseInt(m[2], 10), n = parseInt(cmp[1], 10) + (clamped ? 1 : 0);
			const cases = [];
			for (let k = 0; k < n; k++) cases.push(start + int32(o, start + 4 * k, false));
			t.push({ jump: br.addr, start, end: start + 4 * n, data: true, cases, entries: [] });
		} else if (arch === "s390x") {
			const m = a.text.match(/^larl (%r\d+), 0x([0-9a-f]+)$/);
			if (!m) continue;
			const br = ins.slice(i + 1, i + 4).find(x => x.text === `br ${m[1]}`);
			const cmp = ins.slice(Math.max(0, i - 6), i).reverse().map(x => x.text.match(/^clgfi %r\d+, (\d+)$/)).find(x => x);
			if (!br || !cmp) continue;
			const start = parseInt(m[2], 16), n = parseInt(cmp[1], 10);
			const cases = [];
			for (let k = 0; k < n; k++) cases.push(start + int32(o, start + 4 * k, true));
			t.push({ jump: br.addr, start, end: start + 4 * n, data: true, cases, entries: [] });
		} else {
			const m = a.text.match(/^auipc (\w+), 0$/);
			if (!m) continue;
			const k = ins.slice(i + 2, i + 4).findIndex(x => new RegExp(`^jr (-?\\d+)\\(${m[1]}\\)$`).test(x.text));
			const li = ins.slice(Math.max(0, i - 6), i).reverse().map(x => x.text.match(/^li \w+, (\d+)$/)).find(x => x);
			if (k < 0 || !li) continue;
			const jr = ins[i + 2 + k], d = parseInt(jr.text.match(/^jr (-?\d+)/)[1], 10);
			const start = a.addr + d, n = parseInt(li[1], 10), cases = [], entries = [];
			for (let e = 0; e < n; e++) {
				const at = start + 8 * e;
				const x = ins.findIndex(y => y.addr === at);
				const hi = x >= 0 && ins[x].text.match(/^auipc (\w+), (\d+)$/);
				const lo = hi && ins[x + 1] && ins[x + 1].text.match(new RegExp(`^jr (-?\\d+)\\(${hi[1]}\\)$`));
				entries.push(at);
				cases.push(lo ? at + sext20(parseInt(hi[2], 10)) * 4096 + parseInt(lo[1], 10) : NaN);
			}
			t.push({ jump: jr.addr, start, end: start + 8 * n, data: false, cases, entries });
		}
	}
	return t;
}

// ---- the case edges of DOT: function name -> edges "from->to" between block starts
const caseEdges = new Map();
if (dotPath) {
	let name = null;
	for (const l of fs.readFileSync(dotPath, "utf8").split("\n")) {
		let m = l.match(/^\tlabel="(.*): \d+ samples/);
		if (m) { name = m[1]; caseEdges.set(name, new Set()); continue; }
		m = l.match(/^\t"f\d+-b([0-9a-f]+)" -> "f\d+-b([0-9a-f]+)" \[class="case"/);
		if (m && name) caseEdges.get(name).add(`${parseInt(m[1], 16)}->${parseInt(m[2], 16)}`);
	}
}

const badB = [], badT = [];
let nFuncs = 0, nRows = 0, nTables = 0, nCases = 0, nEntries = 0;
for (const f of report.functions) {
	const sym = f.wasm_function ? f.wasm_function.symbol : f.name;
	const o = od.get(sym);
	if (!o) { badB.push(`${sym}: not in LLVM's disassembly`); continue; }
	nFuncs++;
	const base = o.start, tables = tablesOf(o);
	const inData = a => tables.some(t => t.data && a >= t.start && a < t.end);
	const ours = new Set(), theirs = new Set();
	for (const i of f.instructions) {
		nRows++;
		if (!inData(base + i.offset)) ours.add(`${i.offset}+${i.size}`);
	}
	for (const i of o.insns)
		if (i.addr - base < f.size && !inData(i.addr)) theirs.add(`${i.addr - base}+${i.bytes.length}`);
	for (const r of ours) if (!theirs.has(r)) badB.push(`${sym}: our row at 0x${(+r.split("+")[0]).toString(16)} (${r.split("+")[1]} bytes) is no instruction of LLVM's`);
	for (const r of theirs) if (!ours.has(r)) badB.push(`${sym}: LLVM's instruction at 0x${(+r.split("+")[0]).toString(16)} (${r.split("+")[1]} bytes) is no row of ours`);

	const starts = new Set(f.blocks.map(b => b.start));
	const jumpBlock = a => { const b = f.blocks.find(x => x.start <= a - base && a - base < x.end); return b ? b.start : -1; };
	for (const t of tables) {
		nTables++;
		const where = `${sym} table at 0x${(t.start - base).toString(16)}`;
		if (t.data) {
			const rows = f.instructions.filter(i => base + i.offset + i.size > t.start && base + i.offset < t.end);
			const want = t.cases.map((_, k) => `${t.start - base + 4 * k}+4`).join(" ");
			const have = rows.map(i => `${i.offset}+${i.size}`).join(" ");
			if (have !== want) badT.push(`${where}: rows ${have}, its ${t.cases.length} entries are ${want}`);
			for (const i of rows) if (i.samples) badT.push(`${where}: ${i.samples} samples on the entry at 0x${i.offset.toString(16)}`);
			// each entry a data row naming its case: ".long CASE - TABLE" (cfg.h)
			rows.forEach((i, k) => {
				const m = i.asm.match(/^\.long +0x([0-9a-f]+) - 0x([0-9a-f]+)$/);
				const want = k < t.cases.length ? `${(t.cases[k] - base).toString(16)} - ${(t.start - base).toString(16)}` : "?";
				if (!m || `${m[1]} - ${m[2]}` !== want)
					badT.push(`${where}: the row at 0x${i.offset.toString(16)} is ${JSON.stringify(i.asm)}, not the entry .long 0x${want.replace(" - ", " - 0x")}`);
			});
		}
		const edges = caseEdges.get(f.display_name) || caseEdges.get(f.name);
		const from = jumpBlock(t.jump);
		for (const c of t.entries.concat(t.cases)) {
			const off = c - base;
			if (!Number.isFinite(off) || !starts.has(off))
				badT.push(`${where}: the case or entry at 0x${Number.isFinite(off) ? off.toString(16) : "?"} does not start a block`);
		}
		// the jump's cases: riscv64's entries, else the cases themselves
		for (const c of t.data ? t.cases : t.entries)
			if (edges && !edges.has(`${from}->${c - base}`))
				badT.push(`${where}: no case edge from block 0x${from.toString(16)} to 0x${(c - base).toString(16)}`);
		nCases += t.cases.length;
		nEntries += t.entries.length;
	}
}
// ---- calls and jumps out of a function: the address, and the symbol LLVM
// has there (aarch64 prints it; s390x's target is an address; riscv64's
// auipc ra, HI; jalr LO(ra) goes to the auipc's address + HI * 4096 + LO)
const syms = [...od].map(([name, o]) => ({ name, start: o.start })).sort((a, b) => a.start - b.start);
const symAt = a => { let r = null; for (const x of syms) if (x.start <= a) r = x; return r; };
const badX = [];
let nOut = 0;
for (const f of report.functions) {
	const o = od.get(f.wasm_function ? f.wasm_function.symbol : f.name);
	if (!o) continue;
	for (const i of f.instructions) {
		if (i.target_address === undefined) continue;
		const k = o.insns.findIndex(x => x.addr === o.start + i.offset), x = o.insns[k];
		const where = `${f.name}+0x${i.offset.toString(16)}`;
		let t = NaN, m;
		if (!x) { badX.push(`${where}: no LLVM instruction there`); continue; }
		if ((m = x.text.match(/^(?:bl|b|b\.\w+|brasl %r\d+,|jg\w*|brcl \d+,) 0x([0-9a-f]+)/)))
			t = parseInt(m[1], 16);
		else if ((m = x.text.match(/^jalr (-?\d+)\((\w+)\)$/)) && k > 0) {
			const a = o.insns[k - 1].text.match(new RegExp(`^auipc ${m[2]}, (\\d+)$`));
			if (a) t = o.insns[k - 1].addr + ((parseInt(a[1], 10) << 12) | 0) + parseInt(m[1], 10);
		}
		if (!Number.isFinite(t)) { badX.push(`${where}: LLVM's ${JSON.stringify(x.text)} has no target we read`); continue; }
		nOut++;
		const sym = symAt(t), off = sym ? t - sym.start : 0;
		const listed = i.target_function !== undefined ? report.functions[i.target_function] : null;
		const want = sym ? (listed ? listed.display_name : sym.name) + (off ? "+0x" + off.toString(16) : "") : null;
		if (i.target_address - f.address !== t - o.start)
			badX.push(`${where}: target 0x${i.target_address.toString(16)}, LLVM's 0x${t.toString(16)} is 0x${(f.address + t - o.start).toString(16)}`);
		else if (want !== null && i.target_name !== want)
			badX.push(`${where}: ${JSON.stringify(i.asm)} (${i.target_name}), LLVM's symbol there: ${want}`);
	}
}
if (!nOut) badX.push("no call or jump out of a function");
if (!nTables) badT.push("no jump table found in LLVM's disassembly");
result("boundaries", badB, `${nRows} rows of ${nFuncs} functions, instruction by instruction as LLVM decodes them`);
result("targets", badX, `${nOut} calls and jumps out of a function: the address LLVM gives, named by its symbol there`);
result("tables", badT, `${nTables} tables, ${nCases} cases${nEntries ? `, ${nEntries} entries that are jumps` : ""}: rows, block leaders${dotPath ? ", case edges" : ""}`);
process.exit(checks.status());
