// SPDX-License-Identifier: MIT
// aarch64: a summing loop (b.ne back to its header), a literal load and a
// literal pool after the ret, which must stay out of the blocks.
	.text
	mov	x2, #0
loop:
	ldr	x3, [x0], #8
	add	x2, x2, x3
	subs	x1, x1, #1
	b.ne	loop
	ldr	x4, lit
	add	x0, x2, x4
	ret
lit:
	.quad	0x1122334455667788
