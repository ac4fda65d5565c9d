# SPDX-License-Identifier: MIT
# The shape of V8's on-stack-replacement code: entered at offset 0 it only
# aborts (call + int3); V8 jumps in from the interpreter at the OSR entry after
# the int3, and the loop runs from there. No path from offset 0 reaches it.
	.intel_syntax noprefix
	.text
	push	rbp
	call	qword ptr [r13 + 0x4ef0]
	int3
osr_entry:
	sub	rsp, 0x30
loop:
	add	eax, 1
	cmp	eax, ecx
	jne	loop
	ret
	# V8's metadata after the code
	.byte	0x01, 0x00, 0x00, 0x00
