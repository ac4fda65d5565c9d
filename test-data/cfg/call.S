# SPDX-License-Identifier: MIT
# Calls do not end blocks; a direct call leaves the function (target outside).
.intel_syntax noprefix
.text
	push	rbx
	.byte	0xe8		# call . + 5 + 0x1000 (another function)
	.long	0x1000
	mov	ebx, eax
	call	rsi
	add	eax, ebx
	pop	rbx
	ret
