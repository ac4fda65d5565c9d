# SPDX-License-Identifier: MIT
# The .text of fib-x86_64*.cwasm: hand-written x86-64 standing in for what
# Cranelift makes of wasmtime's tests/all/cli_tests/fib.wat. The bytes are
# copied into postproc/tests/test-cwasm.c (fib_text[]); to check them:
#   as --64 -o /tmp/fib.o fib-x86_64.S && objcopy -O binary -j .text /tmp/fib.o /tmp/fib.bin
# The @xxxx comments are the wasm offsets the address map gives each
# instruction (wabt's encoding of fib.wat, as `wasm-objdump -d` shows them).
	.intel_syntax noprefix
	.text
fib:				# wasm[0]::function[0]::fib (vmctx rdi, caller rsi, n edx)
	push rbp		# prologue: none
	mov rbp, rsp
	mov eax, 1		# @002b a = 1
	mov ecx, 1		#       b = 1
	xor esi, esi		# @0033 i = 0
f_loop:	cmp esi, edx		# @003f i32.ge_u
	jae f_done		# @0040 br_if $break
	lea edi, [rcx + rax]	# @004e i32.add
	mov eax, ecx
	mov ecx, edi
	add esi, 1		# @0055 i32.add
	jmp f_loop		# @0058 br $loop
f_done:	mov eax, ecx		# @005e end
	pop rbp
	ret
	.p2align 4, 0
start:				# wasm[0]::function[1] (_start)
	push rbp		# prologue: none
	mov rbp, rsp
	push rbx
	push r12
	mov r12, rdi
	xor ebx, ebx		# @0063 i32.const 0
s_loop:	cmp ebx, 100000		# @0071 i32.ge_u
	jae s_done		# @0072 br_if $break
	mov rdi, r12		# @0076 call $fib
	mov rsi, r12
	mov edx, ebx
	call fib
	add ebx, 1		# @007d i32.add
	jmp s_loop		# @0080 br $loop
s_done:	pop r12			# @0084 end
	pop rbx
	pop rbp
	ret
	.p2align 4, 0
tramp:				# wasm[0]::array_to_wasm_trampoline[1]: no address map entries
	push rbp
	mov rbp, rsp
	mov rsi, rdi
	call start
	mov eax, 1
	pop rbp
	ret
