# SPDX-License-Identifier: MIT
# A conditional jump into the middle of an instruction (overlapping code):
# counted in bad_targets, no leader.
.intel_syntax noprefix
.text
	je	mid
	.byte	0xb8		# mov eax, 0xc3 ...
mid:
	.byte	0xc3, 0, 0, 0	# ... whose second byte is a ret
	ret
