# SPDX-License-Identifier: MIT
# Assembly cells: mnemonic padded to 7 columns, exactly one space after longer
# ones, targets as 0x<hex> (capstone itself prints a target 0 as "0").
.intel_syntax noprefix
.text
start:
	lea	ecx, [rax + rdi]
	cmpxchg	dword ptr [rdi], ecx
	cvtsi2sd xmm0, eax
	jae	start
	ret
