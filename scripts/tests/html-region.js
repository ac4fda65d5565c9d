// SPDX-License-Identifier: MIT
// The hottest region of a function too big for its page (html-region.sh),
// checked against the page of the same function whole (--page-budget 0):
//   node html-region.js REGION.html WHOLE.html
// Prints "ok - ..." / "not ok - ..." lines (tap_relay reads them):
//  - every sample of its blocks is in the region or the list of the rest;
//  - the region is its hottest blocks: none in the rest is hotter than the
//    coldest of the region, and its rows are the whole page's, row for row;
//  - the stubs are one CFG step away: each is linked to or from a region
//    block by a branch (the whole page's links) or falls through to or from
//    one (adjacent), and every link out of or into a region block is to a
//    block in the page (region or stub); stubs have no rows.
const fs = require('fs');
const [region, whole] = process.argv.slice(2).map((f) => fs.readFileSync(f, 'utf8'));

// The blocks of a page's first section: start, end, samples, class, rows,
// and the starts its rows link to.
function blocks(html) {
	const v = [];
	const re = /<tbody class="blk([^"]*)" id=(\S+) data-box=\S+ data-start=(\d+) data-end=(\d+) data-samples=(\d+)[^>]*>([\s\S]*?)<\/tbody>/g;
	for (let m; (m = re.exec(html));) {
		const body = m[6];
		const rows = body.split('\n').filter((l) => l.startsWith('<tr') && !l.startsWith('<tr class=bh'));
		const links = Array.from(body.matchAll(/href="#f\d+-l([0-9a-f]+)"/g), (x) => parseInt(x[1], 16));
		v.push({ cls: m[1], start: +m[3], end: +m[4], samples: +m[5], rows, links });
	}
	return v;
}
let failed = 0;
function check(name, yes, detail) {
	console.log(`${yes ? 'ok' : 'not ok'} - ${name}`);
	if (!yes) {
		failed++;
		if (detail) console.log(`# ${detail}`);
	}
}
const r = blocks(region), w = blocks(whole);
const byStart = new Map(w.map((b) => [b.start, b]));
const reg = r.filter((b) => !/\bstub\b/.test(b.cls)), stubs = r.filter((b) => /\bstub\b/.test(b.cls));
const p = region.match(/<p class="region" data-blocks="(\d+)" data-stubs="(\d+)" data-samples="(\d+)">/);
const rest = region.match(/<table class="rest" data-blocks="(\d+)" data-samples="(\d+)">([\s\S]*?)<\/table>/);
check('the page says what its region is, and lists the rest', p && rest, 'no p.region or table.rest');
if (!p || !rest) process.exit(1);
const sum = (v) => v.reduce((a, b) => a + b.samples, 0);
check(`its ${reg.length} region blocks and ${stubs.length} stubs are as it says`,
	reg.length === +p[1] && stubs.length === +p[2] && sum(reg) === +p[3],
	`${reg.length} ${stubs.length} ${sum(reg)} against ${p[1]} ${p[2]} ${p[3]}`);
const sampled = w.filter((b) => b.samples);
check(`every sample of its blocks is in the region or the rest (${sum(w)})`,
	sum(reg) + +rest[2] === sum(w) && reg.length + +rest[1] === sampled.length,
	`${sum(reg)} + ${rest[2]} of ${sum(w)}; ${reg.length} + ${rest[1]} blocks of ${sampled.length}`);
const restRows = Array.from(rest[3].matchAll(/<tr data-start=(\d+) data-samples=(\d+)>/g), (m) => [+m[1], +m[2]]);
const inRegion = new Set(reg.map((b) => b.start));
const coldest = Math.min(...reg.map((b) => b.samples));
const hotter = sampled.filter((b) => !inRegion.has(b.start) && b.samples > coldest);
check(`the region is its hottest blocks (the coldest has ${coldest} samples)`, hotter.length === 0,
	hotter.slice(0, 5).map((b) => `0x${b.start.toString(16)}: ${b.samples}`).join(', '));
check('each row of the rest is a sampled block outside the region, hottest first',
	restRows.every(([s, n], i) => byStart.has(s) && byStart.get(s).samples === n && !inRegion.has(s) &&
		(!i || restRows[i - 1][1] >= n)) && restRows.length > 0);
const sameRows = reg.every((b) => byStart.has(b.start) && byStart.get(b.start).rows.length === b.rows.length &&
	b.rows.every((row, i) => row === byStart.get(b.start).rows[i]));
check('the region\'s rows are the whole listing\'s, row for row', sameRows);
check('stubs have no rows', stubs.every((b) => b.rows.length === 0));
const inPage = new Set(r.map((b) => b.start));
const regW = reg.map((b) => byStart.get(b.start));
const near = (s) => regW.some((b) => b.links.includes(s.start) || s.links.includes(b.start) ||
	b.end === s.start || s.end === b.start);
const far = stubs.filter((s) => !near(byStart.get(s.start) || s));
check(`each stub is one step from the region (${stubs.length})`, far.length === 0,
	far.slice(0, 5).map((b) => '0x' + b.start.toString(16)).join(', '));
const outs = regW.flatMap((b) => b.links).filter((s) => !inPage.has(s));
const ins = w.filter((b) => !inPage.has(b.start) && b.links.some((s) => inRegion.has(s)));
check('every branch out of or into the region is from or to a block in the page', !outs.length && !ins.length,
	`out to ${outs.slice(0, 5).map((s) => '0x' + s.toString(16))}; in from ${ins.slice(0, 5).map((b) => '0x' + b.start.toString(16))}`);
process.exit(failed ? 1 : 0);
