#!/bin/sh
# SPDX-License-Identifier: MIT
# Recordings that moved, or came from another machine (plugin/NATIVE.md
# "Files that are not where perf.data says"):
# * a real wasmtime perfmap recording (test-data/wasmtime-real 50.0.1/switch
#   and 48.0.2/wasi: the .cwasm is mapped from a file) and a real V8 jitdump
#   recording (test-data/v8-osr), copied to another directory with the
#   recorded paths gone: the .cwasm or dump beside perf.data, or in a
#   directory given by --dlarg search=DIR, report byte for byte as in place
#   (text with every column, and --json --all), and the plugin names the
#   file it read instead in one note (a jitdump beside perf.data, where a
#   moved recording's dump is, in none); through perf script --symfs (the
#   .cwasm under the root) the .cwasm's code reports as in place too
#   (--kind jit: the other files are not under that root);
# * the real LBR recording of another machine (test-data/lbr-propeller, perf
#   4.13; its binary named by a build path this machine has not) through
#   perf script --symfs, through perf's build-id cache (perf buildid-cache
#   -a, into this test's own HOME) and through search=DIR (the binary under
#   another name: found by its build-id) resolves in the plugin (no sample
#   "resolved by perf's own symbol lookup"), its samples per function and
#   offset equal to perf script's own (-F ip,sym,symoff with --symfs);
#   another file of the binary's name but not its build-id is refused, said
#   in a note.
. "$(dirname "$0")/lib.sh"
need_private_tmp

R=$top/test-data/wasmtime-real
# once FILE TEXT: TEXT is on exactly one line of FILE.
once() { [ "$(grep -cF -- "$2" "$1")" = 1 ]; }

# same DESC A B: files A and B are byte for byte equal (and not empty).
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then ok "$1"; else
		diff -u "$2" "$3" >"$tmp/same.diff" 2>&1
		not_ok "$1" "$tmp/same.diff"
	fi
}

# report STREAM OUT ARGS...: the text report with every column into OUT.txt,
# --json --all into OUT.json.
report() {
	rp_s=$1 rp_o=$2; shift 2
	"$POSTPROC" -p 100 "$@" "$rp_s" >"$rp_o.txt" 2>"$rp_o.err"
	"$POSTPROC" --json --all "$@" "$rp_s" >"$rp_o.json" 2>>"$rp_o.err"
}

# Each run's perf.data is $tmp/run/perf.data and its stream $tmp/run/s.hbs,
# so that in place and moved differ only in where the other files are.
run=$tmp/run

# --- wasmtime perfmap: the .cwasm mapped from a file -------------------------
for c in 50.0.1/switch 48.0.2/wasi; do
	v=${c%/*} p=${c#*/} src=$R/$c
	rec=/tmp/hotblocks-rec/wasmtime-$v-$p
	set -- --cwasm "$src/module.cwasm" --wasm "$R/$p.wasm" --clif "$src/clif"
	# in place: the .cwasm where it ran
	rm -rf "$rec" "$run" && mkdir -p "$rec" "$run" && cp "$src/module.cwasm" "$rec/"
	cp "$src"/perfmap/* "$run/"
	plugin_stream "$run/perf.data" "$run/s.hbs" 2>"$tmp/in.plugin-err"
	report "$run/s.hbs" "$tmp/in-$v-$p" "$@"
	cp "$run/s.hbs" "$tmp/in-$v-$p.hbs"
	n=$(awk '$1 == "object" && $3 == "cwasm" { o[$2] = 1 } $1 == "sample" && o[$2] { n += $5 } END { print n + 0 }' "$run/s.hbs")
	check "wasmtime $c perfmap: $n samples in the mapped .cwasm in place" test "$n" -gt 100
	# moved: the recording and its .cwasm in another directory, the recorded one gone
	rm -rf "$rec" "$run" && mkdir -p "$run" && cp "$src"/perfmap/* "$src/module.cwasm" "$run/"
	plugin_stream "$run/perf.data" "$run/s.hbs" 2>"$tmp/mv.plugin-err"
	report "$run/s.hbs" "$tmp/mv-$v-$p" "$@"
	same "wasmtime $c perfmap moved (the .cwasm beside perf.data): the text report is the in-place one" \
		"$tmp/in-$v-$p.txt" "$tmp/mv-$v-$p.txt"
	same "wasmtime $c perfmap moved: --json --all is the in-place one" "$tmp/in-$v-$p.json" "$tmp/mv-$v-$p.json"
	check "wasmtime $c perfmap moved: one note names the .cwasm read instead" \
		once "$tmp/mv.plugin-err" "note: $rec/module.cwasm: not at its recorded path; read from $run/module.cwasm"
	check "wasmtime $c perfmap in place: no such note" sh -c "! grep -q 'not at its recorded path' $tmp/in.plugin-err"
	# the .cwasm in a directory of its own, named by search=DIR
	mkdir -p "$tmp/elsewhere" && mv "$run/module.cwasm" "$tmp/elsewhere/"
	plugin_stream "$run/perf.data" "$run/s.hbs" "search=$tmp/elsewhere" 2>"$tmp/mv2.plugin-err"
	report "$run/s.hbs" "$tmp/mv2-$v-$p" "$@"
	same "wasmtime $c perfmap moved (the .cwasm in --dlarg search=DIR): the text report is the in-place one" \
		"$tmp/in-$v-$p.txt" "$tmp/mv2-$v-$p.txt"
	same "wasmtime $c perfmap moved (search=DIR): --json --all is the in-place one" \
		"$tmp/in-$v-$p.json" "$tmp/mv2-$v-$p.json"
	check "wasmtime $c perfmap moved (search=DIR): one note names the .cwasm read" \
		once "$tmp/mv2.plugin-err" "read from $tmp/elsewhere/module.cwasm"
	rm -rf "$tmp/elsewhere"
	# through perf script --symfs: the .cwasm under the root at its recorded
	# path is the plugin's (class cwasm, with its Wasm column); the other
	# files are not under the root, so compare the JIT code alone (--kind jit)
	mkdir -p "$tmp/sym$rec" && cp "$src/module.cwasm" "$tmp/sym$rec/"
	perf --no-pager script -i "$run/perf.data" --symfs "$tmp/sym" --dlfilter "$PLUGIN" \
		--dlarg "out=$run/s.hbs" 2>"$tmp/symfs.plugin-err"
	"$POSTPROC" -p 100 --kind jit "$@" "$run/s.hbs" >"$tmp/symfs-$v-$p.txt" 2>/dev/null
	"$POSTPROC" -p 100 --kind jit "$@" "$tmp/in-$v-$p.hbs" >"$tmp/in-jit-$v-$p.txt" 2>/dev/null
	same "wasmtime $c perfmap through --symfs: the .cwasm's report (--kind jit) is the in-place one" \
		"$tmp/in-jit-$v-$p.txt" "$tmp/symfs-$v-$p.txt"
	check "wasmtime $c perfmap through --symfs: resolved in the plugin" \
		sh -c "! grep -q \"perf's own symbol lookup\" $tmp/symfs.plugin-err"
	rm -rf "$tmp/sym"
	# and nowhere: the samples are not the .cwasm's (what the moved runs must not be)
	plugin_stream "$run/perf.data" "$run/s.hbs" 2>"$tmp/mv3.plugin-err"
	check "wasmtime $c perfmap with the .cwasm nowhere: said to be missing" \
		grep -qF "$rec/module.cwasm: $n samples in code no symbol or .eh_frame entry covers (not found" "$tmp/mv3.plugin-err"
done

# --- V8 jitdump ---------------------------------------------------------------
src=$top/test-data/v8-osr rec=/tmp/hotblocks-rec/v8-osr
rm -rf "$run" && mkdir -p "$run" && cp "$src/perf.data" "$run/"
restore_recording v8-osr
plugin_stream "$run/perf.data" "$run/s.hbs" 2>"$tmp/v8-in.plugin-err"
report "$run/s.hbs" "$tmp/v8-in"
n=$(awk '$1 == "total" && $3 == "jit" { print $4 }' "$run/s.hbs")
check "v8-osr jitdump: $n JIT samples in place" test "${n:-0}" -gt 1000
rm -rf "$rec" && cp "$src"/jit-*.dump "$run/"
plugin_stream "$run/perf.data" "$run/s.hbs" 2>"$tmp/v8-mv.plugin-err"
report "$run/s.hbs" "$tmp/v8-mv"
same "v8-osr jitdump moved (the dump beside perf.data): the text report is the in-place one" \
	"$tmp/v8-in.txt" "$tmp/v8-mv.txt"
same "v8-osr jitdump moved: --json --all is the in-place one" "$tmp/v8-in.json" "$tmp/v8-mv.json"
check "v8-osr jitdump moved beside perf.data (where a moved recording's dump is): no note, no warning" \
	sh -c "! grep -q 'jit-22281.dump' '$tmp/v8-mv.plugin-err' && ! grep -q 'warning' '$tmp/v8-mv.plugin-err'"
mkdir -p "$tmp/dumps" && mv "$run"/jit-*.dump "$tmp/dumps/"
plugin_stream "$run/perf.data" "$run/s.hbs" "search=$tmp/dumps" 2>"$tmp/v8-mv2.plugin-err"
report "$run/s.hbs" "$tmp/v8-mv2"
same "v8-osr jitdump moved (the dump in --dlarg search=DIR): the text report is the in-place one" \
	"$tmp/v8-in.txt" "$tmp/v8-mv2.txt"
same "v8-osr jitdump moved (search=DIR): --json --all is the in-place one" "$tmp/v8-in.json" "$tmp/v8-mv2.json"
check "v8-osr jitdump moved (search=DIR): one note names the dump read" \
	once "$tmp/v8-mv2.plugin-err" "read from $tmp/dumps/jit-22281.dump"

# --- lbr-propeller: a binary of another machine -------------------------------
src=$top/test-data/lbr-propeller rec=/tmp/hotblocks-rec/lbr-propeller
restore_recording lbr-propeller
bin=$(cd "$rec/sym" && find . -type f | sed 's/^\.//')
# perf's build-id cache: this test's own, empty (not the checkout's, which
# with-private-tmp names in PERF_CONFIG)
mkdir -p "$tmp/bid"
printf '[buildid]\n\tdir = %s\n' "$tmp/bid" >"$tmp/perf-config"
export PERF_CONFIG=$tmp/perf-config
# perf's own: samples per function+offset in the binary, through --symfs
perf --no-pager script -i "$rec/perf.data" --symfs "$rec/sym" -F ip,sym,symoff,dso 2>/dev/null |
	awk -v b="($bin)" '$3 == b { n[$2]++ } END { for (k in n) print k, n[k] }' | sort >"$tmp/perf-symoff.txt"
# ours, from a stream: the same, from its objects and sample lines
symoff() {
	awk '$1 == "object" { for (i = 3; i <= NF; i++) { if ($i ~ /^name=/) name[$2] = substr($i, 6)
		if ($i ~ /^source=/) src[$2] = substr($i, 8) } }
	$1 == "sample" && src[$2] != "perf" { n[name[$2] "+0x" substr($4, 3)] += $5 }
	END { for (k in n) print k, n[k] }' "$1" | sort
}
# lbr_case DESC STREAM ERR: resolved in the plugin, as perf does
lbr_case() {
	symoff "$2" >"$tmp/ours-symoff.txt"
	check "lbr-propeller through $1: no sample resolved by perf's own symbol lookup" \
		sh -c "! grep -q \"perf's own symbol lookup\" '$3' && ! grep -q ' source=perf ' '$2'"
	if [ "$(wc -l <"$tmp/perf-symoff.txt")" -ge 10 ] && cmp -s "$tmp/perf-symoff.txt" "$tmp/ours-symoff.txt"; then
		ok "lbr-propeller through $1: samples per function+offset are perf script's ($(wc -l <"$tmp/perf-symoff.txt") offsets, $(awk '{ s += $2 } END { print s }' "$tmp/perf-symoff.txt") samples)"
	else
		diff "$tmp/perf-symoff.txt" "$tmp/ours-symoff.txt" >"$tmp/symoff.diff"
		not_ok "lbr-propeller through $1: samples per function+offset are perf script's" "$tmp/symoff.diff"
	fi
}
perf --no-pager script -i "$rec/perf.data" --symfs "$rec/sym" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/lbr-symfs.hbs" 2>"$tmp/lbr-symfs.err"
lbr_case "perf script --symfs" "$tmp/lbr-symfs.hbs" "$tmp/lbr-symfs.err"
# without the binary where perf.data names it and without --symfs: nothing resolves
plugin_stream "$rec/perf.data" "$tmp/lbr-none.hbs" 2>"$tmp/lbr-none.err"
check "lbr-propeller without --symfs, cache or search: the binary's samples are said to have no symbol" \
	grep -qF "$bin: 3733 samples in code no symbol or .eh_frame entry covers (not found" "$tmp/lbr-none.err"
perf buildid-cache -a "$src/propeller_sample_1.bin" >"$tmp/cache.out" 2>&1
check "perf buildid-cache -a put the binary in this test's cache" \
	test -f "$tmp/bid/.build-id/57/2ac72487ae1966/elf"
plugin_stream "$rec/perf.data" "$tmp/lbr-cache.hbs" 2>"$tmp/lbr-cache.err"
lbr_case "perf's build-id cache (perf buildid-cache -a)" "$tmp/lbr-cache.hbs" "$tmp/lbr-cache.err"
# the same stream, but for where the map lines say the binary was read
sed 's/ found=[^ ]*//' "$tmp/lbr-symfs.hbs" >"$tmp/lbr-symfs.nofound"
same "lbr-propeller: the stream through the build-id cache is the one through --symfs (but for map's found=)" \
	"$tmp/lbr-symfs.nofound" "$tmp/lbr-cache.hbs"
check "lbr-propeller through --symfs: the binary's map lines say it was read under the root" \
	grep -qF "found=$rec/sym$bin" "$tmp/lbr-symfs.hbs"
check "lbr-propeller through the cache: no map line says found= (the post-processor reads the cache itself)" \
	sh -c "! grep -q ' found=' $tmp/lbr-cache.hbs"
rm -rf "$tmp/bid/.build-id" "$tmp/bid/${src#/}"
mkdir -p "$tmp/found" "$tmp/wrong"
cp "$src/propeller_sample_1.bin" "$tmp/found/renamed.bin"
# another program under the binary's name comes first: refused for its build-id
cp "$(command -v perf)" "$tmp/wrong/${bin##*/}"
plugin_stream "$rec/perf.data" "$tmp/lbr-search.hbs" "search=$tmp/wrong" "search=$tmp/found" 2>"$tmp/lbr-search.err"
lbr_case "--dlarg search=DIR (by build-id, under another name)" "$tmp/lbr-search.hbs" "$tmp/lbr-search.err"
check "lbr-propeller through search=DIR: one note names the binary read" \
	once "$tmp/lbr-search.err" "note: $bin: not at its recorded path; read from $tmp/found/renamed.bin"
plugin_stream "$rec/perf.data" "$tmp/lbr-wrong.hbs" "search=$tmp/wrong" 2>"$tmp/lbr-wrong.err"
check "lbr-propeller: a file of the binary's name and another build-id is refused, in one note" \
	once "$tmp/lbr-wrong.err" "note: $bin: not at its recorded path; $tmp/wrong/${bin##*/} has its name but not its build-id: not used"
check "lbr-propeller: ... and its samples are not attributed to it" \
	sh -c "! grep -q '^sample' $tmp/lbr-wrong.hbs || ! grep -q 'source=symtab' $tmp/lbr-wrong.hbs"
echo "1..$tap_n"
