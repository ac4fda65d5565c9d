#!/bin/sh
# SPDX-License-Identifier: MIT
# No input to the plugin makes the stream unreadable (plugin/STREAM.md
# "Lines"): a JIT function whose name is 360 KB of CJK, run and recorded for
# real (build/tools/fakejit --beta-name-bytes: "beta" and 120,000 x U+6F22),
# gives a stream whose lines all fit the limit, beta's name cut and marked
# with its full length, and a report of all three functions. A stream with
# the whole name on one 1 MB line (what the plugin wrote before) loses beta's
# object alone, with a note naming the file and line. Expected values follow
# from fakejit's construction (test-data/fakejit/README.md) and STREAM.md.
. "$(dirname "$0")/lib.sh"

fakejit=$top/build/tools/fakejit
if [ ! -x "$fakejit" ]; then
	not_ok "build/tools/fakejit exists (make check builds it)"
	exit 0
fi
limit=$(sed -n 's/^#define HB_STREAM_LINE_MAX \([0-9]*\).*/\1/p' "$top/plugin/lib/stream-format.h")
longest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }

mkdir "$tmp/rec"
(cd "$tmp/rec" && perf record -q -k mono -e cpu-clock -F 999 -o perf.data "$fakejit" --beta-name-bytes=360004 \
	>fakejit.out 2>&1)
check "fakejit with a 360 KB name for beta was recorded" test -s "$tmp/rec/perf.data"
(cd "$tmp/rec" && plugin_stream perf.data s.hbs 2>plugin.err)
n=$(longest "$tmp/rec/s.hbs")
check "no line of the stream is longer than the limit ($n <= $limit bytes)" test "$n" -le "$limit"
check "beta's object line says its name's full length" grep -q "^object .* name=beta%E6%BC%A2.*%E2%80%A6 name-length=360004$" "$tmp/rec/s.hbs"

"$POSTPROC" -p 100 "$tmp/rec/s.hbs" >"$tmp/report" 2>"$tmp/report.err"
rc=$?
check "hotblocks reads the stream (exit $rc)" test "$rc" -eq 0
check "... and reports alpha, gamma and beta, the last by its cut name" sh -c "
	grep -q '^\`alpha\` :: block' '$tmp/report' && grep -q '^\`gamma\` :: block' '$tmp/report' &&
	grep -q '^\`beta漢漢漢.*漢…\` :: block' '$tmp/report'"
check "... with a note giving the name's full length" \
	grep -q "^hotblocks: note: 1 code object had a name or path longer than a stream takes: shown cut, ending in …; the name of 'beta漢漢漢漢漢漢漢漢漢漢漢漢…' is 360004 bytes long$" "$tmp/report.err"

# The name whole, on one line of about 1 MB, as the plugin wrote it before.
awk '/ name-length=360004$/ {
	name = "beta"; for (i = 0; i < 120000; i++) name = name "%E6%BC%A2"
	sub(/ name=[^ ]*/, " name=" name); sub(/ name-length=360004$/, "")
} { print }' "$tmp/rec/s.hbs" >"$tmp/long.hbs"
line=$(grep -n "name=beta" "$tmp/long.hbs" | cut -d: -f1)
id=$(awk '/ name=beta/ { print $2 }' "$tmp/long.hbs")
beta=$(awk -v id="$id" '$1 == "sample" && $2 == id { s += $5 } END { print s + 0 }' "$tmp/long.hbs")
refs=$(awk -v id="$id" '($1 == "code" || $1 == "debug" || $1 == "sample") && $2 == id { n++ } END { print n + 0 }' "$tmp/long.hbs")
check "the hand-made stream has beta's object on a line over the limit" test "$(longest "$tmp/long.hbs")" -gt "$limit"
"$POSTPROC" -p 100 "$tmp/long.hbs" >"$tmp/long.out" 2>"$tmp/long.err"
rc=$?
check "hotblocks reads a stream with a line over the limit (exit $rc)" test "$rc" -eq 0
check "... losing beta's object alone: alpha and gamma are reported" sh -c "
	grep -q '^\`alpha\` :: block' '$tmp/long.out' && grep -q '^\`gamma\` :: block' '$tmp/long.out' &&
	! grep -q '^\`beta' '$tmp/long.out'"
check "... with a note naming the file, the line and what was lost ($refs lines, $beta samples)" \
	grep -q "^hotblocks: note: $tmp/long.hbs:$line: a line of [0-9]* bytes is longer than a stream's lines can be ($limit): lost object $id and the $refs lines naming it ($beta samples: counted in the total, in no function)$" "$tmp/long.err"
