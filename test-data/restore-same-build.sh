#!/bin/sh
# SPDX-License-Identifier: MIT
# restore-same-build.sh DIR NAME [RECORD-ARG]: puts the recording DIR/perf.data
# where the tests read it (/tmp/hotblocks-rec/NAME/perf.data) when every file
# it samples is on this machine in the build it recorded (perf.data's
# build-ids); else records it afresh there with DIR/record.sh RECORD-ARG
# OUTDIR (another Debian 12 point release, say). For recordings of this
# machine's own programs, whose files are read at report time. The last line
# on stdout says which: "committed" or "recorded afresh".
set -eu

here=$1 name=$2
rec=/tmp/hotblocks-rec/$name

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
	"$here/record.sh" ${3:+"$3"} "$rec" >&2
	echo "recorded afresh"
fi
