#!/bin/sh
# SPDX-License-Identifier: MIT
# hotblocks on Cranelift's aarch64, riscv64 and s390x code: the real .cwasm
# files and CLIF of test-data/cranelift-targets (wasmtime compile --target),
# with streams that put samples on instructions (scripts/tools/cwasm-stream:
# no machine here runs that code). Per target, checked against independent
# tools:
#  - the committed stream is the one cwasm-stream writes from the .cwasm;
#  - samples, wasm offsets, [CLIF], [Wasm]: scripts/tests/wasmtime-real.js
#    (every sample on its row; the .wasmtime.addrmap decoded by the checker;
#    the lines of the --emit-clif files; wasmprinter's text, jco print);
#  - [Source]: llvm-symbolizer's answer for each sampled wasm offset;
#  - rows and jump tables: scripts/tests/cranelift-targets.js, against
#    llvm-objdump --triple=... on every function of the module: instruction
#    boundaries equal LLVM's, no row inside a table but its entries, every
#    case (riscv64: every entry too) leads a block, with a case edge from the
#    jump's block in hotblocks --dot;
#  - the committed .cwasm is wasmtime 50.0.1's for the target: its
#    .wasmtime.engine section (read with readelf and od) begins with the
#    engine's version "50" and the target triple, and wasmtime-version says
#    so; where a wasmtime 50.0.1 built with every target is at hand
#    (HOTBLOCKS_WASMTIME_ALL_ARCH=.../bin/wasmtime, see the README: no wheel
#    has one, and CI compiles no wasmtime), compiling targets.wasm again
#    gives the committed .cwasm and CLIF byte for byte.
. "$(dirname "$0")/lib.sh"

D=$top/test-data/cranelift-targets
tool=$top/build/tools/cwasm-stream
wasmtime=${HOTBLOCKS_WASMTIME_ALL_ARCH:-}
checker=$top/scripts/tests/wasmtime-real.js
tables=$top/scripts/tests/cranelift-targets.js
objdump=llvm-objdump-14
command -v $objdump >/dev/null 2>&1 || objdump=llvm-objdump
find_jco

skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }

triple_of() {	# what llvm-objdump needs to decode each target as Cranelift emits it
	case $1 in
	aarch64) echo --triple=aarch64 ;;
	riscv64) echo --triple=riscv64 --mattr=+m,+a,+f,+d,+c ;;
	s390x) echo --triple=s390x --mcpu=z15 ;;
	esac
}

pm=-
if [ -n "$jco" ]; then
	wasm-objdump -d "$D/targets.wasm" >"$tmp/targets.od"
	if "$jco" print "$D/targets.wasm" -o "$tmp/targets.printed" >/dev/null 2>&1 &&
		node "$checker" --printed "$tmp/targets.od" "$tmp/targets.printed" >"$tmp/targets.map" 2>"$tmp/targets.maperr"; then
		pm=$tmp/targets.map
	else
		not_ok "wasmprinter's text of targets.wasm, paired with wasm-objdump's offsets" "$tmp/targets.maperr"
	fi
fi

for a in aarch64 riscv64 s390x; do
	td=$D/$a s=$tmp/$a
	"$D/record.sh" stream "$a" "$tool" >"$s.hbs" 2>"$s.tool-err"
	check "$a: the committed stream is what cwasm-stream writes from the .cwasm" cmp "$s.hbs" "$td/stream.hbs"

	set -- --cwasm "$td/module.cwasm" --clif "$td/clif" --wasm "$D/targets.wasm"
	"$POSTPROC" --json --all "$@" "$td/stream.hbs" >"$s.json" 2>"$s.err"
	check "$a: hotblocks reports the stream without a warning or a note" \
		sh -c "test -s $s.json && ! test -s $s.err"
	# perf script -F ip,sym,symoff,dso as perf would print the stream's samples
	awk '$1 == "object" { for (i = 4; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); o[$2, k] = v } }
	     $1 == "sample" { for (n = 0; n < $5; n++) print "0 " o[$2, "name"] "+" $4 " (" o[$2, "dso"] ")" }' \
		"$td/stream.hbs" >"$s.perf"
	node "$checker" "$s.json" "$s.perf" "$td/module.cwasm" "$td/clif" "$pm" >"$s.out" 2>&1
	for what in samples addrmap clif wasm; do
		checker_line "$s.out" $what "$a" && continue
		if [ $what = wasm ] && [ "$pm" = - ]; then
			skip "$a: [Wasm] cells vs wasmprinter" "jco is not installed (scripts/ensure-deps check)"
		else
			not_ok "$a: $what (the checker said nothing)" "$s.out"
		fi
	done

	wasm_source_cells "$D/targets.wasm" "$s-src" "$s.json"
	n=$(wc -l <"$s-src.ours")
	check "$a: the [Source] cells of $n sampled wasm offsets equal llvm-symbolizer's" \
		sh -c "test $n -ge 10 && diff -u $s-src.theirs $s-src.ours"

	# Every function of the module (pad's 40 KB too), sampled as cwasm-stream does.
	"$tool" "$td/module.cwasm" "/tmp/hotblocks-rec/cranelift-$a/module.cwasm" >"$s-all.hbs"
	"$POSTPROC" --json --all "$s-all.hbs" >"$s-all.json" 2>/dev/null
	"$POSTPROC" --all --dot="$s-all.gv" "$s-all.hbs" >/dev/null 2>&1
	# shellcheck disable=SC2046
	$objdump -d -z $(triple_of $a) "$td/module.cwasm" >"$s.lod"
	for k in hot all; do
		j=$s.json g=
		[ $k = all ] && j=$s-all.json g=$s-all.gv
		node "$tables" $a "$j" "$s.lod" $g >"$s-$k.tab" 2>&1
		tap_relay "$s-$k.tab" "$a ($k functions): " ||
			not_ok "$a ($k functions): boundaries and tables (the checker said nothing)" "$s-$k.tab"
	done

	# The engine section: a byte 0, then the version and the target triple,
	# each a length byte and its text.
	off=$(readelf -SW "$td/module.cwasm" | awk '{ for (i = 1; i < NF; i++) if ($i == ".wasmtime.engine") print $(i + 3) }')
	tr=$("$D/record.sh" triple $a)
	want=$(printf '\0\00250%s%s' "$(printf "\\$(printf %o ${#tr})")" "$tr" | od -An -tu1 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
	got=$( { [ -n "$off" ] && dd if="$td/module.cwasm" bs=1 skip=$((0x$off)) count=$((4 + 1 + ${#tr})) 2>/dev/null; } |
		od -An -tu1 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
	check "$a: the committed .cwasm is wasmtime 50's for $tr (.wasmtime.engine), made by wasmtime 50.0.1" sh -c \
		"test '$got' = '$want' && test \"\$(cat '$td/wasmtime-version')\" = 'wasmtime 50.0.1' ||
		{ echo 'engine section: $got; wanted: $want'; cat '$td/wasmtime-version'; exit 1; }"
	if [ -n "$wasmtime" ]; then
		tr=$("$D/record.sh" triple $a)
		rm -rf "$s-live" && mkdir -p "$s-live/clif"
		"$wasmtime" compile --target "$tr" -D address-map=y --emit-clif "$s-live/clif" \
			-o "$s-live.cwasm" "$D/targets.wasm" 2>"$s-live.err"
		{
			cmp "$s-live.cwasm" "$td/module.cwasm"
			for f in "$s-live/clif"/*.clif; do
				b=$(basename "$f")
				if [ -f "$td/clif/$b" ]; then
					cmp "$f" "$td/clif/$b"
				else
					grep -qxF "$(wc -c <"$f") $(sha256sum "$f" | cut -d' ' -f1) $b" "$td/clif-omitted.txt" ||
						echo "$b: neither in clif/ nor in clif-omitted.txt"
				fi
			done
			kept=$(($(ls "$td/clif" | wc -l) + $(wc -l <"$td/clif-omitted.txt")))
			[ "$(ls "$s-live/clif" | wc -l)" = "$kept" ] || echo "$kept CLIF files committed or listed, $(ls "$s-live/clif" | wc -l) written"
		} >"$s-live.diff" 2>&1
		check "$a: $("$wasmtime" --version) ($tr) compiles targets.wasm into the committed .cwasm and CLIF" \
			sh -c "test \"\$('$wasmtime' --version)\" = 'wasmtime 50.0.1' && test -n '$tr' &&
				test -s $s-live.cwasm && ! test -s $s-live.diff || { cat $s-live.err $s-live.diff; exit 1; }"
	fi
done
echo "1..$tap_n"
