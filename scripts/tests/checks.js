// SPDX-License-Identifier: MIT
// What the node halves of the page tests (html-report.js, diff-html.js) share:
// reading JSON, and "ok - NAME" / "not ok - NAME" lines with "# ..." details
// after a failure, counted so that the script can exit 1 when one failed.
'use strict';
const fs = require('fs');

let failed = 0;
exports.read = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
exports.hex = (n) => n.toString(16);
exports.report = function (ok, name, detail) {
	console.log(`${ok ? 'ok' : 'not ok'} - ${name}`);
	if (!ok) {
		failed++;
		for (const l of String(detail || '').split('\n').slice(0, 20)) console.log(`# ${l}`);
	}
};
// The exit status: 1 when a check failed.
exports.status = () => (failed ? 1 : 0);
