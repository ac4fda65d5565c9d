# SPDX-License-Identifier: MIT
# A loop whose header sits in the middle of a straight run: the header must
# start a block although nothing before it jumps (the reference splits only
# after jumps). Also text cells like those of the reference's fib example.
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
