#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes the seeds of the symbol readers' fuzz targets (elfsyms, ehframe,
# minidebug, debuglink, perfmap) into test-data/corpus/: real files, made
# by the toolchain from the recordings' own sources (test-data/native-mt-fork,
# test-data/plt-calls, built as their build.sh builds them), the debug file,
# stripped copy and MiniDebugInfo made of them as distributions make them
# (objcopy, as scripts/tests/native-symbol-sources.sh does), and the heads of
# the recorded perf maps. Run once; the seeds are committed (a seed need not
# be remade when the compiler changes).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
c=$top/test-data/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
gcc -O2 -g -fPIC -shared -Wl,-soname,libwork.so -o libwork.so "$top/test-data/native-mt-fork/libwork.c"
gcc -O2 -g -fPIC -shared -Wl,-soname,libstep.so -o libstep.so "$top/test-data/plt-calls/libstep.c"
gcc -O2 -g -o plt "$top/test-data/plt-calls/plt.c" -L. -lstep -Wl,-rpath,'$ORIGIN'
objcopy --only-keep-debug libwork.so libwork.so.debug
objcopy --strip-all --add-gnu-debuglink=libwork.so.debug libwork.so libwork-linked.so
# MiniDebugInfo as Fedora's find-debuginfo makes it
nm -D libwork.so --format=posix --defined-only | awk '{ print $1 }' | sort >dynsyms
nm libwork.so --format=posix --defined-only | awk '$2 ~ /^[Tt]$/ { print $1 }' | sort >funcsyms
comm -13 dynsyms funcsyms >keep
objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=keep libwork.so.debug mini
xz -k mini
objcopy --strip-all --add-section .gnu_debugdata=mini.xz libwork.so libwork-mini.so

mkdir -p "$c/elfsyms" "$c/ehframe" "$c/minidebug" "$c/debuglink" "$c/perfmap"
for f in libwork.so libwork-linked.so libwork-mini.so libstep.so plt; do
	cp "$f" "$c/elfsyms/$f"
done
strip -o "$c/elfsyms/plt-stripped" plt
# fuzz-ehframe's input: a flags byte (bit 0: ELF64), the section's address
# (8 bytes, little-endian), then .eh_frame's bytes
for f in libwork.so plt; do
	addr=$(readelf -SW "$f" | awk '$2 == ".eh_frame" { print $4 }')
	objcopy -O binary --only-section=.eh_frame "$f" eh
	{ printf '\001'; python3 -c "import sys; sys.stdout.buffer.write(int('$addr', 16).to_bytes(8, 'little'))"; cat eh; } \
		>"$c/ehframe/$f.eh_frame"
done
# fuzz-minidebug's input: the ELF inside .gnu_debugdata (compressed by the
# target), or the xz stream itself
cp mini "$c/minidebug/libwork-mini.elf"
cp mini.xz "$c/minidebug/libwork-mini.xz"
# fuzz-debuglink's input: a flags byte (bit 0: the target puts the debug
# file's right CRC in the link), the link's name, NUL, a CRC (4 bytes), the
# debug file (written as DIR/prog.debug beside DIR/prog)
{ printf '\001prog.debug\000\000\000\000\000'; cat libwork.so.debug; } >"$c/debuglink/libwork-debug"
{ printf '\000prog.debug\000\000\000\000\000'; cat libwork.so.debug; } >"$c/debuglink/libwork-debug-badcrc"
# fuzz-perfmap's input: a map; the first 4 KiB of each recorded one
for m in v8-perfmap/perf-15941.map jit-hotspot-perfmap/perf-28629.map jit-node-perfmap/perf-30176.map; do
	head -c 4096 "$top/test-data/$m" >"$c/perfmap/$(dirname "$m").map"
done
