#!/bin/sh
# SPDX-License-Identifier: MIT
# restore-built.sh DIR NAME FILE...: puts the recording DIR/perf.data of a
# program built from DIR's sources where the tests read it,
# /tmp/hotblocks-rec/NAME/, with the program built again there by
# DIR/build.sh (at the path perf.data names: same compiler, same bytes).
# When a FILE (relative: one built there; else absolute, as libc) is not the
# build recorded (another gcc or libc: another build-id), the committed
# samples would land on other bytes, so the program is recorded again there
# with DIR/record.sh 1 OUTDIR. The last line on stdout says which:
# "committed" or "recorded afresh".
set -eu

here=$1 name=$2
shift 2
rec=/tmp/hotblocks-rec/$name

"$here/build.sh" "$rec" >&2
same=yes
for f; do
	case $f in /*) ;; *) f=$rec/$f ;; esac
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
