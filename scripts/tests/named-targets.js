// SPDX-License-Identifier: MIT
// Independent checks of the names hotblocks gives the targets of branches and
// calls out of a function (postproc/JSON.md, "Branch and call targets"); used
// by named-targets.sh. Each check prints "ok - NAME" or "not ok - NAME".
//
//   node named-targets.js natives REPORT.json DSO=OBJDUMP...
//       native code: objdump -d -C of each DSO (the same build as recorded)
//       prints every direct call and jump as "call 1060 <strlen@plt>": the
//       target's address must be ours (the function's address plus the
//       distance objdump gives from its symbol) and objdump's name ours
//   node named-targets.js jit REPORT.json DUMP...
//       JIT code: the jitdumps read here (perf's jitdump-specification.txt:
//       JIT_CODE_LOAD and JIT_CODE_MOVE), the load covering each target in
//       the caller's process, live when the caller was loaded (the newest
//       loaded at or before it, else the first loaded after it), must be the
//       name (with +0x<offset>), or the listed function's display name
"use strict";
const fs = require("fs");
const checks = require("./checks.js");
const [mode, jsonPath, ...rest] = process.argv.slice(2);
const report = checks.read(jsonPath);
const hex = n => "0x" + n.toString(16);
const withOff = (name, off) => off ? `${name}+${hex(off)}` : name;
const outs = [];
for (const f of report.functions)
	for (const i of f.instructions)
		if (i.target_address !== undefined) outs.push([f, i]);

if (mode === "natives") {
	// objdump's lines: address -> [target, name]
	const od = new Map();
	for (const a of rest) {
		const eq = a.indexOf("="), m = new Map();
		for (const l of fs.readFileSync(a.slice(eq + 1), "utf8").split("\n")) {
			const x = l.match(/^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(?:bnd |notrack )?(call|jmp|j[a-z]+)\s+([0-9a-f]+) <(.+)>$/);
			if (x) m.set(parseInt(x[1], 16), [parseInt(x[3], 16), x[4]]);
		}
		od.set(a.slice(0, eq), m);
	}
	const bad = [], perfOnly = [];
	let n = 0, plt = 0, same = 0;
	for (const [f, i] of outs) {
		const m = f.kind === "native" && od.get(f.dso);
		if (!m) continue;
		const at = f.sym_start + i.offset, o = m.get(at);
		const where = `${f.name}+${hex(i.offset)} (${f.dso} ${hex(at)})`;
		n++;
		if (!o) { bad.push(`${where}: objdump has no direct branch there: ${i.asm}`); continue; }
		if (i.target_address - f.address !== o[0] - f.sym_start)
			bad.push(`${where}: target ${hex(i.target_address)}, objdump's ${hex(o[0])} is ${hex(f.address + o[0] - f.sym_start)}`);
		else if (i.target_name === o[1] && i.asm.endsWith(" " + o[1])) {
			same++;
			if (o[1].endsWith("@plt")) plt++;
		} else if (/^_init\+0x[0-9a-f]+$/.test(i.target_name) && o[1].endsWith("@plt"))
			// perf 6.1 ends a sizeless _init at the next symbol it has before the
			// PLT entries are added, so _init holds the first entries (NATIVE.md)
			perfOnly.push(`${where}: ${i.target_name} (objdump: ${o[1]})`);
		else
			bad.push(`${where}: ${JSON.stringify(i.asm)} (${i.target_name}), objdump: <${o[1]}>`);
	}
	if (!n) bad.push("no call or jump out of a native function of the files given");
	if (!plt) bad.push("no call through the PLT named");
	checks.report(!bad.length, `natives: ${same} of ${n} targets out of native functions named as objdump -d -C names them ` +
		`(${plt} name@plt)` + (perfOnly.length ? `; ${perfOnly.length} by perf's rule: ${perfOnly.join("; ")}` : ""),
		bad.join("\n"));
} else if (mode === "jit") {
	// loads by pid: {addr, size, time, name}
	const loads = new Map();
	for (const path of rest) {
		const b = fs.readFileSync(path);
		if (b.readUInt32LE(0) !== 0x4A695444) throw new Error(`${path}: not a little-endian jitdump`);
		const names = new Map();
		for (let p = b.readUInt32LE(8); p + 16 <= b.length;) {
			const id = b.readUInt32LE(p), size = b.readUInt32LE(p + 4), time = Number(b.readBigUInt64LE(p + 8));
			if (size < 16 || p + size > b.length) break;
			const pid = b.readUInt32LE(p + 16);
			if (!loads.has(pid)) loads.set(pid, []);
			if (id === 0) {
				const addr = Number(b.readBigUInt64LE(p + 32)), sz = Number(b.readBigUInt64LE(p + 40));
				const idx = Number(b.readBigUInt64LE(p + 48)), end = b.indexOf(0, p + 56);
				const name = b.toString("utf8", p + 56, end);
				names.set(idx, name);
				if (sz) loads.get(pid).push({ addr, size: sz, time, name });
			} else if (id === 1) {
				const to = Number(b.readBigUInt64LE(p + 40)), sz = Number(b.readBigUInt64LE(p + 48));
				const idx = Number(b.readBigUInt64LE(p + 56));
				if (sz && names.has(idx)) loads.get(pid).push({ addr: to, size: sz, time, name: names.get(idx) });
			}
			p += size;
		}
	}
	const byAddr = new Map(report.functions.filter(f => f.kind === "jit").map(f => [`${f.pid}:${f.address}:${f.load_time}`, f]));
	const bad = [], kinds = new Map();
	let n = 0, named = 0, none = 0;
	for (const [f, i] of outs) {
		if (f.kind !== "jit") continue;
		n++;
		const t = i.target_address, cover = (loads.get(f.pid) || []).filter(l => t >= l.addr && t < l.addr + l.size);
		let pick = null;
		for (const l of cover) if (l.time <= f.load_time && (!pick || l.time > pick.time)) pick = l;
		if (!pick) for (const l of cover) if (l.time > f.load_time && (!pick || l.time < pick.time)) pick = l;
		const where = `${f.name}+${hex(i.offset)} -> ${hex(t)}`;
		if (!pick) {
			// no code load there: a file mapping's name, or the address
			if (i.target_name === null && !i.asm.endsWith(" " + hex(t)))
				bad.push(`${where}: nothing known there, and the cell does not end in the address: ${i.asm}`);
			none++;
			continue;
		}
		const listed = i.target_function !== undefined ? report.functions[i.target_function] : byAddr.get(`${f.pid}:${pick.addr}:${pick.time}`);
		const want = withOff(listed ? listed.display_name : pick.name, t - pick.addr);
		if (i.target_name !== want || !i.asm.endsWith(want))
			bad.push(`${where}: ${JSON.stringify(i.asm)} (${i.target_name}), the load there: ${want}`);
		else {
			named++;
			const k = pick.name.replace(/:.*/, ":");
			kinds.set(k, (kinds.get(k) || 0) + 1);
		}
	}
	if (!named) bad.push("no target out of JIT code named by a code load");
	checks.report(!bad.length, `jit: ${named} of ${n} targets out of JIT code named by the code load live there ` +
		`(${[...kinds].map(([k, v]) => `${v} ${k}`).join(", ")}); ${none} where no load is`, bad.join("\n"));
} else {
	throw new Error("usage: named-targets.js natives|jit REPORT.json ...");
}
process.exit(checks.status());
