// SPDX-License-Identifier: MIT
// A hot loop V8 compiles with TurboFan (`JS:*work`), run under node --perf-prof by
// scripts/tests/srcline-vs-tools.sh to check V8's DEBUG_INFO entry addresses.
function mix(h, b) { h ^= b; return Math.imul(h, 16777619) >>> 0; }
function work(n) {
  let h = 2166136261;
  for (let i = 0; i < n; i++)
    h = mix(h, i & 0xff);
  return h;
}
let s = 0;
// 10000 calls: long enough for node 18, 20 and 22 to run TurboFan work() for a while.
for (let k = 0; k < 10000; k++) s ^= work(10000);
console.log(s);
