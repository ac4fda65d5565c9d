# SPDX-License-Identifier: MIT
# riscv64: Cranelift's br_table. The bounds check jumps to the default with
# an auipc + jalr pair; the table is code: auipc + jalr through the index,
# into one auipc + jalr jump per entry. Then a trap (c.unimp), a call through
# an auipc + jalr pair that links ra (stays a call), compressed code and a
# compressed return (c.jr ra). Offsets are fixed by hand (.option norvc
# keeps the 4-byte forms Cranelift emits here): checked with llvm-objdump.
	.text
	.option	norvc
	addi	a0, zero, 2		# 0x00
	bltu	a1, a0, 1f		# 0x04
	auipc	a0, 0			# 0x08
	jalr	zero, 0x32(a0)		# 0x0c: to dflt, 0x08 + 0x32 = 0x3a
1:	auipc	a2, 0			# 0x10
	slli	a1, a1, 3		# 0x14
	add	a2, a2, a1		# 0x18
	jalr	zero, 16(a2)		# 0x1c: into the table at 0x20
	auipc	a3, 0			# 0x20: entry 0
	jalr	zero, 0x10(a3)		# 0x24: to case0, 0x20 + 0x10 = 0x30
	auipc	a3, 0			# 0x28: entry 1
	jalr	zero, 0x10(a3)		# 0x2c: to case1, 0x28 + 0x10 = 0x38
	addi	a0, zero, 10		# 0x30: case0
	ret				# 0x34
	.2byte	0			# 0x38: case1, c.unimp
	.option	rvc
	c.li	a0, 0			# 0x3a: dflt
	.option	norvc
	auipc	ra, 0			# 0x3c
	jalr	ra, -0xc(ra)		# 0x40: calls case0 (0x3c - 0xc = 0x30)
	.option	rvc
	c.jr	ra			# 0x44
