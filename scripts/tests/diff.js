// SPDX-License-Identifier: MIT
// Checks of scripts/tests/diff.sh on the JSON of `hotblocks diff` and of
// `hotblocks --json --all`: node diff.js CHECK ARGS... prints what is wrong
// and exits 1, or exits 0.
'use strict';
const fs = require('fs');

const [check, ...args] = process.argv.slice(2);
const load = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
const fail = (msg) => { console.log(msg); process.exit(1); };
const hex = (n) => '0x' + n.toString(16);
// a function of a diff by name (base's or new's display name)
const dfunc = (d, name) => d.functions.find((f) =>
	(f.base && f.base.display_name === name) || (f.new && f.new.display_name === name));

const checks = {
	// A stream against itself: every function and block pair on both sides,
	// the same block, delta 0, paired by the code key.
	self(file) {
		const d = load(file);
		let pairs = 0;
		if (!d.functions.length) fail('no functions');
		for (const f of d.functions) {
			if (!f.base || !f.new || f.match !== 'identity') fail(`unpaired function ${JSON.stringify(f)}`);
			if (f.delta_samples !== 0 || f.delta !== 0) fail(`function delta ${f.delta} ${f.delta_samples}`);
			if (!f.compared) fail(`${f.base.display_name} not compared (--all)`);
			for (const b of f.blocks) {
				pairs++;
				if (!b.base || !b.new) fail(`block on one side only in ${f.base.display_name}: ${JSON.stringify(b)}`);
				if (b.base.start !== b.new.start || b.base.end !== b.new.end)
					fail(`${f.base.display_name}: block ${hex(b.base.start)} paired with ${hex(b.new.start)}`);
				if (b.delta_samples !== 0 || b.delta !== 0 || b.key !== 'code' || b.score !== 1)
					fail(`${f.base.display_name} block ${hex(b.base.start)}: ${JSON.stringify(b)}`);
			}
		}
		if (!pairs) fail('no block pairs');
		if (d.blocks_shown !== pairs) fail(`--all shows ${d.blocks_shown} of ${pairs} pairs`);
	},
	// The pairs of function NAME: "BASE:NEW" starts (hex), all by KEY.
	pairs(file, name, key, ...want) {
		const d = load(file);
		const f = dfunc(d, name);
		if (!f) fail(`no function ${name}`);
		for (const w of want) {
			const [a, b] = w.split(':').map((x) => parseInt(x, 16));
			const p = f.blocks.find((x) => x.base && x.base.start === a);
			if (!p) fail(`${name}: no pair of BASE block ${hex(a)}`);
			if (!p.new || p.new.start !== b)
				fail(`${name}: BASE block ${hex(a)} paired with ${p.new ? hex(p.new.start) : 'nothing'}, not ${hex(b)}`);
			if (p.key !== key) fail(`${name}: ${w} paired by ${p.key}, not ${key}`);
		}
	},
	// The first N shown pairs are blocks of NAME (N = 1 by default), delta of SIGN.
	top(file, name, sign, n = '1') {
		const d = load(file);
		const shown = [];
		for (const f of d.functions)
			for (const b of f.blocks)
				if (b.shown) shown.push({ f, b });
		shown.sort((x, y) => x.b.rank - y.b.rank);
		if (shown.length < +n) fail(`only ${shown.length} pairs shown`);
		for (const { f, b } of shown.slice(0, +n)) {
			const fn = (f.new || f.base).display_name;
			if (fn !== name) fail(`pair ranked ${b.rank} is in ${fn}, not ${name}`);
			if (Math.sign(b.delta) !== +sign) fail(`pair ranked ${b.rank} has delta ${b.delta}`);
		}
		// ranked by |delta|
		for (let i = 1; i < shown.length; i++)
			if (Math.abs(shown[i].b.delta) > Math.abs(shown[i - 1].b.delta) + 1e-9)
				fail(`pair ranked ${shown[i].b.rank} changed more than the one before`);
	},
	// The pair of NAME's BASE block START is ranked MAX or better, delta of SIGN.
	rank(file, name, start, max, sign) {
		const f = dfunc(load(file), name);
		const p = f && f.blocks.find((b) => b.base && b.base.start === parseInt(start, 16));
		if (!p) fail(`${name}: no pair of block 0x${start}`);
		if (p.rank > +max || Math.sign(p.delta) !== +sign) fail(`${name} 0x${start}: rank ${p.rank}, delta ${p.delta}`);
	},
	// Every pair of NAME by the wasm key: the two blocks share a wasm offset
	// and all lie in [LO, HI) (the function body, by wasm-objdump); the
	// offsets are read from each side's own report (hotblocks --json --all).
	wasm(file, base, nw, name, lo, hi) {
		const d = load(file);
		const f = dfunc(d, name);
		const offsets = (rep, start) => {
			const g = load(rep).functions.find((x) => x.display_name === name);
			if (!g) fail(`${rep}: no ${name}`);
			const b = g.blocks.find((x) => x.start === start);
			if (!b) fail(`${rep}: ${name} has no block ${hex(start)}`);
			return new Set(g.instructions.filter((i) => i.offset >= b.start && i.offset < b.end &&
				i.wasm_offset !== null && i.wasm_offset !== undefined).map((i) => i.wasm_offset));
		};
		let n = 0;
		if (!f) fail(`no function ${name}`);
		for (const p of f.blocks) {
			if (!p.base || !p.new || !p.base.samples) continue;
			if (p.key !== 'wasm') fail(`${name} ${hex(p.base.start)}: key ${p.key}`);
			const a = offsets(base, p.base.start), b = offsets(nw, p.new.start);
			const shared = [...a].filter((x) => b.has(x));
			if (!shared.length) fail(`${name} ${hex(p.base.start)} -> ${hex(p.new.start)}: no wasm offset in common`);
			for (const x of [...a, ...b])
				if (x < parseInt(lo, 16) || x >= parseInt(hi, 16)) fail(`${name}: wasm offset ${hex(x)} outside ${lo}..${hi}`);
			const jac = shared.length / new Set([...a, ...b]).size;
			if (Math.abs(jac - p.score) > 0.001) fail(`${name}: score ${p.score}, Jaccard of the offsets ${jac}`);
			n++;
		}
		if (!n) fail(`${name}: no sampled pair`);
	},
	// The merged report M has NAME once, folded, with the samples of A's and
	// B's NAME as runs 0 and 1 (or the given counts).
	merged(m, a, b, name, ca, cb) {
		const fm = load(m).functions.filter((x) => x.name === name);
		const one = (f) => {
			const g = load(f).functions.filter((x) => x.name === name);
			if (g.length !== 1) fail(`${f}: ${g.length} functions ${name}`);
			return g[0].samples;
		};
		const sa = ca ? +ca : one(a), sb = cb ? +cb : one(b);
		if (fm.length !== 1) fail(`merged: ${fm.length} functions ${name}`);
		const f = fm[0];
		if (f.folded !== 1) fail(`${name}: folded ${f.folded}`);
		if (f.samples !== sa + sb) fail(`${name}: ${f.samples} samples, not ${sa} + ${sb}`);
		const r = JSON.stringify(f.runs), w = JSON.stringify([{ run: 0, samples: sa }, { run: 1, samples: sb }]);
		if (r !== w) fail(`${name}: runs ${r}, not ${w}`);
	},
	// The merged report M has NAME N times, each from one run, different runs.
	apart(m, name, n) {
		const fm = load(m).functions.filter((x) => x.name === name);
		if (fm.length !== +n) fail(`${fm.length} functions ${name}, not ${n}`);
		const runs = fm.map((f) => f.runs.map((r) => r.run).join(','));
		if (new Set(runs).size !== runs.length || fm.some((f) => f.runs.length !== 1 || f.folded))
			fail(`${name}: runs ${JSON.stringify(fm.map((f) => f.runs))}`);
	},
	// Only functions whose name contains PART (either side).
	only(file, part) {
		const d = load(file);
		if (!d.functions.length) fail('no functions');
		for (const f of d.functions)
			if (![f.base, f.new].some((s) => s && s.display_name.includes(part)))
				fail(`${JSON.stringify(f.base || f.new)} does not match ${part}`);
	},
	// --counts: shown pairs by |delta_samples|, and the deltas are sample counts.
	counts(file) {
		const d = load(file);
		const shown = [];
		for (const f of d.functions)
			for (const b of f.blocks) {
				const s = (x) => (x ? x.samples : 0);
				if (b.delta_samples !== s(b.new) - s(b.base)) fail(`delta_samples ${JSON.stringify(b)}`);
				if (b.shown) shown.push(b);
			}
		shown.sort((x, y) => x.rank - y.rank);
		for (let i = 1; i < shown.length; i++)
			if (Math.abs(shown[i].delta_samples) > Math.abs(shown[i - 1].delta_samples))
				fail(`rank ${shown[i].rank} changed more samples than rank ${shown[i - 1].rank}`);
		if (!d.selection.counts) fail('selection.counts is false');
	},
	// The pair of BASE's function B (raw name) is NEW's N, matched by MATCH
	// (and WASM the wasm function index it was matched by).
	fpair(file, b, n, match, wasm) {
		const f = load(file).functions.find((x) => x.base && x.base.name === b);
		if (!f) fail(`no BASE function ${b}`);
		if (!f.new || f.new.name !== n) fail(`${b} paired with ${f.new ? f.new.name : 'nothing'}, not ${n}`);
		if (f.match !== match) fail(`${b} -> ${n} matched by ${f.match}, not ${match}`);
		if (wasm !== undefined && f.wasm_function !== +wasm) fail(`${b}: wasm_function ${f.wasm_function}`);
	},
	// Every JIT function (jit or cwasm) of either side is paired, and with
	// NAMES (display names) among them; every sampled block pair of those by
	// the code key (the same bytes).
	onecode(file, ...names) {
		const d = load(file);
		const jit = (s) => s && (s.kind === 'jit' || s.kind === 'cwasm');
		for (const f of d.functions) {
			if (!jit(f.base) && !jit(f.new)) continue;
			if (!f.base || !f.new) fail(`unpaired: ${JSON.stringify(f.base || f.new)}`);
			if (f.base.display_name !== f.new.display_name)
				fail(`${f.base.display_name} paired with ${f.new.display_name}`);
			for (const b of f.blocks)
				if (!b.base || !b.new || b.key !== 'code' || b.base.start !== b.new.start)
					fail(`${f.base.display_name}: ${JSON.stringify(b)}`);
		}
		for (const n of names)
			if (!d.functions.some((f) => f.base && f.new && f.base.display_name === n && f.blocks.length))
				fail(`${n} is not a compared pair`);
	},
};

if (!checks[check]) fail(`no check ${check}`);
checks[check](...args);
