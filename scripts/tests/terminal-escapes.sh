#!/bin/sh
# SPDX-License-Identifier: MIT
# No byte of a profiled program drives the terminal. Every field a profile can
# carry (function names, V8 script paths, DWARF file names, source lines, DSO
# and jitdump paths, event names, the plugin's warnings) holds a payload of
# controls: OSC (set the title), CSI (clear the screen), OSC 8 (a link), C1's
# CSI as UTF-8, bidi overrides and isolates (RLO, LRI), and bytes that are not
# UTF-8 (0xff, and 0x9b, CSI to an 8-bit terminal). Whatever each command
# writes, on stdout and on stderr, must hold no control byte but the line
# feed, no C1 or bidi control, nothing that is not UTF-8 (clean below), and
# must show the payload printable (postproc/lib/term.h), not drop it.
#
# Real runs first: a program built here with clang (its directory, its source
# file's name and text, and a symbol name hold the payload) and node
# --perf-prof running a script of such a name and text, recorded by perf and
# read by the plugin. Then streams written here by hand (plugin/STREAM.md)
# for the fields no runtime lets a program fill (event names, warnings, dump
# paths, a producer): an imitation of the plugin's output, kept because the
# real thing cannot carry these bytes there.
. "$(dirname "$0")/lib.sh"

for c in clang perf node; do
	if ! command -v "$c" >/dev/null 2>&1; then
		not_ok "$c is missing (scripts/ensure-deps check installs it)"
		echo "1..$tap_n"
		exit 0
	fi
done

# The payload, as bytes (P), as a C string and as a stream string (%-escaped),
# and as the commands must show it (S).
P=$(printf '\033]0;PWNED\007\033[2J\033]8;;link\033\\\302\233\342\200\256\342\201\246\377\233x')
C='\x1b]0;PWNED\x07\x1b[2J\x1b]8;;link\x1b\\\xc2\x9b\xe2\x80\xae\xe2\x81\xa6\xff\x9b" "x'
E='%1B]0;PWNED%07%1B[2J%1B]8;;link%1B\%C2%9B%E2%80%AE%E2%81%A6%FF%9Bx'
S='\x1b]0;PWNED\x07\x1b[2J\x1b]8;;link\x1b\\u009b\u202e\u2066\xff\x9bx'
# What a path keeps after its last '/' or '\' (srcline's file name in a cell).
S_BASE='\u009b\u202e\u2066\xff\x9bx'
# The payload without the bytes that are not UTF-8, for V8's paths: node
# takes its script's path as UTF-8 and cannot open one that is not.
U=$(printf '\033]0;PWNED\007\033[2J\033]8;;link\033\\\302\233\342\200\256\342\201\246x')
SU='\x1b]0;PWNED\x07\x1b[2J\x1b]8;;link\x1b\\u009b\u202e\u2066x'

# clean FILE: no control byte but the line feed, no C1 or bidi control
# (utf8_is_control), only valid UTF-8. With TABS=1 a tab is allowed too (dot's
# own indentation).
clean() {
	ctl='[\x00-\x08\x0a-\x1f\x7f]'
	[ "${TABS:-}" = 1 ] && ctl='[\x00-\x08\x0b-\x1f\x7f]'
	# the line feed ends lines; only a bare one inside a line is a control here
	if tr -d '\n' <"$1" | LC_ALL=C grep -qaP "$ctl"; then
		echo "$1: a control byte:"; tr -d '\n' <"$1" | LC_ALL=C grep -oaP ".{0,20}$ctl.{0,20}" | od -c | head -8
		return 1
	fi
	if LC_ALL=C grep -qaP '\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$1"; then
		echo "$1: a C1 or bidi control"; return 1
	fi
	if ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then
		echo "$1: not UTF-8"; return 1
	fi
}

# run NAME COMMAND...: COMMAND's stdout in NAME.out, stderr in NAME.err (stdin
# not a pipe: a saved stream's plugin warnings are told); it must have run
# (a report or an error, not a crash, a hang or nothing) and both must be clean.
run() {
	name=$1; shift
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
	rc=$?
	check "$name: ran (exit $rc) and wrote something" \
		sh -c "[ $rc -le 2 ] && { [ -s '$tmp/$name.out' ] || [ -s '$tmp/$name.err' ]; }"
	check "$name: stdout is clean" clean "$tmp/$name.out"
	check "$name: stderr is clean" clean "$tmp/$name.err"
}

# shows NAME WHAT FILE TEXT: FILE (out or err of NAME) holds TEXT.
shows() {
	check "$1: $2" grep -qaF -- "$4" "$tmp/$1.$3"
}

hb() { timeout 60 "$POSTPROC" "$@"; }

# --- Native code built now: the DSO's directory, the DWARF file name, the
# source text and the symbol (an asm label) hold the payload. clang writes
# any bytes into a symbol name; gcc's assembler refuses them.
mkdir "$tmp/bin$P" || exit 1
src=$tmp/ev$P.c
{
	printf '/* %s */\n' "$P"
	printf '__attribute__((noinline)) unsigned work(unsigned n) __asm__("wo%s" "rk");\n' "$C"
	printf 'unsigned work(unsigned n)\n{\n\tunsigned x = 1;\n\n\tfor (unsigned i = 0; i < n; i++)\n'
	printf '\t\tx = x * 31 + i;\t/* %s */\n' "$P"
	printf '\treturn x;\n}\n'
	printf 'int main(int argc, char **argv)\n{\n'
	printf '\treturn work(argc > 1 ? 300000000u : 3u) == 7;\n}\n'
} >"$src"
clang -w -g -O1 -o "$tmp/bin$P/prog" "$src" 2>"$tmp/clang.err"
check "clang builds the program of hostile names" test -x "$tmp/bin$P/prog"
(cd "$tmp" && perf record -q -k mono -e cpu-clock -F 2999 -o n.data "./bin$P/prog" 1 >/dev/null 2>&1)
plugin_stream "$tmp/n.data" "$tmp/n.hbs" 2>/dev/null

run native hb "$tmp/n.hbs"
shows native "the symbol is shown printable" out "\`wo${S}rk\` :: block"
shows native "the DWARF file name is shown printable" out "work $S_BASE.c:"
run native-lines hb --source-lines "$tmp/n.hbs"
shows native-lines "the source line is shown printable" out "x = x * 31 + i; /* $S */"
# With colours, ours are the only escapes: without them, clean.
hb --color=always "$tmp/n.hbs" 2>"$tmp/native-color.err" | sed 's/\x1b\[[0-9;]*m//g' >"$tmp/native-color.out"
check "native --color=always: stdout has no escape but our colours" clean "$tmp/native-color.out"
check "native --color=always: stderr is clean" clean "$tmp/native-color.err"
run native-json hb --json "$tmp/n.hbs"
# --function: the nearest names (one character off: wo...rq), the pattern quoted.
run native-near hb --function "wo${P}rq" "$tmp/n.hbs"
shows native-near "--function's nearest names are shown printable" err "  'wo${S}rk' ("
shows native-near "--function's pattern is quoted printable" err "matches 'wo${S}rq'"
run native-sub hb --function "$P" "$tmp/n.hbs"
shows native-sub "--function as a substring is quoted printable" err "--function '$S' is no exact name"
run native-event hb -e "cpu$P" "$tmp/n.hbs"
shows native-event "an unknown event is quoted printable" err "no event called 'cpu$S'"
run native-diff hb diff --all --listing --min-delta 0 --base-label "base$P" "$tmp/n.hbs" "$tmp/n.hbs"
shows native-diff "diff's label and names are shown printable" out "(base$S)"
shows native-diff "... and its names" out "\`wo${S}rk\`"
run native-diff-event hb diff -e "cpu$P" "$tmp/n.hbs" "$tmp/n.hbs"
shows native-diff-event "diff's unknown event is quoted printable" err "has no event called 'cpu$S'"
TABS=1 run native-dot hb --dot "$tmp/n.hbs"

# --- V8: a script whose path and text hold the payload. The [Source] cells
# name it (V8's load names carry the script's path), --source-lines prints it.
mkdir "$tmp/js$U" || exit 1
js=$tmp/js$U/hot$U.js
{
	printf "'use strict';\n// %s\nfunction work(n) {\n\tlet x = 1;\n" "$P"
	printf '\tfor (let i = 0; i < n; i++) x = (x * 31 + i) | 0; // %s\n' "$P"
	printf '\treturn x;\n}\nlet s = 0;\nfor (let r = 0; r < 300; r++) s += work(1000000);\n'
	printf 'console.log(s);\n'
} >"$js"
(cd "$tmp/js$U" && perf record -q -k mono -e cpu-clock -F 2999 -o ../v.data node --perf-prof "$js" >/dev/null 2>&1)
plugin_stream "$tmp/v.data" "$tmp/v.hbs" 2>/dev/null
run v8 hb --source-lines "$tmp/v.hbs"
shows v8 "V8's name with the script path is shown printable" out "work $tmp/js$SU/hot$SU.js:"
shows v8 "the [Source] cell of the script is shown printable" out "   hot$SU.js:5:"
shows v8 "the script's line is shown printable" out "x = (x * 31 + i) | 0; // $S"
run v8-json hb --json "$tmp/v.hbs"
# --- A perf map (node --perf-basic-prof: /tmp/perf-<pid>.map, written by the
# profiled program and read by the plugin as perf reads it): its names carry
# the script's path, the payload; the plugin keeps them as they are (the
# stream %-escapes them), every output is clean, and JSON escapes them (the
# text report lists no perf map function: they have no blocks).
(cd "$tmp/js$U" && perf record -q -k mono -e cpu-clock -F 2999 -o ../m.data node --perf-basic-prof "$js" >/dev/null 2>&1)
check "node --perf-basic-prof wrote a perf map naming the payload's script" \
	sh -c "grep -qaF -- '$tmp/js$U/hot$U.js' /tmp/perf-*.map"
plugin_stream "$tmp/m.data" "$tmp/m.hbs" 2>/dev/null
run perfmap hb "$tmp/m.hbs"
run perfmap-json hb --json --all "$tmp/m.hbs"
shows perfmap-json "a perf map's name holding the script path is JSON-escaped" out 'hot\u001b]0;PWNED\u0007'
rm -f /tmp/perf-*.map
# The plugin's own messages: the jitdump perf.data names (in the payload's
# directory) is gone, and found nowhere the plugin looks: perf script's
# stderr names the path printable, as hotblocks would.
mkdir "$tmp/moved" && mv "$tmp/js$U"/jit-*.dump "$tmp/moved/"
run plugin-moved perf --no-pager script -i "$tmp/v.data" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/moved.hbs"
shows plugin-moved "the plugin's warning names the jitdump's path printable" err \
	"hotblocks: warning: jitdump $tmp/js$SU/jit-"
# And an out= the plugin cannot write, named by what the user gave.
run plugin-out perf --no-pager script -i "$tmp/v.data" --dlfilter "$PLUGIN" \
	--dlarg "jitdir=$tmp/moved" --dlarg "out=$tmp/no$P/x.hbs"
shows plugin-out "the plugin's error names out= printable" err "cannot write $tmp/no$S/x.hbs"

# --- Written by hand (see above): every string field of STREAM.md. The x86-64
# loop of test-render-graphs.c: mov ecx,0; inc ecx; cmp ecx,0x1000000; jl 5; ret.
loop=b900000000ffc181f9000000017cf6c3
cat >"$tmp/h.hbs" <<END
hotblocks-stream 1
producer hotblocks.so/1$E
input /rec/perf$E.data
time-aware yes
event 0 cpu$E
jitdump /rec/jit$E.dump pid=1 loads=1 status=ok
warning the%20plugin%20saw%20$E
total 0 all 20 20
total 0 jit 10 10
total 0 native 10 10
object 0 jit pid=1 e_machine=62 addr=0x2000 size=16 code-index=1 load-time=5 dump=/rec/jit$E.dump name=JS:*w$E%20/src/h$E.js:1:1
code 0 0x0 $loop
debug 0 0x2040 3 0 /src/d$E.js
sample 0 0 0x5 10 10
object 1 native pid=1 e_machine=62 addr=0x1000 size=16 dso=/rec/lib$E.so sym-start=0x1000 name=n$E
code 1 0x0 $loop
sample 1 0 0x5 10 10
end
END
run hand hb -p 100 "$tmp/h.hbs"
shows hand "the plugin's warning is re-printed printable" err "the plugin warned: the plugin saw $S"
shows hand "a JIT name is shown printable" out "\`JS:*w$S /src/h$S.js:1:1\`"
shows hand "a native name is shown printable" out "\`n$S\`"
# The cell is cut to the column's 60 columns at an escape's end, not inside
# the \xff that would cross it.
printf '    50.00%%   %-22s   %s\n' "inc     ecx" 'h\x1b]0;PWNED\x07\x1b[2J\x1b]8;;link\x1b\\u009b\u202e\u2066' \
	>"$tmp/hand-row.want"
check "hand: [Source] from the load name's script is shown printable, cut to 60 columns" \
	grep -qaxFf "$tmp/hand-row.want" "$tmp/hand.out"
run hand-lines hb -p 100 --source-lines "$tmp/h.hbs"
run hand-json hb -p 100 --json "$tmp/h.hbs"
run hand-event hb -p 100 -e "cpu$P" "$tmp/h.hbs"
run hand-near hb --function "w${P}q" "$tmp/h.hbs"
run hand-diff hb diff --all --listing "$tmp/h.hbs" "$tmp/h.hbs"

# Errors that quote the input: an object of two machines (its name), a bad
# %-escape (the token), files that are not there (the paths, as given).
sed 's/ e_machine=62 / e_machine=183 /' "$tmp/h.hbs" >"$tmp/h2.hbs"
run err-conflict hb "$tmp/h.hbs" "$tmp/h2.hbs"
shows err-conflict "a conflict names the object printable" err "(JS:*w$S"
printf 'hotblocks-stream 1\nevent 0 %s%%ZZ\nend\n' "$P" >"$tmp/bad.hbs"
run err-escape hb "$tmp/bad.hbs"
shows err-escape "a bad token is quoted printable" err "$S%ZZ"
run err-path hb "$tmp/none$P.hbs"
shows err-path "a missing stream is named printable" err "none$S.hbs: "
run err-wasm hb --wasm "$tmp/none$P.wasm" "$tmp/h.hbs"
shows err-wasm "a missing --wasm is named printable" err "none$S.wasm: "
run err-option hb "--x$P"
shows err-option "an unknown option is quoted printable" err "'--x$S'"
cp "$tmp/h.hbs" "$tmp/in$P.hbs"
run err-output hb -o "$tmp/in$P.hbs" "$tmp/in$P.hbs"
shows err-output "an output that is an input is refused, named printable" err "in$S.hbs"
run err-diff hb diff "$tmp/none$P.hbs" "$tmp/h.hbs"
shows err-diff "a missing diff side is named printable" err "none$S.hbs: "

# --pprof: what go tool pprof prints of the profiles (every name, path and
# file of the native, V8 and hand-written streams) is clean too, and shows the
# payload printable. Skipped, saying so, without go (golang-go).
if command -v go >/dev/null 2>&1; then
	export HOME="$tmp/home" GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" PPROF_TMPDIR="$tmp/pprof" \
		PPROF_BINARY_PATH="$tmp/no-binaries" GOTOOLCHAIN=local
	mkdir -p "$HOME"
	for c in n v h; do
		hb --pprof "$tmp/$c.pb.gz" "$tmp/$c.hbs" >/dev/null 2>&1
		run "pprof-$c" go tool pprof -raw "$tmp/$c.pb.gz"
		run "pprof-$c-top" go tool pprof -top -addresses "$tmp/$c.pb.gz"
	done
	shows pprof-h "go tool pprof shows a hand-written name printable" out "$S"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP go tool pprof is NOT INSTALLED (Debian: golang-go): hotblocks --pprof's names were NOT checked"
fi

echo "1..$tap_n"
