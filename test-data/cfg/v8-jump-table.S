# SPDX-License-Identifier: MIT
# The shape of V8's TurboFan table switch on x64: a bounds check, lea of a table
# after the code, jmp through [table + index*8]; the entries are the cases'
# run-time addresses (the code is taken to run at 0x7f0000001000). case1 falls
# through into case2: only the table says case2 starts a block.
	.intel_syntax noprefix
	.text
start:
	cmp	edi, 3
	jae	dflt
	lea	r10, [rip + table]
	jmp	qword ptr [r10 + rdi*8]
case0:
	mov	eax, 1
	ret
case1:
	mov	eax, 2
case2:
	add	eax, 3
	ret
dflt:
	xor	eax, eax
	ret
	nop
table:
	.quad	0x7f0000001000 + case0 - start
	.quad	0x7f0000001000 + case1 - start
	.quad	0x7f0000001000 + case2 - start
	# V8's metadata after the table: not an address inside the code
	.quad	0x0000082000000001
