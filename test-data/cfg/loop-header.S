# SPDX-License-Identifier: MIT
# A loop whose header sits in the middle of a straight run: the header must
# start a block although nothing before it jumps (the reference splits only
# after jumps). Also the fib-like text cells of formats.md §6.3.
.intel_syntax noprefix
.text
fib:
	mov	eax, 1
	xor	edi, edi
	mov	esi, 1
loop:				# header: target of the jmp below
	cmp	esi, edx
	jae	done
	add	esi, 1
	lea	ecx, [rax + rdi]
	mov	rdi, rax
	mov	rax, rcx
	jmp	loop
done:
	ret
