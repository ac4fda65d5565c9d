/* SPDX-License-Identifier: MIT */
/* A freestanding wasm32 command compiled by wasmtime for Cranelift's other
 * targets (aarch64, riscv64, s390x): a 12-case switch (a br_table), calls,
 * f64 arithmetic, and the hot functions placed after more than 64 KiB of
 * code section. */

/* Dense cases 0..11 and a default: clang lowers the switch to a br_table. */
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
	case 7: return x ^ (x << 13);
	case 8: return (x >> 3) | 1;
	case 9: return x * x;
	case 10: return x - 0x61c88647u;
	case 11: return (x >> 7) ^ (x << 9);
	default: return x ^ 0xa5a5a5a5u;
	}
}

/* f64 arithmetic: conversion, division, sqrt, floor, fabs, f64.min. */
__attribute__((noinline)) static double wave(double t, unsigned x)
{
	double u = (double)(x & 0xffff) / 65536.0;

	return __builtin_sqrt(t * t + u) + __builtin_floor(u * 10.0) * 0.25 -
	       __builtin_wasm_min_f64(__builtin_fabs(t - u), 0.75);
}

/* Code-section padding, exported so that the linker keeps it: the functions
 * after it start past 64 KiB of code section. */
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

/* The hot loop: a call of step (through its br_table) and of wave per round. */
__attribute__((noinline)) static unsigned far_loop(unsigned x, unsigned n)
{
	unsigned sum = 0;
	double acc = 0;

	for (unsigned i = 0; i < n; i++) {
		x = step(x, (x >> 11) % 13);
		acc = wave(acc * 0.5, x);
		sum += x & 0xff;
	}
	return sum + (unsigned)acc;
}

volatile unsigned result;
__attribute__((export_name("run"))) unsigned run(unsigned n)
{
	return far_loop(n | 1, n);
}

__attribute__((export_name("_start"))) void start(void)
{
	result = run(100000000);
}
