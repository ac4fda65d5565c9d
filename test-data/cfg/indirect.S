# SPDX-License-Identifier: MIT
# Indirect jumps end blocks and have no known successor; the code after them
# is reachable here only through the je.
.intel_syntax noprefix
.text
	test	edi, edi
	je	mem
	mov	rax, rsi
	jmp	rax
mem:
	jmp	qword ptr [rip + 0x10]
