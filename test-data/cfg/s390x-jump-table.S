# SPDX-License-Identifier: MIT
# s390x: Cranelift's br_table (larl/agf/br, big-endian entries relative to the
# table, inline after the br), its conditional trap (brcl M, .+2 into its own
# second halfword, 0x0000), its trap (the halfword 0x0000), a call, a return
# (br %r14), and after it an instruction no decoder knows (0xec ... 0x01:
# six bytes, as the first two bits of every opcode say).
	.text
	clgfi	%r3, 2
	jghe	dflt
	sllg	%r2, %r3, 2
	larl	%r1, table
	agf	%r1, 0(%r2,%r1)
	br	%r1
table:
	.long	case0 - table
	.long	case1 - table
case0:
	lhi	%r2, 10
	jgo	.+2
	br	%r14
case1:
	.short	0
dflt:
	brasl	%r14, case0
	lhi	%r2, 0
	br	%r14
	.byte	0xec, 0x00, 0x00, 0x00, 0x00, 0x01
