#!/bin/sh
# SPDX-License-Identifier: MIT
# postproc/annotate/dwarf/srcmap.c against the reference tools, address by address, on code
# built now from test-data/srcline/ (README.md there): a wasm module (clang
# --target=wasm32 -g -O2, DWARF 4 and 5) against llvm-symbolizer and
# llvm-dwarfdump --lookup; native code (gcc and clang -g -O2, executable and
# DSO, with compressed DWARF too) against llvm-symbolizer and binutils
# addr2line -f -i; libc through its separate debug file; and V8's jitdump DEBUG_INFO addresses against objdump's
# instruction starts on a fresh node --perf-prof run. Lookups go through the
# unit test binary's CLI (--wasm FILE OFF... | --elf FILE ADDR... | --jitdump
# FILE DIR); T=PROGRAM runs another one, e.g. a script exec'ing it under valgrind.
. "$(dirname "$0")/lib.sh"

src=$top/test-data/srcline
T=${T:-$top/build/tests/postproc-test-srcmap}
SYMBOLIZER=llvm-symbolizer-14
DWARFDUMP=llvm-dwarfdump-14

for c in "$T" clang gcc addr2line objdump wasm-objdump $SYMBOLIZER $DWARFDUMP; do
	if ! command -v "$c" >/dev/null 2>&1; then
		not_ok "$c is missing (make check builds the test; apt-get install llvm-14 wabt binutils clang lld)"
		exit 0
	fi
done

# norm_tool FILE ADDR...: a symbolizer's -a -f -i output (address line, then
# function / file:line[:col] pairs) as "ADDR FRAME FUNC FILE LINE COL" lines,
# records matched to the ADDR arguments by order. No column: "-".
norm_tool() {
	out=$1; shift
	awk -v list="$*" '
		BEGIN { n = split(list, addr, " "); k = 0 }
		/^0x[0-9a-fA-F]+$/ { k++; f = 0; next }
		/^$/ { next }
		{
			if (f % 2 == 0) { fn = $0; f++; next }
			loc = $0
			sub(/ \(discriminator [0-9]+\)$/, "", loc)
			m = split(loc, p, ":")
			if (m >= 3 && p[m] ~ /^[0-9]+$/ && p[m - 1] ~ /^[0-9]+$/) {
				col = p[m]; line = p[m - 1]; file = p[1]
				for (i = 2; i <= m - 2; i++) file = file ":" p[i]
			} else {
				col = "-"; line = p[m]; file = p[1]
				for (i = 2; i <= m - 1; i++) file = file ":" p[i]
			}
			if (line == "?") line = 0
			print addr[k], (f - 1) / 2, fn, file, line, col
			f++
		}' "$out"
}

# norm_ours FILE [nocol]: our CLI's lines, "-" frames as the tools print an unknown address.
norm_ours() {
	awk -v nocol="${2:-}" '
		/^#/ { next }
		{
			if ($2 == "-") $2 = 0
			if (nocol != "") $6 = "-"
			print
		}' "$1"
}

# compare NAME OURS THEIRS: equal frame by frame, or the differences.
compare() {
	n_addr=$(cut -d' ' -f1 "$2" | sort -u | wc -l)
	if diff "$3" "$2" >"$tmp/diff"; then
		ok "$1 ($n_addr addresses)"
	else
		echo "ours vs theirs (< theirs, > ours):" >"$tmp/why"
		cat "$tmp/diff" >>"$tmp/why"
		not_ok "$1 ($n_addr addresses)" "$tmp/why"
	fi
}

# deep FILE: addresses with at least 3 frames (two inlined levels), so the
# comparisons are known to cover inlining.
deep() { awk '$2 == 2 { n++ } END { print n + 0 }' "$1"; }

# ---- WebAssembly ----

wasm_case() {	# tag, extra clang flags
	tag=$1; shift
	w=$tmp/inl-$tag.wasm
	if ! clang --target=wasm32 -g -O2 "$@" -nostdlib -Wl,--no-entry -Wl,--export-all \
		-o "$w" "$src/inl.c" "$src/other.c" 2>"$tmp/cc.err"; then
		not_ok "wasm $tag: clang builds the module" "$tmp/cc.err"
		return
	fi

	# The convention: DWARF addresses are Code-payload offsets (srcmap.h).
	cs=$(wasm-objdump -h "$w" | awk '$1 == "Code" { sub(/start=/, "", $2); print $2 }')
	"$T" --wasm "$w" >"$tmp/cs" 2>&1
	check "wasm $tag: our Code payload start is wasm-objdump's ($cs)" \
		grep -qx "# code-start $(printf '0x%x' "$cs")" "$tmp/cs"
	wasm-objdump -d "$w" | awk '/^[0-9a-f]+ func\[[0-9]+\] </ {
		name = $3; gsub(/[<>:]/, "", name); print name, "0x" $1 }' | sort >"$tmp/funcs"
	# mawk reads no hex: the shell converts.
	awk '{ print $1, $2 }' "$tmp/funcs" | while read -r nm off; do
		printf '%s %d\n' "$nm" "$off"
	done | sort >"$tmp/funcs.dec"
	$DWARFDUMP --debug-info "$w" | awk '
		/DW_TAG/ { s = ($2 == "DW_TAG_subprogram"); lo = ""; nm = "" }
		s && /DW_AT_low_pc/ { lo = $2; gsub(/[()]/, "", lo) }
		s && /DW_AT_name/ { nm = $2; gsub(/[()"]/, "", nm) }
		s && lo != "" && nm != "" { print nm, lo; s = 0 }' | while read -r nm lo; do
		printf '%s %d\n' "$nm" $((lo + cs))
	done | sort >"$tmp/lowpc.dec"
	check "wasm $tag: every function's DW_AT_low_pc + Code start = its wasm-objdump offset" \
		sh -c "test -s '$tmp/lowpc.dec' && join '$tmp/lowpc.dec' '$tmp/funcs.dec' |
			awk '\$2 != \$3 { bad = 1; print } END { exit bad }'"

	# Every instruction of every function, and each function's first byte.
	offs=$(wasm-objdump -d "$w" | awk '
		/^ [0-9a-f]+:/ { o = $1; sub(/:/, "", o); print o }
		/^[0-9a-f]+ func\[/ { print $1 }' | while read -r h; do printf '0x%x\n' "0x$h"; done |
		sort -u | tr '\n' ' ')
	codes=
	for o in $offs; do codes="$codes $(printf '0x%x' $((o - cs)))"; done

	"$T" --wasm "$w" $offs >"$tmp/ours.raw" 2>"$tmp/ours.err" || {
		not_ok "wasm $tag: our lookups run" "$tmp/ours.err"; return; }
	norm_ours "$tmp/ours.raw" >"$tmp/ours"
	$SYMBOLIZER --obj="$w" -a -f -i $codes >"$tmp/sym.raw" 2>/dev/null
	norm_tool "$tmp/sym.raw" $offs >"$tmp/sym"
	compare "wasm $tag: frames (function file:line:col, inlined) equal llvm-symbolizer's" \
		"$tmp/ours" "$tmp/sym"
	check "wasm $tag: some addresses are two inlined levels deep" test "$(deep "$tmp/ours")" -gt 0

	# llvm-dwarfdump --lookup: the line-table row of the innermost frame.
	: >"$tmp/dd"
	for o in $offs; do
		$DWARFDUMP --lookup=$((o - cs)) "$w" | awk -v a="$o" '
			/^Line info:/ { l = $0; sub(/^.*, line /, "", l); sub(/,.*/, "", l)
				c = $0; sub(/^.*, column /, "", c); sub(/,.*/, "", c)
				found = 1; print a, l, c }
			END { if (!found) print a, 0, 0 }' >>"$tmp/dd"
	done
	awk '$2 == 0 || $2 == "-" { print $1, $5, $6 }' "$tmp/ours" >"$tmp/ours.lc"
	compare "wasm $tag: innermost line:col equal llvm-dwarfdump --lookup's" "$tmp/ours.lc" "$tmp/dd"
}

wasm_case dwarf4 -gdwarf-4
wasm_case dwarf5 -gdwarf-5

clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -Wl,--export-all -o "$tmp/nodbg.wasm" "$src/inl.c"
"$T" --wasm "$tmp/nodbg.wasm" 0x40 >"$tmp/out" 2>&1
check "wasm without -g: the no-DWARF status (exit 3), not an error" test $? -eq 3

# ---- native ELF ----

# Instruction addresses of the functions of inl.c and main.c in FILE.
elf_addrs() {
	objdump -d --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <(work|sum_to|run|main)>:$/ { on = 1; next }
		/^[0-9a-f]+ <.*>:$/ { on = 0 }
		on && /^ +[0-9a-f]+:/ { a = $1; sub(/:/, "", a); print "0x" a }' | tr '\n' ' '
}

elf_case() {	# tag, addr2line|-|like:TAG, compiler, flags...
	tag=$1 a2l=$2 cc=$3; shift 3
	e=$tmp/$tag
	# In $tmp: -gsplit-dwarf leaves its .dwo files in the working directory.
	if ! (cd "$tmp" && $cc -g -O2 "$@" -o "$e") 2>"$tmp/cc.err"; then
		not_ok "elf $tag: $cc builds it" "$tmp/cc.err"
		return
	fi
	addrs=$(elf_addrs "$e")
	"$T" --elf "$e" $addrs >"$tmp/ours.raw" 2>"$tmp/ours.err" || {
		not_ok "elf $tag: our lookups run" "$tmp/ours.err"; return; }

	norm_ours "$tmp/ours.raw" >"$tmp/ours"
	cp "$tmp/ours" "$tmp/ours.$tag"
	case $a2l in
	like:*)
		# The tools see no inlined frames in gcc's split DWARF 5 (LLVM 14,
		# binutils 2.40), but the code is the same as without the split, so
		# the answers must be the same as for that build, which they checked.
		compare "elf $tag: frames (function file:line:col, inlined) equal those of ${a2l#like:}" \
			"$tmp/ours" "$tmp/ours.${a2l#like:}"
		check "elf $tag: some addresses are two inlined levels deep" test "$(deep "$tmp/ours")" -gt 0
		return 0
	esac
	$SYMBOLIZER --obj="$e" -a -f -i $addrs >"$tmp/sym.raw" 2>/dev/null
	norm_tool "$tmp/sym.raw" $addrs >"$tmp/sym"
	compare "elf $tag: frames (function file:line:col, inlined) equal llvm-symbolizer's" \
		"$tmp/ours" "$tmp/sym"
	check "elf $tag: some addresses are two inlined levels deep" test "$(deep "$tmp/ours")" -gt 0

	[ "$a2l" = addr2line ] || return 0
	# addr2line names bytes outside every DWARF function (the alignment
	# padding after a function) after the preceding ELF symbol; we and
	# llvm-symbolizer say "??". Those addresses are left out here.
	awk '$2 == 0 && $3 == "??" { print $1 }' "$tmp/ours" >"$tmp/nofunc"
	objdump -d --no-show-raw-insn "$e" | awk '/^ +[0-9a-f]+:/ { a = $1; sub(/:/, "", a)
		$1 = ""; print "0x" a, $0 }' >"$tmp/insns"
	check "elf $tag: what has no DWARF function is padding (nop)" sh -c "
		while read -r a; do grep \"^\$a \" '$tmp/insns' | grep -q nop || { echo \$a; exit 1; }
		done <'$tmp/nofunc'"
	keep=$(for a in $addrs; do grep -qx "$a" "$tmp/nofunc" || echo "$a"; done | tr '\n' ' ')
	"$T" --elf "$e" $keep >"$tmp/ours.raw"
	norm_ours "$tmp/ours.raw" nocol >"$tmp/ours"
	addr2line -f -i -a -e "$e" $keep >"$tmp/a2l.raw"
	norm_tool "$tmp/a2l.raw" $keep >"$tmp/a2l"
	compare "elf $tag: frames (function file:line, inlined) equal addr2line -f -i's, $(wc -l <"$tmp/nofunc") padding addresses aside" \
		"$tmp/ours" "$tmp/a2l"
}

elf_case gcc-exe addr2line gcc "$src/inl.c" "$src/other.c" "$src/main.c"
elf_case gcc-dso addr2line gcc -shared -fPIC "$src/inl.c" "$src/other.c"
# clang writes no .debug_aranges: units are found through their own ranges.
# binutils 2.40 addr2line misses clang's DWARF 5 inlined frames (it finds
# them in DWARF 4), so DWARF 5 is checked against llvm-symbolizer only.
elf_case clang-dwarf4 addr2line clang -gdwarf-4 "$src/inl.c" "$src/other.c" "$src/main.c"
elf_case clang-dwarf5 - clang -gdwarf-5 "$src/inl.c" "$src/other.c" "$src/main.c"
# Split DWARF: the skeleton units' ranges, the scopes in the .dwo files.
elf_case gcc-split like:gcc-exe gcc -gsplit-dwarf "$src/inl.c" "$src/other.c" "$src/main.c"
# Compressed DWARF (SHF_COMPRESSED, zlib, as Debian's debug files are): read
# through an image of the sections srcmap reads (dwarf-image.h), DWARF 4 and 5
# (clang's has an uncompressed .debug_rnglists beside compressed ones); GNU's
# older .zdebug_* sections are left to libdw (binutils 2.40 addr2line reads
# them no more: llvm-symbolizer only).
elf_case gcc-gz addr2line gcc -gz=zlib "$src/inl.c" "$src/other.c" "$src/main.c"
elf_case clang-dwarf5-gz - clang -gdwarf-5 -gz=zlib "$src/inl.c" "$src/other.c" "$src/main.c"
elf_case gcc-zdebug - gcc -gz=zlib-gnu "$src/inl.c" "$src/other.c" "$src/main.c"

# Damaged compressed DWARF (a stream's dso= may name any file): the
# inflated image is refused and libdw's own reading decides, as before the
# image existed; never a crash. The zlib data overwritten mid-stream, then
# the compression header claiming a size the data cannot inflate to.
damaged() {	# tag, byte offset from the section's start, bytes (printf escapes)
	cp "$tmp/gcc-gz" "$tmp/dam-$1"
	set -- "$1" "$(readelf -SW "$tmp/gcc-gz" | sed 's/^ *\[ *[0-9]*\]//' |
		awk '$1 == ".debug_info" { print $4 }')" "$2" "$3"
	printf "$4" | dd of="$tmp/dam-$1" bs=1 seek=$((0x$2 + $3)) conv=notrunc 2>/dev/null
	"$T" --elf "$tmp/dam-$1" $(elf_addrs "$tmp/gcc-gz") >"$tmp/dam.out" 2>&1
	rc=$?
	check "elf gz, $1: no crash (exit $rc), one answer per address or no DWARF" sh -c "
		[ $rc -eq 3 ] || { [ $rc -eq 0 ] && [ \$(grep -c . '$tmp/dam.out') -ge $(echo $(elf_addrs "$tmp/gcc-gz") | wc -w) ]; }"
}
if [ -e "$tmp/gcc-gz" ]; then
	damaged zlib-data 40 '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377'
	damaged chdr-size 8 '\377\377\377\377\377\377\000\000'
fi

gcc -O2 -o "$tmp/nodbg" "$src/inl.c" "$src/other.c" "$src/main.c"
"$T" --elf "$tmp/nodbg" 0x1000 >"$tmp/out" 2>&1
check "elf without -g: the no-DWARF status (exit 3), not an error" test $? -eq 3

# ---- a system DSO through its separate debug file (libc6-dbg) ----

# Function names are left out here: for glibc's aliases the tools name the
# outermost frame after an ELF symbol (llvm-symbolizer qsort_r, addr2line
# __GI___qsort_r), we after the DWARF subprogram (__qsort_r). Files are
# compared by basename: glibc's DW_AT_comp_dir is relative ("./stdlib") and
# the tools prepend it to "./stdlib/msort.c" once more.
base() { awk '{ $3 = "-"; n = split($4, p, "/"); $4 = p[n]; print }'; }
libc=$(ldd "$tmp/gcc-exe" | awk '$1 ~ /^libc\.so/ { print $3 }')
bid=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
dbg=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
if [ -n "$bid" ] && [ -e "$dbg" ]; then
	set -- $(readelf -W --dyn-syms "$libc" | awk '$8 ~ /^qsort_r@/ { print $2, $3; exit }')
	addrs=$(objdump -d --no-show-raw-insn --start-address=0x$1 \
		--stop-address=$(printf '0x%x' $((0x$1 + $2))) "$libc" |
		awk '/^ +[0-9a-f]+:/ { a = $1; sub(/:/, "", a); print "0x" a }' | tr '\n' ' ')
	"$T" --elf "$libc" $addrs >"$tmp/ours.raw" 2>"$tmp/ours.err" ||
		not_ok "libc: our lookups run" "$tmp/ours.err"
	norm_ours "$tmp/ours.raw" | base >"$tmp/ours"
	$SYMBOLIZER --obj="$libc" -a -f -i $addrs >"$tmp/sym.raw" 2>/dev/null
	norm_tool "$tmp/sym.raw" $addrs | base >"$tmp/sym"
	compare "libc qsort_r via /usr/lib/debug/.build-id: frames (basename:line:col) equal llvm-symbolizer's" \
		"$tmp/ours" "$tmp/sym"
	check "libc qsort_r: some addresses are inlined frames" test "$(awk '$2 == 1 { n++ } END { print n + 0 }' "$tmp/ours")" -gt 0
else
	ok "libc via its separate debug file # SKIP libc6-dbg is not installed"
fi

# ---- V8's jitdump DEBUG_INFO entries (srcmap.h): addr = code + offset + 0x40 ----

if command -v node >/dev/null 2>&1 && [ "$(uname -m)" = x86_64 ]; then
	mkdir "$tmp/v8"
	(cd "$tmp/v8" && node --perf-prof "$src/hot.js" >/dev/null 2>&1)
	"$T" --jitdump "$(ls "$tmp"/v8/jit-*.dump | head -1)" "$tmp/v8" >"$tmp/jd" 2>"$tmp/jd.err" ||
		not_ok "node --perf-prof: our jitdump walk runs" "$tmp/jd.err"
	# For every load whose entries we call machine-code offsets (TurboFan `JS:*`,
	# or `LazyCompile:*` on V8 10; Maglev `JS:+`): instruction starts per objdump,
	# with and without the bias.
	awk '$1 == "load" && $3 == 1 { print $2 }' "$tmp/jd" >"$tmp/usable"
	: >"$tmp/v8.res"
	while read -r idx; do
		objdump -D -b binary -mi386:x86-64 "$tmp/v8/$idx.bin" |
			awk '/^ +[0-9a-f]+:/ { a = $1; sub(/:/, "", a); print a }' >"$tmp/starts"
		awk -v i="$idx" '$1 == "entry" && $2 == i { print $3 }' "$tmp/jd" |
			while read -r off; do
				with=$(printf '%x' "$off")
				without=$(printf '%x' $((off + 0x40)))
				grep -qx "$with" "$tmp/starts" && w=1 || w=0
				grep -qx "$without" "$tmp/starts" && n=1 || n=0
				echo "$idx $w $n"
			done >>"$tmp/v8.res"
	done <"$tmp/usable"
	total=$(wc -l <"$tmp/v8.res")
	at_insn=$(awk '$2 { n++ } END { print n + 0 }' "$tmp/v8.res")
	raw=$(awk '$3 { n++ } END { print n + 0 }' "$tmp/v8.res")
	check "node --perf-prof: TurboFan code came with DEBUG_INFO entries ($total)" \
		sh -c "grep -Eq '^load [0-9]+ 1 0x40 [0-9]+ (JS|LazyCompile):\*work ' '$tmp/jd' && test $total -ge 5"
	check "V8 entry - code start - 0x40 is an instruction start for all $total entries ($raw without the 0x40)" \
		test "$at_insn" -eq "$total" -a "$raw" -lt "$total"
	check "V8 Sparkplug (JS:^, Function:^) entries are flagged as not machine-code offsets" \
		sh -c "! grep -Eq '^load [0-9]+ 1 [^ ]+ [0-9]+ (JS|Function|LazyCompile):[~^]' '$tmp/jd'"
else
	ok "V8 DEBUG_INFO bias on a fresh node run # SKIP needs node on x86-64"
fi
