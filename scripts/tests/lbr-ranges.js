// SPDX-License-Identifier: MIT
// What the tests over lbr-propeller's branch stacks (branch-stacks.sh,
// cost-by-block.sh) remake from perf and objdump alike: each function's
// instructions as objdump -d --no-show-raw-insn lists them, and perf's
// fall-through ranges (the `range` lines of oracle-brstacksym.txt) that can
// have run straight through, the ones the plugin's counts keep.
'use strict';
const fs = require('fs');

// Each function's instruction offsets, and whether one cannot fall through.
const insnsOf = function (file) {
	const insns = {};
	let fn = null, base = 0;
	for (const l of fs.readFileSync(file, 'utf8').split('\n')) {
		let m = /^([0-9a-f]+) <(.*)>:$/.exec(l);
		if (m) { fn = m[2]; base = parseInt(m[1], 16); insns[fn] = []; continue; }
		m = /^ *([0-9a-f]+):\t(\S+)/.exec(l);
		if (m && fn) insns[fn].push({ off: parseInt(m[1], 16) - base, stops: /^(jmp|ret|ud2|hlt)/.test(m[2]) });
	}
	return insns;
};

// The test's inputs: hotblocks' JSON (r), the oracle's lines as fields, and
// objdump's instructions of the binary.
exports.inputs = (json, oracle, objdump) => ({
	r: JSON.parse(fs.readFileSync(json, 'utf8')),
	oracle: fs.readFileSync(oracle, 'utf8').split('\n').map(l => l.split(' ')),
	insns: insnsOf(objdump),
});

// perf's FUNC+0xOFF as { fn, off }; null for an address it names no function of.
const sym = exports.sym = s => { const m = /^(.*)\+0x([0-9a-f]+)$/.exec(s); return m ? { fn: m[1], off: parseInt(m[2], 16) } : null; };

// A `range` line f (its fields) as { fn, start, end, count, cn, cs } (cn, cs:
// its cycle counts' number and sum), when it can have run straight through:
// both ends instruction starts of one function, the start first, no jmp,
// ret, ud2 or hlt before the end; else null.
exports.straight = function (f, insns) {
	const a = sym(f[4]), b = sym(f[5]);
	if (!a || !b || a.fn !== b.fn) return null;
	const is = insns[a.fn] || [];
	const ok = a.off <= b.off && is.some(i => i.off === a.off) && is.some(i => i.off === b.off) &&
		!is.some(i => i.stops && i.off >= a.off && i.off < b.off);
	return ok ? { fn: a.fn, start: a.off, end: b.off, count: +f[1], cn: +f[6], cs: +f[7] } : null;
};
