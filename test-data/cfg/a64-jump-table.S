// SPDX-License-Identifier: MIT
// aarch64: Cranelift's br_table (JTSequence: adr/ldrsw/add/br, table inline)
// and its trap, "udf #0xc11f", which capstone 4 cannot decode.
	.text
	cmp	w0, #2
	b.hs	dflt
	adr	x16, table
	ldrsw	x17, [x16, w0, uxtw #2]
	add	x16, x16, x17
	br	x16
table:
	.word	case0 - table
	.word	case1 - table
	.word	dflt - table
case0:
	mov	w0, #10
	ret
case1:
	udf	#0xc11f
dflt:
	mov	w0, #0
	ret
