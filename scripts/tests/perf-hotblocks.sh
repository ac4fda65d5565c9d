#!/bin/sh
# SPDX-License-Identifier: MIT
# `perf hotblocks` (scripts/perf-hotblocks) under real perf: one command from
# program to hot blocks on build/tools/fakejit, whose known answer is that its
# JIT functions alpha, beta and gamma are the hot code (test-data/fakejit/README.md);
# record then report from elsewhere, -o, --jitdir, -- ending the options of
# every subcommand, help and usage errors, perf's own dispatcher, --html and
# --dot, make install, the man pages, and the wasm subcommand without and
# with the real wasmtime (scripts/get-wasmtime), whose -- is taken as
# wasmtime 48.0.2's `hot-blocks` takes it, and whose --keep reports again
# without a warning.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"

script=$top/scripts/perf-hotblocks
fakejit=$top/build/tools/fakejit
real_wasmtime=$("$top/scripts/get-wasmtime" --print-dir)/cli-48.0.2/wasmtime
ph() { "$script" "$@"; }
# perf runs perf-hotblocks from the exec path given with --exec-path (and from PATH).
execdir=$tmp/exec-path
mkdir "$execdir"
ln -s "$script" "$execdir/perf-hotblocks"

# The functions of the report's blocks, hottest first, one per line.
# shellcheck disable=SC2016
block_funcs() { sed -n 's/^`\(.*\)` :: block 0x[0-9a-f]* :: .*/\1/p' "$1"; }
# Known answer: alpha, beta and gamma all have blocks, and the three hottest
# blocks are theirs (together about 80% of fakejit's samples).
known_answer() {	# report
	for f in alpha beta gamma; do
		block_funcs "$1" | grep -qx "$f" || { echo "no block of $f in:"; cat "$1"; return 1; }
	done
	block_funcs "$1" | head -3 | grep -qvx -e alpha -e beta -e gamma &&
		{ echo "a block other than alpha/beta/gamma among the 3 hottest:"; cat "$1"; return 1; }
	return 0
}

if ! [ -x "$fakejit" ]; then
	not_ok "build/tools/fakejit exists (make check builds it)"
	exit 0
fi

# 1. No subcommand: record and report in a temporary directory, leave nothing behind.
mkdir "$tmp/run" "$tmp/tmpdir"
(cd "$tmp/run" && TMPDIR=$tmp/tmpdir ph -p 100 -- "$fakejit" >"$tmp/run.out" 2>"$tmp/run.err")
rc=$?
check "perf hotblocks -- fakejit exits 0" test "$rc" -eq 0
check "perf hotblocks -- fakejit: alpha, beta and gamma are the hot blocks" known_answer "$tmp/run.out"
check "perf hotblocks says which event and rate it samples" \
	grep -Eq "sampling (cycles|cpu-clock) .*at [0-9]+ Hz" "$tmp/run.err"
check "perf hotblocks removes its temporary directory" test -z "$(ls -A "$tmp/tmpdir")"
check "perf hotblocks leaves no perf.data or jit dump in the current directory" test -z "$(ls -A "$tmp/run")"
# node --perf-prof writes V8's isolate-*-v8.log beside its dump: gone with it.
mkdir "$tmp/noderun"
(cd "$tmp/noderun" && TMPDIR=$tmp/tmpdir ph -p 100 -- node --perf-prof "$top/test-data/srcline/hot.js" \
	>"$tmp/node.out" 2>"$tmp/node.err")
check "perf hotblocks -- node --perf-prof reports V8's JS code" grep -Eq '^`(JS|LazyCompile|Function):' "$tmp/node.out"
check "perf hotblocks -- node --perf-prof leaves nothing in the current directory (no isolate-*-v8.log)" \
	test -z "$(ls -A "$tmp/noderun")$(ls -A "$tmp/tmpdir")"

# 1b. Other processes' dumps in the same directory are not the run's: one that
# existed before and one another (unrecorded) process writes during the run
# must both survive it, unchanged; the run's own dump goes away.
mkdir "$tmp/shared"
printf 'older\n' >"$tmp/shared/jit-77777.dump"
(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	printf 'live %s\n' "$i" >>"$tmp/shared/jit-99999.dump"; touch "$tmp/shared/jit-77777.dump"; sleep 0.1
done) &
writer=$!
(cd "$tmp/shared" && ph -p 100 -- "$fakejit" >"$tmp/shared.out" 2>"$tmp/shared.err")
rc=$?
wait "$writer"
check "perf hotblocks with other JITs' dumps around: alpha, beta and gamma" known_answer "$tmp/shared.out"
check "a dump that was there before the run is left alone" \
	test "$(cat "$tmp/shared/jit-77777.dump" 2>&1)" = older
check "a dump another process wrote during the run is left alone" \
	test "$(wc -l <"$tmp/shared/jit-99999.dump" 2>&1)" -eq 20
check "the run's own dump is removed" \
	test "$(ls "$tmp/shared")" = "$(printf 'jit-77777.dump\njit-99999.dump')"

# 1c. The command's own output is not the report's: it goes to standard
# error, standard output is the report alone; a command that fails is said
# to, after the report, and its status is perf hotblocks' own.
mkdir "$tmp/own"
(cd "$tmp/own" && ph -p 100 -- sh -c 'echo the-program-says; "$1"; exit 3' sh "$fakejit" \
	>"$tmp/own.out" 2>"$tmp/own.err")
rc=$?
check "perf hotblocks -- CMD that exits 3: exit status 3" test "$rc" -eq 3
check "perf hotblocks -- CMD that exits 3: still its report" known_answer "$tmp/own.out"
check "perf hotblocks -- CMD: CMD's standard output is not in the report" \
	sh -c "! grep -q the-program-says '$tmp/own.out'"
check "perf hotblocks -- CMD: CMD's standard output is on standard error" grep -qx the-program-says "$tmp/own.err"
check "perf hotblocks -- CMD that exits 3: the last line says so" \
	test "$(tail -n 1 "$tmp/own.err")" = "perf hotblocks: sh exited with status 3"
(cd "$tmp/own" && ph -p 100 -- sh -c '"$1"; kill -TERM $$' sh "$fakejit" >"$tmp/sig.out" 2>"$tmp/sig.err")
rc=$?
check "perf hotblocks -- CMD killed by SIGTERM: exit 143, and said so" sh -c \
	"test $rc -eq 143 && grep -qx 'perf hotblocks: sh was killed by SIGTERM (exit status 143)' '$tmp/sig.err'"
check "perf hotblocks -- CMD killed by SIGTERM: still its report" known_answer "$tmp/sig.out"
# record only: the command's output is its own, on standard output.
(cd "$tmp/own" && ph record -o own.data -- sh -c 'echo the-program-says; "$1"' sh "$fakejit" \
	>"$tmp/recown.out" 2>/dev/null)
check "perf hotblocks record -- CMD: CMD's standard output stays on standard output" \
	grep -qx the-program-says "$tmp/recown.out"
rm -f "$tmp/own"/*

# 1d. -- ends the options of every subcommand: after it, -p and -o are the
# command's or a recording's name, not options.
(cd "$tmp/own" && ph -p 100 -- sh -c 'echo "args: $*"; "$1"' sh "$fakejit" -p 1 -- x \
	>"$tmp/dd.out" 2>"$tmp/dd.err")
check "perf hotblocks -- CMD ARGS: ARGS with -p and -- are the command's" \
	grep -qx "args: $fakejit -p 1 -- x" "$tmp/dd.err"
check "perf hotblocks -- CMD ARGS: the report of CMD" known_answer "$tmp/dd.out"
(cd "$tmp/own" && ph record -o dd.data -- sh -c 'echo "args: $*"' sh -o x >"$tmp/ddrec.out" 2>/dev/null)
check "perf hotblocks record -o F -- CMD -o x: the second -o is the command's" sh -c \
	"grep -qx 'args: -o x' '$tmp/ddrec.out' && test -s '$tmp/own/dd.data' && test ! -e '$tmp/own/x'"
ph report -i "$tmp/own/dd.data" -- --json >/dev/null 2>"$tmp/ddrep.err"
rc=$?
check "perf hotblocks report -- --json: --json is no option there (exit 2, an unexpected argument)" sh -c \
	"test $rc -eq 2 && grep -q \"unexpected argument '--json'\" '$tmp/ddrep.err'"
ph archive -i "$tmp/own/dd.data" -o "$tmp/own/dd.hba" -- --json >/dev/null 2>"$tmp/ddarc.err"
rc=$?
check "perf hotblocks archive -o A -- --json: --json is no option there (exit 2, an unexpected argument, no archive)" sh -c \
	"test $rc -eq 2 && grep -q \"unexpected argument '--json'\" '$tmp/ddarc.err' && test ! -e '$tmp/own/dd.hba'"
ph archive -i "$tmp/own/dd.data" -o "$tmp/own/dd.hba" -- >/dev/null 2>"$tmp/ddarc.err"
rc=$?
check "perf hotblocks archive -i F -o A --: the options end there, the archive is written" sh -c \
	"test $rc -eq 0 && test -s '$tmp/own/dd.hba'"
rm -f "$tmp/own"/*

# 2. record, then report -i from another current directory.
mkdir "$tmp/rec"
(cd "$tmp/rec" && ph record -F 2999 -- "$fakejit" >/dev/null 2>"$tmp/rec.err")
rc=$?
check "record exits 0 with perf.data and the JIT's dump in the current directory" \
	test "$rc" -eq 0 -a -s "$tmp/rec/perf.data" -a -n "$(ls "$tmp/rec"/jit-*.dump 2>/dev/null)"
check "record prints the command that reports it" \
	grep -q "report it with: perf hotblocks report -i perf.data$" "$tmp/rec.err"
check "record names the JIT dump it saw written" grep -q "JIT dumps written: jit-[0-9]*\.dump" "$tmp/rec.err"
(cd / && ph report -i "$tmp/rec/perf.data" -p 100 >"$tmp/rep.out" 2>"$tmp/rep.err")
rc=$?
check "report -i from another directory exits 0" test "$rc" -eq 0
check "report -i from another directory: alpha, beta and gamma are the hot blocks" known_answer "$tmp/rep.out"

# 3. record -o into another directory: the printed command (with --jitdir) works
# as printed, through perf's dispatcher, from a third directory.
mkdir "$tmp/rec2" "$tmp/store" "$tmp/dumps"
(cd "$tmp/rec2" && ph record -o "$tmp/store/x.data" -- "$fakejit" >/dev/null 2>"$tmp/rec2.err")
cmd=$(sed -n 's/^perf hotblocks: report it with: //p' "$tmp/rec2.err")
check "record -o elsewhere prints a report command with --jitdir" \
	test "$cmd" = "perf hotblocks report -i $tmp/store/x.data --jitdir $tmp/rec2"
(cd / && PATH=$execdir:$PATH sh -c "$cmd -p 100" >"$tmp/printed.out" 2>"$tmp/printed.err")
check "the printed report command works as printed" known_answer "$tmp/printed.out"
# The dump moves away from where perf.data says it was: --jitdir finds it.
mv "$tmp/rec2"/jit-*.dump "$tmp/dumps/"
(cd / && ph report -i "$tmp/store/x.data" -p 100 >"$tmp/nodir.out" 2>/dev/null)
check "a moved dump is not found without --jitdir (control)" test -z "$(block_funcs "$tmp/nodir.out" | grep -x alpha)"
(cd / && ph report -i "$tmp/store/x.data" --jitdir "$tmp/dumps" -p 100 >"$tmp/jitdir.out" 2>"$tmp/jitdir.err")
check "report --jitdir DIR finds a moved dump" known_answer "$tmp/jitdir.out"

# 4. No subcommand with -o: the recording is kept and reports again.
mkdir "$tmp/keep"
(cd "$tmp/keep" && ph -o kept.data -p 100 -- "$fakejit" >"$tmp/keep.out" 2>"$tmp/keep.err")
rc=$?
check "-o: perf hotblocks -o FILE -- fakejit exits 0 and reports" known_answer "$tmp/keep.out"
check "-o keeps the recording" test "$rc" -eq 0 -a -s "$tmp/keep/kept.data"
(cd / && ph report -i "$tmp/keep/kept.data" -p 100 >"$tmp/kept.out" 2>/dev/null)
check "-o: the kept recording reports again with report -i" known_answer "$tmp/kept.out"
check "-o: says how to report the kept recording" grep -q "report it again with: perf hotblocks report -i kept.data" "$tmp/keep.err"

# diff: -- ends the options, the two recordings follow.
ph diff --top 2 -- "$tmp/rec/perf.data" "$tmp/keep/kept.data" >"$tmp/dddiff.out" 2>"$tmp/dddiff.err"
rc=$?
check "perf hotblocks diff --top 2 -- BASE NEW: exit 0, a comparison" sh -c \
	"test $rc -eq 0 && test -s '$tmp/dddiff.out'"

# 5. report options are passed to hotblocks: --json, --top, --function.
ph report -i "$tmp/rec/perf.data" --json --top 2 >"$tmp/json.out" 2>/dev/null
check "report --json --top 2 gives hotblocks' JSON with 2 blocks shown" \
	grep -q '"blocks_shown": 2' "$tmp/json.out"
ph report -i "$tmp/rec/perf.data" --function beta -p 100 >"$tmp/beta.out" 2>/dev/null
check "report --function beta shows only beta" test "$(block_funcs "$tmp/beta.out" | sort -u)" = beta
# Every option of hotblocks passes (options-agree.sh checks the table): the
# source options, refused once, through report and the one-command form.
ph report -i "$tmp/rec/perf.data" --no-source --source-lines -p 100 >"$tmp/src.out" 2>"$tmp/src.err"
check "report --no-source --source-lines: taken, the known answer" known_answer "$tmp/src.out"
(cd "$tmp/own" && ph --source-lines --no-source -p 100 -- "$fakejit" >"$tmp/src2.out" 2>"$tmp/src2.err")
check "perf hotblocks --source-lines --no-source -- CMD: taken, the known answer" known_answer "$tmp/src2.out"
# --html and --dot go to hotblocks as they are: a page or dot text of the
# recording, on standard output, with -o, or as --html=FILE; with no
# subcommand --html=FILE keeps the page apart from the command's own output.
page_of() {	# page: alpha, beta and gamma each have a section
	head -c 15 "$1" | grep -q '^<!DOCTYPE html>' || { echo "not a page: $1"; return 1; }
	for f in alpha beta gamma; do
		grep -q "<section class=\"func\" id=\"f[0-9]*\" [^>]*data-name=\"$f\">" "$1" ||
			{ echo "no section of $f in $1"; return 1; }
	done
}
ph report -i "$tmp/rec/perf.data" --html -p 100 >"$tmp/rep.html" 2>/dev/null
check "report --html: the page of alpha, beta and gamma on standard output" page_of "$tmp/rep.html"
ph report -i "$tmp/rec/perf.data" -p 100 --html -o "$tmp/rep-o.html" >/dev/null 2>&1
check "report --html -o FILE: the same page" cmp "$tmp/rep.html" "$tmp/rep-o.html"
ph report -i "$tmp/rec/perf.data" -p 100 --dot="$tmp/rep.gv" >/dev/null 2>&1
check "report --dot=FILE: a digraph per function" test "$(grep -c '^digraph ' "$tmp/rep.gv" 2>&1)" -ge 3
mkdir "$tmp/htmlrun"
(cd "$tmp/htmlrun" && ph --html="$tmp/run.html" -p 100 -- "$fakejit" >"$tmp/htmlrun.out" 2>"$tmp/htmlrun.err")
check "perf hotblocks --html=FILE -- fakejit: the page in FILE" page_of "$tmp/run.html"
check "perf hotblocks --html=FILE -- fakejit: no HTML among the command's output" \
	sh -c "! grep -q '<' '$tmp/htmlrun.out'"

# 5b. No report replaces an input: the recording (by its name, a symlink, a
# hard link), a --jitdump file, a side of diff, the recording a run is about
# to make; exit 2 with a message naming both, before anything runs, and the
# input byte for byte as it was.
cp "$tmp/rec/perf.data" "$tmp/rec.orig"
ln -s perf.data "$tmp/rec/link.data"
ln "$tmp/rec/perf.data" "$tmp/rec/hard.data"
recdump=$(ls "$tmp/rec"/jit-*.dump | head -n 1)
cp "$recdump" "$tmp/recdump.orig"
refused "report -i R -o R: refused, R kept" "$tmp/rec" "$tmp/rec/perf.data" "$tmp/rec.orig" \
	"error: the output perf.data is the recording perf.data: refusing to overwrite it" \
	"$script" report -i perf.data -o perf.data
refused "report --html=LINK to the recording: refused" "$tmp/rec" "$tmp/rec/perf.data" "$tmp/rec.orig" \
	"the output link.data is the recording perf.data" "$script" report -i perf.data --html=link.data
refused "report --dot=HARD-LINK of the recording: refused" "$tmp/rec" "$tmp/rec/perf.data" "$tmp/rec.orig" \
	"the output hard.data is the recording perf.data" "$script" report --dot=hard.data
refused "report -o the --jitdump file: refused" "$tmp/rec" "$recdump" "$tmp/recdump.orig" \
	"the output $recdump is the jitdump $recdump" "$script" report --jitdump "$recdump" -o "$recdump"
refused "report -o a jitdump perf.data names (found by the plugin): refused by hotblocks" "$tmp/rec" "$recdump" \
	"$tmp/recdump.orig" "the output $recdump is the jitdump $recdump that <stdin> was made from" \
	"$script" report -o "$recdump"
refused "diff -o NEW: refused" "$tmp/rec" "$tmp/rec/perf.data" "$tmp/rec.orig" \
	"the output hard.data is the recording NEW perf.data" "$script" diff -o hard.data -i "$tmp/keep/kept.data" -i perf.data
refused "diff --html=BASE: refused" "$tmp/rec" "$tmp/rec/perf.data" "$tmp/rec.orig" \
	"the output perf.data is the recording BASE perf.data" "$script" diff --html=perf.data perf.data "$tmp/keep/kept.data"
(cd "$tmp/rec" && "$script" -o new.data --html=new.data -- "$fakejit" >"$tmp/refused.out" 2>"$tmp/refused.err")
rc=$?
check "perf hotblocks -o R --html=R: refused before recording" sh -c \
	"test $rc -eq 2 && grep -qF 'the output new.data is the recording new.data' '$tmp/refused.err' && test ! -e '$tmp/rec/new.data'"

# 6. Help on every subcommand, usage errors exit 2 before anything runs.
for sub in "" record report wasm; do
	for h in -h --help; do
		# shellcheck disable=SC2086
		ph $sub $h >"$tmp/help.out" 2>&1
		rc=$?
		check "perf hotblocks${sub:+ $sub} $h prints its usage" \
			test "$rc" -eq 0 -a "$(head -c 21 "$tmp/help.out")" = "usage: perf hotblocks" \
			-a -n "$(grep "^usage: perf hotblocks${sub:+ $sub}" "$tmp/help.out")"
	done
	# shellcheck disable=SC2086
	ph $sub --bogus-option -- true >"$tmp/bad.out" 2>&1
	rc=$?
	check "perf hotblocks${sub:+ $sub} --bogus-option: exit 2 with a message" \
		test "$rc" -eq 2 -a -n "$(grep "unknown option '--bogus-option'" "$tmp/bad.out")"
done
ph help report >"$tmp/help.out" 2>&1
check "perf hotblocks help report prints the report usage" grep -q "^usage: perf hotblocks report" "$tmp/help.out"
ph report -i "$tmp/rec/perf.data" -p 200 >/dev/null 2>"$tmp/bad.out"
rc=$?
check "report -p 200: exit 2, hotblocks' message" test "$rc" -eq 2 -a -n "$(grep -e "--percent" "$tmp/bad.out")"
ph record -F often -- true >/dev/null 2>"$tmp/bad.out"
check "record -F often: exit 2" test "$?" -eq 2
ph record -p 1 -- true >/dev/null 2>"$tmp/bad.out"
check "record -p (a report option): exit 2" test "$?" -eq 2
ph >/dev/null 2>&1
check "perf hotblocks without a command: exit 2" test "$?" -eq 2
ph report -i "$tmp/nonexistent.data" >/dev/null 2>"$tmp/missing.err"
rc=$?
check "report of a missing file: exit 1, names the file and what to do" \
	test "$rc" -eq 1 -a -n "$(grep "nonexistent.data: no such file; record one with" "$tmp/missing.err")"
echo "not a perf.data" >"$tmp/garbage.data"
ph report -i "$tmp/garbage.data" >/dev/null 2>"$tmp/garbage.err"
rc=$?
check "report of a bad file: perf script's exit status, and perf's message" \
	test "$rc" -ne 0 -a "$rc" -ne 1 -a -n "$(grep "perf script failed (exit $rc)" "$tmp/garbage.err")"
check "report of a bad file: no second, misleading message from hotblocks" \
	test -z "$(grep "hotblocks-stream" "$tmp/garbage.err")"

# 7. perf's own dispatcher: `perf hotblocks` through --exec-path and through PATH.
perf --exec-path="$execdir" hotblocks record -h >"$tmp/disp.out" 2>&1
check "perf --exec-path=DIR hotblocks record -h runs DIR/perf-hotblocks" \
	grep -q "^usage: perf hotblocks record" "$tmp/disp.out"
mkdir "$tmp/bin"
cp "$script" "$tmp/bin/perf-hotblocks"
PATH=$tmp/bin:$PATH perf hotblocks -h >"$tmp/disp.out" 2>&1
check "perf hotblocks runs perf-hotblocks found on PATH" grep -q "^usage: perf hotblocks" "$tmp/disp.out"
(cd / && perf --exec-path="$execdir" hotblocks report -i "$tmp/rec/perf.data" -p 100 >"$tmp/disp.out" 2>/dev/null)
check "perf hotblocks report through perf's dispatcher: the known answer" known_answer "$tmp/disp.out"

# 8. make install: perf-hotblocks in BINDIR (on PATH is enough for perf), the man
# pages; the installed script uses the installed plugin and hotblocks.
dest=$tmp/dest
make -s -C "$top" install DESTDIR="$dest" PREFIX=/usr/local >/dev/null 2>"$tmp/install.err"
iexec=$dest$(perf --exec-path)
check "make install PREFIX=/usr/local installs perf-hotblocks, hotblocks, the plugin and both man pages" \
	test -x "$dest/usr/local/bin/perf-hotblocks" -a -x "$dest/usr/local/bin/hotblocks" \
	-a -f "$iexec/dlfilters/hotblocks.so" -a -f "$dest/usr/local/share/man/man1/perf-hotblocks.1" \
	-a -f "$dest/usr/local/share/man/man1/hotblocks.1"
(cd / && PATH=$dest/usr/local/bin:$PATH perf --exec-path="$iexec" hotblocks report -v \
	-i "$tmp/rec/perf.data" -p 100 >"$tmp/inst.out" 2>"$tmp/inst.err")
check "installed: perf hotblocks report gives the known answer" known_answer "$tmp/inst.out"
check "installed: it uses the installed plugin and hotblocks, not the source tree's" grep -qx \
	"perf hotblocks: plugin: $iexec/dlfilters/hotblocks.so; post-processor: $dest/usr/local/bin/hotblocks" \
	"$tmp/inst.err"
MANPATH=$dest/usr/local/share/man MANPAGER=cat PAGER=cat MANWIDTH=80 \
	PATH=$dest/usr/local/bin:$PATH perf hotblocks --help >"$tmp/man.out" 2>&1
check "installed: perf hotblocks --help shows the perf-hotblocks(1) manual" \
	grep -q "perf hotblocks report \[-i FILE\]" "$tmp/man.out"
make -s -C "$top" uninstall DESTDIR="$dest" PREFIX=/usr/local >/dev/null 2>&1
check "make uninstall removes them" test -z "$(find "$dest" -type f)"
# A PREFIX of one's own (no root): everything stays under it, the plugin too,
# and the installed perf-hotblocks uses that plugin.
home=$tmp/home/.local
make -s -C "$top" install PREFIX="$home" >"$tmp/home.out" 2>&1
check "make install PREFIX=~/.local puts the plugin under PREFIX, nothing elsewhere" \
	test "$(cd "$home" && find . -type f | sort | tr '\n' ' ')" = \
	"./bin/hotblocks ./bin/perf-hotblocks ./lib/hotblocks/hotblocks.so ./share/man/man1/hotblocks.1 ./share/man/man1/perf-hotblocks.1 "
check "make install PREFIX=~/.local says how to give perf the plugin" \
	grep -q "perf script --dlfilter $home/lib/hotblocks/hotblocks.so" "$tmp/home.out"
(cd / && PATH=$home/bin:$PATH perf hotblocks report -v -i "$tmp/rec/perf.data" -p 100 >"$tmp/home.rep" 2>"$tmp/home.err")
check "PREFIX=~/.local: perf hotblocks report uses the plugin under PREFIX, known answer" sh -c \
	"grep -qx 'perf hotblocks: plugin: $home/lib/hotblocks/hotblocks.so; post-processor: $home/bin/hotblocks' '$tmp/home.err'"
check "PREFIX=~/.local: the report gives the known answer" known_answer "$tmp/home.rep"
(cd / && perf --no-pager script -i "$tmp/rec/perf.data" --dlfilter "$home/lib/hotblocks/hotblocks.so" 2>/dev/null |
	"$home/bin/hotblocks" -p 100 >"$tmp/home2.rep" 2>/dev/null)
check "PREFIX=~/.local: perf script --dlfilter FULL-PATH | hotblocks gives the known answer" known_answer "$tmp/home2.rep"
make -s -C "$top" uninstall PREFIX="$home" >/dev/null 2>&1
check "make uninstall PREFIX=~/.local removes them" test -z "$(find "$home" -type f)"

# 9. The man pages render without warnings.
for page in "$top/scripts/perf-hotblocks.1" "$top/postproc/hotblocks.1"; do
	name=$(basename "$page")
	if command -v groff >/dev/null 2>&1; then
		groff -man -Tutf8 -ww -z "$page" >"$tmp/groff.err" 2>&1
		check "$name: groff -man -ww renders it without warnings" test ! -s "$tmp/groff.err"
	else
		not_ok "$name: groff -man -ww renders it without warnings (groff not installed: apt-get install groff-base)"
	fi
	if command -v man >/dev/null 2>&1; then
		man --warnings -l "$page" >/dev/null 2>"$tmp/man.err"
		check "$name: man --warnings -l renders it without warnings" test ! -s "$tmp/man.err"
	else
		not_ok "$name: man --warnings -l renders it without warnings (man not installed: apt-get install man-db)"
	fi
done
# Every long option of hotblocks and hotblocks diff (the option table,
# hotblocks --list-options) is in hotblocks(1) (outside roff comments).
grep -v '^\.\\"' "$top/postproc/hotblocks.1" >"$tmp/hotblocks.roff"
"$POSTPROC" --list-options | awk -F'\t' '$1 ~ /(^|,)(hotblocks|diff)(,|$)/ && $3 != "list-options" && $3 != "usage-of" { print $3 }' |
	sort -u >"$tmp/options"
documented() {
	n=0
	while read -r opt; do
		n=$((n + 1))
		grep -q -e "\\\\-\\\\-$(echo "$opt" | sed 's/-/\\\\-/g')\\b" "$tmp/hotblocks.roff" ||
			{ echo "--$opt is not in postproc/hotblocks.1"; return 1; }
	done <"$tmp/options"
	[ "$n" -ge 5 ] || { echo "only $n long options in hotblocks --list-options"; return 1; }
}
check "hotblocks(1) documents every long option of hotblocks --list-options" documented

# 10. wasm: without wasmtime a clear message and exit 1; with the real one, a report.
nowasm=
oldifs=$IFS
IFS=:
for d in $PATH; do
	[ -x "$d/wasmtime" ] || nowasm=$nowasm${nowasm:+:}$d
done
IFS=$oldifs
echo '(module)' >"$tmp/empty.wat"
PATH=$nowasm ph wasm "$tmp/empty.wat" >"$tmp/nowasm.out" 2>"$tmp/nowasm.err"
rc=$?
check "wasm without wasmtime on PATH: exit 1, says it is missing and how to install it" \
	test "$rc" -eq 1 -a -n "$(grep "wasmtime is not on PATH" "$tmp/nowasm.err")" \
	-a -n "$(grep "wasmtime.dev/install.sh" "$tmp/nowasm.err")"
if [ -x "$real_wasmtime" ]; then
	mkdir -p "$tmp/wbin" "$tmp/wasm" "$tmp/tmpdir"
	ln -s "$real_wasmtime" "$tmp/wbin/wasmtime"
	(cd "$tmp/wasm" && PATH=$tmp/wbin:$PATH TMPDIR=$tmp/tmpdir \
		ph wasm -p 100 -F 999 "$top/test-data/wasmtime-real/fib.wasm" >"$tmp/wasm.out" 2>"$tmp/wasm.err")
	rc=$?
	check "wasm with the real wasmtime exits 0" \
		sh -c "test $rc -eq 0 || { cat '$tmp/wasm.err'; exit 1; }"
	check "wasm with the real wasmtime reports blocks" test -n "$(block_funcs "$tmp/wasm.out")"
	# fib's loop back-edge: CLIF and Wasm columns from the .cwasm, clif/ and the module
	# (as in test-data/wasmtime-real/48.0.2/fib/reference/hot-blocks.txt).
	check "wasm report has the CLIF and Wasm columns of fib's back-edge" \
		grep -q 'jmp     0xb  *jump block3(v17, v10, v11)  *br \$loop$' "$tmp/wasm.out"
	check "wasm leaves nothing behind" test -z "$(ls -A "$tmp/tmpdir")$(ls -A "$tmp/wasm")"
	check "wasm: the compiled module is in the cache (HOTBLOCKS_CACHE_DIR)" sh -c \
		"ls '$HOTBLOCKS_CACHE_DIR/wasm' | grep -Eqx '[0-9a-f]{64}' && test -s '$HOTBLOCKS_CACHE_DIR/wasm/'*/module.cwasm"
	# The program runs where the user stands (test-data/wasi-cwd/README.md):
	# `--dir .` and its arguments are the user's, its output is not in the
	# report, and a failure is its exit status, said.
	count=$top/test-data/wasi-cwd/count.wasm
	mkdir "$tmp/cwd"
	seq 1 2000 | tr '\n' ' ' | fold -w 60 >"$tmp/cwd/t.txt"
	(cd "$tmp/cwd" && PATH=$tmp/wbin:$PATH TMPDIR=$tmp/tmpdir \
		ph wasm -v -p 100 -F 999 --dir . "$count" -r 5000 t.txt >"$tmp/cwd.out" 2>"$tmp/cwd.err")
	rc=$?
	check "wasm --dir . MODULE t.txt: exit 0, the program read t.txt where the user stands" sh -c \
		"test $rc -eq 0 && grep -qx '148 lines, 2084 words in t.txt' '$tmp/cwd.err'"
	check "wasm: the program's standard output is not in the report" \
		sh -c "! grep -q 'words in' '$tmp/cwd.out'"
	check "wasm: the report has the program's hot function" grep -q '^`count_words` :: block' "$tmp/cwd.out"
	check "wasm: the program's directory keeps only the user's file" sh -c \
		"test \"\$(ls -A '$tmp/cwd')\" = t.txt && test -z \"\$(ls -A '$tmp/tmpdir')\""
	check "wasm: a module not compiled before is compiled" grep -q 'running: .*/wasmtime compile ' "$tmp/cwd.err"
	# -- ends the options, as in `wasmtime hot-blocks` (clap; checked with
	# wasmtime 48.0.2's own: `hot-blocks --dir . count.wasm -- t.txt` reads
	# t.txt, `count.wasm -- -- t.txt` and `-- count.wasm -- t.txt` make count
	# open a file named --): a -- right after MODULE is not the program's,
	# one after a -- before MODULE is.
	(cd "$tmp/cwd" && PATH=$tmp/wbin:$PATH ph wasm -v -p 100 -F 999 --dir . "$count" -- -r 5000 t.txt \
		>"$tmp/dd.out" 2>"$tmp/dd.err")
	rc=$?
	check "wasm MODULE -- ARGS: the -- is not passed on, the program read t.txt" sh -c \
		"test $rc -eq 0 && grep -qx '148 lines, 2084 words in t.txt' '$tmp/dd.err' &&
		grep -q 'running: .* run --allow-precompiled --profile=jitdump --dir \\. .*/module.cwasm -r 5000 t.txt\$' '$tmp/dd.err' &&
		grep -q '^\`count_words\` :: block' '$tmp/dd.out'"
	(cd "$tmp/cwd" && PATH=$tmp/wbin:$PATH ph wasm -p 100 -F 999 --dir . -- "$count" -- t.txt \
		>"$tmp/dd2.out" 2>"$tmp/dd2.err")
	rc=$?
	check "wasm -- MODULE -- ARGS: the second -- is the program's (count: cannot open --)" sh -c \
		"test $rc -eq 1 && grep -qx 'count: cannot open --' '$tmp/dd2.err'"
	(cd "$tmp/cwd" && PATH=$tmp/wbin:$PATH ph wasm -p 100 -F 999 --dir . "$count" -- -- t.txt \
		>"$tmp/dd3.out" 2>"$tmp/dd3.err")
	rc=$?
	check "wasm MODULE -- -- ARGS: the program gets one -- (count: cannot open --)" sh -c \
		"test $rc -eq 1 && grep -qx 'count: cannot open --' '$tmp/dd3.err'"
	(cd "$tmp/cwd" && PATH=$tmp/wbin:$PATH ph wasm -v -p 100 -F 999 --dir . "$count" -r 5000 t.txt \
		>"$tmp/again.out" 2>"$tmp/again.err")
	rc=$?
	# (only the CLIF of a function no earlier run sampled is compiled: --emit-clif)
	check "wasm again: the module as compiled before, no wasmtime compile of it" sh -c "test $rc -eq 0 &&
		grep -q 'the module as compiled before (same bytes, wasmtime and flags)' '$tmp/again.err' &&
		! grep 'running: .*/wasmtime compile ' '$tmp/again.err' | grep -qv -- ' --emit-clif '"
	check "wasm again: the same functions reported" sh -c \
		"grep -q '^\`count_words\` :: block' '$tmp/again.out'"
	(cd "$tmp/cwd" && PATH=$tmp/wbin:$PATH ph wasm -v -p 100 -F 999 -O opt-level=0 --dir . "$count" t.txt \
		>/dev/null 2>"$tmp/flags.err")
	check "wasm with other compile flags: compiled again" grep -q 'running: .*/wasmtime compile -D address-map=y -O opt-level=0 ' "$tmp/flags.err"
	(cd "$tmp/cwd" && PATH=$tmp/wbin:$PATH ph wasm -p 100 -F 999 --dir . "$count" -r 5000 t.txt nothere.txt \
		>"$tmp/fail.out" 2>"$tmp/fail.err")
	rc=$?
	check "wasm: a program that fails: its exit status (1)" test "$rc" -eq 1
	check "wasm: a program that fails: its message, and the last line says it failed" sh -c \
		"grep -qx 'count: cannot open nothere.txt' '$tmp/fail.err' &&
		test \"\$(tail -n 1 '$tmp/fail.err')\" = 'perf hotblocks: wasmtime run $count exited with status 1'"
	check "wasm: a program that fails: still its report" grep -q count_words "$tmp/fail.out"
	# --keep DIR: a new directory gets the recording, and reports again;
	# a directory with anything in it is refused, whatever it holds (here
	# a clif/ of the user's, which wasm once deleted), before anything runs.
	(cd "$tmp/wasm" && PATH=$tmp/wbin:$PATH ph wasm -p 100 -F 999 --keep kept \
		"$top/test-data/wasmtime-real/fib.wasm" >"$tmp/wkeep.out" 2>"$tmp/wkeep.err")
	rc=$?
	check "wasm --keep NEW-DIR: exit 0, the recording in it, the JIT dump too" sh -c "test $rc -eq 0 &&
		test -s '$tmp/wasm/kept/perf.data' -a -s '$tmp/wasm/kept/module.cwasm' -a -d '$tmp/wasm/kept/clif' &&
		ls '$tmp/wasm/kept'/jit-*.dump && test \"\$(ls -A '$tmp/wasm')\" = kept"
	# The kept .cwasm is the cache entry's without a second copy of its
	# bytes: a hard link made read-only (so that neither name can change
	# the other's), or a reflink where the filesystem has them.
	kc=$tmp/wasm/kept/module.cwasm
	ce=$(for e in "$HOTBLOCKS_CACHE_DIR"/wasm/*/module.cwasm; do cmp -s "$e" "$kc" && echo "$e"; done | head -n 1)
	if [ -n "$ce" ] && [ "$(stat -c %i "$ce")" = "$(stat -c %i "$kc")" ]; then
		check "wasm --keep: the .cwasm is a hard link of the cache entry's, read-only" \
			sh -c "test \"\$(stat -c %h '$kc')\" -ge 2 && ! stat -c %A '$kc' | grep -q w"
	else
		check "wasm --keep: the .cwasm is a reflink of the cache entry's (this filesystem has them)" \
			sh -c "test -n '$ce' && cp --reflink=always '$ce' '$tmp/reflink-probe'"
	fi
	(cd / && ph report -i "$tmp/wasm/kept/perf.data" -p 100 --cwasm "$tmp/wasm/kept/module.cwasm" \
		--clif "$tmp/wasm/kept/clif" --wasm "$top/test-data/wasmtime-real/fib.wasm" >"$tmp/wkept.out" 2>"$tmp/wkept.err")
	check "wasm --keep DIR: reported again from DIR, the same CLIF and Wasm cells" \
		grep -q 'jmp     0xb  *jump block3(v17, v10, v11)  *br \$loop$' "$tmp/wkept.out"
	# The dump moved into DIR, where the report finds it beside perf.data: the
	# way --keep is meant to be used, nothing wrong, so no warning.
	check "wasm --keep DIR: reported again from DIR without a warning (the dump is found in DIR)" \
		sh -c "! grep -e warning -e 'is gone' '$tmp/wkept.err'"
	mkdir -p "$tmp/wasm/mine/clif"
	echo "my notes" >"$tmp/wasm/mine/clif/notes.txt"
	(cd "$tmp/wasm" && PATH=$tmp/wbin:$PATH ph wasm --keep mine \
		"$top/test-data/wasmtime-real/fib.wasm" >"$tmp/wmine.out" 2>"$tmp/wmine.err")
	rc=$?
	check "wasm --keep NON-EMPTY-DIR: exit 2, says why, its files as they were" sh -c "test $rc -eq 2 &&
		grep -q -- '--keep mine is not empty' '$tmp/wmine.err' &&
		test \"\$(ls -A '$tmp/wasm/mine')\" = clif && test \"\$(cat '$tmp/wasm/mine/clif/notes.txt')\" = 'my notes'"
	(cd "$tmp/wasm" && PATH=$tmp/wbin:$PATH ph wasm --keep kept \
		"$top/test-data/wasmtime-real/fib.wasm" >/dev/null 2>"$tmp/wagain.err")
	rc=$?
	check "wasm --keep DIR again (its own earlier recording): refused too" sh -c "test $rc -eq 2 &&
		grep -q -- '--keep kept is not empty' '$tmp/wagain.err'"
	echo '(module (func (export "_start")))' >"$tmp/wasm/app.wat"
	cp "$tmp/wasm/app.wat" "$tmp/wasm/app.wat.orig"
	(cd "$tmp/wasm" && PATH=$tmp/wbin:$PATH ph wasm -o app.wat app.wat >/dev/null 2>"$tmp/wself.err")
	rc=$?
	check "wasm -o MODULE: exit 2, the module as it was" sh -c "test $rc -eq 2 &&
		grep -qF 'the output app.wat is the module app.wat' '$tmp/wself.err' && cmp '$tmp/wasm/app.wat' '$tmp/wasm/app.wat.orig'"
	check "wasm -o KEEP/perf.data: exit 2 before anything runs" sh -c "cd '$tmp/wasm' &&
		PATH=$tmp/wbin:\$PATH '$script' wasm --keep fresh -o fresh/perf.data app.wat >/dev/null 2>'$tmp/wk.err';
		test \$? -eq 2 && grep -qF 'the output fresh/perf.data is the recording fresh/perf.data' '$tmp/wk.err'"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - wasm with the real wasmtime # SKIP not installed: run scripts/get-wasmtime"
fi
