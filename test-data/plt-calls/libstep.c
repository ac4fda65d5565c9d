/* SPDX-License-Identifier: MIT */
/* The shared library plt.c calls through its PLT. */
unsigned lib_step(unsigned x)
{
	for (int i = 0; i < 64; i++)
		x = (x << 5 | x >> 27) ^ (unsigned)i;
	return x;
}
