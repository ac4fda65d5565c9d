#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds plt and libstep.so from this directory's sources into DIR (the
# recording's /tmp/hotblocks-rec/plt-calls): the same commands as when
# the recording was made, so the same compiler gives the same bytes there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
rm -rf "$dir"
mkdir -p "$dir"
cp "$here/plt.c" "$here/libstep.c" "$dir/"
cd "$dir"
gcc -O2 -g -fPIC -shared -Wl,-soname,libstep.so -o libstep.so libstep.c
gcc -O2 -g -o plt plt.c -L. -lstep -Wl,-rpath,'$ORIGIN'
