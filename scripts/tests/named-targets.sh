#!/bin/sh
# SPDX-License-Identifier: MIT
# The targets of branches and calls out of a function, named by what lands
# there (postproc/JSON.md, "Branch and call targets"), on real recordings,
# against tools that share no code with hotblocks (named-targets.js):
#  - native code (test-data/plt-calls: calls through the PLT into libc and a
#    library of the program's own, calls within the file; and libc's own):
#    objdump -d -C of each file, of the build recorded, names every direct
#    call and jump the way the report does, at the same address;
#  - V8's wasm and JavaScript code (test-data/v8-wasm): the target's code
#    load, read from the jitdump here, live when the caller was loaded
#    (V8's Builtin:... loads among them);
#  - no cell shows an offset before its function wrapped to 64 bits, and a
#    target nothing is known of shows its address;
#  - the HTML page links a name of a function it lists to that function.
# Calls between wasmtime's functions are checked against the reference's own
# .text offsets by wasmtime-real.js; those of aarch64, riscv64 and s390x by
# cranelift-targets.js.
. "$(dirname "$0")/lib.sh"
need_private_tmp

js=$top/scripts/tests/named-targets.js

# 1. Native code through the PLT.
"$top/test-data/plt-calls/restore.sh" >"$tmp/restore.out" 2>&1 ||
	not_ok "test-data/plt-calls/restore.sh" "$tmp/restore.out"
rec=/tmp/hotblocks-rec/plt-calls
plugin_stream "$rec/perf.data" "$tmp/plt.hbs" 2>"$tmp/plt.err" ||
	not_ok "perf script --dlfilter hotblocks.so on test-data/plt-calls" "$tmp/plt.err"
"$POSTPROC" --all --json "$tmp/plt.hbs" >"$tmp/plt.json" 2>"$tmp/plt.herr"
check "plt-calls: hotblocks --all --json exits 0" test -s "$tmp/plt.json"
check "plt-calls: the stream has the processes' file mappings (map records)" \
	grep -q "^map pid=[0-9]* .* dso=$rec/plt build-id=" "$tmp/plt.hbs"
set --
# (the program's own files: libc is stripped, objdump sees its .dynsym alone,
# where perf and hotblocks read its debug file's .symtab)
for f in "$rec/plt" "$rec/libstep.so"; do
	n=$(basename "$f")
	objdump -d -C "$f" >"$tmp/$n.od" 2>/dev/null
	set -- "$@" "$f=$tmp/$n.od"
done
node "$js" natives "$tmp/plt.json" "$@" >"$tmp/natives.tap" 2>&1
tap_relay "$tmp/natives.tap" "plt-calls " || not_ok "plt-calls: the natives checker said nothing" "$tmp/natives.tap"
check "plt-calls: round_once's calls: strlen@plt, shuffle, lib_step@plt (objdump -d -C plt)" sh -c \
	"grep -q '\"asm\": \"call    strlen@plt\"' '$tmp/plt.json' &&
	 grep -q '\"asm\": \"call    shuffle\", .*\"target_name\": \"shuffle\", \"target_function\": [0-9]' '$tmp/plt.json' &&
	 grep -q '\"asm\": \"call    lib_step@plt\"' '$tmp/plt.json'"

# 2. V8's JIT code.
restore_recording v8-wasm
plugin_stream "$top/test-data/v8-wasm/perf.data" "$tmp/v8.hbs" 2>"$tmp/v8.err" ||
	not_ok "perf script --dlfilter hotblocks.so on test-data/v8-wasm" "$tmp/v8.err"
"$POSTPROC" --all --json "$tmp/v8.hbs" >"$tmp/v8.json" 2>/dev/null
check "v8-wasm: the stream has the code loads of the process (load records)" \
	test "$(grep -c '^load pid=' "$tmp/v8.hbs")" -gt 1000
node "$js" jit "$tmp/v8.json" /tmp/hotblocks-rec/v8-wasm/jit-*.dump >"$tmp/jit.tap" 2>&1
tap_relay "$tmp/jit.tap" "v8-wasm " || not_ok "v8-wasm: the jit checker said nothing" "$tmp/jit.tap"
check "v8-wasm: wasm code calls V8's builtins by name (Builtin:WasmTaggedToFloat64)" \
	grep -q '"asm": "call    Builtin:WasmTaggedToFloat64"' "$tmp/v8.json"

# 3. No wrapped offsets anywhere, and the page's links.
check "no assembly cell shows an offset before its function wrapped to 64 bits" sh -c \
	"! grep -h '\"asm\": \"[a-z.]* *0xffff' '$tmp/plt.json' '$tmp/v8.json'"
"$POSTPROC" --html -p 100 "$tmp/plt.hbs" >"$tmp/plt.html" 2>/dev/null
check "plt-calls --html: a call to a listed function links to its section" sh -c \
	"grep -q 'call    <a href=\"#f[0-9]*\">shuffle</a>' '$tmp/plt.html'"
echo "1..$tap_n"
