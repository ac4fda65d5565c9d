#!/bin/sh
# SPDX-License-Identifier: MIT
# The stream reader's hot path, as the compiler built it: every byte of code
# in a stream is two hex digits, read twice (checked, then decoded), so a
# large stream spends much of its reading time there. hexval() is a table
# lookup the compiler inlines (util.h): a call per digit made the reader a
# large share of what `hotblocks diff` costs on a large stream. Checked on the object files the build made (the Makefile's
# CFLAGS, -O2 by default): the speed itself is measured by the benchmarks,
# never here.
. "$(dirname "$0")/lib.sh"

objs="stream.o clif.o"
for o in $objs; do
	f=$top/build/postproc/$o
	if [ ! -f "$f" ]; then
		not_ok "build/postproc/$o is built (make)"
		continue
	fi
	objdump -dr "$f" >"$tmp/$o.dis"
	# Neither a relocation against an out-of-line hexval nor a call to a
	# local copy of it (a static inline the compiler did not inline).
	check "$o: no call to hexval() per hex digit (the table lookup is inlined)" \
		sh -c "! grep -n -e 'R_[A-Z0-9_]*[ 	]*hexval' -e 'call.*<hexval' '$tmp/$o.dis'"
	check "$o: reads the hex digit table (hex_digit_plus1) itself" \
		grep -q 'hex_digit_plus1' "$tmp/$o.dis"
done
echo "1..$tap_n"
