// SPDX-License-Identifier: MIT
// Calls hot.wasm's exported work() until SECS seconds have passed (v8-wasm test recording).
'use strict';
const fs = require('fs');
const path = require('path');

const secs = Number(process.argv[2] || 1);
// Synchronous compile + instantiate: V8 compiles with Liftoff first and tiers
// the hot function up to TurboFan in the background while the loop runs.
const bytes = fs.readFileSync(path.join(__dirname, 'hot.wasm'));
const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
const work = inst.exports.work;

const end = process.hrtime.bigint() + BigInt(Math.round(secs * 1e9));
let calls = 0;
let h = 0;
while (process.hrtime.bigint() < end) {
	h = (Math.imul(h, 31) + work(200000)) | 0;
	calls++;
}
// Print the result so the calls cannot be optimised away.
console.log(`pid ${process.pid} calls ${calls} hash 0x${(h >>> 0).toString(16)}`);
