# SPDX-License-Identifier: MIT
# Fall-through into a branch target: the block before "join" ends there
# although it ends with no jump.
.intel_syntax noprefix
.text
	mov	eax, edi
	cmp	edi, 10
	jg	big
	add	eax, 1		# falls through into join
join:
	imul	eax, eax
	ret
big:
	sub	eax, 1
	jmp	join
