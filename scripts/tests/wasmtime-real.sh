#!/bin/sh
# SPDX-License-Identifier: MIT
# hotblocks on recordings of the real wasmtime (test-data/wasmtime-real:
# 50.0.1, 49.0.3, 48.0.2 and 46.0.1, both address-map encodings), checked
# instruction by instruction against independent sources
# (scripts/tests/wasmtime-real.js):
#  - samples: per symbol offset, equal to perf's own attribution
#    (perf script -F ip,sym,symoff,dso: perf reads the .cwasm's ELF symbols);
#  - wasm offsets: equal to the .wasmtime.addrmap decoded by the checker;
#  - [CLIF]: equal to the lines with that offset in the real --emit-clif file;
#  - [Wasm]: equal to wasmprinter's text (jco print) at that offset;
#  - names (jitdump and perfmap recordings): each function is shown by a
#    name wasmtime itself registered at its address in the jit dump or perf
#    map (name-section names demangled as wasmtime demangles them), or, where
#    wasmtime registered only wasm[M]::function[F] (wasmtime 50 reads no name
#    section whose names are out of order), by wasmprinter's name for it,
#    demangled by c++filt;
#  - blocks: the same functions get the same blocks (and code_end) in the
#    jitdump, perfmap and reference recordings, none reaching the constants
#    objdump shows the function loading (Cranelift's pool after the code);
#  - reference/: the header and every row `wasmtime hot-blocks` printed for
#    its own perf.data agree with ours, but for the deliberate differences
#    postproc/JSON.md lists (branch targets, "JIT samples", CLIF past 64 KiB,
#    trampolines in rows of their own), which the checker counts.
# No wasmtime needed; jco prints the Wasm text (skipped without it, never in CI).
. "$(dirname "$0")/lib.sh"
need_private_tmp
# A build-id cache of its own, empty: not the checkout's, where tests that ran
# before (wasmtime-live's perf record of cli-46.0.1, the very build of the
# 46.0.1 recordings) may have put a wasmtime, so that perf, the plugin and the
# report resolved its samples or not by the order and timing of other runs.
mkdir -p "$tmp/perf-buildid"
printf '[buildid]\n\tdir = %s\n' "$tmp/perf-buildid" >"$tmp/perf-buildid.perf-config"
export PERF_CONFIG="$tmp/perf-buildid.perf-config" PERF_BUILDID_DIR="$tmp/perf-buildid"

R=$top/test-data/wasmtime-real
checker=$top/scripts/tests/wasmtime-real.js
find_jco

skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }

# wasmprinter's text per offset, for each core module
for m in fib switch wasi f64; do
	if [ -n "$jco" ]; then
		wasm-objdump -d "$R/$m.wasm" >"$tmp/$m.od"
		"$jco" print "$R/$m.wasm" -o "$tmp/$m.printed" >/dev/null 2>&1 &&
			node "$checker" --printed "$tmp/$m.od" "$tmp/$m.printed" >"$tmp/$m.map" 2>"$tmp/$m.maperr" ||
			{ not_ok "wasmprinter's text of $m.wasm, paired with wasm-objdump's offsets" "$tmp/$m.maperr"; rm -f "$tmp/$m.map"; }
	fi
done
# wasmprinter's function names in the component's core modules ("M F NAME",
# M counting core modules in order, as wasmtime's wasm[M]), demangled by c++filt
if [ -n "$jco" ]; then
	"$jco" print "$R/wasi.component.wasm" -o "$tmp/component.printed" >/dev/null 2>&1
	node -e '
	const t = require("fs").readFileSync(process.argv[1], "utf8").split("\n");
	const str = s => s.startsWith("\"") ? JSON.parse(s) : s;
	let m = -1;
	for (const l of t) {
		let x = l.match(/^\s*\(core module\b.*\(;(\d+);\)/);
		if (x) { m = +x[1]; continue; }
		// $name, or $"#funcN name" (@name "name") where names repeat
		x = l.match(/^\s*\(func \$("(?:[^"\\]|\\.)*"|[^\s()]+)(?: \(@name ("(?:[^"\\]|\\.)*")\))? \(;(\d+);\)/);
		if (x && m >= 0) console.log(m + "\t" + x[3] + "\t" + (x[2] ? JSON.parse(x[2]) : str(x[1])));
	}' "$tmp/component.printed" | c++filt >"$tmp/component.names"
	check "wasmprinter names the functions of the component's adapter (wasm[1]), e.g. 49 clock_time_get" \
		grep -qx "1	49	clock_time_get" "$tmp/component.names"
fi

cases=
for v in 50.0.1 49.0.3; do cases="$cases $v/fib $v/switch $v/wasi $v/component $v/f64"; done
cases="$cases 48.0.2/fib 48.0.2/switch 48.0.2/wasi 48.0.2/component 46.0.1/fib 46.0.1/switch"
for c in $cases; do
	v=${c%/*} p=${c#*/} d=$R/$c
	case $p in component) wasm=$R/wasi.component.wasm map= names=$tmp/component.names ;;
	*) wasm=$R/$p.wasm map=$tmp/$p.map names= ;; esac
	[ -z "$names" ] || [ -f "$names" ] || names=
	clif=$d/clif
	[ -d "$clif" ] || clif=-
	# Put the .cwasm and the dump back where the recording ran (record.sh).
	rec=/tmp/hotblocks-rec/wasmtime-$v-$p
	rm -rf "$rec"
	mkdir -p "$rec/jitdump"
	cp "$d/module.cwasm" "$rec/"
	cp "$d"/jitdump/jit-*.dump "$rec/jitdump/"
	for t in "$d"/reference*/tmpdir; do
		[ -f "$t" ] || continue
		mkdir -p "$(cat "$t")"
		cp "$d/module.cwasm" "$(cat "$t")/"
	done
	for k in jitdump perfmap reference reference-table-skew; do
		[ -f "$d/$k/perf.data" ] || continue
		s=$tmp/$v-$p-$k
		perf --no-pager script -i "$d/$k/perf.data" -F ip,sym,symoff,dso >"$s.perf" 2>/dev/null
		plugin_stream "$d/$k/perf.data" "$s.hbs" 2>/dev/null
		set -- --cwasm "$d/module.cwasm" --wasm "$wasm"
		[ "$clif" = - ] || set -- "$@" --clif "$clif"
		"$POSTPROC" --json --all "$@" "$s.hbs" >"$s.json" 2>"$s.err"
		extra=
		case $k in reference*)
			"$POSTPROC" -p 100 "$@" "$s.hbs" >"$s.txt" 2>>"$s.err"
			extra="$d/$k/hot-blocks.txt $s.txt" ;;
		esac
		pm=-
		[ -n "$map" ] && [ -f "$map" ] && pm=$map
		jd= pmap=
		[ $k = jitdump ] && jd=$(ls "$d"/jitdump/jit-*.dump)
		[ $k = perfmap ] && pmap=$(ls "$d"/perfmap/perf-*.map)
		# shellcheck disable=SC2086
		NAMES=$names JITDUMP=$jd PERFMAP=$pmap node "$checker" "$s.json" "$s.perf" "$d/module.cwasm" "$clif" "$pm" $extra >"$s.out" 2>&1
		# how it ended, for a checker that says nothing (killed: 128 + the signal)
		echo "# the checker's exit status: $?" >>"$s.out"
		for what in samples addrmap clif wasm names reference; do
			if [ $what = names ] && [ $p = component ] && [ -z "$names" ] && grep -q "^names " "$s.out"; then
				skip "$c $k: names" "jco is not installed (wasmprinter names what wasmtime 50 leaves unnamed)"
				continue
			fi
			checker_line "$s.out" $what "$c $k" && continue
			case $what in
			wasm) [ -n "$map" ] && [ "$pm" = - ] && skip "$c $k: [Wasm] cells vs wasmprinter" "jco is not installed (npm install --prefix build/jco @bytecodealliance/jco@1.35.0)" ;;
			reference | names) ;;
			*) not_ok "$c $k: $what (the checker said nothing; $(tail -n 1 "$s.out" | sed 's/^# //'))" "$s.out" ;;
			esac
		done
	done
	# The same code, the same blocks: jit dump code loads and the mapped
	# .cwasm alike end where the code does, before the constants it loads.
	objdump -d --no-show-raw-insn -M intel "$d/module.cwasm" >"$tmp/$v-$p.od"
	# shellcheck disable=SC2046
	node "$checker" --same-blocks "$tmp/$v-$p.od" $(ls "$tmp/$v-$p"-*.json) >"$tmp/$v-$p.same" 2>&1
	line=$(grep '^same-blocks ' "$tmp/$v-$p.same" | head -1)
	grep '^  ' "$tmp/$v-$p.same" >"$tmp/$v-$p.same.detail"
	case $line in
	"same-blocks ok "*) ok "$c: same blocks in every recording: ${line#same-blocks ok }" ;;
	*) not_ok "$c: same blocks in every recording: ${line#same-blocks FAIL }" "$tmp/$v-$p.same" ;;
	esac
	# The 46.0.1 artifacts have the plain address map, the 48.0.2 ones blocks:
	# the same checker decodes either by the engine version; hotblocks must not
	# need to be told.
	# (notes of samples in the wasmtime binary, absent here, are expected, and
	# so are the plugin's of files with samples no symbol covers, e.g. a
	# [vdso] of another kernel than the recording's; should the wasmtime be
	# found (this test's own build-id cache is empty: it is not), its Rust
	# functions of one name in several crates are several codes of that
	# name: notes about the binary too)
	# (a component without DWARF loses nothing: no word about [Source] either)
	check "$c: no warning from hotblocks about the real .cwasm, CLIF or module" \
		sh -c "! grep -h -e warning: -e 'missing CLIF' -e differ -e '\[Source\]' \
			$tmp/$v-$p-*.err | grep -v -e 'samples in code no symbol or .eh_frame entry covers' \
			-e \"^hotblocks: note: '.*' names [0-9]* different codes\" | grep ."
	rm -rf "$rec"
done

# [Source] of the real switch and f64 recordings (switch.wasm and f64.wasm
# have DWARF): every sampled instruction's cell equals llvm-symbolizer's
# answer for its wasm offset (lib.sh, wasm_source_cells). All three
# recordings' sampled offsets.
for c in 50.0.1/switch 50.0.1/f64 49.0.3/switch 49.0.3/f64 48.0.2/switch 46.0.1/switch; do
	v=${c%/*} p=${c#*/}
	wasm_source_cells "$R/$p.wasm" "$tmp/src-$v-$p" \
		"$tmp/$v-$p-jitdump.json" "$tmp/$v-$p-perfmap.json" "$tmp/$v-$p-reference.json"
	n=$(wc -l <"$tmp/src-$v-$p.ours")
	check "$c: the [Source] cells of $n sampled wasm offsets equal llvm-symbolizer's" \
		sh -c "test $n -ge 2 && diff -u $tmp/src-$v-$p.theirs $tmp/src-$v-$p.ours"
done

# A .cwasm that is not what ran is reported, not silently used. The stream of
# 48.0.2/fib's perfmap recording (its .cwasm back in place for the plugin):
d=$R/48.0.2/fib rec=/tmp/hotblocks-rec/wasmtime-48.0.2-fib
mkdir -p "$rec/jitdump" && cp "$d/module.cwasm" "$rec/" && cp "$d"/jitdump/jit-*.dump "$rec/jitdump/"
plugin_stream "$d/perfmap/perf.data" "$tmp/fib.hbs" 2>/dev/null
plugin_stream "$d/jitdump/perf.data" "$tmp/fibj.hbs" 2>/dev/null
rm -rf "$rec"
# one byte of fib's loop changed: .text at file offset 0x1000 (readelf -S), fib
# at 0 (readelf -s), `add eax, esi` at +0x16 (its reference/hot-blocks.txt)
cp "$d/module.cwasm" "$tmp/stale.cwasm"
printf '\220' | dd of="$tmp/stale.cwasm" bs=1 seek=$((0x1000 + 0x16)) conv=notrunc status=none
"$POSTPROC" -p 100 --cwasm "$tmp/stale.cwasm" --wasm "$R/fib.wasm" "$tmp/fib.hbs" >/dev/null 2>"$tmp/stale.err"
check "a .cwasm whose code differs from what ran is reported as stale" \
	grep -q "differ from the .cwasm's code (e.g. wasm\[0\]::function\[0\]::fib)" "$tmp/stale.err"
# another module's .cwasm: the jitdump loads match none of its code; the
# file-backed samples name symbols it does not have
"$POSTPROC" -p 100 --cwasm "$R/48.0.2/switch/module.cwasm" "$tmp/fibj.hbs" >/dev/null 2>"$tmp/other.err"
check "a .cwasm of another module is reported (jitdump): no sampled code matches it" \
	grep -q "no sampled code matches the .cwasm (e.g. fib)" "$tmp/other.err"
"$POSTPROC" -p 100 --cwasm "$R/48.0.2/switch/module.cwasm" "$tmp/fib.hbs" >/dev/null 2>"$tmp/other2.err"
check "a .cwasm of another module is reported (file-backed): fib has no symbol in it" \
	grep -q "have no symbol in .*/48.0.2/switch/module.cwasm (e.g. wasm\[0\]::function\[0\]::fib)" "$tmp/other2.err"

# Up to 49 the reference could not profile the component (it always emits
# CLIF, and --emit-clif panics on the adapter's `wasi:cli/run@0.2.12#run`);
# we can. wasmtime 50 can too (its rows are compared above).
for v in 49.0.3 48.0.2; do
	check "$v/component: wasmtime hot-blocks failed on it (exit status and panic recorded)" \
		sh -c "test \"\$(cat $R/$v/component/reference/exit-status)\" != 0 &&
			grep -q 'panicked at crates/cranelift/src/compiler.rs' $R/$v/component/reference/hot-blocks.err"
	check "$v/component: hotblocks attributes its samples to count_words with [Wasm] cells" \
		grep -q '"wasm": "br_table' "$tmp/$v-component-perfmap.json"
done
check "50.0.1/component: wasmtime hot-blocks profiled it (count_words's br_table block first)" \
	sh -c "test \"\$(cat $R/50.0.1/component/reference/exit-status)\" = 0 &&
		grep -q 'br_table v11, block7' $R/50.0.1/component/reference/hot-blocks.txt"

# The same component with a .debug_info section added to its last core
# module (every earlier byte keeps its offset; the section's body is not
# DWARF, and need not be: a component's DWARF is not read): the [Wasm] cells
# stay as they were, and a note, not a warning, says that [Source] is what
# is missing.
node -e '
const fs = require("fs");
const [src, dst] = process.argv.slice(1);
const b = fs.readFileSync(src);
const uleb = (p) => { let v = 0, s = 0, n = 0; for (;;) { const x = b[p + n++]; v += (x & 0x7f) * 2 ** s; s += 7; if (!(x & 0x80)) return [v, n]; } };
const padded = (v, n) => { const o = []; for (let i = 0; i < n; i++) { o.push((v & 0x7f) | (i < n - 1 ? 0x80 : 0)); v = Math.floor(v / 128); } if (v) throw new Error("size does not fit"); return Buffer.from(o); };
let p = 8, last = null;
while (p < b.length) { const [len, n] = uleb(p + 1); if (b[p] === 1) last = { p, len, n }; p += 1 + n + len; }
const name = Buffer.from(".debug_info");
const body = Buffer.concat([Buffer.from([name.length]), name, Buffer.alloc(16)]);
const sec = Buffer.concat([Buffer.from([0, body.length]), body]);
const end = last.p + 1 + last.n + last.len;
fs.writeFileSync(dst, Buffer.concat([b.subarray(0, last.p + 1), padded(last.len + sec.length, last.n),
	b.subarray(last.p + 1 + last.n, end), sec, b.subarray(end)]));
' "$R/wasi.component.wasm" "$tmp/dwarf.component.wasm"
"$POSTPROC" --json --all --cwasm "$R/48.0.2/component/module.cwasm" --wasm "$tmp/dwarf.component.wasm" \
	"$tmp/48.0.2-component-perfmap.hbs" >"$tmp/dwarf-component.json" 2>"$tmp/dwarf-component.err"
grep -o '"wasm": "[^"]*"' "$tmp/48.0.2-component-perfmap.json" >"$tmp/cells.plain"
grep -o '"wasm": "[^"]*"' "$tmp/dwarf-component.json" >"$tmp/cells.dwarf"
check "48.0.2/component with DWARF: the same [Wasm] cells" \
	sh -c "test -s $tmp/cells.plain && cmp $tmp/cells.plain $tmp/cells.dwarf"
check "48.0.2/component with DWARF: one note that [Source] is not read from a component, no warning" \
	sh -c "! grep -q warning: $tmp/dwarf-component.err &&
		test \"\$(grep -c '^hotblocks: note: .*dwarf.component.wasm is a component: its \[Wasm\] column is shown, but the DWARF of its core modules is not read' $tmp/dwarf-component.err)\" = 1"
echo "1..$tap_n"
