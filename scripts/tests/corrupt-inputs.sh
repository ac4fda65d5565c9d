#!/bin/sh
# SPDX-License-Identifier: MIT
# Hostile input: every reader meets truncated, oversized, byte-swapped and
# garbage files. Each case must end in one of the documented ways, never in a
# crash, a hang or unbounded memory:
#   plugin (under real perf): perf exits 0; a warning names the file and the
#     byte offset (or the plugin counts what it skipped); the stream is complete.
#   hotblocks: exit 1 with "hotblocks: error: FILE:LINE: ..." (bad input),
#     or exit 0 with a counted "hotblocks: note: ..." where skipping is right.
# Everything runs under `ulimit -v` (address space) and `timeout`.
. "$(dirname "$0")/lib.sh"
need_private_tmp

fj=$top/test-data/fakejit
LIMIT_KB=4000000	# perf maps large files; 4 GB of address space is still bounded

# le32 VALUE: 4 little-endian bytes as printf octal escapes
le32() { printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
# patch FILE OFFSET ESCAPES: overwrite bytes in place
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

# bounded CMD...: run with the memory and time limits; returns the command's status.
bounded() { (ulimit -v $LIMIT_KB; exec timeout 60 "$@"); }

# The fakejit dump's records (test-data/fakejit/README.md; offsets checked with od):
# header 0..40, DEBUG_INFO 40 (146 B), LOAD alpha 186 (90), LOAD beta 276 (91),
# LOAD gamma 367 (91), MOVE 458 (64), CLOSE 522 (16), end 538.
rm -rf /tmp/hotblocks-rec/fakejit	# so the dump next to perf.data is the one read
case_n=0

# plugin_case NAME REGEX [FILE]: run perf script with $tmp/dump as the dump next to
# perf.data; REGEX must match the plugin's stderr (or FILE: s.hbs, the stream).
plugin_case() {
	case_n=$((case_n + 1))
	d=$tmp/pc$case_n
	mkdir -p "$d"
	cp "$fj/perf.data" "$d/"
	cp "$tmp/dump" "$d/jit-6377.dump"
	bounded perf --no-pager script -i "$d/perf.data" --dlfilter "$PLUGIN" --dlarg "out=$d/s.hbs" \
		>"$d/out" 2>"$d/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "perf exited $rc" >>"$d/err"; not_ok "plugin: $1" "$d/err"
	elif ! grep -q "$2" "$d/${3:-err}"; then
		echo "expected stderr to match: $2" >>"$d/err"; not_ok "plugin: $1" "$d/err"
	elif [ "$(tail -1 "$d/s.hbs")" != end ]; then
		not_ok "plugin: $1 (stream incomplete)" "$d/err"
	else
		ok "plugin: $1"
	fi
}
fresh() { cp "$fj"/jit-*.dump "$tmp/dump"; }

# Truncation at every record boundary and in the middle of fields.
for cut in 20 40 50 100 186 200 240 276 300 367 400 458 470 522 530; do
	fresh; head -c $cut "$fj"/jit-*.dump >"$tmp/dump"
	if [ $cut -lt 40 ]; then
		plugin_case "dump cut at byte $cut (inside the header)" "jit-6377.dump.*shorter than\|jit-6377.dump.*header"
	else
		case $cut in
		# A cut on a record boundary is a shorter dump, not an error: the
		# stream lists the loads before the cut (the MOVE adds one).
		40|186) plugin_case "dump cut at byte $cut (record boundary)" "loads=0 status=ok" s.hbs ;;
		276) plugin_case "dump cut at byte $cut (record boundary)" "loads=1 status=ok" s.hbs ;;
		367) plugin_case "dump cut at byte $cut (record boundary)" "loads=2 status=ok" s.hbs ;;
		458) plugin_case "dump cut at byte $cut (record boundary)" "loads=3 status=ok" s.hbs ;;
		522) plugin_case "dump cut at byte $cut (record boundary)" "loads=4 status=ok" s.hbs ;;
		*) plugin_case "dump cut at byte $cut (mid-record)" \
			"jit-6377.dump+0x[0-9a-f]*: last record is incomplete" ;;
		esac
	fi
done

fresh; patch "$tmp/dump" 0 "$(le32 0x12345678)"
plugin_case "wrong magic" "jit-6377.dump+0x0: .*magic"
fresh; patch "$tmp/dump" 0 "$(le32 0x4454694A)"
plugin_case "byte-swapped magic on a little-endian file" "jit-6377.dump+0x4: .*version"
fresh; patch "$tmp/dump" 4 "$(le32 2)"
plugin_case "jitdump version 2" "jit-6377.dump+0x4: .*version"
fresh; patch "$tmp/dump" 32 "$(le32 4)"
plugin_case "reserved header flag bit" "jit-6377.dump+0x20: .*flag"
fresh; patch "$tmp/dump" 32 "$(le32 1)"
plugin_case "arch timestamps (TSC) refused" "jit-6377.dump+0x20: .*TIME_CONV\|jit-6377.dump+0x20: .*arch"
fresh; patch "$tmp/dump" 8 "$(le32 30)"
plugin_case "header total_size 30 < 40" "jit-6377.dump+0x8: .*total_size"
fresh; patch "$tmp/dump" 190 "$(le32 8)"
plugin_case "record total_size 8 < 16" "jit-6377.dump+0xba: record total_size 8"
fresh; patch "$tmp/dump" 190 "$(le32 0xffffffff)"
plugin_case "record total_size near 2^32 at a record start" "jit-6377.dump+0xba: "
fresh; patch "$tmp/dump" 226 "$(le32 0xffffffff)$(le32 0xffffffff)"
plugin_case "LOAD code_size near 2^64" "jit-6377.dump+0xba: .*code_size"
fresh; patch "$tmp/dump" 242 '\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101\101'
plugin_case "LOAD name without its NUL (runs into the code)" "jit-6377.dump+0xba: "
fresh; patch "$tmp/dump" 186 "$(le32 77)"
plugin_case "unknown record type skipped and counted" "skipped 1 records of unknown type"
fresh; patch "$tmp/dump" 514 "$(le32 99)"
plugin_case "MOVE of a code_index never loaded skipped and counted" "skipped 1 CODE_MOVE"
fresh; patch "$tmp/dump" 64 "$(le32 0x7fffffff)"
plugin_case "DEBUG_INFO nr_entry near 2^31" "jit-6377.dump+0x28: "
fresh; patch "$tmp/dump" 226 "$(le32 0)$(le32 0)"
plugin_case "zero-size code load (accepted; its samples unattributed)" "warning"
# beta loaded over alpha's address is the normal case; make gamma overlap both.
fresh; patch "$tmp/dump" 399 '\000\000\000\000\000\177\000\000'
plugin_case "overlapping code loads (gamma over alpha and beta)" "warning\|matched"

# perf.data given to the marker scan (perf itself reads the good copy).
mkdir -p "$tmp/pd"
cp "$fj/perf.data" "$tmp/pd/"
pd_case() {	# name file regex
	bounded perf --no-pager script -i "$tmp/pd/perf.data" --dlfilter "$PLUGIN" \
		--dlarg "out=$tmp/pd/s.hbs" --dlarg "perf-data=$2" >/dev/null 2>"$tmp/pd/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "$3" "$tmp/pd/err" && [ "$(tail -1 "$tmp/pd/s.hbs")" = end ]; then
		ok "perf.data scan: $1"
	else
		echo "rc $rc; expected: $3" >>"$tmp/pd/err"; not_ok "perf.data scan: $1" "$tmp/pd/err"
	fi
}
head -c 50 "$fj/perf.data" >"$tmp/pd/short.data"
pd_case "header cut at 50 bytes" "$tmp/pd/short.data" "short.data+0x[0-9a-f]*: "
printf 'not a perf file at all, just text\n' >"$tmp/pd/text.data"
pd_case "not a perf.data file" "$tmp/pd/text.data" "text.data+0x0: "
cp "$fj/perf.data" "$tmp/pd/bad.data"
doff=$(od -An -t u8 -j 40 -N 8 "$fj/perf.data" | tr -d ' ')	# data section offset
patch "$tmp/pd/bad.data" $((doff + 6)) '\002\000'
pd_case "record size 2 < 8 in the data section" "$tmp/pd/bad.data" "bad.data+0x[0-9a-f]*: record size 2"
pd_case "missing perf.data" "$tmp/pd/nonexistent.data" "nonexistent.data"

# The annotated stream, read by hotblocks.
good=$tmp/good.hbs
plugin_stream "$fj/perf.data" "$good" "jitdump=$(echo "$fj"/jit-*.dump)" 2>/dev/null
stream_case() {	# name expected-exit regex  (input in $tmp/in.hbs)
	bounded "$POSTPROC" "$tmp/in.hbs" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq "$2" ] && grep -q "$3" "$tmp/err"; then
		ok "stream: $1"
	else
		echo "exit $rc, expected $2; stderr should match: $3" >>"$tmp/err"; not_ok "stream: $1" "$tmp/err"
	fi
}
sed 's/^hotblocks-stream 1$/hotblocks-stream 2/' "$good" >"$tmp/in.hbs"
stream_case "a newer major version" 1 "in.hbs:1: .*version"
head -n 20 "$good" >"$tmp/in.hbs"
stream_case "truncated: no end line" 1 "in.hbs:[0-9]*: .*\(truncated\|end\)"
head -c 1000 "$good" >"$tmp/in.hbs"
stream_case "truncated mid-line" 1 "in.hbs:[0-9]*: "
sed 's/^end$/frobnicate 1 2 3\nend/' "$good" >"$tmp/in.hbs"
stream_case "an unknown record kind (skipped, counted)" 0 "note: .*1 .*unknown\|note: .*skipped"
sed 's/^\(sample 0 0 0x[0-9a-f]*\) [0-9]* /\1 99999999999999999999999 /' "$good" >"$tmp/in.hbs"
stream_case "a count past 2^64" 1 "in.hbs:[0-9]*: "
sed 's/^sample 0 0 0x[0-9a-f]* /sample 0 0 0x1ffffffffffffffff /' "$good" >"$tmp/in.hbs"
stream_case "an offset past 2^64" 1 "in.hbs:[0-9]*: "
sed 's/^sample 0 /sample 4242 /' "$good" >"$tmp/in.hbs"
stream_case "a sample of an undeclared object" 1 "in.hbs:[0-9]*: "
sed 's/^\(code 0 0x0 \)../\1zz/' "$good" >"$tmp/in.hbs"
stream_case "non-hex code bytes" 1 "in.hbs:[0-9]*: "
sed '/^code 1 0x0 /d' "$good" >"$tmp/in.hbs"
awk '$1 == "code" && $2 == 1 { n++ } END { exit n != 0 }' "$tmp/in.hbs" &&
	sed 's/^object 1 \(.*\)$/object 1 \1\ncode 1 0x10 c3/' "$tmp/in.hbs" >"$tmp/x" && mv "$tmp/x" "$tmp/in.hbs"
stream_case "a gap in the code chunks" 1 "in.hbs:[0-9]*: "
: >"$tmp/in.hbs"
stream_case "an empty file" 1 "in.hbs"
head -c 3000 /dev/urandom >"$tmp/in.hbs"
stream_case "binary garbage" 1 "in.hbs:[0-9]*: "
{ head -n 5 "$good"; head -c 3000000 /dev/zero | tr '\0' 'x'; echo; cat "$good"; } >"$tmp/in.hbs"
stream_case "a 3 MB line" 1 "in.hbs:[0-9]*: "
sed 's/^object 0 jit /object 0 interpreter /' "$good" >"$tmp/in.hbs"
stream_case "an unknown object kind (skipped with its lines, counted)" 0 "note: "
sed 's/e_machine=62/e_machine=40/' "$good" >"$tmp/in.hbs"
stream_case "an architecture capstone is not set up for (counted)" 0 "note: .*not disassembled"
awk '$1 == "object" && $2 == 1 { print; print } $1 != "object" || $2 != 1' "$good" >"$tmp/in.hbs"
stream_case "the same object id twice in a section" 1 "in.hbs:[0-9]*: "
printf 'hotblocks-stream 1\n\000\000\000\nend\n' >"$tmp/in.hbs"
stream_case "NUL bytes in a line" 1 "in.hbs:2: "
