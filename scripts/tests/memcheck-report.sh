#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end reports under valgrind's memcheck, and with recycled heap memory
# (MALLOC_PERTURB_): the real V8 recording with the [Source] column of its
# JavaScript code, and the wasmtime recording with every annotation column.
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
echo "1..$tap_n"
