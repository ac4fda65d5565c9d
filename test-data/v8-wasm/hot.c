// SPDX-License-Identifier: MIT
// Hot WebAssembly loop nest for the v8-wasm test recording (see README.md).
//
// The outer loop runs n times; the inner do/while hashes the bytes of the
// counter FNV-1a style, so its trip count (1..4) depends on the data and
// TurboFan cannot unroll it away: the compiled code keeps a real inner loop
// whose header sits in the middle of straight-line code.

unsigned work(unsigned n)
{
	unsigned h = 2166136261u;

	for (unsigned i = 0; i < n; i++) {
		unsigned x = i;

		do {
			h = (h ^ (x & 0xffu)) * 16777619u;
			x >>= 8;
		} while (x);
	}
	return h;
}
