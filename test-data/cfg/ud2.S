# SPDX-License-Identifier: MIT
# ud2 ends its block even when the next instruction is no branch target.
.intel_syntax noprefix
.text
	test	edi, edi
	je	trap
	jmp	tail
trap:
	ud2
	mov	eax, 2		# not reachable, not a target: a block only because of ud2
tail:
	mov	eax, 1
	ret
