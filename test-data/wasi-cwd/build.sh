#!/bin/sh
# SPDX-License-Identifier: MIT
# count.wasm from count.c: clang 14 with wasm-ld and Debian's wasi-libc
# (apt-get install clang lld wasi-libc), as test-data/wasmtime-real builds wasi.wasm.
set -eu
cd "$(dirname "$0")"
clang --target=wasm32-wasi -O2 -Wl,--strip-debug -o count.wasm count.c
