#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the glibc-evex recording where the tests read it: /tmp/hotblocks-rec/glibc-evex/
# with perf.data and the program built again from evex.c (at the path perf.data
# names). The recording's hot code is this machine's libc.so.6: perf and hotblocks
# both read its bytes from the file at report time. When this machine's libc is
# not the one recorded (another Debian 12 point release: another build-id), the
# committed samples would land on unrelated bytes, so the program is recorded
# again here (record.sh; the CPU must have AVX-512). The last line on stdout says
# which: "committed" or "recorded afresh".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/glibc-evex
libc=/usr/lib/x86_64-linux-gnu/libc.so.6

want=$(perf buildid-list -i "$here/perf.data" 2>/dev/null | awk -v f="$libc" '$2 == f { print $1 }')
have=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID:/ { print $3 }')
if [ -n "$want" ] && [ "$want" = "$have" ]; then
	rm -rf "$rec"
	mkdir -p "$rec"
	cp "$here/evex.c" "$here/perf.data" "$rec/"
	(cd "$rec" && gcc -O2 -g -fno-builtin -o evex evex.c)
	echo committed
else
	echo "restore.sh: $libc has build-id ${have:-?}, the recording's is ${want:-?}: recording afresh" >&2
	"$here/record.sh" 2 "$rec" >&2
	echo "recorded afresh"
fi
