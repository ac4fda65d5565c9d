# SPDX-License-Identifier: MIT
# Bytes after the final ret (int3 padding, then garbage that decodes as a jump
# back into the function) are not code: no block, no leader.
.intel_syntax noprefix
.text
start:
	mov	eax, edi
	add	eax, esi
	ret
	.fill	16, 1, 0xcc
	jmp	start + 2	# garbage: points into the middle of "mov eax, edi" + 2
	.quad	0x1122334455667788
