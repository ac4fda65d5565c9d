#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds mt and libwork.so from this directory's sources into DIR (the
# recording's /tmp/hotblocks-rec/native-mt-fork): the same commands as when
# the recording was made, so the same compiler gives the same bytes there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
rm -rf "$dir"
mkdir -p "$dir"
cp "$here/mt.c" "$here/libwork.c" "$dir/"
cd "$dir"
gcc -O2 -g -fPIC -shared -Wl,-soname,libwork.so -o libwork.so libwork.c
gcc -O2 -g -pthread -o mt mt.c -L. -lwork -Wl,-rpath,'$ORIGIN'
