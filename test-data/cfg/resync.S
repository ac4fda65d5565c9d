# SPDX-License-Identifier: MIT
# A byte after the ret that a linear sweep takes for the start of a 5-byte
# mov, running across the loop that only a sample tells is code (entered from
# elsewhere, like an OSR entry or a landing pad).
	.intel_syntax noprefix
	.text
	ret
	.byte	0xb8
	.byte	0x90
loop:
	dec	ecx
	jne	loop
	ret
