// SPDX-License-Identifier: MIT
// The input of build/tools/diff-significance from a `hotblocks diff --json
// --all` document: node diff-significance.js FILE [counts]. Each side's runs
// and their totals, each function's samples per run (for the run-to-run
// spread), then every pair of functions and of blocks with its samples.
'use strict';
const fs = require('fs');

const [file, scale] = process.argv.slice(2);
const d = JSON.parse(fs.readFileSync(file, 'utf8'));
const out = [`scale ${scale === 'counts' ? 'counts' : 'shares'}`];
const hex = (n) => '0x' + n.toString(16);
// names go last on their line: one line each
const clean = (s) => String(s).replace(/[\r\n]/g, ' ');

for (const side of ['base', 'new'])
	for (const r of d.sides[side].runs) out.push(`run ${side} ${r.total_samples}`);
for (const f of d.functions)
	for (const side of ['base', 'new']) {
		const s = f[side];
		if (!s) continue;
		// the runs of a function the report lists; else its one total (one run)
		const runs = s.runs || [{ run: 0, samples: s.samples }];
		for (const r of runs) out.push(`func ${side} ${r.run} ${r.samples} ${clean(s.name)}`);
	}
for (const f of d.functions) {
	const name = clean((f.base || f.new).display_name);
	out.push(`pair func ${f.base ? f.base.samples : 0} ${f.new ? f.new.samples : 0} ${name}`);
	for (const b of f.blocks) {
		const where = `${b.base ? hex(b.base.start) : '-'} -> ${b.new ? hex(b.new.start) : '-'}`;
		out.push(`pair block ${b.base ? b.base.samples : 0} ${b.new ? b.new.samples : 0} ${name} :: ${where}`);
	}
}
console.log(out.join('\n'));
