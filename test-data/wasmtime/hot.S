# SPDX-License-Identifier: MIT
# hot.S: hot.wasm "compiled" by hand the way Cranelift (wasmtime 47, x86-64) lowers it.
#
# Nothing here was produced by Cranelift: wasmtime cannot be installed on this
# machine.  Every function follows the optimized CLIF in clif/ and the x86-64
# shapes seen in wasmtime's own tests/disas/*.wat expectations (prologue, stack
# limit check, clobber saves, epilogue, array-to-wasm trampoline), see README.md.
#
# Calling convention of the wasm functions (Cranelift `tail`, integer registers
# as System V): rdi = callee vmctx, rsi = caller vmctx, rdx = first i32 param,
# result in eax; rbx, rbp, r12-r15 are preserved.  The trampoline is
# `system_v`: (vmctx, caller vmctx, ValRaw *args_and_results, len) -> i8.
#
# Layout rules taken from wasmtime (crates/cranelift/src/compiler.rs,
# cranelift/codegen/src/isa/x64/inst/mod.rs): wasm functions are aligned to
# the x64 "preferred" function alignment, 32, padding with zero bytes;
# trampolines only to the minimum, 1.  Symbols are STT_FUNC, local, with the
# exact body size.  Branches are rel32 ({disp32}), as Cranelift emits them.
#
# Every instruction is written as `I <wasm offset>, <instruction>`: the macro
# records (text offset, wasm offset) in the side section .hb_addrmap, so the
# address map can never drift from the code (`mkcwasm --extract-addrmap`).
# NONE = no wasm offset (prologue, compiler-made code, out-of-line traps).
# TRAP / CALLSITE record .wasmtime.traps and .wasmtime.exceptions entries.

	.intel_syntax noprefix
	.text

	.set	NONE, 0xffffffff

.macro I pos:req, insn:vararg
	.pushsection .hb_addrmap, "", @progbits
	.long	991f - .Ltext, \pos
	.popsection
991:
	\insn
.endm

# A trapping instruction: code = wasmtime's Trap as u8 (StackOverflow = 0).
.macro TRAP code:req
	.pushsection .hb_traps, "", @progbits
	.long	992f - .Ltext, \code
	.popsection
992:
.endm

# Right after a call with an exception handler (try_call): return address,
# SP-to-FP frame offset, handler.
.macro CALLSITE frame:req, handler:req
993:
	.pushsection .hb_callsites, "", @progbits
	.long	993b - .Ltext, \frame, \handler - .Ltext
	.popsection
.endm

.macro FUNC name:req
	.balign	32, 0
	.type	"\name", @function
"\name":
.endm

.macro ENDFUNC name:req
	.size	"\name", . - "\name"
.endm

.Ltext:

# ---------------------------------------------------------------------------
# function[0] $run (export "run"): fib(n) + function[2](n), xor far(n).
# Not a leaf: stack-limit check (VMContext+8 -> VMStoreContext+0x18, plus the
# 0x30-byte frame), r12-r14 hold vmctx, n and the partial sum across calls.
	FUNC	"wasm[0]::function[0]::run"
	I NONE,   push	rbp
	I NONE,   mov	rbp, rsp
	I NONE,   mov	r10, qword ptr [rdi + 8]
	I NONE,   mov	r10, qword ptr [r10 + 0x18]
	I NONE,   add	r10, 0x30
	I NONE,   cmp	r10, rsp
	I NONE,   {disp32} ja .Lrun_stack_overflow
	I NONE,   sub	rsp, 0x20
	I NONE,   mov	qword ptr [rsp], r12
	I NONE,   mov	qword ptr [rsp + 8], r13
	I NONE,   mov	qword ptr [rsp + 0x10], r14
	I NONE,   mov	r12, rdi			# regalloc: vmctx lives across calls
	I NONE,   mov	r13, rdx			# regalloc: n lives across calls
	I NONE,   mov	rsi, rdi			# caller vmctx = own vmctx
	I 0x2d,   call	"wasm[0]::function[1]::fib"	# call $fib
	I 0x2d,   mov	r14, rax
	I 0x2d,   mov	rdi, r12
	I 0x2d,   mov	rsi, r12
	I 0x2d,   mov	rdx, r13
	I 0x31,   call	"wasm[0]::function[2]"		# call 2
	I 0x33,   add	r14d, eax			# i32.add
	I 0x33,   mov	rdi, r12
	I 0x33,   mov	rsi, r12
	I 0x33,   mov	rdx, r13
	I 0x36,   call	"wasm[0]::function[4]::far"	# call $far
	I 0x38,   xor	r14d, eax			# i32.xor
	I 0x38,   mov	rax, r14
	I 0x39,   mov	r12, qword ptr [rsp]		# end: return
	I 0x39,   mov	r13, qword ptr [rsp + 8]
	I 0x39,   mov	r14, qword ptr [rsp + 0x10]
	I 0x39,   add	rsp, 0x20
	I 0x39,   mov	rsp, rbp
	I 0x39,   pop	rbp
	I 0x39,   ret
.Lrun_stack_overflow:					# out-of-line trap island
	TRAP 0
	I NONE,   ud2
	ENDFUNC	"wasm[0]::function[0]::run"

# ---------------------------------------------------------------------------
# function[1] $fib: i = esi, a = eax, b = ecx, n = edx.  Leaf, no frame.
	FUNC	"wasm[0]::function[1]::fib"
	I NONE,   push	rbp
	I NONE,   mov	rbp, rsp
	I 0x3c,   xor	eax, eax			# v3 = iconst 0 (the local decl's zero)
	I 0x42,   mov	ecx, 1				# v5 = iconst 1
	I 0x42,   mov	rsi, rax			# block3 arg: i = 0
.Lfib_loop:						# block3: loop $loop
	I 0x53,   cmp	esi, edx			# br_if $break (icmp uge sunk)
	I 0x53,   {disp32} jae .Lfib_exit
	I NONE,   add	esi, 1				# v18 = iadd v7, v17 (remat'd 1)
	I 0x59,   lea	edi, [rax + rcx]		# i32.add: t = a + b
	I 0x59,   mov	rax, rcx			# block3 arg: a = b
	I 0x59,   mov	rcx, rdi			# block3 arg: b = t
	I 0x6b,   {disp32} jmp .Lfib_loop		# br $loop
.Lfib_exit:
	I 0x71,   mov	rsp, rbp			# end: return a
	I 0x71,   pop	rbp
	I 0x71,   ret
	ENDFUNC	"wasm[0]::function[1]::fib"

# ---------------------------------------------------------------------------
# function[2] (no name): xorshift32 for n rounds.  n = edx, x = eax.
	FUNC	"wasm[0]::function[2]"
	I NONE,   push	rbp
	I NONE,   mov	rbp, rsp
	I 0x76,   mov	eax, 0x92d68ca2			# i32.const 2463534242
.Lf2_loop:						# block3: loop
	I 0x85,   test	edx, edx			# br_if 1 (icmp eq n, 0 sunk)
	I 0x85,   {disp32} je .Lf2_exit
	I NONE,   add	edx, -1				# i32.sub n, 1 rewritten to iadd -1
	I NONE,   mov	rcx, rax
	I NONE,   shl	ecx, 0xd			# ishl (remat'd 13)
	I 0x8e,   xor	eax, ecx			# i32.xor
	I 0x8e,   mov	rcx, rax
	I NONE,   shr	ecx, 0x11			# ushr (remat'd 17)
	I 0x98,   xor	eax, ecx			# i32.xor
	I 0x98,   mov	rcx, rax
	I NONE,   shl	ecx, 5				# ishl (remat'd 5)
	I 0xa2,   xor	eax, ecx			# i32.xor
	I 0xac,   {disp32} jmp .Lf2_loop		# br 0
.Lf2_exit:
	I 0xb2,   mov	rsp, rbp			# end: return x
	I 0xb2,   pop	rbp
	I 0xb2,   ret
	ENDFUNC	"wasm[0]::function[2]"

# ---------------------------------------------------------------------------
# function[3] $pad: 65536 nops compile to nothing; only the frame remains.
	FUNC	"wasm[0]::function[3]::pad"
	I NONE,   push	rbp
	I NONE,   mov	rbp, rsp
	I 0x100b7, mov	rsp, rbp			# end
	I 0x100b7, pop	rbp
	I 0x100b7, ret
	ENDFUNC	"wasm[0]::function[3]::pad"

# ---------------------------------------------------------------------------
# function[4] $far: s = eax, i = ecx, i + 1 = esi, n = edx.  Its wasm lies
# past file offset 0x10000, so every srcloc has five hex digits.
	FUNC	"wasm[0]::function[4]::far"
	I NONE,   push	rbp
	I NONE,   mov	rbp, rsp
	I 0x100ba, xor	eax, eax			# v3 = iconst 0 (the local decl's zero)
	I 0x100be, test	edx, edx			# if
	I 0x100be, {disp32} je .Lfar_exit
	I NONE,   xor	ecx, ecx			# block2: v14 = iconst 0 (remat)
	I NONE,   mov	rax, rcx
.Lfar_loop:						# block4: loop $next
	I NONE,   lea	esi, [rcx + 1]			# v16 = iadd v5, v15 (remat'd 1)
	I 0x100c8, imul	ecx, ecx			# i32.mul
	I 0x100c9, add	eax, ecx			# i32.add
	I 0x100d6, cmp	esi, edx			# br_if $next (icmp ult sunk)
	I 0x100d6, {disp32} jae .Lfar_exit
	I NONE,   mov	rcx, rsi			# critical-edge block: i = i + 1
	I NONE,   {disp32} jmp .Lfar_loop
.Lfar_exit:
	I 0x100dc, mov	rsp, rbp			# end: return s
	I 0x100dc, pop	rbp
	I 0x100dc, ret
	ENDFUNC	"wasm[0]::function[4]::far"

# ---------------------------------------------------------------------------
# array_to_wasm_trampoline[0] for the export "run": loads the i32 argument
# from values_vec[0], records FP/SP/handler in the VMStoreContext (+0x48,
# +0x40, +0x50), try_calls run, stores the i32 result back to values_vec[0]
# and returns true; the exception handler sets VMStoreContext+0x88 and
# returns false.  Same instructions as wasmtime's tests/disas/debug.wat
# trampoline, minus its second parameter.  Trampolines have no address map
# entries and only byte alignment.
	.type	"wasm[0]::array_to_wasm_trampoline[0]", @function
"wasm[0]::array_to_wasm_trampoline[0]":
	push	rbp
	mov	rbp, rsp
	sub	rsp, 0x40
	mov	qword ptr [rsp + 0x10], rbx
	mov	qword ptr [rsp + 0x18], r12
	mov	qword ptr [rsp + 0x20], r13
	mov	qword ptr [rsp + 0x28], r14
	mov	qword ptr [rsp + 0x30], r15
	mov	r8d, dword ptr [rdx]
	mov	qword ptr [rsp], rdx
	mov	r9, rbp
	mov	r10, qword ptr [rdi + 8]
	mov	qword ptr [r10 + 0x48], r9
	mov	r9, rsp
	mov	qword ptr [r10 + 0x40], r9
	lea	r9, [rip + .Ltramp_handler]
	mov	qword ptr [r10 + 0x50], r9
	mov	rdx, r8
	mov	qword ptr [rsp + 8], r10
	call	"wasm[0]::function[0]::run"
	CALLSITE 0x40, .Ltramp_handler
	mov	rdx, qword ptr [rsp]
	mov	dword ptr [rdx], eax
	mov	eax, 1
	mov	rbx, qword ptr [rsp + 0x10]
	mov	r12, qword ptr [rsp + 0x18]
	mov	r13, qword ptr [rsp + 0x20]
	mov	r14, qword ptr [rsp + 0x28]
	mov	r15, qword ptr [rsp + 0x30]
	add	rsp, 0x40
	mov	rsp, rbp
	pop	rbp
	ret
.Ltramp_handler:
	mov	r10, qword ptr [rsp + 8]
	mov	qword ptr [r10 + 0x88], 1
	xor	eax, eax
	mov	rbx, qword ptr [rsp + 0x10]
	mov	r12, qword ptr [rsp + 0x18]
	mov	r13, qword ptr [rsp + 0x20]
	mov	r14, qword ptr [rsp + 0x28]
	mov	r15, qword ptr [rsp + 0x30]
	add	rsp, 0x40
	mov	rsp, rbp
	pop	rbp
	ret
	.size	"wasm[0]::array_to_wasm_trampoline[0]", . - "wasm[0]::array_to_wasm_trampoline[0]"

	.section .note.GNU-stack, "", @progbits
