# SPDX-License-Identifier: MIT
# Cranelift's x64 br_table (JmpTableSeq): lea/movsxd/add/jmp with the table of
# 32-bit offsets (relative to the table, default last) inline after the jump.
# The cases are reached only through the table.
.intel_syntax noprefix
.text
	cmp	edi, 2
	jae	dflt
	lea	rcx, [rip + table]
	movsxd	rax, dword ptr [rcx + rdi*4]
	add	rcx, rax
	jmp	rcx
table:
	.long	case0 - table
	.long	case1 - table
	.long	dflt - table
case0:
	mov	eax, 10
	ret
case1:
	mov	eax, 20
	ret
dflt:
	xor	eax, eax
	ret
