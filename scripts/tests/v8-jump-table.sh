#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end: calls through V8's wasm jump table (annotate/v8/v8-jump-table.c)
# on the real recordings of three npm wasm tools under node 20
# (test-data/v8-wasm-gofmt, test-data/v8-wasm-dprint-markdown, both runs;
# test-data/jit-node-wasm-rust):
#  1. the plugin's note of the samples no load covers (V8's table itself)
#     gives no advice to enable the jitdump, which was enabled (and does,
#     without the dump);
#  2. the report derives each table without a note, >= 95% of the calls to
#     JIT code outside the function name their callee, and each sampled
#     Liftoff function's jump-table calls are its body's `call N` as wabt's
#     wasm-objdump -d prints them, in order (scripts/tests/v8-jump-table.js);
#     the modules are the ones that ran (committed xz-compressed, sha256 in
#     the READMEs);
#  3. the text report and the HTML page print the callee's name where the
#     JSON names it.
. "$(dirname "$0")/lib.sh"
need_private_tmp
command -v wasm-objdump >/dev/null 2>&1 || { not_ok "wasm-objdump (wabt) is installed"; exit 0; }

# Without its jitdump (perf.data alone, before any dump is put back) the
# advice to enable it stays: the note above is for dumps that were read.
mkdir -p "$tmp/alone"
cp "$top/test-data/v8-wasm-gofmt/run1/perf.data" "$tmp/alone/"
plugin_stream "$tmp/alone/perf.data" "$tmp/alone.hbs" 2>"$tmp/alone.err"
check "v8-wasm-gofmt/run1 without its jitdump: the plugin says to run the JIT with its jitdump enabled" \
	grep -q "fix: run the JIT with its jitdump enabled" "$tmp/alone.err"

for run in v8-wasm-gofmt/run1 v8-wasm-gofmt/run2 v8-wasm-dprint-markdown/run1 v8-wasm-dprint-markdown/run2 \
	jit-node-wasm-rust; do
	case $run in
	v8-wasm-gofmt/*) module=gofmt.wasm imports=0 mdir=$top/test-data/${run%/*} ;;
	v8-wasm-dprint-markdown/*) module=plugin.wasm imports=4 mdir=$top/test-data/${run%/*} ;;
	*) module=plugin.wasm imports=0 mdir=$top/test-data/$run ;;
	esac
	name=$(echo "$run" | tr / -)
	mkey=$(echo "$mdir/$module" | tr / _)
	[ -f "$tmp/$mkey.objdump" ] || { xzcat "$mdir/$module.xz" >"$tmp/$mkey" &&
		wasm-objdump -d "$tmp/$mkey" >"$tmp/$mkey.objdump"; } ||
		{ not_ok "$run: wasm-objdump -d $module"; continue; }
	restore_recording "$run"
	plugin_stream "$top/test-data/$run/perf.data" "$tmp/$name.hbs" 2>"$tmp/$name.plugin-err" ||
		{ not_ok "$run: perf script --dlfilter hotblocks.so" "$tmp/$name.plugin-err"; continue; }
	if grep -q "matched no jitdump code load" "$tmp/$name.plugin-err" &&
		! grep -q "run the JIT with its jitdump enabled" "$tmp/$name.plugin-err"; then
		ok "$run: the plugin notes the samples no load covers, with no advice to enable the jitdump"
	else
		not_ok "$run: the plugin notes the samples no load covers, with no advice to enable the jitdump" \
			"$tmp/$name.plugin-err"
	fi
	"$POSTPROC" --json --all "$tmp/$name.hbs" >"$tmp/$name.json" 2>"$tmp/$name.err" ||
		{ not_ok "$run: hotblocks --json --all" "$tmp/$name.err"; continue; }
	check "$run: no jump table left raw" sh -c "! grep 'left as addresses' '$tmp/$name.err'"
	node "$top/scripts/tests/v8-jump-table.js" "$tmp/$name.json" "$tmp/$mkey.objdump" "$imports" \
		>"$tmp/$name.check" 2>&1
	tap_relay "$tmp/$name.check" "$run: " || not_ok "$run: v8-jump-table.js ran" "$tmp/$name.check"
	# the hottest function's first sampled call through the table, by name in
	# HTML, and in text as far as its assembly column (60 wide) shows it
	callee=$(node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	for (const f of d.functions) for (const i of f.instructions)
		if (i.target_wasm_index !== undefined && i.samples && !/[<>&"\\]/.test(i.target_name)) {
			console.log(i.target_name);
			process.exit(0);
		}' \
		"$tmp/$name.json")
	"$POSTPROC" --all "$tmp/$name.hbs" >"$tmp/$name.txt" 2>/dev/null
	"$POSTPROC" --html="$tmp/$name.html" --all "$tmp/$name.hbs" 2>/dev/null
	shown=$(printf 'call    %s' "$callee" | cut -c1-52)
	if [ -n "$callee" ] && grep -qF "$shown" "$tmp/$name.txt" && grep -qF "call    $callee" "$tmp/$name.html"; then
		ok "$run: text and HTML print 'call    $callee'"
	else
		not_ok "$run: text and HTML print the callee '$callee'"
	fi
done
echo "1..$tap_n"
