#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the native-mt-fork recording where the tests read it:
# /tmp/hotblocks-rec/native-mt-fork/ with perf.data and the program and
# library built again from the sources (at the path perf.data names). When
# the files built here are not the recorded ones (another gcc or libc: other
# build-ids), the committed samples would land on other bytes, so the program
# is recorded again here. The last line on stdout says which: "committed" or
# "recorded afresh".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/native-mt-fork
libc=/usr/lib/x86_64-linux-gnu/libc.so.6

"$here/build.sh" "$rec" >&2
same=yes
for f in "$rec/mt" "$rec/libwork.so" "$libc"; do
	want=$(perf buildid-list -i "$here/perf.data" 2>/dev/null | awk -v f="$f" '$2 == f { print $1 }')
	have=$(readelf -n "$f" 2>/dev/null | awk '/Build ID:/ { print $3 }')
	if [ -n "$want" ] && [ "$want" != "$have" ]; then
		echo "restore.sh: $f has build-id ${have:-?}, the recording's is $want" >&2
		same=
	fi
done
if [ -n "$same" ]; then
	cp "$here/perf.data" "$rec/"
	echo committed
else
	"$here/record.sh" 1 "$rec" >&2
	echo "recorded afresh"
fi
