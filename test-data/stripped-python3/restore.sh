#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the stripped-python3 recording where the tests read it
# (/tmp/hotblocks-rec/stripped-python3/perf.data). Its samples are in this
# machine's python3.11, libc and libm, read at report time: when one of them is not
# the build recorded (another Debian 12 point release), the program is
# recorded again here. The last line on stdout says which: "committed" or
# "recorded afresh".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/stripped-python3

same=yes
for f in $(perf buildid-list -i "$here/perf.data" 2>/dev/null | awk '$2 ~ /^\// { print $2 }'); do
	want=$(perf buildid-list -i "$here/perf.data" 2>/dev/null | awk -v f="$f" '$2 == f { print $1 }')
	have=$(readelf -n "$f" 2>/dev/null | awk '/Build ID:/ { print $3 }')
	if [ "$want" != "$have" ]; then
		echo "restore.sh: $f has build-id ${have:-?}, the recording's is $want" >&2
		same=
	fi
done
if [ -n "$same" ]; then
	rm -rf "$rec"
	mkdir -p "$rec"
	cp "$here/perf.data" "$rec/"
	echo committed
else
	"$here/record.sh" 4 "$rec" >&2
	echo "recorded afresh"
fi
