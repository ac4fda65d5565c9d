// SPDX-License-Identifier: MIT
// Calls run(50) of the wasm module MODULE (argv[2]) until SECS (argv[3])
// seconds have passed, or CALLS (argv[4]) calls were made: the V8 recordings
// of the diff test data (README.md). 3000 calls are run(150000), the work of
// the module's _start under wasmtime.
'use strict';
const fs = require('fs');

const bytes = fs.readFileSync(process.argv[2]);
const secs = Number(process.argv[3] || 1);
const most = process.argv[4] ? Number(process.argv[4]) : Infinity;
// Liftoff first; V8 tiers the hot functions up to TurboFan while this loops.
const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
const run = inst.exports.run;

const end = process.hrtime.bigint() + BigInt(Math.round(secs * 1e9));
let calls = 0;
let h = 0;
while (calls < most && process.hrtime.bigint() < end) {
	h = (Math.imul(h, 31) + run(50)) | 0;
	calls++;
}
// Printed so that the calls cannot be optimised away.
console.log(`pid ${process.pid} calls ${calls} hash 0x${(h >>> 0).toString(16)}`);
