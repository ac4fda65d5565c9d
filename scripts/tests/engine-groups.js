// SPDX-License-Identifier: MIT
// Checks of scripts/tests/diff-engines.sh on block groups (postproc/DIFF.md,
// "Groups of blocks"), each reading the files itself:
//   group DIFF.json FUNC BASE_STARTS NEW_START
//     FUNC (the BASE name, tiers together) has one group; its BASE blocks are
//     BASE_STARTS (hex, comma-separated), its NEW blocks hold NEW_START; each
//     side's samples are its blocks' sum, and those are the samples of the
//     same blocks in the function's pairs; its shares are the samples over
//     the side's total, and the sum of the pairs' shares of its blocks.
//   offsets LISTING OBJDUMP FUNC_INDEX V8_START V8_END REPORT.json NEW_START
//     the wasm offsets V8's listing (--print-wasm-code) gives at the pcs of
//     the TurboFan block [V8_START, V8_END) of function FUNC_INDEX, made module
//     offsets with the function's offset wasm-objdump -d prints, are the
//     i32.load8_u offsets of wasmtime's block at NEW_START (the report's Wasm column).
//   none DIFF.json: no function has a group.
'use strict';
const fs = require('fs');
const [cmd, ...a] = process.argv.slice(2);
const fail = (m) => { console.log(m); process.exit(1); };
const hex = (s) => parseInt(s, 16);

if (cmd === 'group') {
	const [file, fname, bases, nstart] = a;
	const d = JSON.parse(fs.readFileSync(file));
	const f = d.functions.find((x) => x.base && x.base.name === fname);
	if (!f || !f.groups || f.groups.length !== 1) fail(`${fname}: not one group: ${JSON.stringify(f && f.groups)}`);
	const g = f.groups[0];
	const want = bases.split(',').map(hex);
	const got = g.base.blocks.map((b) => b.start);
	if (JSON.stringify(got) !== JSON.stringify(want)) fail(`BASE blocks ${got} != ${want}`);
	if (!g.new.blocks.some((b) => b.start === hex(nstart))) fail(`NEW blocks lack ${nstart}`);
	for (const s of ['base', 'new']) {
		const sum = g[s].blocks.reduce((n, b) => n + b.samples, 0);
		if (sum !== g[s].samples) fail(`${s}: ${g[s].samples} != sum ${sum}`);
		let ps = 0, pshare = 0;
		for (const b of g[s].blocks) {
			const p = f.blocks.find((x) => x[s] && x[s].start === b.start);
			if (!p) { if (b.samples) fail(`${s} block ${b.start} has samples and no pair`); continue; }
			if (p[s].samples !== b.samples) fail(`${s} block ${b.start}: ${b.samples} != pair's ${p[s].samples}`);
			ps += p[s].samples;
			pshare += p[s].share;
		}
		const total = d.sides[s].total_samples;
		if (ps !== g[s].samples || Math.abs(g[s].share - 100 * ps / total) > 1e-4 ||
		    Math.abs(g[s].share - pshare) > 2e-4)
			fail(`${s}: share ${g[s].share} vs ${ps}/${total}, pairs' ${pshare}`);
	}
	if (Math.abs(g.delta - (g.new.share - g.base.share)) > 2e-4) fail(`delta ${g.delta}`);
	console.log(JSON.stringify(g));
} else if (cmd === 'offsets') {
	const [listing, objdump, index, s, e, report, nstart] = a;
	const fn = fs.readFileSync(objdump, 'utf8').split('\n')
		.map((l) => l.match(/^([0-9a-f]+) func\[(\d+)\]/)).find((m) => m && m[2] === index);
	const body = hex(fn[1]);
	// the TurboFan listing of function index, its Source positions table
	const parts = fs.readFileSync(listing, 'utf8').split('--- WebAssembly code ---');
	const part = parts.find((p) => new RegExp(`^index: ${index}$`, 'm').test(p) && /^compiler: TurboFan$/m.test(p));
	const table = part.split('Source positions:')[1].split('\n\n')[0].split('\n').slice(2);
	const v8 = new Set();
	for (const l of table) {
		const [pc, pos] = l.trim().split(/\s+/);
		if (hex(pc) >= hex(s) && hex(pc) < hex(e)) v8.add(body + Number(pos));
	}
	const r = JSON.parse(fs.readFileSync(report));
	const f = r.functions[0];
	const blk = f.blocks.find((b) => b.start === hex(nstart));
	const cl = new Set(f.instructions.filter((i) => i.offset >= blk.start && i.offset < blk.end &&
		i.wasm === 'i32.load8_u').map((i) => i.wasm_offset));
	const sv = [...v8].sort(), sc = [...cl].sort();
	if (!sv.length || JSON.stringify(sv) !== JSON.stringify(sc)) fail(`V8 ${sv} != Cranelift ${sc}`);
	console.log(sv.map((x) => x.toString(16)).join(' '));
} else if (cmd === 'none') {
	const d = JSON.parse(fs.readFileSync(a[0]));
	if (d.functions.some((f) => 'groups' in f)) fail('a group formed');
} else {
	fail(`unknown check ${cmd}`);
}
