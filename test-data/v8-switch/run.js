// SPDX-License-Identifier: MIT
// Calls vm.wasm's exported run() until SECS (argv[2]) seconds have passed.
'use strict';
const fs = require('fs');
const path = require('path');

const secs = Number(process.argv[2] || 1);
// Synchronous compile: Liftoff first, then TurboFan in the background while
// the loop runs (the hot function is tiered up).
const bytes = fs.readFileSync(path.join(__dirname, 'vm.wasm'));
const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
const run = inst.exports.run;

const end = process.hrtime.bigint() + BigInt(Math.round(secs * 1e9));
let calls = 0;
let h = 0;
while (process.hrtime.bigint() < end) {
	h = (Math.imul(h, 31) + run(20000)) | 0;
	calls++;
}
console.log(`pid ${process.pid} calls ${calls} hash 0x${(h >>> 0).toString(16)}`);
