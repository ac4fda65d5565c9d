#!/bin/sh
# SPDX-License-Identifier: MIT
# jit-oracle.sh DIR: perf's own attribution of the recording DIR/perf.data
# (DIR is test-data/NAME, NAME may have a slash), written into DIR as the oracle
# the hotblocks tests compare with:
#   oracle-sym.txt     perf script -F ip,sym,symoff,dso counted per symbol (dso)
#   oracle-symoff.txt  the same counted per symbol+offset (dso)
#   oracle-report.txt  perf report --stdio --no-children --sort sym, its top lines
# (each sorted by count, the hottest first; "[unknown]" is perf's own word).
#
# Runs in a private /tmp (scripts/with-private-tmp): the recording's files are
# put back where it ran first, by DIR/restore.sh when there is one, else by
# copying DIR/jit-*.dump to /tmp/hotblocks-rec/NAME/ (as the tests'
# restore_recording does). When DIR holds a jitdump, perf.data goes through
# `perf inject --jit` first (it writes jitted-PID-N.so beside the dump, in
# the private /tmp); a perf map is read by perf script from /tmp/perf-PID.map
# itself.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
here=$(cd "$1" && pwd)
name=${here#"$top"/test-data/}
data=$here/perf.data
via=
if [ -z "${HOTBLOCKS_PRIVATE_TMP:-}" ]; then
	exec "$top/scripts/with-private-tmp" "$0" "$@"
fi

rec=/tmp/hotblocks-rec/$name
if [ -x "$here/restore.sh" ]; then
	"$here/restore.sh" >/dev/null
else
	mkdir -p "$rec"
	for d in "$here"/jit-*.dump; do
		[ -e "$d" ] && cp "$d" "$rec/"
	done
fi

work=$(mktemp -d /tmp/oracle.XXXXXX)
set -- "$here"/*.dump
if [ -e "$1" ]; then
	perf --no-pager inject --jit -i "$data" -o "$work/perf.jit.data"
	data=$work/perf.jit.data
	via="after perf inject --jit"
fi
perf --no-pager script -i "$data" -F ip,sym,symoff,dso >"$work/script" 2>"$work/script.err"

# A line is "IP SYM+0xOFF (DSO)" (SYM may hold spaces; no +0x for [unknown]).
sed -e 's/^ *[0-9a-f]* //' "$work/script" >"$work/symoff"
sed -e 's/+0x[0-9a-f]* (\([^()]*\))$/ (\1)/' "$work/symoff" >"$work/sym"
total=$(wc -l <"$work/symoff")
count() {
	{
		echo "# $total samples: perf script -F ip,sym,symoff,dso${3:+ ($3)}, counted per $2"
		sort "$1" | uniq -c | sort -k1,1nr -k2
	} >"$4"
}
count "$work/sym" "symbol (dso)" "$via" "$here/oracle-sym.txt"
count "$work/symoff" "symbol+offset (dso)" "$via" "$here/oracle-symoff.txt"
{
	echo "# perf report --stdio --no-children --sort sym${via:+ ($via)}, the top 40 lines"
	perf --no-pager report -i "$data" --stdio --no-children --sort sym 2>/dev/null |
		grep -v '^$' | grep -v '^# *$' | head -48
} >"$here/oracle-report.txt"
echo "oracle of $data: $total samples -> $here/oracle-{sym,symoff,report}.txt"
