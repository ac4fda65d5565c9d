#!/bin/sh
# SPDX-License-Identifier: MIT
# --dlarg code-refs (plugin/STREAM.md `code-file`) on real wasmtime recordings
# (test-data/wasmtime-real, jitdump: the .cwasm run precompiled, its code
# mapped from the file), each stream beside the plain one of the same
# recording:
#  - every jit object's code is one code-file line and no code line; the
#    bytes each names (the file, offset and length) are the object's code
#    lines in the plain stream, and their CRC-64 is the one an independent
#    CRC-64/XZ computes (Python, bit by bit from the polynomial; not liblzma,
#    which the plugin and the reader use); native objects keep code lines;
#  - the reports of both streams (--json --all, text -p 100) are the same bytes;
#  - a .cwasm changed after the recording (a byte of a sampled function's
#    code flipped) is not read: a note names the function, the file and the
#    CRC-64 check, the report has no blocks of it, and with --cwasm naming an
#    intact copy the report is the plain one again;
#  - an archive of the code-file stream (hotblocks --archive) holds code lines
#    and no code-file line, and reports the same as the plain stream with the
#    .cwasm gone;
#  - perf hotblocks report asks for code-refs (its stream goes straight to
#    hotblocks) and its report is the plain stream's; not with --dlarg out=.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_private_tmp
# (not d: check's own)

R=$top/test-data/wasmtime-real
# "<file> <offset> <length> <crc>" of each code-file line, and whether the
# file's bytes there are the plain stream's code lines of that object and
# have that CRC-64/XZ (reflected polynomial 0xc96c5795d7870f42, all ones in
# and out), computed here bit by bit.
cat >"$tmp/check.py" <<'EOF'
import sys

def crc64(data):
    crc = 0xffffffffffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xc96c5795d7870f42 if crc & 1 else 0)
    return crc ^ 0xffffffffffffffff

def unescape(s):
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == '%':
            out.append(int(s[i + 1:i + 3], 16)); i += 3
        else:
            out += s[i].encode(); i += 1
    return out.decode()

def objects(path):
    objs, code, refs = {}, {}, {}
    for line in open(path, encoding='ascii'):
        f = line.split()
        if not f:
            continue
        if f[0] == 'object':
            objs[f[1]] = (f[2], [x for x in f if x.startswith('name=')][0])
        elif f[0] == 'code':
            code.setdefault(f[1], bytearray()).extend(bytes.fromhex(f[3]))
        elif f[0] == 'code-file':
            refs[f[1]] = (unescape(f[5]), int(f[2], 16), int(f[3]), int(f[4], 16))
    return objs, code, refs

plain, refd = objects(sys.argv[1]), objects(sys.argv[2])
bad, n = 0, 0
for oid, (kind, name) in refd[0].items():
    if kind == 'jit' and oid in plain[1]:
        if oid not in refd[2] or oid in refd[1]:
            print('object', oid, name, ': jit code not one code-file line'); bad += 1; continue
        path, off, length, crc = refd[2][oid]
        with open(path, 'rb') as fh:
            fh.seek(off); data = fh.read(length)
        if data != bytes(plain[1][oid]):
            print('object', oid, name, ': bytes of', path, 'differ from the plain code lines'); bad += 1
        elif crc64(data) != crc:
            print('object', oid, name, ': CRC-64 %016x, computed %016x' % (crc, crc64(data))); bad += 1
        n += 1
    elif kind != 'jit' and plain[1].get(oid) != refd[1].get(oid):
        print('object', oid, name, ': native code lines differ'); bad += 1
if plain[0] != refd[0]:
    print('objects differ'); bad += 1
print('%d code-file objects checked, %d bad' % (n, bad))
sys.exit(1 if bad or not n else 0)
EOF

for c in 49.0.3/fib 50.0.1/switch 48.0.2/wasi 46.0.1/fib; do
	src=$R/$c v=${c%/*} p=${c#*/}
	wasm=$R/$p.wasm
	# the .cwasm and the dump back where the recording ran (record.sh)
	rec=/tmp/hotblocks-rec/wasmtime-$v-$p
	rm -rf "$rec"
	mkdir -p "$rec/jitdump"
	cp "$src/module.cwasm" "$rec/"
	cp "$src"/jitdump/jit-*.dump "$rec/jitdump/"
	s=$tmp/$v-$p
	plugin_stream "$src/jitdump/perf.data" "$s.plain.hbs" 2>/dev/null
	plugin_stream "$src/jitdump/perf.data" "$s.refs.hbs" code-refs 2>/dev/null
	check "$c: code-file lines name the .cwasm's bytes of each jit object (CRC-64 computed apart)" \
		python3 "$tmp/check.py" "$s.plain.hbs" "$s.refs.hbs"
	check "$c: the stream is smaller" \
		test "$(wc -c <"$s.refs.hbs")" -lt "$(wc -c <"$s.plain.hbs")"
	set -- --cwasm "$src/module.cwasm" --wasm "$wasm"
	[ -d "$src/clif" ] && set -- "$@" --clif "$src/clif"
	for f in json text; do
		case $f in json) o="--json --all" ;; text) o="-p 100" ;; esac
		# shellcheck disable=SC2086
		"$POSTPROC" $o "$@" - <"$s.plain.hbs" >"$s.plain.$f" 2>"$s.plain.$f.err"
		# shellcheck disable=SC2086
		"$POSTPROC" $o "$@" - <"$s.refs.hbs" >"$s.refs.$f" 2>"$s.refs.$f.err"
		check "$c: the $f report of the code-file stream is the plain stream's" \
			cmp "$s.plain.$f" "$s.refs.$f"
	done
	check "$c: the notes too" cmp "$s.plain.text.err" "$s.refs.text.err"
done

# One recording on: 49.0.3/fib. Its hottest function's code, one byte flipped
# in the .cwasm where the recording ran.
c=49.0.3/fib src=$R/$c s=$tmp/49.0.3-fib rec=/tmp/hotblocks-rec/wasmtime-49.0.3-fib
set -- --wasm "$R/fib.wasm"
hot=$(awk '$1 == "sample" { n[$2] += $5 } END { for (o in n) if (n[o] > m) { m = n[o]; b = o }; print b }' "$s.refs.hbs")
fn=$(awk -v o="$hot" '$1 == "object" && $2 == o { for (i = 3; i <= NF; i++) if ($i ~ /^name=/) print substr($i, 6) }' "$s.refs.hbs")
at=$(awk -v o="$hot" '$1 == "code-file" && $2 == o { print $3 }' "$s.refs.hbs")
cp "$rec/module.cwasm" "$tmp/intact.cwasm"
python3 -c '
import sys
p, at = sys.argv[1], int(sys.argv[2], 16)
b = bytearray(open(p, "rb").read()); b[at] ^= 0xff; open(p, "wb").write(b)' "$rec/module.cwasm" "$at"
"$POSTPROC" -p 100 "$@" "$s.refs.hbs" >"$s.stale.text" 2>"$s.stale.err"
check "a changed .cwasm is not read: the note names $fn, the file and the CRC-64" \
	grep -q "the code of $fn is not shown: $rec/module.cwasm: the [0-9]* bytes at offset $at are not the recording's (CRC-64 differs" "$s.stale.err"
check "... and the report shows no blocks of it" sh -c "! cmp -s '$s.stale.text' '$s.refs.text'"
"$POSTPROC" -p 100 --cwasm "$tmp/intact.cwasm" "$@" "$s.refs.hbs" >"$s.copy.text" 2>"$s.copy.err"
"$POSTPROC" -p 100 --cwasm "$tmp/intact.cwasm" "$@" "$s.plain.hbs" >"$s.copy-plain.text" 2>/dev/null
check "with --cwasm naming an intact copy, the code is read from it: the plain stream's report" \
	cmp "$s.copy.text" "$s.copy-plain.text"
cp "$tmp/intact.cwasm" "$rec/module.cwasm"

# The archive holds the code: made with the .cwasm, reported without it.
"$POSTPROC" --archive "$tmp/fib.hba" --cwasm "$src/module.cwasm" "$@" "$s.refs.hbs" >/dev/null 2>"$tmp/archive.err"
mkdir -p "$tmp/unpacked"
tar xzf "$tmp/fib.hba" -C "$tmp/unpacked"
check "the archive's stream has code lines, no code-file line" \
	sh -c "grep -q '^code ' '$tmp/unpacked/stream-0.hbs' && ! grep -q '^code-file ' '$tmp/unpacked/stream-0.hbs'"
mv "$rec/module.cwasm" "$tmp/away.cwasm"
"$POSTPROC" -p 100 "$tmp/fib.hba" >"$tmp/archive.text" 2>"$tmp/archive.text.err"
"$POSTPROC" -p 100 --cwasm "$tmp/away.cwasm" "$@" "$s.plain.hbs" >"$tmp/plain-cwasm.text" 2>/dev/null
check "the archive's report, the .cwasm gone, is the plain stream's" cmp "$tmp/archive.text" "$tmp/plain-cwasm.text"
mv "$tmp/away.cwasm" "$rec/module.cwasm"

# perf hotblocks report: code-refs where its stream goes straight to hotblocks.
PH=$top/scripts/perf-hotblocks
HOTBLOCKS_PLUGIN=$PLUGIN HOTBLOCKS_BIN=$POSTPROC "$PH" report -v -i "$src/jitdump/perf.data" -p 100 \
	--cwasm "$src/module.cwasm" "$@" >"$tmp/ph.text" 2>"$tmp/ph.err"
check "perf hotblocks report runs the plugin with --dlarg code-refs" grep -q -- "--dlarg code-refs" "$tmp/ph.err"
"$POSTPROC" -p 100 --cwasm "$src/module.cwasm" "$@" - <"$s.plain.hbs" >"$tmp/plain.text" 2>/dev/null
check "... and its report is the plain stream's" cmp "$tmp/ph.text" "$tmp/plain.text"
HOTBLOCKS_PLUGIN=$PLUGIN HOTBLOCKS_BIN=$POSTPROC "$PH" report -v -i "$src/jitdump/perf.data" -p 100 \
	--dlarg "out=$tmp/kept.hbs" --cwasm "$src/module.cwasm" "$@" >/dev/null 2>"$tmp/ph-out.err"
check "a stream the user keeps (--dlarg out=) has the code itself" \
	sh -c "! grep -q -- '--dlarg code-refs' '$tmp/ph-out.err' && ! grep -q '^code-file ' '$tmp/kept.hbs' && grep -q '^code ' '$tmp/kept.hbs'"

echo "1..$tap_n"
