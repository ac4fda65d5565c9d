// SPDX-License-Identifier: MIT
// A hot loop every V8 tier compiles (v8-versions recordings): mix() is inlined
// into work() by TurboFan; work() runs until SECS (argv[2]) seconds have passed.
function mix(h, b) { h ^= b; return Math.imul(h, 16777619) >>> 0; }
function work(n) {
  let h = 2166136261;
  for (let i = 0; i < n; i++)
    h = mix(h, i & 0xff);
  return h;
}
const end = Date.now() + 1000 * Number(process.argv[2] || 1);
let s = 0, calls = 0;
while (Date.now() < end) { s ^= work(10000); calls++; }
console.log(`pid ${process.pid} calls ${calls} hash 0x${s.toString(16)}`);
