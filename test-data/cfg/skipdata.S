# SPDX-License-Identifier: MIT
# Bytes invalid in 64-bit mode (push es, daa) after a jmp, and one reached by
# fall-through: skipdata keeps decoding in step after both.
.intel_syntax noprefix
.text
	jmp	over
	.byte	0x06, 0x27
over:
	mov	eax, 1
	.byte	0x37		# aaa: unknown in 64-bit mode, falls through
	add	eax, 2
	ret
