// SPDX-License-Identifier: MIT
// What scripts/tests/diff-significance.sh asks of a `hotblocks diff --json`
// document (JSON.md: "noise", and each pair's "significant", "p", "q"):
//   node diff-significance.js none FILE          nothing significant, and block pairs were tested
//   node diff-significance.js p1 FILE            every tested pair has p = 1
//   node diff-significance.js has FILE PAIR...   each PAIR is significant: "func NAME" or
//                                                "block NAME :: 0xB -> 0xN" (BASE's name)
//   node diff-significance.js count FILE         prints how many pairs are significant
//   node diff-significance.js runs FILE K        the spread was measured, K runs or more a side
//   node diff-significance.js noise FILE PATH    prints noise.PATH ("spread.p", "spread.tau")
//   node diff-significance.js least FILE         no significant change is smaller than
//                                                noise.min_delta
// Exits 1 (with what it found on stderr) when the check fails.
'use strict';
const fs = require('fs');

const [cmd, file, ...args] = process.argv.slice(2);
const d = JSON.parse(fs.readFileSync(file, 'utf8'));
const hex = (n) => '0x' + n.toString(16);
const name = (f) => (f.base || f.new).name;

// Every pair, as "func NAME" / "block NAME :: 0xB -> 0xN", with its test.
const pairs = [];
for (const f of d.functions) {
	pairs.push({ id: `func ${name(f)}`, t: f });
	for (const b of f.blocks)
		pairs.push({ id: `block ${name(f)} :: ${b.base ? hex(b.base.start) : '-'} -> ` +
			`${b.new ? hex(b.new.start) : '-'}`, t: b });
}
const significant = pairs.filter((p) => p.t.significant);
const fail = (msg) => {
	console.error(msg);
	console.error('significant: ' + JSON.stringify(significant.map((p) => p.id)));
	console.error('noise: ' + JSON.stringify(d.noise));
	process.exit(1);
};

switch (cmd) {
case 'none':
	if (significant.length) fail('some pair is significant');
	if (!d.noise.tests.blocks) fail('no block pair was tested');
	break;
case 'p1': {
	const bad = pairs.filter((p) => p.t.p !== null && p.t.p !== 1);
	if (bad.length) fail('p != 1: ' + JSON.stringify(bad.map((p) => [p.id, p.t.p])));
	if (!d.noise.tests.blocks) fail('no block pair was tested');
	break;
}
case 'has': {
	const ids = new Set(significant.map((p) => p.id));
	const missing = args.filter((a) => !ids.has(a));
	if (missing.length) fail('not significant: ' + JSON.stringify(missing));
	break;
}
case 'count':
	console.log(significant.length);
	break;
case 'runs': {
	const s = d.noise.spread, k = Number(args[0]);
	if (!s.measured || s.base.runs < k || s.new.runs < k)
		fail(`the spread was not measured on ${k} runs a side`);
	break;
}
case 'noise':
	console.log(args[0].split('.').reduce((o, k) => o[k], d.noise));
	break;
case 'least': {
	const bad = significant.filter((p) => Math.abs(d.selection.counts ? p.t.delta_per_run : p.t.delta) <
		d.noise.min_delta);
	if (bad.length) fail('smaller than min_delta: ' + JSON.stringify(bad.map((p) => p.id)));
	break;
}
default:
	fail(`unknown check ${cmd}`);
}
