#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile input to the three wasmtime-side readers of hotblocks: --cwasm (ELF,
# its .symtab and the .wasmtime.addrmap in both encodings), --clif (a directory
# of CLIF text) and --wasm (the WebAssembly binary). The streams are real,
# made here by the plugin: for --cwasm from the real wasmtime 48.0.2 and
# 46.0.1 recordings of test-data/wasmtime-real (their .cwasm files are what is
# corrupted); for --wasm and --clif from test-data/wasmtime/cwasm/perf.data
# (the imitation whose hot.wasm and clif/ they corrupt). Then
#   hotblocks s.hbs --cwasm X --clif Y --wasm Z
# runs with one of X/Y/Z corrupted (the others good). Each case must end in one
# of the documented ways:
#   exit 1, "hotblocks: error: FILE+0xOFF: ..." (the byte offset in hex; for the
#     address map also "FILE: .wasmtime.addrmap+0xOFF: ...", an offset inside
#     the section, is accepted) or "FILE:LINE: ..." (CLIF);
#   exit 0 with a report, where skipping is right (garbage CLIF lines, a
#     malformed name section, ...) with a counted "hotblocks: note:" or
#     "warning:" saying so; valid if odd input (non-minimal LEB128s, 100000
#     nested blocks, a custom section of garbage) simply gives the report;
# never a crash (exit >= 128), a hang (timeout) or silence. Every run is under
# `ulimit -v` and `timeout` (bounded), so a reader that trusted a corrupt count
# with its allocations fails its case ("out of memory" has no offset).
#
# Offsets: the fixture layout is checked first (od) and the test stops if the
# fixtures changed. How each offset was found is written next to it; the tools
# were readelf -hS / -s / -p (the .cwasm files), wasm-objdump -h / -d
# (hot.wasm) and od -Ax -tx1.
. "$(dirname "$0")/lib.sh"
need_private_tmp

W=$top/test-data/wasmtime
LIMIT_KB=400000	# hotblocks needs < 50 MB for these inputs
TIME=10		# seconds per run; each takes milliseconds

bounded() { (ulimit -v $LIMIT_KB; exec timeout -k 2 $TIME "$@"); }
le32() { printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
# patch FILE OFFSET ESCAPES: overwrite bytes in place (offset may be 0x...)
patch() { printf "$3" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc status=none; }
# leb VALUE: its minimal unsigned LEB128, as printf octal escapes
leb() {
	v=$1
	while [ "$v" -ge 128 ]; do printf '\\%03o' $((v & 127 | 128)); v=$((v >> 7)); done
	printf '\\%03o' "$v"
}
# hexat FILE OFFSET COUNT: the bytes as one lowercase hex string
hexat() { od -An -tx1 -v -j $(($2)) -N "$3" "$1" | tr -d ' \n'; }

# ---- the fixtures' layout, as the offsets below assume it ----
layout_ok=true
expect() {	# file offset hex what
	got=$(hexat "$1" "$2" $((${#3} / 2)))
	[ "$got" = "$3" ] || { echo "# $(basename "$1")+$2 ($4): $got, expected $3"; layout_ok=false; }
}
# module.cwasm (the imitation's): the good .cwasm of the --wasm and --clif
# cases, never corrupted itself.
C=$W/module.cwasm
# hot.wasm, wasm-objdump -h / -d: Type section id at 0x8, size 9 at 0x9;
# Function id 0x13, size 0x14, count 5 at 0x15; Export id 0x1b, size 7 at 0x1c;
# Code id 0x24, size LEB b5 81 04 at 0x25 (0x100b5), count 5 at 0x28; func[0]
# (run) body size 0x10 at 0x29, its `call 4` at 0x36; func[1] (fib) `local.get 1`
# at 0x55, `i32.add` at 0x59; func[2] `i32.const` at 0x76 (sleb from 0x77);
# custom "name" section id at 0x100dd, size 0x60 at 0x100de, name length at
# 0x100df, module subsection id 0 at 0x100e4 (size 4 at 0x100e5), function
# subsection id 1 at 0x100ea (size 0x15 at 0x100eb, count at 0x100ec); end of
# file 0x1013f.
H=$W/hot.wasm
expect "$H" 0x0 0061736d010000000109 "header, type section"
expect "$H" 0x13 03060500000001000707010372756e0000 "function and export sections"
expect "$H" 0x24 0ab5810405100020001001 "code section, run's body"
expect "$H" 0x36 1004 "run: call 4"
expect "$H" 0x55 200120026a "fib: local.get 1; local.get 2; i32.add"
expect "$H" 0x76 41a299da9679 "i32.const -1831433054"
expect "$H" 0x100dd 0060046e616d65000403686f740115 "name section"
[ "$(wc -c <"$H")" -eq $((0x1013f)) ] || { echo "# hot.wasm is not 0x1013f bytes"; layout_ok=false; }
F2='wasm[0]--function[2].clif'
# grep -n: the srcloc'd `bxor` lines of function[2]'s CLIF
LN=$(grep -n '^@008e ' "$W/clif/$F2" | cut -d: -f1)
[ "$LN" = 29 ] || { echo "# $F2: @008e is on line '$LN', expected 29"; layout_ok=false; }
if ! $layout_ok; then
	not_ok "the fixtures have the layout this test's offsets assume"
	exit 1
fi
ok "the fixtures have the layout this test's offsets assume"

# ---- the stream: real perf, the plugin, the .cwasm at its recorded path ----
rec=/tmp/hotblocks-rec/wasmtime-cwasm
mkdir -p "$rec" && cp "$W"/cwasm/* "$rec/"
stream=$tmp/s.hbs
# perf maps large files: 4 GB of address space for it, as corrupt-inputs.sh.
(ulimit -v 4000000; exec timeout 60 perf --no-pager script -i "$W/cwasm/perf.data" \
	--dlfilter "$PLUGIN" --dlarg "out=$stream") >/dev/null 2>"$tmp/perf.err"
perf_rc=$?
if [ $perf_rc -ne 0 ] || [ "$(tail -1 "$stream" 2>/dev/null)" != end ] ||
   ! grep -q '^object .* cwasm .*name=wasm\[0\]::function\[2\]$' "$stream"; then
	not_ok "perf script + hotblocks.so make the stream of test-data/wasmtime/cwasm" "$tmp/perf.err"
	exit 1
fi
ok "perf script + hotblocks.so make the stream of test-data/wasmtime/cwasm"

# ---- the case runner ----
# hb NAME ERR_RE NOTE_RE [ARGS...]: run `hotblocks STREAM ARGS...` bounded.
#   exit 1 is right if ERR_RE is not empty and stderr has "hotblocks: error: ERR_RE";
#   exit 0 is right if NOTE_RE is not empty, stdout is a report and stderr
#   (without the recording's expected `-k mono` warning) matches NOTE_RE ("-":
#   anything, for valid input); with $want set, the report must match it too.
# Anything else fails: other exits, a signal (>= 128), the timeout (124/137).
want=
hb() {
	name=$1 err_re=$2 note_re=$3
	shift 3
	bounded "$POSTPROC" "$stream" "$@" >"$tmp/out" 2>"$tmp/err.all"
	rc=$?
	grep -v 'not recorded with `perf record -k mono`' "$tmp/err.all" >"$tmp/err"
	why=
	case $rc in
	0)	if [ -z "$note_re" ]; then
			why="exit 0; expected exit 1 and: hotblocks: error: $err_re"
		elif [ "$note_re" != - ] && ! grep -q "$note_re" "$tmp/err"; then
			why="exit 0 without a note/warning matching: $note_re${err_re:+ (or exit 1 and: hotblocks: error: $err_re)}"
		elif ! grep -q '^Collected ' "$tmp/out"; then
			why="exit 0 without a report"
		elif [ -n "$want" ] && ! grep -q "$want" "$tmp/out"; then
			why="exit 0, but the report lacks: $want"
		fi ;;
	1)	if [ -z "$err_re" ]; then
			why="exit 1; expected exit 0${note_re:+ and a note/warning matching: $note_re}"
		elif ! grep -q "^hotblocks: error: $err_re" "$tmp/err"; then
			why="exit 1; stderr should match: hotblocks: error: $err_re${note_re:+ (or exit 0 and: $note_re)}"
		fi ;;
	124|137) why="no exit within ${TIME}s (hang)" ;;
	*)	if [ $rc -ge 128 ]; then
			why="killed by signal $((rc - 128)) (crash)"
		else
			why="exit $rc"
		fi ;;
	esac
	want=
	if [ -z "$why" ]; then
		ok "$name"
	else
		{ echo "$why"; cat "$tmp/err"; } >"$tmp/why"
		not_ok "$name" "$tmp/why"
	fi
}

good_clif=$W/clif
good_wasm=$H
good_cwasm=$C
want='i32\.xor'
hb "baseline: the good inputs give the report with CLIF and Wasm columns" "" - \
	--cwasm "$good_cwasm" --clif "$good_clif" --wasm "$good_wasm"

# ======================= --wasm =======================
w=$tmp/w.wasm
wcase() {	# name err_re note_re (input in $w)
	hb "wasm: $1" "$2" "$3" --cwasm "$good_cwasm" --clif "$good_clif" --wasm "$w"
}
fresh_w() { cp "$H" "$w"; }
WR='.*/w\.wasm'	# how messages name $w

# Truncations: inside the 8-byte header; inside the type section (its size,
# 9, at 0x9 promises bytes up to 0x13); inside the code section; in the
# middle of the 6-byte `i32.const` at 0x76 (the code section's size, at 0x25,
# is what is found wrong first).
head -c 4 "$H" >"$w"; wcase "cut at 4 bytes (inside the magic/version header)" "$WR+0x[0-7]: " ""
head -c 7 "$H" >"$w"; wcase "cut at 7 bytes (inside the version)" "$WR+0x[0-7]: " ""
head -c 12 "$H" >"$w"; wcase "cut at 12 bytes (inside the type section)" "$WR+0x9: " ""
head -c $((0x30)) "$H" >"$w"; wcase "cut at 0x30 (inside the code section)" "$WR+0x25: " ""
head -c $((0x79)) "$H" >"$w"; wcase "cut at 0x79 (mid-instruction: i32.const at 0x76)" "$WR+0x25: " ""
: >"$w"; wcase "an empty file" "$WR+0x0: " ""
# A body cut mid-instruction: run's body size 0x10 at 0x29 made 0x0d ends the
# body right after the `call` opcode at 0x36; its function index (0x37) is gone.
fresh_w; patch "$w" 0x29 '\015'
wcase "function body cut mid-instruction (call without its index)" "$WR+0x37: " ""
fresh_w; patch "$w" 1 'b'
wcase "wrong magic" "$WR+0x0: .*magic" ""
fresh_w; patch "$w" 4 '\002'
wcase "binary version 2" "$WR+0x4: .*version" ""
# The name section's size 0x60 at 0x100de made 0x7f: 0x100df + 0x7f > 0x1013f.
fresh_w; patch "$w" 0x100de '\177'
wcase "section size past the end of the file" "$WR+0x100de: " ""
# The code section size LEB at 0x25 (3 bytes) overwritten:
fresh_w; patch "$w" 0x25 '\200\200\200\200\200\001'
wcase "LEB128 with 6 bytes (5 continuation bytes) for a u32" "$WR+0x25: .*LEB" ""
fresh_w; patch "$w" 0x25 '\377\377\377\377\037'
wcase "LEB128 value over 2^32 (0x1ffffffff)" "$WR+0x25: .*LEB" ""
fresh_w; patch "$w" 0x25 '\377\377\377\377\017'
wcase "LEB128 0xffffffff as a section size" "$WR+0x25: " ""
# The i32.const immediate at 0x77: 5 bytes whose last has value bits past 32.
fresh_w; patch "$w" 0x77 '\377\377\377\377\017'
wcase "signed LEB128 immediate out of the i32 range" "$WR+0x77: .*LEB" ""
# fib's `local.get 1` (0x55) made 0xfc + a sub-opcode LEB that overflows.
fresh_w; patch "$w" 0x55 '\374\377\377\377\377\177'
wcase "prefixed sub-opcode LEB128 overflow" "$WR+0x5[56]: .*LEB" ""
# Over-long (non-minimal) LEB128s are valid: the export section (0x1b..0x23,
# `07 07 01 03 "run" 00 00`) rewritten in the same 9 bytes with a 4-byte size
# LEB and an empty export name: `07 84 80 80 00 01 00 00 00`; offsets keep.
fresh_w; patch "$w" 0x1c '\204\200\200\000\001\000\000\000'
want='i32\.xor'; wcase "non-minimal LEB128s (4-byte section size) are accepted" "" -
# A generated module whose every size and count is a 5-byte LEB128 (valid);
# then the same with a 6-byte one, and with a 5th byte past 32 bits.
printf '\000asm\001\000\000\000\001\204\200\200\200\000\001\140\000\000\003\202\200\200\200\000\001\000\012\204\200\200\200\000\001\002\000\013' >"$w"
wcase "5-byte LEB128s everywhere (generated module) are accepted" "" -
printf '\000asm\001\000\000\000\001\204\200\200\200\200\000\001\140\000\000' >"$w"
wcase "6-byte LEB128 section size (generated module)" "$WR+0x9: .*LEB" ""
printf '\000asm\001\000\000\000\001\204\200\200\200\020\001\140\000\000' >"$w"
wcase "5-byte LEB128 section size with bit 32 set (generated module)" "$WR+0x9: .*LEB" ""
# fib's i32.add at 0x59 made 0x27, an opcode no proposal assigns.
fresh_w; patch "$w" 0x59 '\047'
wcase "unknown opcode 0x27 in a function body" "$WR+0x59: .*opcode" ""
fresh_w; patch "$w" 0x55 '\374\177'
wcase "unknown prefixed sub-opcode 0xfc 0x7f" "$WR+0x55: .*opcode" ""
# 100000 nested `block`s (02 40) and their `end`s (0b) in one body; the
# sizes are minimal LEBs computed here (the module validates with wabt).
N=100000
body=$((1 + 2 * N + N + 1))	# locals count, blocks, ends, the function's end
bl=$(leb $body)
sec=$((1 + $(printf "$bl" | wc -c) + body))
{
	printf '\000asm\001\000\000\000\001\004\001\140\000\000\003\002\001\000\012'
	printf "$(leb $sec)\\001$bl\\000"
	awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) printf "\002\100"; for (i = 0; i <= n; i++) printf "\013" }'
} >"$w"
wcase "100000 nested blocks (valid)" "" -
# A section id no proposal assigns (32), appended after the name section at
# 0x1013f. wasmparser and wabt refuse the module ("invalid section code"); a
# reader may also skip it, but then must say so.
fresh_w; printf '\040\003abc' >>"$w"
wcase "unknown section id 32" "$WR+0x1013f: " "\(note\|warning\): .*w\.wasm.*section"
# Custom sections are opaque: garbage in one is nobody's error.
fresh_w; printf '\000\005\003foo\377' >>"$w"
want='i32\.xor'; wcase "a custom section \"foo\" of garbage (skipped)" "" -
# The name section's name length (0x100df) made 0x7f: past its section.
fresh_w; patch "$w" 0x100df '\177'
wcase "custom section name longer than its section" "$WR+0x100[de][0-9a-f]: " ""
# Malformed name sections: skipped, counted (wasm.h; wasmprinter does the same).
fresh_w; patch "$w" 0x100e5 '\177'
want='i32\.xor'; wcase "malformed name section: module subsection past its section (counted)" \
	"" "\(note\|warning\): .*w\.wasm.*name\|\(note\|warning\): .*name.*w\.wasm"
fresh_w; patch "$w" 0x100ec '\377\377\377\377\177'
want='i32\.xor'; wcase "malformed name section: function name count LEB overflow (counted)" \
	"" "\(note\|warning\): .*w\.wasm.*name\|\(note\|warning\): .*name.*w\.wasm"
# Function and code section counts that disagree. The code count at 0x28 made
# 4 leaves a fifth body as trailing data; made 6, a body is missing.
fresh_w; patch "$w" 0x28 '\004'
wcase "code section count 4 < its 5 bodies" "$WR+0x[0-9a-f]*: " ""
fresh_w; patch "$w" 0x28 '\006'
wcase "code section count 6 > its 5 bodies" "$WR+0x[0-9a-f]*: " ""
# A generated, otherwise valid module declaring 2 functions (function section
# at 0xe) but with 1 body (code section at 0x13): wasm-validate says "function
# signature count != function body count".
printf '\000asm\001\000\000\000\001\004\001\140\000\000\003\003\002\000\000\012\004\001\002\000\013' >"$w"
wcase "function section count 2, code section count 1" "$WR+0x[0-9a-f]*: " ""
wcase_missing() { hb "wasm: $1" "$2" "$3" --cwasm "$good_cwasm" --wasm "$4"; }
wcase_missing "a file that does not exist" ".*/nonexistent\.wasm: " "" "$tmp/nonexistent.wasm"
# A pipe (as from `--wasm <(zcat m.wasm.gz)`): read it, or refuse it by name.
rm -f "$tmp/pipe.wasm"; mkfifo "$tmp/pipe.wasm"
cat "$H" >"$tmp/pipe.wasm" 2>/dev/null &
writer=$!
want='i32\.xor'
wcase_missing "a pipe with the module (read to its end, or refused as not a regular file)" \
	".*/pipe\.wasm: .*\(regular\|pipe\|FIFO\|fifo\)" - "$tmp/pipe.wasm"
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null

# ======================= --cwasm =======================
# On the real wasmtime's artifacts (test-data/wasmtime-real): 48.0.2's and
# 46.0.1's .cwasm of fib.wasm (block and plain address maps) and streams of
# their perfmap recordings, made here with the plugin (the .cwasm put back at
# the recorded path). Offsets from readelf -hS / -s / -p .shstrtab and od; the
# layout is checked first. Both files: e_shoff 0x3290 (12944), 14 headers of
# 64 bytes (section k's header at 0x3290 + 64k), .wasmtime.engine [1] at 0x40,
# .text [3] at 0x1000 (0x1000 bytes), .eh_frame [4] at 0x2000,
# .wasmtime.addrmap [5] at 0x20ec, .symtab [11] at 0x30b0 (6 x 24 bytes),
# .shstrtab [13] at 0x31e5 (".wasmtime.addrmap" at +0x2c, so its "addrmap"
# at 0x321b); 13 address-map entries (0x26 bytes in blocks, 0x6c plain).
RW=$top/test-data/wasmtime-real
C=$RW/48.0.2/fib/module.cwasm
V=$RW/46.0.1/fib/module.cwasm
layout_ok=true
for f in "$C" "$V"; do
	expect "$f" 0x28 90320000 "e_shoff"
	expect "$f" $((0x3290 + 64 * 3 + 0x18)) 00100000000000000010000000000000 ".text sh_offset, sh_size"
	expect "$f" $((0x3290 + 64 * 11 + 0x18)) b0300000000000009000000000000000 ".symtab sh_offset, sh_size"
	expect "$f" 0x3211 2e7761736d74696d652e616464726d617000 ".shstrtab: .wasmtime.addrmap"
	# symbol 1: wasm[0]::function[0]::fib, value 0, size 43, in section 3
	expect "$f" $((0x30b0 + 24 + 6)) 030000000000000000002b00000000000000 "symbol 1 (fib)"
done
expect "$C" 0x40 00023438 ".wasmtime.engine: format 0, length 2, \"48\""
expect "$C" $((0x3290 + 64 * 5 + 0x18)) ec200000000000002600000000000000 ".wasmtime.addrmap sh_offset, sh_size"
# E = 13, B = 1, first_offset 0, block_pos 0; bodies from +0x10: token 01
# (entry 0, none), token 08 (entry 1 at +4) and its absolute position uleb 29
expect "$C" 0x20ec 0d00000001000000000000000000000001082904 "addrmap block header"
expect "$V" 0x40 00023436 ".wasmtime.engine: format 0, length 2, \"46\""
expect "$V" $((0x3290 + 64 * 5 + 0x18)) ec200000000000006c00000000000000 ".wasmtime.addrmap sh_offset, sh_size"
# N = 13, text offsets 0, 4, 6, 0xb, ...
expect "$V" 0x20ec 0d0000000000000004000000060000000b "addrmap plain header"
if $layout_ok; then ok "the real .cwasm files have the layout these offsets assume"
else not_ok "the real .cwasm files have the layout these offsets assume"; fi

real_stream() {	# version out
	rec=/tmp/hotblocks-rec/wasmtime-$1-fib
	mkdir -p "$rec" && cp "$RW/$1/fib/module.cwasm" "$rec/"
	(ulimit -v 4000000; exec timeout 60 perf --no-pager script -i "$RW/$1/fib/perfmap/perf.data" \
		--dlfilter "$PLUGIN" --dlarg "out=$2") >/dev/null 2>"$tmp/perf.err"
	rm -rf "$rec"
	grep -q '^object .* cwasm .*name=wasm\[0\]::function\[0\]::fib$' "$2"
}
for v in 48.0.2 46.0.1; do
	if real_stream $v "$tmp/s${v%%.*}.hbs"; then ok "perf script + hotblocks.so make the stream of $v/fib/perfmap"
	else not_ok "perf script + hotblocks.so make the stream of $v/fib/perfmap" "$tmp/perf.err"; fi
done
stream=$tmp/s48.hbs
c=$tmp/c.cwasm
ccase() {	# name err_re note_re (input in $c)
	hb "cwasm: $1" "$2" "$3" --cwasm "$c" --clif "$RW/48.0.2/fib/clif" --wasm "$RW/fib.wasm"
}
fresh_c() { cp "${1:-$C}" "$c"; }
CR='.*/c\.cwasm'
# am_re REL: an address map error at section offset REL (0x20ec + REL in the
# file); REL may be the pattern 0x[0-9a-f]*.
am_re() {
	case $1 in
	*'['*) abs='2[0-9a-f]*' ;;
	*) abs=$(printf %x $((0x20ec + $1))) ;;
	esac
	echo "$CR\\(: \\.wasmtime\\.addrmap+$1\\|+0x$abs\\): "
}
# shdr K FIELD: file offset of field FIELD of section header K
shdr() { echo $((0x3290 + 64 * $1 + $2)); }

want='br_if \$break'
fresh_c; ccase "baseline: the real .cwasm gives the report with CLIF and Wasm columns" "" -
head -c 4 "$C" >"$c"; ccase "cut at 4 bytes (inside e_ident)" "$CR+0x[0-9a-f]*: " ""
head -c 16 "$C" >"$c"; ccase "cut at 16 bytes (e_ident only)" "$CR+0x[0-9a-f]*: " ""
head -c 64 "$C" >"$c"; ccase "cut at 64 bytes (the ELF header only)" "$CR+0x28: .*section header" ""
head -c 13000 "$C" >"$c"; ccase "cut at 13000 (mid section header table, 0x3290..0x3610)" "$CR+0x28: " ""
fresh_c; patch "$c" 4 '\001'; ccase "ELFCLASS32" "$CR+0x4: .*class" ""
fresh_c; patch "$c" 4 '\003'; ccase "EI_CLASS 3 (invalid)" "$CR+0x[04]: " ""
# EI_DATA made MSB: every field is read byte-swapped (e_type 0x0100 first).
fresh_c; patch "$c" 5 '\002'; ccase "big-endian EI_DATA on a little-endian file" "$CR+0x[0-9a-f]*: " ""
fresh_c; patch "$c" 7 '\000'; ccase "EI_OSABI 0 (not wasmtime's 200)" "$CR+0x7: .*OSABI" ""
fresh_c; patch "$c" 0x28 "$(le32 0x100000)"; ccase "e_shoff past the end of the file" "$CR+0x28: " ""
# e_shstrndx (0x3e) 255 of 14 sections: no section has a name.
fresh_c; patch "$c" 0x3e '\377\000'; ccase "e_shstrndx out of range" "$CR+0x[0-9a-f]*: " ""
# .text's sh_size (header 3, +0x20) lies:
fresh_c; patch "$c" "$(shdr 3 0x20)" "$(le32 0x100000)"
ccase ".text size past the end of the file" "$CR+0x3350: .*\.text" ""
fresh_c; patch "$c" "$(shdr 3 0x20)" "$(le32 0x100)"
want='br_if \$break'; ccase ".text size 0x100 (the trampolines past it: counted)" \
	"$CR+0x[0-9a-f]*: .*symbol" "\(note\|warning\): .*symbol"
# Symbol 1 (fib, the hot one) at 0x30b0 + 24: st_value at +8, st_size at +16,
# st_shndx at +6.
fresh_c; patch "$c" $((0x30b0 + 24 + 8)) "$(le32 0x7fff0000)"
ccase "symbol value far outside .text (counted)" "$CR+0x[0-9a-f]*: .*symbol" "\(note\|warning\): .*symbol"
fresh_c; patch "$c" $((0x30b0 + 24 + 8)) "$(le32 0xff0)"
ccase "symbol running past the end of .text (counted)" "$CR+0x[0-9a-f]*: .*symbol" "\(note\|warning\): .*symbol"
fresh_c; patch "$c" $((0x30b0 + 24 + 6)) '\005\000'
ccase "function symbol in .wasmtime.addrmap, not .text (counted)" "$CR+0x[0-9a-f]*: .*symbol" "\(note\|warning\): .*symbol"
# .symtab's header is section 11: sh_type +4, sh_offset +0x18, sh_size +0x20.
fresh_c; patch "$c" "$(shdr 11 0x18)" "$(le32 0x100000)"
ccase ".symtab past the end of the file" "$CR+0x3550: " ""
fresh_c; patch "$c" "$(shdr 11 0x20)" "$(le32 0xa9)"
ccase ".symtab size 0xa9, not a multiple of 24" "$CR+0x[0-9a-f]*: " ""
fresh_c; patch "$c" "$(shdr 11 4)" '\001'
ccase "no symbol table (.symtab made SHT_PROGBITS: -D symbols=n is unsupported)" \
	"$CR.*\(symbol\|symtab\)" "\(note\|warning\): .*\(symbol\|symtab\)"
# No address map: the "a" of its "addrmap" in .shstrtab made "q".
fresh_c; patch "$c" 0x321b 'q'
ccase "no .wasmtime.addrmap (mentions -D address-map)" "$CR: .*-D address-map" ""
fresh_c; patch "$c" "$(shdr 5 4)" '\010'
ccase ".wasmtime.addrmap SHT_NOBITS" "$CR+0x33d0: " ""
fresh_c; patch "$c" "$(shdr 5 0x20)" "$(le32 0x1000000)"
ccase ".wasmtime.addrmap size past the end of the file" "$CR+0x33d0: " ""

# The block encoding (48.0.2): E at +0, B at +4, first_offset at +8,
# block_pos at +0xc, bodies from +0x10 (0x16 bytes).
fresh_c; patch "$c" "$(shdr 5 0x20)" "$(le32 6)"
ccase "block map truncated to 6 bytes (inside the header)" "$(am_re 0x4)" ""
fresh_c; patch "$c" "$(shdr 5 0x20)" "$(le32 0x1a)"
ccase "block map truncated to 0x1a bytes (inside the bodies)" "$(am_re 0x[0-9a-f]*)" ""
fresh_c; patch "$c" $((0x20ec + 0xc)) "$(le32 0xff)"
ccase "block_pos past the end of the bodies" "$(am_re 0xc)" ""
fresh_c; patch "$c" 0x20ec "$(le32 14)"
ccase "entry count 14 > the 13 encoded" "$(am_re 0x26)" ""
fresh_c; patch "$c" 0x20ec "$(le32 129)"
ccase "entry count 129 needs 2 blocks, the index has 1" "$(am_re 0x4)" ""
fresh_c; patch "$c" 0x20ec "$(le32 0xffffff80)"; patch "$c" 0x20f0 "$(le32 0x1ffffff)"
ccase "entry count near 2^32 with its block count (memory stays bounded)" "$(am_re 0x4)" ""
# 12 < 13: the 13th entry's bytes are left over after the last block, which
# wasmtime never writes; only the decoder can see it.
fresh_c; patch "$c" 0x20ec "$(le32 12)"
ccase "entry count 12 < the 13 encoded (bytes left after the last block)" \
	"$(am_re 0x[0-9a-f]*)" "\(note\|warning\): .*addrmap"
fresh_c; patch "$c" $((0x20ec + 0x10)) '\200\200\200\200\200\200\200\200\200\200\001'
ccase "uleb128 token over 64 bits" "$(am_re 0x10)" ""
# entry 1: token at +0x11, its absolute position uleb at +0x12
fresh_c; patch "$c" $((0x20ec + 0x12)) '\377\377\377\377\037'
ccase "position over 32 bits" "$(am_re 0x12)" ""
fresh_c; patch "$c" $((0x20ec + 0x11)) '\377\377\377\377\077'
ccase "text offset delta overflowing 32 bits" "$(am_re 0x11)" ""

# The plain encoding (46.0.1, its own stream): N at +0, text_offset[] from +4,
# file_pos[] from +4 + 4N; 0x6c = 4 + 8 * 13 bytes.
stream=$tmp/s46.hbs
fresh_c "$V"; patch "$c" 0x20ec "$(le32 14)"
ccase "plain map: entry count 14, the section holds 13" "$(am_re 0x0)" ""
fresh_c "$V"; patch "$c" 0x20ec "$(le32 0x1fffffff)"
ccase "plain map: entry count 2^29-1 (memory stays bounded)" "$(am_re 0x0)" ""
fresh_c "$V"; patch "$c" "$(shdr 5 0x20)" "$(le32 0x40)"
ccase "plain map truncated to 0x40 bytes" "$(am_re 0x0)" ""
fresh_c "$V"; patch "$c" $((0x20ec + 0xc)) "$(le32 0)"
ccase "plain map: text offsets decreasing (entry 2)" "$(am_re 0xc)" ""
want='br_if \$break'; fresh_c "$V"; ccase "baseline: the real 46.0.1 .cwasm (plain map) gives the report" "" -
stream=$tmp/s48.hbs

# .wasmtime.engine (0x40) only breaks ties between the encodings: garbage
# costs nothing here, the map must still be read right.
fresh_c; patch "$c" 0x40 '\377\377\377\377'
want='br_if \$break'; ccase ".wasmtime.engine garbage (map still read)" "" -
fresh_c; patch "$c" "$(shdr 1 0x20)" "$(le32 4)"; patch "$c" 0x40 '\000\377'
want='br_if \$break'; ccase ".wasmtime.engine version length past its section" "" -
fresh_c; patch "$c" 0x40 '\000\00246'
want='br_if \$break'; ccase ".wasmtime.engine \"46\" on a block map (structure decides)" "" -
fresh_c; patch "$c" "$(shdr 1 0x20)" "$(le32 0x1000000)"
want='br_if \$break'; ccase ".wasmtime.engine size past the end of the file (map still read)" "" -
hb "cwasm: a file that does not exist" ".*/nonexistent\.cwasm: " "" --cwasm "$tmp/nonexistent.cwasm"
mkdir -p "$tmp/dir.cwasm"
hb "cwasm: a directory" ".*/dir\.cwasm: .*\(directory\|regular\)" "" --cwasm "$tmp/dir.cwasm"
stream=$tmp/s.hbs

# ======================= --clif =======================
cl=$tmp/clif
fresh_cl() { rm -rf "$cl"; mkdir "$cl"; cp "$W"/clif/*.clif "$cl/"; }
clcase() {	# name err_re note_re (directory $cl)
	hb "clif: $1" "$2" "$3" --cwasm "$good_cwasm" --clif "$cl" --wasm "$good_wasm"
}
# replace_line FILE LINE ESCAPES: line LINE of FILE becomes printf ESCAPES
replace_line() {
	{ head -n $(($2 - 1)) "$1"; printf "$3\n"; tail -n +$(($2 + 1)) "$1"; } >"$1.new" && mv "$1.new" "$1"
}
F2R='wasm\[0\]--function\[2\]\.clif'
# function[2]'s file without its first line: not identified, its function
# has no CLIF (function[2] is the block shown).
fresh_cl; tail -n +2 "$W/clif/$F2" >"$cl/$F2"
clcase "a file without the header line (skipped, counted)" "" "note: .*CLIF"
# A stray file (no header) next to the real ones must be counted, not ignored.
fresh_cl; printf 'these files came from wasmtime compile --emit-clif\n' >"$cl/README"
want='bxor'; clcase "a stray non-CLIF file (skipped, counted)" "" \
	"\(note\|warning\): .*\(README\|not a CLIF\|skipped\|unidentified\)"
# Line 29 is `@008e  v12 = bxor.i32 v9, v29` (grep -n above).
fresh_cl; replace_line "$cl/$F2" "$LN" '@zz8e                               v12 = bxor.i32 v9, v29'
clcase "srcloc not hex (@zz8e) (skipped, counted with file:line)" "" "\(note\|warning\): .*$F2R:$LN"
fresh_cl; replace_line "$cl/$F2" "$LN" '@1000000008e                        v12 = bxor.i32 v9, v29'
clcase "srcloc over 32 bits (@1000000008e) (skipped, counted with file:line)" "" "\(note\|warning\): .*$F2R:$LN"
fresh_cl; replace_line "$cl/$F2" "$LN" '@008e\000                              v12 = bxor.i32 v9, v29'
clcase "a NUL in a line (skipped, counted with file:line)" "" "\(note\|warning\): .*$F2R:$LN"
# A 10 MB line carrying a srcloc: its text joins the cell of 0x8e.
fresh_cl; { printf '@008e                               '; head -c 10000000 /dev/zero | tr '\0' x; echo; } >>"$cl/$F2"
want='bxor'; clcase "a 10 MB line (bounded, report intact)" "" -
# Directory entries that are no files, named like CLIF files: never opened (a
# FIFO nobody writes would block), never fatal.
fresh_cl; mkfifo "$cl/wasm[0]--function[9].clif"; mkdir "$cl/wasm[0]--function[8].clif"
want='bxor'; clcase "a FIFO and a subdirectory among the files (skipped, no hang)" "" -
fresh_cl; cp "$W/clif/$F2" "$cl/zz-copy.clif"
want='bxor'; clcase "the same function in two files (counted)" "" "\(note\|warning\): .*\(again\|twice\|duplicate\)"
rm -rf "$cl"; mkdir "$cl"
clcase "an empty directory (noted)" "" "note: .*CLIF"
hb "clif: a directory that does not exist (named)" ".*/nonexistent: " "" \
	--cwasm "$good_cwasm" --clif "$tmp/nonexistent" --wasm "$good_wasm"
hb "clif: a regular file instead of a directory (named)" ".*/hot\.wasm: " "" \
	--cwasm "$good_cwasm" --clif "$H" --wasm "$good_wasm"

echo "1..$tap_n"
