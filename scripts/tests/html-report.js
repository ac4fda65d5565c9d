// SPDX-License-Identifier: MIT
// The HTML report's checks that need the JSON report (scripts/tests/html-report.sh):
//   node html-report.js spec SHOWN.json ALL.json SPEC.json [columns]
//       writes the browser-check spec (scripts/tests/browser-check.mjs) for the
//       page of the report SHOWN.json describes: its DOM, clicks, keys and
//       filter, and the expression that dumps the page's numbers; "columns"
//       also asks for CLIF, Wasm and Source cells
//   node html-report.js check DUMP.json SHOWN.json ALL.json TEXT.txt
//       compares the numbers dumped from the page with the JSON reports and
//       the text report of the same stream and options
// SHOWN.json is `hotblocks --json` with the page's options (the functions and
// blocks it shows), ALL.json `hotblocks --json --all` (every block and
// instruction of every function), TEXT.txt the text report (the shares as
// the table prints them). Prints "ok - ..." / "not ok - ..." lines, "# ..."
// details after a failure; exits 1 when a check failed.
'use strict';
const fs = require('fs');

const { read, hex, report, status } = require('./checks.js');

// The function of ALL.json that is f of SHOWN.json: the same code object.
function identity(f) {
	return JSON.stringify([f.name, f.pid, f.kind, f.address, f.size, f.code_index, f.load_time,
		f.dso, f.symbol, f.sym_start]);
}
function matchAll(shown, all) {
	const byId = new Map(all.functions.map((f) => [identity(f), f]));
	return shown.functions.map((f) => byId.get(identity(f)));
}

// The block of f with the given rank, as [function index, start].
function ranked(shown, rank) {
	for (const [i, f] of shown.functions.entries())
		for (const b of f.blocks || [])
			if (b.rank === rank) return [i, b.start];
	return null;
}

// In the page, evaluated by the browser: every number and share it shows.
const DUMP = `(() => {
	const n = (v) => (v === undefined ? 0 : Number(v));
	const t = document.getElementById('totals');
	const row = (r) => ({ off: parseInt(r.cells[2].textContent, 16), samples: n(r.dataset.samples),
		share: r.cells[1].textContent, asm: r.cells[3].textContent });
	return {
		total: Number(t.dataset.total), jit: Number(t.dataset.jit),
		classes: Array.from(document.querySelectorAll('#classes tr[data-class]'),
			(r) => [r.dataset.class, Number(r.dataset.samples)]),
		table: Array.from(document.querySelectorAll('#ftable tbody tr[data-func]'),
			(r) => [r.dataset.func, r.cells[1].textContent, Number(r.cells[3].textContent)]),
		ranked: Array.from(document.querySelectorAll('#ftable tbody tr:not(.more)'),
			(r) => [Number(r.cells[0].textContent), r.cells[1].firstChild.textContent,
				Number(r.cells[3].textContent), r.className]),
		more: Array.from(document.querySelectorAll('#ftable tbody tr.more'), (r) => Number(r.dataset.functions)),
		functions: Array.from(document.querySelectorAll('section.func'), (s) => ({
			id: s.id, name: s.dataset.name, samples: Number(s.dataset.samples),
			address: Number(s.dataset.address), pid: Number(s.dataset.pid),
			graph: s.querySelector('svg.cfg') !== null,
			boxes: s.querySelector('.cfg-pane') ? Number(s.querySelector('.cfg-pane').dataset.boxes) : null,
			drawn: s.querySelectorAll('svg.cfg g.node').length,
			edges: Object.fromEntries(['fallthrough', 'taken', 'case', 'back'].map((k) =>
				[k, s.querySelectorAll('svg.cfg g.edge.' + k).length])),
			blocks: Array.from(s.querySelectorAll('tbody.blk'), (b) => ({
				id: b.id, start: Number(b.dataset.start), end: Number(b.dataset.end),
				samples: Number(b.dataset.samples),
				rank: b.dataset.rank === undefined ? null : Number(b.dataset.rank),
				shown: b.classList.contains('shown'),
				box: document.getElementById(b.dataset.box) !== null,
				share: ((b.querySelector('.facts').textContent.match(/([0-9.]+)%/)) || [])[1] || null,
				rows: Array.from(b.querySelectorAll('tr:not(.bh):not(.line)'), row),
			})),
			trail: Array.from(s.querySelectorAll('tbody.trail tr:not(.bh):not(.line)'), row),
		})),
	};
})()`;

// The computed colour of every bar of the listings, as [r, g, b]; an
// expression continued by the step (".every(...)").
const BARS = "(window.bars = Array.from(document.querySelectorAll('.listing i.bar'), " +
	"(i) => getComputedStyle(i).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)))";

// A page of every function (--all) carries each listing and graph as data,
// built when its function first comes into view: scrolled to, one after the
// other, every one is built (and the checks after see the built page).
const BUILD_ALL = `(async () => {
	const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
	for (const s of document.querySelectorAll('section.func')) {
		s.scrollIntoView();
		await frame();
	}
	window.scrollTo(0, 0);
	await frame();
	return document.querySelectorAll('script.fdata').length === 0 &&
		Array.from(document.querySelectorAll('section.func')).every((s) =>
			!s.querySelector('.panes') || s.querySelector('table.listing tbody'));
})()`;

function spec(shownFile, allFile, out, columns) {
	const shown = read(shownFile), all = read(allFile);
	const fs_ = shown.functions, drawn = fs_.filter((f) => f.disassembled && f.blocks.length);
	const lazy = shown.selection.all && fs_.some((f) => f.disassembled);
	const steps = lazy ? [
		{ name: 'the listings and graphs come as data, the functions out of view not built yet', eval:
			"document.querySelectorAll('script.fdata').length > 0 && " +
			"Array.from(document.querySelectorAll('section.func')).some((s) => s.querySelector('script.fdata') && " +
			"!s.querySelector('tbody') && !s.querySelector('svg.cfg'))" },
		{ name: 'scrolled to, each function is built: its listing and graph', eval: BUILD_ALL },
	] : [];
	steps.push(
		{ name: `${fs_.length} functions, each with its section`, selector: 'section.func', count: fs_.length },
		{ name: `a row in the table of functions each, linked to it`, selector: '#ftable tbody tr[data-func] a[href^="#f"]', count: fs_.length },
		{ name: `a graph, or why there is none, for each function with blocks (${drawn.length})`,
			selector: 'section.func svg.cfg, section.func p.nograph', count: drawn.length },
		{ name: 'each graph draws the boxes its pane announces', eval:
			"Array.from(document.querySelectorAll('.cfg-pane')).every((p) => !p.querySelector('svg.cfg') || " +
			"p.querySelectorAll('g.node').length === Number(p.dataset.boxes))" },
		{ name: 'the heat legend', selector: '.legend .sw', count: 5 },
		// heat.c's ramp runs from pale yellow to dark red: red is the
		// largest channel and above blue all along; the diff page's plain
		// grey-blue (blue above red) is not on it. More than one colour: the
		// rows' shares differ on every page here.
		{ name: 'the listings\' bars are heat-coloured (yellow to red)', eval: BARS +
			".every(([r, g, b]) => r >= g && r > b) && new Set(bars.map(String)).size > 1 || " +
			"JSON.stringify(bars.slice(0, 5))" },
		{ name: 'every block has a box, every box is one of the page\'s blocks', eval:
			"Array.from(document.querySelectorAll('section.func')).every((s) => !s.querySelector('svg.cfg') || " +
			"Array.from(s.querySelectorAll('tbody.blk')).every((b) => { const g = document.getElementById(b.dataset.box); " +
			"return g && g.matches('svg.cfg g.node') && s.contains(g); }))" },
		{ name: 'nothing is marked yet', eval: "document.querySelectorAll('.hl').length === 0" },
		{ name: `the table ranks every sampled function (${shown.sampled_functions.length})`, eval:
			`document.querySelectorAll('#ftable tbody tr:not(.more)').length + Array.from(document.querySelectorAll(` +
			`'#ftable tbody tr.more'), (r) => Number(r.dataset.functions)).reduce((a, b) => a + b, 0) === ` +
			`${shown.sampled_functions.length}` },
	);
	if (columns)
		for (const c of ['clif', 'wasm', 'src'])
			steps.push({ name: `[${c === 'src' ? 'Source' : c === 'clif' ? 'CLIF' : 'Wasm'}] cells with text`,
				eval: `document.querySelectorAll('td.${c}:not(.same):not(.none)').length > 0` });
	const r1 = ranked(shown, 1), r2 = ranked(shown, 2) || r1;
	if (r1) {
		const l1 = `#f${r1[0]}-l${hex(r1[1])}`, b1 = `#f${r1[0]}-b${hex(r1[1])}`;
		const l2 = `#f${r2[0]}-l${hex(r2[1])}`, b2 = `#f${r2[0]}-b${hex(r2[1])}`;
		steps.push(
			{ name: 'key n marks the hottest block', press: 'n', selector: l1, hasClass: 'hl' },
			{ name: '... and its box', selector: b1, eval: `document.querySelector('${b1}').classList.contains('hl')` },
			{ name: 'Escape clears the marks', press: 'Escape', eval: "document.querySelectorAll('.hl').length === 0" },
			{ name: 'clicking a box marks its block in the listing', click: b2, selector: l2, hasClass: 'hl' },
			{ name: '... and the box, and nothing else', eval:
				`document.querySelector('${b2}').classList.contains('hl') && document.querySelectorAll('.hl').length === 2` },
			{ name: 'Escape clears the marks', press: 'Escape', eval: "document.querySelectorAll('.hl').length === 0" },
			{ name: 'clicking a block in the listing marks its box', click: `${l1} tr.bh th`, selector: b1, hasClass: 'hl' },
		);
	}
	// A jump whose target is another block: the link marks that block.
	const allOf = matchAll(shown, all);
	let jump = null;
	for (const [i, f] of allOf.entries()) {
		if (!f || !f.disassembled || jump) continue;
		const starts = new Set(f.blocks.map((b) => b.start));
		const blockOf = (off) => f.blocks.find((b) => b.start <= off && off < b.end);
		for (const ins of f.instructions) {
			const m = / (0x[0-9a-f]+)$/.exec(ins.asm);
			const from = blockOf(ins.offset);
			if (!m || !from) continue;
			const to = parseInt(m[1], 16);
			if (starts.has(to) && to !== from.start && (!r1 || i !== r1[0] || to !== r1[1])) {
				jump = [i, from.start, to];
				break;
			}
		}
	}
	if (jump) {
		const [i, from, to] = jump;
		steps.push({ name: `a jump's target links to its block (0x${hex(from)} -> 0x${hex(to)})`,
			click: `#f${i}-l${hex(from)} a[href="#f${i}-l${hex(to)}"]`, selector: `#f${i}-l${hex(to)}`, hasClass: 'hl' });
	}
	if (drawn.length) {
		const svg = `document.querySelector('section.func svg.cfg')`;
		steps.push({ name: 'the first graph has a width', eval: `(window.w0 = Number(${svg}.getAttribute('width'))) > 0` },
			{ name: 'zoom in widens it', click: `#${'f' + fs_.indexOf(drawn[0])} button[data-zoom="in"]`,
				eval: `Number(${svg}.getAttribute('width')) > window.w0` });
	}
	if (fs_.length) {
		const name = fs_[0].display_name;
		const part = name.slice(Math.floor(name.length / 3), Math.floor(name.length / 3) + 4) || name;
		const match = fs_.filter((f) => f.display_name.toLowerCase().includes(part.toLowerCase())).length;
		steps.push(
			{ name: 'the filter hides every function for a name none has', fill: '#filter', value: 'no function is called this',
				eval: "document.querySelectorAll('section.func:not([hidden])').length === 0 && " +
					"document.querySelectorAll('#ftable tbody tr:not([hidden])').length === 0" },
			{ name: `the filter '${part}' keeps the ${match} functions whose names hold it`, fill: '#filter', value: part,
				eval: `document.querySelectorAll('section.func:not([hidden])').length === ${match} && ` +
					`!document.getElementById('f0').hidden` },
			{ name: 'an empty filter shows every function', fill: '#filter', value: '',
				eval: `document.querySelectorAll('section.func:not([hidden])').length === ${fs_.length}` },
		);
	}
	fs.writeFileSync(out, JSON.stringify({ steps, dump: DUMP }, null, 1) + '\n');
}

// The text report's shown blocks: "`NAME` :: block 0xHEX :: P% total samples"
// and the sample cells of their rows, in order.
function textBlocks(file) {
	const blocks = [];
	let cur = null;
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const m = /^`(.*)` :: block 0x([0-9a-f]+) :: ([0-9.]+)% total samples$/.exec(line);
		if (m) {
			cur = { name: m[1], start: parseInt(m[2], 16), share: m[3], cells: [] };
			blocks.push(cur);
		} else if (cur && line === '') {
			if (cur.cells.length) cur = null;
		} else if (cur && !line.startsWith(' [Samples]')) {
			cur.cells.push(line.slice(0, 10).trim());
		}
	}
	return blocks;
}

function same(a, b) {
	return JSON.stringify(a) === JSON.stringify(b);
}

function firstDiff(got, want, what) {
	for (let i = 0; i < Math.max(got.length, want.length); i++)
		if (!same(got[i], want[i]))
			return `${what} ${i}: page ${JSON.stringify(got[i])}, JSON ${JSON.stringify(want[i])}`;
	return '';
}

function check(dumpFile, shownFile, allFile, textFile) {
	const page = read(dumpFile), shown = read(shownFile), all = read(allFile);
	report(page.total === shown.total_samples && page.jit === shown.jit_samples,
		`the header's totals are the JSON's (${shown.total_samples} samples, ${shown.jit_samples} JIT)`,
		`page ${page.total} / ${page.jit}`);
	const classes = [];
	for (const [k, v] of Object.entries(shown.samples))
		if (k !== 'unattributed' && v) classes.push([k, v]);
	for (const [k, v] of Object.entries(shown.samples.unattributed)) if (v) classes.push([`unattributed.${k}`, v]);
	for (const [k, v] of Object.entries(shown.not_in_blocks)) if (v) classes.push([k, v]);
	report(same(page.classes, classes), `the classes of samples are the JSON's (${classes.length} with samples)`,
		`page ${JSON.stringify(page.classes)}\nJSON ${JSON.stringify(classes)}`);

	const want = shown.functions.map((f) => ({ name: f.display_name, samples: f.samples, address: f.address, pid: f.pid }));
	const got = page.functions.map((f) => ({ name: f.name, samples: f.samples, address: f.address, pid: f.pid }));
	report(same(got, want), `the page lists the JSON's ${want.length} functions, hottest first, with their samples`,
		firstDiff(got, want, 'function'));
	report(same(page.table.map((r) => [r[1], r[2]]), want.map((f) => [f.name, f.samples])),
		'the table\'s rows of the functions in the page have their names and samples', firstDiff(page.table, want, 'row'));
	// Every sampled function ranked as the JSON's sampled_functions, those
	// without a shown block marked (a tail may be collapsed into a count).
	const ranked = shown.sampled_functions.map((f, k) => [k + 1, f.display_name, f.samples,
		f.function !== null ? '' : f.selected ? 'noshow' : 'unsel']);
	const trows = page.ranked.map((r) => [r[0], r[1], r[2], r[3] === 'out' ? '' : r[3]]);
	const rbad = trows.filter((r) => !same(r, ranked[r[0] - 1]));
	report(trows.length + page.more.reduce((a, b) => a + b, 0) === ranked.length && !rbad.length,
		`the table ranks the ${ranked.length} sampled functions as the JSON's sampled_functions, ` +
		`those without a shown block marked`, rbad.length ? `row ${JSON.stringify(rbad[0])}, JSON ${JSON.stringify(ranked[rbad[0][0] - 1])}` :
		`${trows.length} rows and ${page.more} collapsed for ${ranked.length}`);

	// Every block and instruction of each function: those of --json --all.
	const allOf = matchAll(shown, all);
	let blocks = 0, rows = 0, sampled = 0;
	const bad = [], ranks = [];
	for (const [i, f] of shown.functions.entries()) {
		const pf = page.functions[i], af = allOf[i];
		if (!pf || !af) {
			bad.push(`function ${i} (${f.display_name}): ${pf ? 'not in --json --all' : 'not in the page'}`);
			continue;
		}
		const pb = pf.blocks.map((b) => ({ start: b.start, end: b.end, samples: b.samples }));
		const ab = (af.blocks || []).map((b) => ({ start: b.start, end: b.end, samples: b.samples }));
		if (!same(pb, ab)) bad.push(`${f.display_name}: ${firstDiff(pb, ab, 'block')}`);
		// The blocks SHOWN.json lists (the shown ones; --all: every one) with
		// its rank and shown flag; the others are not shown.
		const listed = new Map((f.blocks || []).map((b) => [b.start, b]));
		for (const b of pf.blocks) {
			const j = listed.get(b.start);
			if (j ? b.rank !== j.rank || b.shown !== j.shown : b.shown)
				bad.push(`${f.display_name} 0x${hex(b.start)}: rank ${b.rank} shown ${b.shown}, JSON ` +
					(j ? `rank ${j.rank} shown ${j.shown}` : 'does not show it'));
			if ((b.rank !== null) !== (b.samples > 0))
				bad.push(`${f.display_name} 0x${hex(b.start)}: ${b.samples} samples, rank ${b.rank}`);
			if (b.rank !== null) ranks.push(b);
		}
		// The page's rows, with any link after the text taken off.
		const prow = pf.blocks.flatMap((b) => b.rows).concat(pf.trail).map((r) =>
			({ offset: r.off, samples: r.samples, asm: r.asm.replace(/ \u2192\u00a00x[0-9a-f]+$/, '') }));
		const arow = (af.instructions || []).map((r) => ({ offset: r.offset, samples: r.samples, asm: r.asm }));
		if (!same(prow, arow)) bad.push(`${f.display_name}: ${firstDiff(prow, arow, 'instruction')}`);
		if (pf.graph && !pf.blocks.every((b) => b.box)) bad.push(`${f.display_name}: a block without its box`);
		blocks += pb.length;
		rows += prow.length;
		sampled += prow.filter((r) => r.samples).length;
	}
	// Ranks outside SHOWN.json: distinct, and hotter blocks first (a default
	// report ranks the blocks of the functions it disassembled, --all those
	// of every function, so the places differ between the two).
	ranks.sort((a, b) => a.rank - b.rank);
	for (let i = 1; i < ranks.length; i++)
		if (ranks[i].rank === ranks[i - 1].rank || ranks[i].samples > ranks[i - 1].samples)
			bad.push(`rank ${ranks[i].rank} (${ranks[i].samples} samples) after rank ${ranks[i - 1].rank} ` +
				`(${ranks[i - 1].samples})`);
	report(!bad.length, `every block (${blocks}) and instruction (${rows}, ${sampled} sampled) has the samples ` +
		'and text of --json --all; ranks and shown blocks are the JSON report\'s', bad.join('\n'));

	// The shares as the text table prints them.
	const text = textBlocks(textFile);
	const tbad = [];
	for (const tb of text) {
		const pf = page.functions.find((f) => f.name === tb.name && f.blocks.some((b) => b.start === tb.start));
		const pb = pf && pf.blocks.find((b) => b.start === tb.start);
		if (!pb) {
			tbad.push(`${tb.name} 0x${hex(tb.start)}: not in the page`);
			continue;
		}
		if (pb.share !== tb.share) tbad.push(`${tb.name} 0x${hex(tb.start)}: share ${pb.share}, text ${tb.share}`);
		const cells = pb.rows.map((r) => r.share);
		if (!same(cells, tb.cells))
			tbad.push(`${tb.name} 0x${hex(tb.start)}: row shares ${JSON.stringify(cells)}, text ${JSON.stringify(tb.cells)}`);
	}
	report(text.length && !tbad.length, `the ${text.length} shown blocks' shares and their rows' are the text report's`,
		tbad.join('\n') || 'the text report shows no block');
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'spec' && rest.length >= 3) spec(rest[0], rest[1], rest[2], rest[3] === 'columns');
else if (mode === 'check' && rest.length === 4) check(...rest);
else {
	console.error('usage: html-report.js spec SHOWN.json ALL.json SPEC.json [columns] | check DUMP.json SHOWN.json ALL.json TEXT.txt');
	process.exit(2);
}
process.exit(status());
