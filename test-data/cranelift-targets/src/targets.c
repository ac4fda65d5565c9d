/* SPDX-License-Identifier: MIT */
/* A freestanding wasm32 command compiled by wasmtime for Cranelift's other
 * targets (aarch64, riscv64, s390x): a 12-case switch (a br_table), calls,
 * f64 arithmetic, and the hot functions placed after more than 64 KiB of
 * code section. */

/* Dense cases 0..11 and a default: clang lowers the switch to a br_table. */
__attribute__((noinline)) static unsigned step(unsigned x, unsigned op)
{
	switch (op) {
	case 0: return x * 0x27d4eb2du;
	case 1: return x ^ (x >> 13);
	case 2: return x + 0x7f4a7c15u;
	case 3: return (x << 11) | (x >> 21);
	case 4: return x - (x << 5);
	case 5: return ~x + 3;
	case 6: return x * 5 + 7;
	case 7: return x ^ (x << 17);
	case 8: return (x >> 2) | 3;
	case 9: return x * x + x;
	case 10: return x - 0x3c6ef372u;
	case 11: return (x >> 9) ^ (x << 7);
	default: return x ^ 0x5a5a5a5au;
	}
}

/* f64 arithmetic: conversion, division, sqrt, floor, fabs, f64.min. */
__attribute__((noinline)) static double wave(double t, unsigned x)
{
	double u = (double)(x & 0xffff) / 65536.0;

	return __builtin_sqrt(t * t + u) + __builtin_floor(u * 10.0) * 0.25 -
	       __builtin_wasm_min_f64(__builtin_fabs(t - u), 0.75);
}

/* Code-section padding, exported so that the linker keeps it: 3072 copies of
 * the loop's body (76,735 bytes of code), so that the functions after it
 * start past 64 KiB of code section. No DWARF (nodebug): its line table
 * would double the module's size. */
volatile unsigned pad_state;
__attribute__((export_name("pad"), nodebug)) void pad(void)
{
#pragma clang loop unroll_count(3072)
	for (unsigned i = 0; i < 3072; i++)
		pad_state = pad_state * 31 + i;
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
