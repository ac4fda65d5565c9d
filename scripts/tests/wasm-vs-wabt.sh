#!/bin/sh
# SPDX-License-Identifier: MIT
# The wasm decoder (postproc/annotate/wasm/wasm*.c) against real references:
#  - wasm-objdump -d (Debian wabt): every instruction's offset, opcode and
#    immediates, on modules clang builds here from test-data/wasm/*.c (-O0, -O2,
#    -Os), on test-data/v8-wasm/hot.wasm, on the committed .wasm files wabt can
#    read, and on each core module cut out of the component;
#  - wasmprinter, as jco prints it: the committed expectations
#    (test-data/wasm/*.printed, made by `jco print`) line by line, and, when jco
#    is installed (JCO=path, build/jco, or jco in PATH), jco run again: `jco parse`
#    must give the committed .wasm and `jco print` the committed .printed;
#  - for the committed modules with a faulty name section, the decoder's
#    warning, and wat2wasm's bytes for the one wabt wrote (tags-wabt.wasm).
# The decoder's text comes from `build/tests/postproc-test-wasm --dump`.
# See test-data/wasm/README.md.
. "$(dirname "$0")/lib.sh"

dumper=$top/build/tests/postproc-test-wasm
wd=$top/test-data/wasm

if [ ! -x "$dumper" ]; then
	not_ok "build/tests/postproc-test-wasm is built (make build/tests/postproc-test-wasm)"
	echo "1..$tap_n"
	exit 1
fi

skip() {	# description reason
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# wasm-objdump -d -> "OFFSET<TAB>TEXT", wabt's <name> annotations and the
# locals lines dropped. $2 is added to every offset (a module cut out of a file).
wabt_lines() {	# file [base]
	wasm-objdump -d "$1" | awk -v base="${2:-0}" '
	function hex(s,   v, i) {	# mawk has no strtonum
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^ *[0-9a-f]+: / {
		i = index($0, "|")
		if (!i)
			next
		off = $1; sub(/:$/, "", off)
		t = substr($0, i + 1)
		gsub(/ <[^>]*>/, "", t)
		gsub(/^ +| +$/, "", t)
		gsub(/  +/, " ", t)
		if (t == "" || t ~ /^local\[/)
			next
		# wabt 1.0.32 still has the old names of the relaxed dot products.
		sub(/^i16x8\.dot_i8x16_i7x16_s/, "i16x8.relaxed_dot_i8x16_i7x16_s", t)
		sub(/^i32x4\.dot_i8x16_i7x16_add_s/, "i32x4.relaxed_dot_i8x16_i7x16_add_s", t)
		printf "%06x\t%s\n", hex(off) + base, t
	}'
}

# Our dump (names hidden) rewritten into wasm-objdump's notation: comments
# dropped, memargs as "ALIGN_LOG2 [MEMORY] OFFSET", block types as "i32" or
# "type[N]", i32.const unsigned, shuffles and v128 constants as hex words.
ours_as_wabt() {	# file
	"$dumper" --dump-nonames "$1" | awk -F '\t' '
	function nat(op) {
		if (op ~ /^v128\.(load|store)$/) return 4
		if (op ~ /8x8|16x4|32x2/) return 3
		if (op ~ /^v128\./) {
			if (op ~ /8_/) return 0
			if (op ~ /16_/) return 1
			if (op ~ /32_/) return 2
			return 3
		}
		if (op ~ /notify|wait32/) return 2
		if (op ~ /wait64/) return 3
		if (op ~ /(load|store|rmw)8/) return 0
		if (op ~ /(load|store|rmw)16/) return 1
		if (op ~ /(load|store|rmw)32/) return 2
		if (op ~ /^(i32|f32)/) return 2
		return 3
	}
	function log2(n,   k) { for (k = 0; n > 1; k++) n /= 2; return k }
	{
		t = $2
		if (t == "-")
			t = "end"
		gsub(/ ;; label = @[0-9]+/, "", t)
		gsub(/ \(;@[0-9]+;\)/, "", t)
		gsub(/ \(;=[^;]*;\)/, "", t)
		n = split(t, w, " ")
		op = w[1]
		if (op ~ /^(block|loop|if|try)$/ && n > 1) {
			if (w[2] == "(type")
				t = op " type[" substr(w[3], 1, length(w[3]) - 1) "]"
			else if (w[2] == "(result")
				t = op " " substr(w[3], 1, length(w[3]) - 1)
		} else if (op == "select" && n == 3) {
			t = "select " substr(w[3], 1, length(w[3]) - 1)
		} else if (op ~ /\.(load|store)|\.atomic\.|notify|wait/ && op !~ /^(memory|table)\.(size|grow)/ && op != "atomic.fence") {
			mem = ""; offs = 0; al = nat(op); lane = ""
			for (i = 2; i <= n; i++) {
				if (w[i] ~ /^offset=/) offs = substr(w[i], 8)
				else if (w[i] ~ /^align=/) al = log2(substr(w[i], 7))
				else if (i == 2 && n > 2 && w[3] ~ /^(offset|align)=/) mem = w[i]
				else if (i == 2 && n > 2 && op ~ /_lane$/ && w[3] ~ /^[0-9]+$/) mem = w[i]
				else lane = w[i]
			}
			t = op " " al (mem != "" ? " " mem : "") " " offs (lane != "" ? " " lane : "")
		} else if (op ~ /^memory\.(size|grow)$/ && n == 1) {
			t = op " 0"
		} else if (op ~ /^(call_indirect|return_call_indirect)$/ && w[2] == "(type") {
			t = op " 0 " w[2] " " w[3]
		} else if (op == "i32.const" && w[2] < 0) {
			t = sprintf("i32.const %.0f", w[2] + 4294967296)
		} else if (op == "i8x16.shuffle") {
			t = op
			for (i = 2; i <= 17; i += 4)
				t = t sprintf(" 0x%02x%02x%02x%02x", w[i + 3], w[i + 2], w[i + 1], w[i])
		} else if (op == "v128.const") {
			sub(/ i32x4/, "", t)
		}
		print $1 "\t" t
	}'
}

compare_wabt() {	# description file
	if ! wasm-objdump -d "$2" >/dev/null 2>"$tmp/wabt.err"; then
		not_ok "$1: wasm-objdump reads it" "$tmp/wabt.err"
		return
	fi
	wabt_lines "$2" >"$tmp/wabt.txt"
	if ! ours_as_wabt "$2" >"$tmp/ours.txt" 2>"$tmp/ours.err"; then
		not_ok "$1: decodes" "$tmp/ours.err"
		return
	fi
	n=$(wc -l <"$tmp/wabt.txt")
	if [ "$n" -gt 0 ] && diff -u "$tmp/wabt.txt" "$tmp/ours.txt" >"$tmp/diff"; then
		ok "$1: $n instructions match wasm-objdump (offset, opcode, immediates)"
	else
		[ "$n" -gt 0 ] || echo "wasm-objdump printed no instructions" >"$tmp/diff"
		not_ok "$1: instructions match wasm-objdump" "$tmp/diff"
	fi
}

# The instruction lines of wasmprinter's output, in order: what the reference's
# Wasm column is made of (postproc/FORMATS.md: lines not starting with "(" or ")").
printed_insns() {	# printed-file
	sed 's/^ *//; s/ *$//' "$1" | grep -v -e '^(' -e '^)' -e '^$'
}

compare_printed() {	# description wasm printed
	printed_insns "$3" >"$tmp/want.txt"
	if ! "$dumper" --dump "$2" >"$tmp/dump.txt" 2>"$tmp/ours.err"; then
		not_ok "$1: decodes" "$tmp/ours.err"
		return
	fi
	cut -f2 "$tmp/dump.txt" | grep -vx -- - >"$tmp/ours.txt"
	n=$(wc -l <"$tmp/want.txt")
	if [ "$n" -gt 0 ] && diff -u "$tmp/want.txt" "$tmp/ours.txt" >"$tmp/diff"; then
		ok "$1: $n instruction texts match wasmprinter"
	else
		not_ok "$1: instruction texts match wasmprinter" "$tmp/diff"
	fi
}

# 1. Modules clang builds now from our C sources.
if command -v clang >/dev/null 2>&1 && command -v wasm-ld >/dev/null 2>&1 &&
	command -v wasm-objdump >/dev/null 2>&1; then
	for src in "$wd"/*.c; do
		b=$(basename "$src" .c)
		for o in -O0 -O2 -Os; do
			out=$tmp/$b$o.wasm	# names matched by the jco step below
			if clang --target=wasm32 $o -g -nostdlib -Wl,--no-entry -Wl,--export-all \
				-o "$out" "$src" >"$tmp/cc.err" 2>&1; then
				compare_wabt "clang $o $b.c" "$out"
			else
				not_ok "clang $o $b.c builds" "$tmp/cc.err"
			fi
		done
	done
else
	skip "modules built by clang --target=wasm32" "clang, wasm-ld or wasm-objdump missing"
fi

if command -v wasm-objdump >/dev/null 2>&1; then
	# 2. The module of the V8 recording.
	compare_wabt "test-data/v8-wasm/hot.wasm" "$top/test-data/v8-wasm/hot.wasm"
	# 3. Committed modules made by jco parse that wabt 1.0.32 can read.
	for b in names numeric simd; do
		compare_wabt "test-data/wasm/$b.wasm" "$wd/$b.wasm"
	done
	# 4. The component's core modules, cut out: absolute offsets.
	"$dumper" --modules "$wd/component.wasm" >"$tmp/mods" 2>&1
	"$dumper" --dump-nonames "$wd/component.wasm" >"$tmp/comp.txt" 2>&1
	i=0
	: >"$tmp/cut.txt"
	while read -r off len; do
		dd if="$wd/component.wasm" of="$tmp/mod$i.wasm" bs=1 skip="$off" count="$len" 2>/dev/null
		wabt_lines "$tmp/mod$i.wasm" "$off" >>"$tmp/cut.txt"
		i=$((i + 1))
	done <"$tmp/mods"
	cut -f1 "$tmp/comp.txt" >"$tmp/a"
	cut -f1 "$tmp/cut.txt" >"$tmp/b"
	if [ "$i" = 3 ] && [ -s "$tmp/a" ] && diff -u "$tmp/b" "$tmp/a" >"$tmp/diff"; then
		ok "component.wasm: 3 core modules, offsets absolute (wasm-objdump of each module cut out)"
	else
		echo "modules: $(cat "$tmp/mods")" >>"$tmp/diff"
		not_ok "component.wasm: core module offsets are absolute" "$tmp/diff"
	fi
else
	skip "committed modules against wasm-objdump" "wasm-objdump missing (apt-get install wabt)"
fi

# 5. The committed wasmprinter expectations.
for p in "$wd"/*.printed; do
	b=$(basename "$p" .printed)
	compare_printed "test-data/wasm/$b.printed" "$wd/$b.wasm" "$p"
done

# The committed modules with a faulty name section: the decoder counts the
# fault and says what it was (wasmprinter silently ignores the rest).
name_warning() {	# description file expected-message
	if "$dumper" --dump "$2" >/dev/null 2>"$tmp/warn.txt" && grep -qF "$3" "$tmp/warn.txt"; then
		ok "$1"
	else
		echo "expected a warning with: $3" >>"$tmp/warn.txt"
		not_ok "$1" "$tmp/warn.txt"
	fi
}
name_warning "names-bad-id.wasm: the name subsection id 0x80 is reported at its offset" \
	"$wd/names-bad-id.wasm" "names-bad-id.wasm+0x56: invalid name subsection id 0x80"
name_warning "tags-wabt.wasm: wabt's tag names in subsection 10 are explained" \
	"$wd/tags-wabt.wasm" "tags-wabt.wasm+0x70: name subsection 10 holds tag names in wabt"
# wabt still writes tag names that way (the committed bytes are its output).
if command -v wat2wasm >/dev/null 2>&1; then
	if wat2wasm --enable-exceptions --debug-names "$wd/tags.wat" -o "$tmp/tags-wabt.wasm" \
		>"$tmp/wat2wasm.err" 2>&1; then
		check "wat2wasm --debug-names tags.wat gives the committed tags-wabt.wasm" \
			cmp "$tmp/tags-wabt.wasm" "$wd/tags-wabt.wasm"
	else
		not_ok "wat2wasm tags.wat" "$tmp/wat2wasm.err"
	fi
else
	skip "wat2wasm re-run on test-data/wasm/tags.wat" "wat2wasm missing (apt-get install wabt)"
fi

# 6. jco itself, when installed: same bytes, same printout as committed.
find_jco
if [ -n "$jco" ]; then
	for w in "$wd"/*.wat; do
		b=$(basename "$w" .wat)
		if "$jco" parse "$w" -o "$tmp/$b.wasm" >"$tmp/jco.err" 2>&1 &&
			"$jco" print "$tmp/$b.wasm" -o "$tmp/$b.printed" >>"$tmp/jco.err" 2>&1; then
			check "jco parse $b.wat gives the committed $b.wasm" cmp "$tmp/$b.wasm" "$wd/$b.wasm"
			compare_printed "jco print $b.wasm (live)" "$tmp/$b.wasm" "$tmp/$b.printed"
		else
			not_ok "jco parse/print $b.wat" "$tmp/jco.err"
		fi
	done
	for w in "$tmp"/*-O*.wasm "$top/test-data/v8-wasm/hot.wasm"; do
		[ -f "$w" ] || continue
		b=$(basename "$w" .wasm)
		if "$jco" print "$w" -o "$tmp/$b.printed" >"$tmp/jco.err" 2>&1; then
			compare_printed "jco print $b.wasm (live)" "$w" "$tmp/$b.printed"
		else
			not_ok "jco print $b.wasm" "$tmp/jco.err"
		fi
	done
else
	skip "jco re-run on test-data/wasm/*.wat" "jco not installed (see test-data/wasm/README.md)"
fi

echo "1..$tap_n"
