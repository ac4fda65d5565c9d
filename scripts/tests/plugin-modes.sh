#!/bin/sh
# SPDX-License-Identifier: MIT
# The plugin's ways of finding jitdumps, its options, its failure modes and its
# installation, run under real perf. Known answers come from the recordings'
# READMEs (by construction of test-data/fakejit) or from another run of the
# plugin on the same data (the reference stream of the first test, which
# plugin-vs-perf.sh checks against perf inject).
. "$(dirname "$0")/lib.sh"
need_private_tmp

fj=$top/test-data/fakejit
fakejit=$top/build/tools/fakejit

# The samples section of a stream (objects and counts), without the jitdump
# lines that name where the dump was found.
body() { grep -v -e '^jitdump ' -e '^input ' -e '^warning ' "$1" | sed 's| dump=[^ ]*||'; }
total() { awk -v c="$2" '$1 == "total" && $3 == c { s += $4 } END { print s + 0 }' "$1"; }
object_samples() {	# stream, name: samples of all objects with that name
	awk -v n="name=$2" '$1 == "object" { for (i = 4; i <= NF; i++) if ($i == n) id[$2] = 1 }
		$1 == "sample" && ($2 in id) { s += $5 } END { print s + 0 }' "$1"
}

restore_recording fakejit
plugin_stream "$fj/perf.data" "$tmp/ref.hbs" 2>"$tmp/ref.err"
check "the dump at the path perf.data recorded is found" grep -q "^jitdump /tmp/hotblocks-rec/fakejit/jit-" "$tmp/ref.hbs"

# Fallback 1: the recording moved; the dump lies next to perf.data.
rm -rf /tmp/hotblocks-rec/fakejit
mkdir "$tmp/moved"
cp "$fj/perf.data" "$fj"/jit-*.dump "$tmp/moved/"
(cd / && plugin_stream "$tmp/moved/perf.data" "$tmp/moved.hbs" 2>"$tmp/moved.err")
body "$tmp/ref.hbs" >"$tmp/a"; body "$tmp/moved.hbs" >"$tmp/b"
check "a dump next to perf.data is found when the recorded path is gone" diff -u "$tmp/a" "$tmp/b"

# Fallback 2: --dlarg jitdump=FILE, with perf.data's markers unreadable.
mkdir "$tmp/explicit"
cp "$fj/perf.data" "$tmp/explicit/"
(cd / && plugin_stream "$tmp/explicit/perf.data" "$tmp/explicit.hbs" "jitdump=$(echo "$fj"/jit-*.dump)" 2>/dev/null)
body "$tmp/explicit.hbs" >"$tmp/b"
check "--dlarg jitdump=FILE is used" diff -u "$tmp/a" "$tmp/b"

# Fallback 3: --dlarg jitdir=DIR.
mkdir "$tmp/dir"
cp "$fj"/jit-*.dump "$tmp/dir/"
(cd / && plugin_stream "$tmp/explicit/perf.data" "$tmp/jitdir.hbs" "jitdir=$tmp/dir" 2>/dev/null)
body "$tmp/jitdir.hbs" >"$tmp/b"
check "--dlarg jitdir=DIR is searched" diff -u "$tmp/a" "$tmp/b"

# No dump anywhere: JIT samples are counted as unattributed and the user is told what was searched.
(cd / && plugin_stream "$tmp/explicit/perf.data" "$tmp/none.hbs" 2>"$tmp/none.err")
jit_ref=$(total "$tmp/ref.hbs" jit)
check "without a dump the JIT samples are unattributed.jit-no-load, not lost" \
	test "$(total "$tmp/none.hbs" unattributed.jit-no-load)" -eq "$jit_ref"
check "without a dump the plugin says what it searched and how to fix it" \
	grep -q -e "searched:" -e "--dlarg jitdump=FILE" "$tmp/none.err"

# jit-only: same JIT counts, everything non-JIT and non-kernel left unresolved.
restore_recording fakejit
plugin_stream "$fj/perf.data" "$tmp/jitonly.hbs" jit-only 2>/dev/null
grep '^sample' "$tmp/ref.hbs" | sort >"$tmp/a"
awk '$1 == "object" && $3 == "jit" { j[$2] = 1 } $1 == "sample" && ($2 in j)' "$tmp/ref.hbs" | sort >"$tmp/a"
grep '^sample' "$tmp/jitonly.hbs" | sort >"$tmp/b"
check "jit-only gives the same JIT counts" diff -u "$tmp/a" "$tmp/b"
check "jit-only counts the rest as unattributed.not-resolved" test \
	"$(total "$tmp/jitonly.hbs" unattributed.not-resolved)" -eq \
	"$(( $(total "$tmp/ref.hbs" native) + $(total "$tmp/ref.hbs" unattributed.no-symbol) + $(total "$tmp/ref.hbs" unattributed.no-map) ))"

# Address reuse, by construction (test-data/fakejit/README.md): alpha and beta
# share an address and neither may absorb the other's samples; gamma was moved.
alpha=$(object_samples "$tmp/ref.hbs" alpha)
beta=$(object_samples "$tmp/ref.hbs" beta)
check "alpha and beta (same address, different times) both have samples" test "$alpha" -gt 500 -a "$beta" -gt 500
check "the moved gamma has samples at both addresses" test \
	"$(awk '$1 == "object" && / name=gamma$/' "$tmp/ref.hbs" | wc -l)" -eq 2

# perf's own filters (--time etc.): the plugin then classifies only what perf
# keeps. A window from the first sample to the one a quarter in (perf's times).
perf --no-pager script -i "$fj/perf.data" -F time 2>/dev/null | tr -d ' :' >"$tmp/times"
first=$(head -1 "$tmp/times")
mid=$(sed -n "$(($(wc -l <"$tmp/times") / 4))p" "$tmp/times")
kept=$(perf --no-pager script -i "$fj/perf.data" --time "$first,$mid" -F ip 2>/dev/null | wc -l)
perf --no-pager script -i "$fj/perf.data" --time "$first,$mid" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/time.hbs" 2>/dev/null
check "with perf's --time filter the plugin counts exactly the $kept samples perf keeps" \
	test "$(total "$tmp/time.hbs" all)" -eq "$kept" -a "$kept" -gt 100 -a "$kept" -lt "$(total "$tmp/ref.hbs" all)"
# ... alpha runs first for ~1/3 of the samples, then beta (test-data/fakejit/README.md).
check "in the first quarter of the run alpha has samples and beta none" \
	test "$(object_samples "$tmp/time.hbs" alpha)" -gt 0 -a "$(object_samples "$tmp/time.hbs" beta)" -eq 0

# perf's parser also takes a long option abbreviated and a short one with its
# value attached, bundled after another flag: the plugin must see those too.
kept=$(perf --no-pager script -i "$fj/perf.data" --tim="$first,$mid" -F ip 2>/dev/null | wc -l)
perf --no-pager script -i "$fj/perf.data" --tim="$first,$mid" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/tim.hbs" 2>/dev/null
check "with --tim=A,B (abbreviated) the plugin counts exactly the $kept samples perf keeps" \
	test "$(total "$tmp/tim.hbs" all)" -eq "$kept" -a "$kept" -gt 100
# The symbol with the most samples, whatever perf resolves it to here.
sym=$(perf --no-pager script -i "$fj/perf.data" -F ip,sym 2>/dev/null | awk '$2 != "" && $2 != "[unknown]" { print $2 }' |
	sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
kept=$(perf --no-pager script -i "$fj/perf.data" -fS"$sym" -F ip 2>/dev/null | wc -l)
perf --no-pager script -i "$fj/perf.data" -fS"$sym" --dlfilter "$PLUGIN" --dlarg "out=$tmp/sym.hbs" 2>/dev/null
check "with -fS$sym (bundled, value attached) the plugin counts exactly the $kept samples perf keeps" \
	test -n "$sym" -a "$(total "$tmp/sym.hbs" all)" -eq "$kept" -a "$kept" -gt 0 \
	-a "$kept" -lt "$(total "$tmp/ref.hbs" all)"

# A FIFO where a jitdump should be (the recorded path, jitdump=, jitdir=, next
# to perf.data, the current directory) is refused without opening it for
# reading, which would wait for a writer forever.
dumpname=$(basename "$fj"/jit-*.dump)
mkdir -p /tmp/hotblocks-rec/fakejit "$tmp/fifo-data" "$tmp/fifo-dir" "$tmp/fifo-cwd"
rm -f "/tmp/hotblocks-rec/fakejit/$dumpname"
cp "$fj/perf.data" "$tmp/fifo-data/"
for d in /tmp/hotblocks-rec/fakejit "$tmp/fifo-data" "$tmp/fifo-dir" "$tmp/fifo-cwd"; do mkfifo "$d/$dumpname"; done
(cd "$tmp/fifo-cwd" && timeout 60 perf --no-pager script -i "$tmp/fifo-data/perf.data" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/fifo.hbs" --dlarg "jitdir=$tmp/fifo-dir" --dlarg "jitdump=$tmp/fifo-dir/$dumpname" \
	2>"$tmp/fifo.err")
rc=$?
check "FIFOs at every jitdump path: perf script finishes (exit $rc)" test "$rc" -eq 0
check "... and all JIT samples are unattributed, not lost" \
	test "$(total "$tmp/fifo.hbs" unattributed.jit-no-load)" -eq "$jit_ref"
n=0
for d in /tmp/hotblocks-rec/fakejit "$tmp/fifo-data" "$tmp/fifo-dir" "$tmp/fifo-cwd"; do
	grep -q "$d/$dumpname: not a regular file" "$tmp/fifo.err" && n=$((n + 1))
done
check "... each FIFO is named as not a regular file ($n of 4)" test "$n" -eq 4
rm -f "/tmp/hotblocks-rec/fakejit/$dumpname"

# A jit-<pid>.dump that is not the recording's: another process's dump under
# this pid's name (its header pid differs), or a file for a pid that perf.data
# records no jitdump of. Neither may take the samples; both are named.
mkdir "$tmp/foreign"
cp "$fj/perf.data" "$tmp/foreign/"
other=$(basename "$dumpname" .dump | sed 's/jit-//'); other=$((other + 1))
cp "$fj/$dumpname" "$tmp/foreign/$dumpname"
# The header's pid (u32 at offset 20, little-endian) becomes another process's.
printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((other & 255)) $((other >> 8 & 255)) \
	$((other >> 16 & 255)) $((other >> 24 & 255)))" |
	dd of="$tmp/foreign/$dumpname" bs=1 seek=20 conv=notrunc status=none
(cd / && plugin_stream "$tmp/foreign/perf.data" "$tmp/foreign.hbs" 2>"$tmp/foreign.err")
check "a dump whose header pid is not its name's is not used" \
	test "$(total "$tmp/foreign.hbs" jit)" -eq 0 -a "$(total "$tmp/foreign.hbs" unattributed.jit-no-load)" -eq "$jit_ref"
check "... and the plugin says why" grep -q "its header says pid [0-9]*, not [0-9]*: another process's dump" "$tmp/foreign.err"
# perf.data of a program that wrote no jitdump (its samples are file-backed),
# and a jit-<pid>.dump for its pid lying next to it.
mkdir "$tmp/nodump"
(cd "$tmp/nodump" && perf record -q -k mono -e cpu-clock -F 999 -o perf.data sh -c 'echo $$ >pid; i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' 2>/dev/null)
p=$(cat "$tmp/nodump/pid")
printf '' >"$tmp/nodump/jit-$p.dump"
(cd "$tmp/nodump" && plugin_stream perf.data s.hbs 2>err)
check "a jit-<pid>.dump for a pid perf.data records no jitdump of is not used, and said" \
	grep -q "jit-$p.dump not used: perf.data records no jitdump mapping of pid $p" "$tmp/nodump/err"
check "... and not read" sh -c "! grep -q '^jitdump ' '$tmp/nodump/s.hbs'"
# A moved recording (--keep, another machine): the dump found next to
# perf.data is used without a warning, for nothing is wrong; the stream's
# jitdump line names the file read.
check "a dump used from a fallback directory: no warning, the stream names the file read" sh -c \
	"grep -q '^jitdump $tmp/moved/$dumpname pid=[0-9]* loads=[0-9]* status=ok' '$tmp/moved.hbs' &&
	! grep -q 'warning' '$tmp/moved.err'"

# A header total_size past the end of the file (0xffffffff) is said as such,
# not as a truncated last record.
cp "$fj/perf.data" "$tmp/hdr/" 2>/dev/null || { mkdir "$tmp/hdr" && cp "$fj/perf.data" "$tmp/hdr/"; }
cp "$fj/$dumpname" "$tmp/hdr/"
printf '\377\377\377\377' | dd of="$tmp/hdr/$dumpname" bs=1 seek=8 conv=notrunc status=none
(cd / && plugin_stream "$tmp/hdr/perf.data" "$tmp/hdr.hbs" 2>"$tmp/hdr.err")
check "a jitdump header total_size of 0xffffffff is named, not called a truncation" \
	sh -c "grep -q '$dumpname+0x8: header total_size 4294967295 runs past the end of the file' '$tmp/hdr.err' &&
		! grep -q 'truncated' '$tmp/hdr.err' && grep -q 'status=header-past-end' '$tmp/hdr.hbs'"

# Usage errors stop perf with a message and status 2; help explains the options and succeeds.
perf --no-pager script -i "$fj/perf.data" --dlfilter "$PLUGIN" --dlarg bogus >/dev/null 2>"$tmp/bogus.err"
rc=$?
check "an unknown --dlarg fails with status 2 and a message" \
	test "$rc" -eq 2 -a -n "$(grep "unknown --dlarg 'bogus'" "$tmp/bogus.err")"
perf --no-pager script -i "$fj/perf.data" --dlfilter "$PLUGIN" --dlarg help >"$tmp/help.out" 2>&1
rc=$?
check "--dlarg help lists the options and exits 0" test "$rc" -eq 0 -a -n "$(grep "jitdump=FILE" "$tmp/help.out")"

# out=FILE: never the input, checked before reading, a failed write fails the run.
cp "$fj/perf.data" "$tmp/in.data"
cp "$tmp/in.data" "$tmp/in.orig"
ln -s in.data "$tmp/in-link.data"
for o in "$tmp/in.data" "$tmp/in-link.data"; do
	perf --no-pager script -i "$tmp/in.data" --dlfilter "$PLUGIN" --dlarg "out=$o" >/dev/null 2>"$tmp/self.err"
	rc=$?
	check "out=$(basename "$o") (the input) is refused, status 1, perf.data intact" \
		sh -c "test $rc -eq 1 && grep -q 'is the input perf.data; refusing' '$tmp/self.err' && cmp '$tmp/in.data' '$tmp/in.orig'"
done
restore_recording fakejit
perf --no-pager script -i "$fj/perf.data" --dlfilter "$PLUGIN" \
	--dlarg "out=/tmp/hotblocks-rec/fakejit/$(basename "$fj"/jit-*.dump)" >/dev/null 2>"$tmp/dumpout.err"
rc=$?
check "out= naming the jitdump being read is refused" \
	sh -c "test $rc -eq 1 && grep -q 'is the jitdump' '$tmp/dumpout.err' && cmp /tmp/hotblocks-rec/fakejit/jit-*.dump '$fj'/jit-*.dump"
perf --no-pager script -i "$fj/perf.data" --dlfilter "$PLUGIN" --dlarg "out=$tmp/no/such/dir/s.hbs" \
	>/dev/null 2>"$tmp/nodir.err"
rc=$?
check "out= in a missing directory fails at once with status 1" \
	sh -c "test $rc -eq 1 && grep -q 'cannot write $tmp/no/such/dir/s.hbs: No such file' '$tmp/nodir.err'"
if [ -w /dev/full ]; then
	perf --no-pager script -i "$fj/perf.data" --dlfilter "$PLUGIN" --dlarg out=/dev/full >/dev/null 2>"$tmp/full.err"
	rc=$?
	check "a failed write (out=/dev/full) fails the run with status 1" \
		sh -c "test $rc -eq 1 && grep -q 'writing the stream to /dev/full failed' '$tmp/full.err'"
	perf --no-pager script -i "$fj/perf.data" --dlfilter "$PLUGIN" >/dev/full 2>"$tmp/full2.err"
	rc=$?
	check "a failed write to standard output fails the run with status 1" test "$rc" -eq 1
else
	not_ok "/dev/full is writable (needed to test failed writes)"
fi
printf 'a much longer old content than any stream has %0100000d\n' 0 >"$tmp/old.hbs"
plugin_stream "$fj/perf.data" "$tmp/old.hbs" 2>/dev/null
check "an existing longer out= file is replaced, not left with its old tail" \
	test "$(tail -n 1 "$tmp/old.hbs")" = end

# A recording without -k mono: not time-aware, said once, still attributed.
if [ -x "$fakejit" ]; then
	mkdir "$tmp/nomono"
	(cd "$tmp/nomono" && perf record -q -e cpu-clock -F 999 -o perf.data "$fakejit" >/dev/null 2>&1)
	(cd "$tmp/nomono" && plugin_stream perf.data s.hbs 2>err)
	check "without -k mono the stream says time-aware no" grep -qx "time-aware no" "$tmp/nomono/s.hbs"
	check "without -k mono the plugin warns once" test "$(grep -c "perf record -k mono" "$tmp/nomono/err")" -eq 1

	# Pipe mode, live: the dump grows while perf script reads; found in the cwd.
	mkdir "$tmp/pipe"
	(cd "$tmp/pipe" && perf record -q -k mono -e cpu-clock -F 999 -o - "$fakejit" 2>/dev/null |
		perf --no-pager script -i - --dlfilter "$PLUGIN" --dlarg out=s.hbs 2>err)
	all=$(total "$tmp/pipe/s.hbs" all); jit=$(total "$tmp/pipe/s.hbs" jit)
	check "pipe mode: live jitdump read, most samples JIT ($jit of $all)" test "$all" -gt 100 -a $((jit * 10)) -gt $((all * 8))
	check "pipe mode: alpha, beta and gamma all resolved" test \
		"$(object_samples "$tmp/pipe/s.hbs" alpha)" -gt 0 -a "$(object_samples "$tmp/pipe/s.hbs" beta)" -gt 0 -a \
		"$(object_samples "$tmp/pipe/s.hbs" gamma)" -gt 0
else
	not_ok "build/tools/fakejit exists (make check builds it)"
fi

# make install: by bare name from any directory, and listed with its description.
make -s -C "$top" install DESTDIR="$tmp/dest" PREFIX=/usr >/dev/null 2>"$tmp/install.err"
execpath=$tmp/dest$(perf --exec-path)
check "make install puts the plugin in perf's exec path" test -f "$execpath/dlfilters/hotblocks.so"
perf --exec-path="$execpath" script --list-dlfilters >"$tmp/list" 2>&1
check "perf script --list-dlfilters shows hotblocks.so with a description" \
	grep -q "hotblocks.so.*hot basic blocks" "$tmp/list"
(cd / && perf --no-pager --exec-path="$execpath" script -i "$fj/perf.data" --dlfilter hotblocks.so \
	--dlarg "out=$tmp/bare.hbs" 2>/dev/null)
check "--dlfilter hotblocks.so works by bare name from another directory" \
	test "$(total "$tmp/bare.hbs" jit)" -eq "$jit_ref"
