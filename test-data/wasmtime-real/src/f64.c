/* SPDX-License-Identifier: MIT */
/* A freestanding wasm32 command (no WASI) whose hot functions use f64
 * constants: Cranelift puts them in a constant pool after each function's
 * code (x86-64 loads them rip-relative), so the function's bytes end with
 * data, in the jit dump's code load and in the .cwasm's symbol alike. */

/* A weighted mean: two f64 constants in blend's pool. */
__attribute__((noinline)) static double blend(double a, double b)
{
	return a * 0.375 + b * 0.625;
}

/* A little bytecode interpreter over f64: a br_table, and a constant per case. */
__attribute__((noinline)) static double interp(const unsigned char *code, unsigned n, double x)
{
	double acc = x;
	for (unsigned i = 0; i < n; i++) {
		switch (code[i]) {
		case 0: acc = acc * 1.0000001 + 0.5; break;
		case 1: acc = acc - 3.25; break;
		case 2: acc = acc * 0.999 - 1.5; break;
		case 3: acc = blend(acc, 2.75); break;
		case 4: acc = acc > 1e6 ? acc * 1e-6 : acc + 7.125; break;
		case 5: acc = acc < -1e6 ? acc * -1e-6 : acc - 0.0625; break;
		default: acc = acc / 1.5; break;
		}
	}
	return acc;
}

static const unsigned char program[] = { 0, 3, 1, 4, 2, 5, 6, 3, 0, 4, 1, 5, 2, 3, 6, 0 };

volatile double result;
__attribute__((export_name("run"))) double run(unsigned rounds)
{
	double x = 1.0;
	for (unsigned r = 0; r < rounds; r++)
		x = interp(program, sizeof program, x);
	return x;
}

__attribute__((export_name("_start"))) void start(void)
{
	result = run(15000000);
}
