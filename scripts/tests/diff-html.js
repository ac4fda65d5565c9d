// SPDX-License-Identifier: MIT
// The checks of `hotblocks diff --html` that need the other outputs
// (scripts/tests/diff-html.sh):
//   node diff-html.js spec DIFF.json SPEC.json [only]
//       writes the browser-check spec (scripts/tests/browser-check.mjs) for the
//       page of the comparison DIFF.json describes: its DOM (a row per shown
//       pair and per shown function, a section per function holding a shown
//       pair, each side's graph with its boxes painted), a click on a box, on
//       a row and the key n, and the expression that dumps the page's
//       numbers; "only": the comparison has blocks of one side only, and each
//       must be marked so
//   node diff-html.js check DUMP.json DIFF.json TEXT.txt
//       compares the numbers dumped from the page with DIFF.json (`hotblocks
//       diff --json`, the same options) and the cells with the text output's
// Prints "ok - ..." / "not ok - ..." lines, "# ..." details after a failure;
// exits 1 when a check failed.
'use strict';
const fs = require('fs');

const { read, hex, report, status } = require('./checks.js');

// The shown pairs of DIFF.json, by rank, with the index of their function.
function shownPairs(d) {
	const out = [];
	d.functions.forEach((f, fi) => f.blocks.forEach((p) => p.shown && out.push({ ...p, fi })));
	return out.sort((a, b) => a.rank - b.rank);
}
const listing = (p, side) => `d${p.fi}${side === 'new' ? 'n' : 'b'}-l${hex(p[side].start)}`;
const box = (p, side) => `d${p.fi}${side === 'new' ? 'n' : 'b'}-b${hex(p[side].start)}`;

// In the page, evaluated by the browser: what it shows of each pair and function.
const DUMP = `(() => {
	const side = (id) => { const p = document.getElementById(id);
		return { total: Number(p.dataset.total), jit: Number(p.dataset.jit) }; };
	const cells = (r) => Array.from(r.cells, (c) => c.textContent.trim());
	const fill = (id) => { const g = id && document.getElementById(id);
		const r = g && g.querySelector('rect'); return r ? r.getAttribute('fill') : null; };
	const node = (id) => { const g = id && document.getElementById(id);
		return g ? { fill: fill(id), mark: g.classList.contains('mark'), em: g.classList.contains('em') } : null; };
	return {
		base: side('side-base'), new: side('side-new'),
		funcs: Array.from(document.querySelectorAll('#ftable tbody tr'), cells),
		pairs: Array.from(document.querySelectorAll('#ptable tr.pair'), (r) => {
			const d = r.dataset, tb = document.getElementById(d.goto);
			const other = tb && document.getElementById(tb.dataset.pair);
			return { cells: cells(r), rank: Number(d.rank), func: d.func, key: d.key,
				delta: d.delta, delta_samples: Number(d.deltaSamples),
				significant: d.significant === 'true',
				base: d.baseStart === undefined ? null : { start: Number(d.baseStart),
					samples: Number(d.baseSamples), share: d.baseShare },
				new: d.newStart === undefined ? null : { start: Number(d.newStart),
					samples: Number(d.newSamples), share: d.newShare },
				goto: d.goto, only: tb ? tb.dataset.only || null : null,
				box: tb ? node(tb.dataset.box) : null,
				other_box: other ? node(other.dataset.box) : null };
		}),
		sections: Array.from(document.querySelectorAll('section.func'), (s) => s.id),
	};
})()`;

// The computed colour of every bar of the listings, as [r, g, b]; an
// expression continued by the step (".every(...)").
const BARS = "(window.bars = Array.from(document.querySelectorAll('.listing i.bar'), " +
	"(i) => getComputedStyle(i).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)))";

function spec(diffFile, out, only) {
	const d = read(diffFile), pairs = shownPairs(d);
	const funcs = [...new Set(pairs.map((p) => p.fi))];
	const steps = [
		{ name: 'a row per shown block pair', selector: '#ptable tr.pair', count: d.blocks_shown },
		{ name: 'a section per function holding a shown pair', selector: 'section.func', count: funcs.length },
		{ name: 'a graph per side present of each drawn function', selector: 'svg.cfg', count:
			funcs.reduce((n, fi) => n + (d.functions[fi].base ? 1 : 0) + (d.functions[fi].new ? 1 : 0), 0) },
		{ name: 'every box is painted (a fill colour)', eval:
			"Array.from(document.querySelectorAll('svg.cfg g.node rect')).every((r) => /^#[0-9a-f]{6}$/.test(r.getAttribute('fill')))" },
		{ name: 'every listed block has its box drawn', eval:
			"Array.from(document.querySelectorAll('tbody.blk')).every((tb) => document.getElementById(tb.dataset.box))" },
		{ name: 'the legend shows the change scale', selector: '.legend.change .sw', count: 10 },
		// Red and green say change here: the bars beside them are one plain
		// grey-blue (blue above red), on neither heat ramp (heat.c: red is
		// never below blue on the yellow-to-red ramp nor on the reds of
		// change; the greens have green above red and blue).
		{ name: 'the listings\' bars are one neutral colour, not on the heat scale', eval:
			BARS + ".every(([r, g, b]) => b > r && b > g) && bars.length > 0 && " +
			"new Set(bars.map(String)).size === 1 || JSON.stringify(bars.slice(0, 5))" },
		{ name: '... and the legend shows that bar and says what it is', eval:
			"((k) => k !== null && getComputedStyle(k.querySelector('i.bar')).backgroundColor === " +
			"getComputedStyle(document.querySelector('.listing i.bar')).backgroundColor && " +
			"k.textContent.includes(\"an instruction's samples\"))(document.querySelector('.legend.bars'))" },
		{ name: 'nothing is marked yet', eval: "document.querySelectorAll('.hl').length === 0" },
	];
	if (only)
		steps.push({ name: 'blocks of one side only are marked in their graphs', eval:
			"document.querySelectorAll('svg.cfg g.node.mark').length > 0 && " +
			"Array.from(document.querySelectorAll('svg.cfg g.node.mark')).every((g) => " +
			"g.querySelector('tspan:nth-of-type(2)').textContent.endsWith(' only'))" });
	const top = pairs[0];
	if (top) {
		const side = top.new ? 'new' : 'base', other = side === 'new' ? 'base' : 'new';
		const tb = `#${listing(top, side)}`, bx = `#${box(top, side)}`;
		steps.push(
			{ name: `clicking the box of pair #1 marks its block (${listing(top, side)})`, click: bx,
				selector: tb, hasClass: 'hl' },
			{ name: '... and the box itself', eval: `document.querySelector('${bx}').classList.contains('hl')` },
			{ name: '... and its row of the table of pairs', eval:
				"document.querySelector('#ptable tr.pair').classList.contains('hl')" });
		if (top[other])
			steps.push({ name: `... and its partner on ${other.toUpperCase()} with its box`, eval:
				`document.getElementById('${listing(top, other)}').classList.contains('hl') && ` +
				`document.getElementById('${box(top, other)}').classList.contains('hl')` });
		steps.push({ name: 'Escape clears the marks', press: 'Escape', eval: "document.querySelectorAll('.hl').length === 0" });
		const last = pairs[pairs.length - 1], lside = last.new ? 'new' : 'base';
		steps.push({ name: `clicking the row of the last pair (#${last.rank}) marks its block`,
			click: `#ptable tr.pair[data-rank="${last.rank}"]`, selector: `#${listing(last, lside)}`, hasClass: 'hl' });
		steps.push({ name: 'Escape clears the marks', press: 'Escape', eval: "document.querySelectorAll('.hl').length === 0" });
		steps.push({ name: 'key n marks the block of pair #1', press: 'n', eval:
			`document.getElementById('${listing(top, side)}').classList.contains('hl')` });
		if (pairs[1]) {
			const p2 = pairs[1], s2 = p2.new ? 'new' : 'base';
			steps.push({ name: 'key n again marks the block of pair #2', press: 'n', eval:
				`document.getElementById('${listing(p2, s2)}').classList.contains('hl')` });
		}
	}
	fs.writeFileSync(out, JSON.stringify({ steps, dump: DUMP }, null, 1) + '\n');
}

// The rows of one table of the text output: [BASE, NEW, Delta, Match, rest].
function textTable(text, head) {
	const lines = text.split('\n'), out = [];
	let i = lines.findIndex((l) => l.includes('[Delta]') && l.includes(head));
	if (i < 0) return out;
	for (i++; i < lines.length && lines[i] !== ''; i++) {
		const l = lines[i];
		if (l.trim().startsWith('(no ')) break;
		// the delta, and its mark '*' when beyond noise
		out.push([l.slice(0, 11).trim(), l.slice(11, 22).trim(), l.slice(22, 34).trim(),
			l.slice(36, 47).trim(), l.slice(48)]);
	}
	return out;
}

// "#rrggbb" -> its red and green are which way round.
function hue(fill) {
	const v = parseInt(fill.slice(1), 16), r = v >> 16, g = (v >> 8) & 255;
	return r > g ? 'red' : g > r ? 'green' : 'neutral';
}

function check(dumpFile, diffFile, textFile) {
	const page = read(dumpFile), d = read(diffFile), text = fs.readFileSync(textFile, 'utf8');
	const pairs = shownPairs(d);
	for (const s of ['base', 'new']) {
		const j = d.sides[s];
		report(page[s].total === j.total_samples && page[s].jit === j.jit_samples,
			`${s.toUpperCase()}: the page's totals are the JSON's (${j.total_samples}, ${j.jit_samples})`,
			JSON.stringify(page[s]));
	}
	// Every shown pair, in rank order: the JSON's numbers, as JSON writes them.
	const want = pairs.map((p) => ({ rank: p.rank, func: `d${p.fi}`, key: p.key || '',
		delta: p.delta.toFixed(4), delta_samples: p.delta_samples, significant: p.significant,
		base: p.base && { start: p.base.start, samples: p.base.samples, share: p.base.share.toFixed(4) },
		new: p.new && { start: p.new.start, samples: p.new.samples, share: p.new.share.toFixed(4) } }));
	const got = page.pairs.map((p) => ({ rank: p.rank, func: p.func, key: p.key, delta: p.delta,
		delta_samples: p.delta_samples, significant: p.significant, base: p.base, new: p.new }));
	const bad = want.findIndex((w, i) => JSON.stringify(w) !== JSON.stringify(got[i]));
	report(want.length === got.length && bad < 0,
		`the ${want.length} pairs are the JSON's: rank, function, key, significance, starts, samples, shares, deltas`,
		bad >= 0 ? `pair ${bad + 1}: page ${JSON.stringify(got[bad])}\n  json ${JSON.stringify(want[bad])}` :
			`${got.length} pairs on the page`);
	// The cells as the text output prints them.
	const tp = textTable(text, '[Block]');
	const badText = tp.findIndex((t, i) => !page.pairs[i] ||
		JSON.stringify(t.slice(0, 4)) !== JSON.stringify(page.pairs[i].cells.slice(1, 5)));
	report(tp.length === page.pairs.length && badText < 0,
		`the pairs' BASE, NEW, delta and match cells are the text output's (${tp.length} rows)`,
		badText >= 0 ? `row ${badText + 1}: text ${JSON.stringify(tp[badText])}\n  page ${JSON.stringify(page.pairs[badText] && page.pairs[badText].cells)}` : '');
	const tf = textTable(text, '[Function]');
	const badF = tf.findIndex((t, i) => !page.funcs[i] ||
		JSON.stringify(t.slice(0, 4)) !== JSON.stringify(page.funcs[i].slice(1, 5)));
	report(tf.length === page.funcs.length && badF < 0,
		`the functions' BASE, NEW, delta and match cells are the text output's (${tf.length} rows)`,
		badF >= 0 ? `row ${badF + 1}: text ${JSON.stringify(tf[badF])}\n  page ${JSON.stringify(page.funcs[badF])}` : '');
	// Painted by the change beyond noise: red for more share in NEW, green
	// for less, as the text output's colours (its sign is the delta cell's,
	// marked '*'), white within noise; on both sides.
	const wrong = page.pairs.filter((p) => {
		const c = p.cells[3], beyond = c.endsWith('*');
		const sign = !beyond ? 'neutral' : c.startsWith('+') ? 'red' : c.startsWith('-') ? 'green' : 'neutral';
		return !p.box || hue(p.box.fill) !== sign || !p.box.em ||
			(p.other_box && hue(p.other_box.fill) !== sign);
	});
	report(page.pairs.length > 0 && wrong.length === 0,
		'each shown pair\'s boxes are emphasised and painted red (more share), green (less) when beyond noise, else neutral',
		wrong.map((p) => JSON.stringify(p)).join('\n'));
	const reds = page.pairs.filter((p) => p.box && hue(p.box.fill) === 'red').length;
	const greens = page.pairs.filter((p) => p.box && hue(p.box.fill) === 'green').length;
	console.log(`# ${reds} red, ${greens} green, ${page.pairs.length - reds - greens} neutral`);
	// One side only: marked, and nothing else is.
	const onlyWrong = page.pairs.filter((p) => (p.base === null || p.new === null) !==
		(p.only !== null && p.box && p.box.mark));
	report(onlyWrong.length === 0,
		`the ${page.pairs.filter((p) => !p.base || !p.new).length} pairs of one side only are marked so (box and listing), the others not`,
		onlyWrong.map((p) => JSON.stringify(p)).join('\n'));
	const funcs = [...new Set(pairs.map((p) => `d${p.fi}`))];
	report(JSON.stringify([...page.sections].sort()) === JSON.stringify(funcs.sort()),
		`the sections are the functions of the shown pairs (${funcs.length})`,
		`${page.sections} vs ${funcs}`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'spec' && rest.length >= 2) spec(rest[0], rest[1], rest[2] === 'only');
else if (mode === 'check' && rest.length === 3) check(...rest);
else {
	console.error('usage: diff-html.js spec DIFF.json SPEC.json [only] | check DUMP.json DIFF.json TEXT.txt');
	process.exit(2);
}
process.exit(status());
