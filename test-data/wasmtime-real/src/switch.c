/* SPDX-License-Identifier: MIT */
/* A freestanding wasm32 command (no WASI): a dense switch (a br_table), a
 * hot loop placed after more than 64 KiB of code section, and `_start`
 * (`wasmtime hot-blocks` runs a module's `_start`; it cannot --invoke). */

/* Dense cases 0..7: clang lowers the switch to a br_table. */
__attribute__((noinline)) static unsigned step(unsigned x, unsigned op)
{
	switch (op) {
	case 0: return x * 2654435761u;
	case 1: return x ^ (x >> 15);
	case 2: return x + 0x9e3779b9u;
	case 3: return (x << 7) | (x >> 25);
	case 4: return x - (x << 3);
	case 5: return ~x;
	case 6: return x * 9 + 1;
	default: return x ^ 0xa5a5a5a5u;
	}
}

/* Code-section padding: never called in the hot path, but exported so the
 * linker keeps it. It puts the functions after it past 64 KiB of code. */
#define P1(i) pad_state = pad_state * 31 + (unsigned)(i);
#define P4(i) P1(i) P1(i + 1) P1(i + 2) P1(i + 3)
#define P16(i) P4(i) P4(i + 4) P4(i + 8) P4(i + 12)
#define P64(i) P16(i) P16(i + 16) P16(i + 32) P16(i + 48)
#define P256(i) P64(i) P64(i + 64) P64(i + 128) P64(i + 192)
#define P1K(i) P256(i) P256(i + 256) P256(i + 512) P256(i + 768)
volatile unsigned pad_state;
__attribute__((export_name("pad"))) void pad(void)
{
	P1K(0) P1K(1024) P1K(2048)
}

/* The hot loop past 64 KiB: its wasm offsets need five hex digits. */
__attribute__((noinline)) static unsigned far_loop(unsigned x, unsigned n)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < n; i++) {
		x = step(x, (x >> 11) & 7);
		sum += x & 0xff;
	}
	return sum;
}

volatile unsigned result;
__attribute__((export_name("run"))) unsigned run(unsigned n)
{
	return far_loop(n | 1, n);
}

__attribute__((export_name("_start"))) void start(void)
{
	result = run(200000000);
}
