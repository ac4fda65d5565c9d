// SPDX-License-Identifier: MIT
// Bench workload (scripts/bench-big): terser minifies acorn's own
// dist/acorn.js (about 250 KB of real JavaScript) again and again for SECS
// seconds, on node: a real JavaScript profile of a few hundred hot functions.
//   node terser-acorn.js MODULES_DIR [SECS]
'use strict';
const path = require('path');
const fs = require('fs');
const dir = process.argv[2];
const secs = Number(process.argv[3] || 4);
const { minify } = require(path.join(dir, 'terser'));
const src = fs.readFileSync(path.join(dir, 'acorn/dist/acorn.js'), 'utf8');
(async () => {
	const end = Date.now() + secs * 1000;
	let runs = 0, bytes = 0;
	do {
		const out = await minify(src, { compress: true, mangle: true });
		bytes = out.code.length;
		runs++;
	} while (Date.now() < end);
	console.log(`pid ${process.pid} runs ${runs} minified ${src.length} -> ${bytes} bytes`);
})();
