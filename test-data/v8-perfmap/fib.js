// SPDX-License-Identifier: MIT
// The workload of the v8-perfmap recording: a recursive fib, for SECS
// seconds (argv[2]), so that V8 tiers it up and names its code in
// /tmp/perf-<pid>.map (node --perf-basic-prof).
function fib(n) {
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

const secs = Number(process.argv[2] || 2);
const end = Date.now() + secs * 1000;
let calls = 0, sum = 0;
while (Date.now() < end) {
	sum += fib(24);
	calls++;
}
console.log(`${calls} calls, sum ${sum}`);
