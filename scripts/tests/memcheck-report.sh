#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end reports under valgrind's memcheck, and with recycled heap memory
# (MALLOC_PERTURB_): the real V8 recording with the [Source] column of its
# JavaScript code, the wasmtime recording with every annotation column, and
# lookups in compressed native DWARF.
# Reads of uninitialised memory show there as valgrind errors or as output
# that changes with what the heap held before; ASan sees neither.
. "$(dirname "$0")/lib.sh"
need_private_tmp

vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"

# A real node run whose hot function has jitdump DEBUG_INFO (test-data/srcline/hot.js).
mkdir "$tmp/v8" && (cd "$tmp/v8" && perf record -q -k mono -e cpu-clock -F 2999 -o perf.data \
	node --perf-prof "$top/test-data/srcline/hot.js" >/dev/null 2>&1)
plugin_stream "$tmp/v8/perf.data" "$tmp/v8.hbs" 2>/dev/null
"$POSTPROC" -p 100 "$tmp/v8.hbs" >"$tmp/v8.out" 2>"$tmp/v8.err"
check "the V8 report has [Source] cells of hot.js" grep -q "hot.js:" "$tmp/v8.out"
check "memcheck: the V8 report (-p 100, [Source]) has no errors" \
	$vg --log-file="$tmp/vg-v8.log" "$POSTPROC" -p 100 -o "$tmp/v8-vg.out" "$tmp/v8.hbs"
[ -s "$tmp/vg-v8.log" ] && sed 's/^/# /' "$tmp/vg-v8.log" | head -30
check "under memcheck the V8 report is the same" cmp "$tmp/v8.out" "$tmp/v8-vg.out"
# glibc fills new allocations with 253 ^ 0xff = 2 and freed ones with 253.
MALLOC_PERTURB_=253 "$POSTPROC" -p 100 "$tmp/v8.hbs" >"$tmp/v8-perturb.out" 2>/dev/null
check "with MALLOC_PERTURB_=253 the V8 report is the same" diff -u "$tmp/v8.out" "$tmp/v8-perturb.out"
# Two sections of the same objects: debug entries must be neither lost nor doubled.
cat "$tmp/v8.hbs" "$tmp/v8.hbs" >"$tmp/v8x2.hbs"
MALLOC_PERTURB_=253 "$POSTPROC" -p 100 "$tmp/v8x2.hbs" 2>/dev/null | grep -v '^Collected' >"$tmp/v8x2.out"
grep -v '^Collected' "$tmp/v8.out" >"$tmp/v8x1.out"
check "a stream concatenated with itself gives the same blocks and [Source] cells" \
	diff -u "$tmp/v8x1.out" "$tmp/v8x2.out"

wt=$top/test-data/wasmtime
mkdir -p /tmp/hotblocks-rec/wasmtime-cwasm
cp "$wt"/cwasm/* /tmp/hotblocks-rec/wasmtime-cwasm/
plugin_stream "$wt/cwasm/perf.data" "$tmp/wt.hbs" 2>/dev/null
check "memcheck: the wasmtime report (--cwasm, --clif, --wasm) has no errors" \
	$vg --log-file="$tmp/vg-wt.log" "$POSTPROC" -p 80 --cwasm "$wt/module.cwasm" \
	--clif "$wt/clif" --wasm "$wt/hot.wasm" -o "$tmp/wt.out" "$tmp/wt.hbs"
[ -s "$tmp/vg-wt.log" ] && sed 's/^/# /' "$tmp/vg-wt.log" | head -30
check "the wasmtime report has its [CLIF] and [Wasm] columns" grep -q "\[Wasm\]" "$tmp/wt.out"
# Native code's DWARF through an image of its compressed sections
# (postproc/annotate/dwarf/dwarf-image.h): a gcc -gz build's work(), every
# instruction, and libc through its compressed debug file (libc6-dbg).
T=$top/build/tests/postproc-test-srcmap
src=$top/test-data/srcline
gcc -g -O2 -gz=zlib -o "$tmp/gz" "$src/inl.c" "$src/other.c" "$src/main.c"
addrs=$(objdump -d --no-show-raw-insn "$tmp/gz" | awk '/^[0-9a-f]+ <work>:$/ { on = 1; next }
	/^$/ { on = 0 } on && /^ +[0-9a-f]+:/ { a = $1; sub(/:/, "", a); print "0x" a }' | tr '\n' ' ')
libc=$(ldd "$tmp/gz" | awk '$1 ~ /^libc\.so/ { print $3 }')
set -- $(readelf -W --dyn-syms "$libc" | awk '$8 ~ /^qsort_r@/ { print $2; exit }')
"$T" --elf "$tmp/gz" $addrs >"$tmp/gz.out" 2>&1
"$T" --elf "$libc" "0x$1" >"$tmp/libc.out" 2>&1
check "compressed DWARF: work() has answers two inlined levels deep, libc's qsort_r a file:line" sh -c "
	grep -q '^0x[0-9a-f]* 2 work ' '$tmp/gz.out' && grep -q 'msort.c [1-9]' '$tmp/libc.out'"
check "memcheck: lookups in compressed DWARF (a -gz build, libc's debug file) have no errors" sh -c "
	$vg --log-file='$tmp/vg-gz.log' '$T' --elf '$tmp/gz' $addrs >'$tmp/gz-vg.out' 2>&1 &&
	$vg --log-file='$tmp/vg-libc.log' '$T' --elf '$libc' 0x$1 >'$tmp/libc-vg.out' 2>&1"
cat "$tmp/vg-gz.log" "$tmp/vg-libc.log" 2>/dev/null | sed 's/^/# /' | head -30
check "under memcheck and with MALLOC_PERTURB_=253 the answers are the same" sh -c "
	cmp '$tmp/gz.out' '$tmp/gz-vg.out' && cmp '$tmp/libc.out' '$tmp/libc-vg.out' &&
	MALLOC_PERTURB_=253 '$T' --elf '$tmp/gz' $addrs 2>&1 | cmp - '$tmp/gz.out'"
echo "1..$tap_n"
