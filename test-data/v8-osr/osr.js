// SPDX-License-Identifier: MIT
// Pure JavaScript hot loops for V8's on-stack replacement (OSR): each driver
// is called once per round and spends its time in one long loop, so TurboFan
// compiles the loop while it runs and V8 enters the new code from the
// interpreter's frame at the loop header, not at the code's entry. Halfway
// through, drive_mix's array turns from small integers into doubles: the OSR
// code's map check fails (a deoptimisation) and the loop is compiled again.
'use strict';
const secs = Number(process.argv[2] || 2);

function drive_hash(n) {
	let h = 0x811c9dc5 | 0;
	for (let i = 0; i < n; i++) {
		h ^= i & 0xff;
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

function drive_mix(arr, n) {
	let s = 0;
	for (let i = 0; i < n; i++) {
		if (i === (n >> 1))
			arr[7] = 0.5;	// elements kind: SMI -> DOUBLE
		s += arr[i & 1023] * 3;
	}
	return s;
}

function drive_sieve(limit) {
	const marks = new Uint8Array(limit);
	let count = 0;
	for (let i = 2; i < limit; i++) {
		if (marks[i])
			continue;
		count++;
		for (let j = i * 2; j < limit; j += i)
			marks[j] = 1;
	}
	return count;
}

const t0 = process.hrtime.bigint();
let rounds = 0, acc = 0;
while (Number(process.hrtime.bigint() - t0) / 1e9 < secs) {
	const arr = [];
	for (let i = 0; i < 1024; i++)
		arr.push(i);
	acc = (acc + drive_hash(3e6)) | 0;
	acc = (acc + drive_mix(arr, 2e6)) | 0;
	acc = (acc + drive_sieve(1 << 20)) | 0;
	rounds++;
}
console.log(`pid ${process.pid} rounds ${rounds} acc ${acc}`);
