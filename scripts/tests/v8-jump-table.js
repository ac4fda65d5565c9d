// SPDX-License-Identifier: MIT
// The calls of V8's wasm code through its jump table (v8-jump-table.sh):
//   node v8-jump-table.js REPORT.json MODULE.objdump IMPORTS
// REPORT.json is `hotblocks --json --all` of a V8 recording, MODULE.objdump
// `wasm-objdump -d` (wabt) of the module that ran, IMPORTS its number of
// imported functions. Prints "ok - ..." / "not ok - ..." lines:
//  1. of the call rows whose target is JIT memory outside the function
//     (no file maps it), those that name their callee: through the main
//     jump table (target_wasm_index), or a code load; the far jump table's
//     slots (V8's runtime stubs) are counted apart, named by their slot;
//  2. the spot check: Liftoff compiles a body in one pass, in order, and
//     calls every defined function directly through the jump table (an
//     import through the instance: no direct call), so in each sampled
//     Liftoff function the callees of its jump-table calls, in offset
//     order, are the `call N` (N >= IMPORTS) of its body as wabt prints
//     it, one for one.
"use strict";
const fs = require("fs");
const [json, objdump, importsArg] = process.argv.slice(2);
const d = JSON.parse(fs.readFileSync(json));
const imports = +importsArg;

const body = new Map();
let cur = -1;
for (const l of fs.readFileSync(objdump, "utf8").split("\n")) {
	let m = l.match(/^[0-9a-f]+ func\[(\d+)\]/);
	if (m) {
		cur = +m[1];
		body.set(cur, []);
		continue;
	}
	m = l.match(/\|\s*call (\d+)\b/);
	if (m && cur >= 0 && +m[1] >= imports) body.get(cur).push(+m[1]);
}

let rows = 0, named = 0, viaTable = 0, far = 0;
const raw = [];
for (const f of d.functions) {
	if (f.kind !== "jit") continue;
	for (const i of f.instructions) {
		if (i.target_address === undefined || !/^call/.test(i.asm)) continue;
		rows++;
		if (i.target_wasm_index !== undefined) {
			viaTable++;
			named++;
		} else if (i.target_name && i.target_name.startsWith("V8:wasm-far-jump-table[")) {
			far++;
		} else if (i.target_name) {
			named++;
		} else {
			raw.push(f.name + "+0x" + i.offset.toString(16) + " " + i.asm);
		}
	}
}
const callees = rows - far;
const share = callees ? named / callees : 0;
console.log((share >= 0.95 ? "ok" : "not ok") + " - " + named + " of the " + callees + " calls to JIT code outside the function" +
	" name their callee (" + (100 * share).toFixed(2) + "%, " + viaTable + " through the jump table); " + far +
	" more call V8's runtime stubs through the far jump table, by slot");
if (share < 0.95) raw.slice(0, 10).forEach((r) => console.log("# " + r));

let funcs = 0, sites = 0;
const bad = [];
for (const f of d.functions) {
	const m = f.name.match(/-(\d+)-liftoff$/);
	if (!m) continue;
	const wasm = body.get(+m[1]);
	const machine = f.instructions.filter((i) => /^call/.test(i.asm) && i.target_wasm_index !== undefined)
		.map((i) => i.target_wasm_index);
	funcs++;
	sites += machine.length;
	if (!wasm || machine.join(",") !== wasm.join(","))
		bad.push(f.name + ": jump table " + machine.join(",") + "; wasm-objdump " + (wasm ? wasm.join(",") : "no body"));
}
console.log((funcs && sites && !bad.length ? "ok" : "not ok") + " - the " + sites + " jump-table calls of the " + funcs +
	" sampled Liftoff functions call, in order, the functions of their bodies' `call N` (wasm-objdump -d)" +
	(bad.length ? ": " + bad.length + " differ" : ""));
bad.slice(0, 5).forEach((b) => console.log("# " + b));
