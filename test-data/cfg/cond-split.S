# SPDX-License-Identifier: MIT
# A conditional branch ends its block: the fall-through starts a new one.
.intel_syntax noprefix
.text
	test	edi, edi
	je	zero
	mov	eax, 1		# leader: after the je, not a target
	ret
zero:
	xor	eax, eax
	ret
