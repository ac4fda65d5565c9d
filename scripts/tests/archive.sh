#!/bin/sh
# SPDX-License-Identifier: MIT
# One archive (postproc/FORMATS.md, "The archive"): `perf hotblocks archive`
# and `hotblocks --archive` made where the recording's files are, then the
# report of the archive where none of them is: a mount namespace of its own
# (unshare -m) with empty directories over the recording's directory in the
# checkout, over /tmp/hotblocks-rec (where perf.data names the jitdumps and
# the .cwasm), over /usr/lib/debug (libc's DWARF, which the [Source] cells of
# libc's code come from), and an empty file over /usr/bin/node (the symbols of
# branch targets in node). The report of the archive, copied to another
# directory, must equal byte for byte the report made in place from the same
# stream (`hotblocks OPTIONS <STREAM`), for text, --json --all, --html and
# --source-lines, on:
#  - test-data/v8-wasm (node's jitdump; JIT, native and kernel code);
#  - test-data/wasmtime-real/48.0.2/switch, its jitdump and its perfmap
#    recordings, with --cwasm, --clif and --wasm (the CLIF, Wasm and [Source]
#    columns: the module's DWARF).
# The hiding is checked to bite: in the namespace the in-place command fails
# (its --cwasm is gone) or prints another report (no [Source] of libc).
# Then hostile archives, made with Python's tarfile: a member with an
# absolute name, a '..', a symbolic link, a hard link, a directory, an
# unknown name, a member before the manifest, another version, a cut-short
# file: each refused with the member named, and nothing written anywhere.
# And the size of an archive: test-data/v8-wasm-gofmt/run1 (18,055 samples),
# under 1.5 MB (FORMATS.md states the figures), and its pages the same as in
# place.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_private_tmp

PH=$top/scripts/perf-hotblocks
export HOTBLOCKS_BIN="$POSTPROC" HOTBLOCKS_PLUGIN="$PLUGIN"
empty=$tmp/empty
mkdir -p "$empty" /tmp/hotblocks-rec
: >"$tmp/empty-file"
# hidden COMMAND...: COMMAND where the recordings' files are not.
hidden() {
	unshare -m --propagation private sh -c '
		e=$1 f=$2; shift 2
		for d in "$TOP/test-data/v8-wasm" "$TOP/test-data/wasmtime-real" /tmp/hotblocks-rec \
			/usr/lib/debug; do
			[ -d "$d" ] && { mount --bind "$e" "$d" || exit 99; }
		done
		[ -f /usr/bin/node ] && { mount --bind "$f" /usr/bin/node || exit 99; }
		exec "$@"' sh "$empty" "$tmp/empty-file" "$@"
}
export TOP="$top"
if ! hidden true 2>"$tmp/unshare.err"; then
	echo "ok 1 # SKIP no mount namespace in this one (unshare -m): $(head -1 "$tmp/unshare.err")"
	exit 0
fi
elsewhere=$tmp/elsewhere
mkdir -p "$elsewhere"

# same NAME ARCHIVE STREAM [OPTIONS...]: for each output, the report of
# ARCHIVE in the namespace (hotblocks and perf hotblocks report -i) equals
# the report in place of STREAM with OPTIONS.
same() {
	s_name=$1 s_arch=$2 s_stream=$3
	shift 3
	cp "$s_arch" "$elsewhere/$s_name.hba"
	for s_out in text json html lines; do
		case $s_out in
		text) set -- ;;
		json) set -- --json --all ;;
		html) set -- --html ;;
		lines) set -- --source-lines -p 100 ;;
		esac
		"$POSTPROC" "$@" $s_opts <"$s_stream" >"$tmp/$s_name.$s_out.in-place" 2>"$tmp/$s_name.$s_out.err"
		(cd "$elsewhere" && hidden "$POSTPROC" "$@" "$s_name.hba") >"$tmp/$s_name.$s_out.hb" 2>>"$tmp/$s_name.$s_out.err"
		(cd "$elsewhere" && hidden "$PH" report -i "$s_name.hba" "$@") >"$tmp/$s_name.$s_out.ph" 2>>"$tmp/$s_name.$s_out.err"
		if [ -s "$tmp/$s_name.$s_out.in-place" ] && cmp "$tmp/$s_name.$s_out.in-place" "$tmp/$s_name.$s_out.hb" \
			>>"$tmp/$s_name.$s_out.err" 2>&1 && cmp "$tmp/$s_name.$s_out.in-place" "$tmp/$s_name.$s_out.ph" \
			>>"$tmp/$s_name.$s_out.err" 2>&1; then
			ok "$s_name ${*:-(text)}: the archive's report, its files hidden, is the one in place ($(wc -c <"$tmp/$s_name.$s_out.hb") bytes)"
		else
			not_ok "$s_name ${*:-(text)}: the archive's report, its files hidden, is the one in place" "$tmp/$s_name.$s_out.err"
		fi
	done
}

# --- test-data/v8-wasm, through perf hotblocks archive ---
restore_recording v8-wasm
v8=$top/test-data/v8-wasm/perf.data
plugin_stream "$v8" "$tmp/v8.hbs" 2>/dev/null || not_ok "perf script --dlfilter hotblocks.so on test-data/v8-wasm"
check "perf hotblocks archive -i test-data/v8-wasm/perf.data -o v8.hba" \
	"$PH" archive -i "$v8" -o "$tmp/v8.hba"
s_opts=
same v8-wasm "$tmp/v8.hba" "$tmp/v8.hbs"
# what the hiding hides: the [Source] cells of libc (its debug file) are in
# the report in place, and not in the namespace without the archive
"$POSTPROC" -p 100 <"$tmp/v8.hbs" >"$tmp/v8.plain" 2>/dev/null
hidden "$POSTPROC" -p 100 <"$tmp/v8.hbs" >"$tmp/v8.plain-hidden" 2>/dev/null
if grep -q '\.c:[0-9]' "$tmp/v8.plain" && ! cmp -s "$tmp/v8.plain" "$tmp/v8.plain-hidden"; then
	ok "v8-wasm: the namespace hides what the report reads (in it, the stream alone gives no [Source] of native code)"
else
	not_ok "v8-wasm: the namespace hides what the report reads" "$tmp/v8.plain-hidden"
fi
check "the same input makes the same archive, byte for byte" \
	sh -c '"$1" --archive "$2" <"$3" && "$1" --archive "$4" <"$3" && cmp "$2" "$4"' sh \
	"$POSTPROC" "$tmp/v8-a.hba" "$tmp/v8.hbs" "$tmp/v8-b.hba"
check "an archive is a gzip'd POSIX tar: tar lists its members" \
	sh -c 'tar tzf "$1" | tr "\n" " " | grep -qx "hotblocks-archive stream-0.hbs answers "' sh "$tmp/v8.hba"

# --- wasmtime 48.0.2 switch: jitdump and perfmap, with the CLIF, Wasm and Source columns ---
R=$top/test-data/wasmtime-real
sw=$R/48.0.2/switch
rec=/tmp/hotblocks-rec/wasmtime-48.0.2-switch
mkdir -p "$rec/jitdump"
cp "$sw/module.cwasm" "$rec/"
cp "$sw"/jitdump/jit-*.dump "$rec/jitdump/"
s_opts="--cwasm $sw/module.cwasm --clif $sw/clif --wasm $R/switch.wasm"
for k in jitdump perfmap; do
	plugin_stream "$sw/$k/perf.data" "$tmp/sw-$k.hbs" 2>"$tmp/sw-$k.plugin.err" ||
		not_ok "perf script --dlfilter hotblocks.so on wasmtime-real/48.0.2/switch/$k" "$tmp/sw-$k.plugin.err"
	# shellcheck disable=SC2086
	if [ $k = jitdump ]; then
		check "switch $k: perf hotblocks archive --cwasm --clif --wasm" \
			"$PH" archive -i "$sw/$k/perf.data" $s_opts -o "$tmp/sw-$k.hba"
	else
		check "switch $k: hotblocks --archive --cwasm --clif --wasm" \
			sh -c '"$@" <"$0"' "$tmp/sw-$k.hbs" "$POSTPROC" --archive "$tmp/sw-$k.hba" $s_opts
	fi
	same "switch-$k" "$tmp/sw-$k.hba" "$tmp/sw-$k.hbs"
	# the columns are there, filled: CLIF and Wasm of the wasm code, its source lines
	if grep -q '\[CLIF\].*\[Wasm\].*\[Source\]' "$tmp/switch-$k.text.hb" &&
		grep -q 'br_table v3' "$tmp/switch-$k.text.hb" && grep -q 'switch\.c:[0-9]' "$tmp/switch-$k.text.hb"; then
		ok "switch $k: the archive's report has the CLIF, Wasm and Source columns, filled"
	else
		not_ok "switch $k: the archive's report has the CLIF, Wasm and Source columns, filled" "$tmp/switch-$k.text.hb"
	fi
	# shellcheck disable=SC2086
	if ! hidden "$POSTPROC" $s_opts <"$tmp/sw-$k.hbs" >/dev/null 2>"$tmp/sw-$k.hidden.err" &&
		grep -q 'module.cwasm' "$tmp/sw-$k.hidden.err"; then
		ok "switch $k: in the namespace the in-place command has no .cwasm (the hiding bites)"
	else
		not_ok "switch $k: in the namespace the in-place command has no .cwasm" "$tmp/sw-$k.hidden.err"
	fi
done

# --- hostile archives: refused, naming the member, nothing written ---
hostile=$tmp/hostile
mkdir -p "$hostile/run"
python3 - "$hostile" "$tmp/v8.hba" <<'EOF'
import io, sys, tarfile
out, good = sys.argv[1], sys.argv[2]
with tarfile.open(good, "r:gz") as t:
    members = {m.name: t.extractfile(m).read() for m in t.getmembers()}
def make(name, entries, fmt="w:gz"):
    with tarfile.open(f"{out}/{name}.hba", fmt) as t:
        for e in entries:
            info, data = e if isinstance(e, tuple) else (e, None)
            t.addfile(info, io.BytesIO(data) if data is not None else None)
def reg(name, data):
    i = tarfile.TarInfo(name); i.size = len(data); return (i, data)
def good_start():
    return [reg("hotblocks-archive", members["hotblocks-archive"]),
            reg("stream-0.hbs", members["stream-0.hbs"])]
ans = reg("answers", members["answers"])
make("absolute", good_start() + [reg("/tmp/hotblocks-escaped", b"x\n"), ans])
make("dotdot", good_start() + [reg("../hotblocks-escaped", b"x\n"), ans])
make("dotdot-inner", good_start() + [reg("a/../../hotblocks-escaped", b"x\n"), ans])
l = tarfile.TarInfo("answers"); l.type = tarfile.SYMTYPE; l.linkname = "/etc/passwd"
make("symlink", good_start() + [l])
h = tarfile.TarInfo("answers"); h.type = tarfile.LNKTYPE; h.linkname = "stream-0.hbs"
make("hardlink", good_start() + [h])
dd = tarfile.TarInfo("answers"); dd.type = tarfile.DIRTYPE
make("directory", good_start() + [dd])
make("unknown", good_start() + [reg("hotblocks-escaped", b"x\n"), ans])
make("twice", good_start() + [ans, ans])
make("before-manifest", [reg("stream-0.hbs", members["stream-0.hbs"]),
                         reg("hotblocks-archive", members["hotblocks-archive"]), ans])
make("version", [reg("hotblocks-archive", members["hotblocks-archive"].replace(b"hotblocks-archive 1", b"hotblocks-archive 2", 1)),
                 reg("stream-0.hbs", members["stream-0.hbs"]), ans])
make("bad-answers", good_start() + [reg("answers", b"3 func 0\n")])
make("no-answers", good_start())
raw = open(good, "rb").read()
open(f"{out}/cut.hba", "wb").write(raw[: len(raw) // 2])
EOF
for c in absolute:"'/tmp/hotblocks-escaped' is an absolute path" \
	dotdot:"'../hotblocks-escaped' has a '..' part" \
	dotdot-inner:"'a/../../hotblocks-escaped' has a '..' part" \
	symlink:"'answers' is not a regular file" \
	hardlink:"'answers' is not a regular file" \
	directory:"'answers/' is not a regular file" \
	unknown:"'hotblocks-escaped' is not a member of a hotblocks archive" \
	twice:"'answers' is not a member of a hotblocks archive (or is one twice" \
	before-manifest:"'stream-0.hbs' comes before hotblocks-archive" \
	version:"an archive of version 2; this hotblocks reads version 1" \
	bad-answers:"answers:1: the line has fewer fields than its count (3)" \
	no-answers:"not a whole hotblocks archive" \
	cut:"cut.hba: "; do
	name=${c%%:*} msg=${c#*:}
	(cd "$hostile/run" && "$POSTPROC" "../$name.hba") >"$tmp/h.out" 2>"$tmp/h.err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -qF -- "$msg" "$tmp/h.err" && [ -z "$(ls -A "$hostile/run")" ] &&
		[ ! -e /tmp/hotblocks-escaped ] && [ ! -e "$hostile/hotblocks-escaped" ] && [ ! -s "$tmp/h.out" ]; then
		ok "a hostile archive ($name) is refused: $(head -1 "$tmp/h.err" | cut -c1-110)"
	else
		echo "exit $rc; wanted 1 and: $msg" >>"$tmp/h.err"
		ls -A "$hostile/run" /tmp/hotblocks-escaped "$hostile/hotblocks-escaped" >>"$tmp/h.err" 2>&1
		not_ok "a hostile archive ($name) is refused, naming the member, writing nothing" "$tmp/h.err"
	fi
done
check "an archive is read alone, not with other streams" \
	sh -c '! "$1" "$2" "$3" 2>"$4" && grep -q "is an archive: it is read alone" "$4"' sh \
	"$POSTPROC" "$tmp/v8.hba" "$tmp/v8.hbs" "$tmp/alone.err"

# --- the size of an archive of a bigger real V8 recording ---
restore_recording v8-wasm-gofmt
mkdir -p /tmp/hotblocks-rec/v8-wasm-gofmt/run1
cp "$top/test-data/v8-wasm-gofmt/run1"/jit-*.dump /tmp/hotblocks-rec/v8-wasm-gofmt/run1/
"$PH" archive -i "$top/test-data/v8-wasm-gofmt/run1/perf.data" -o "$tmp/gofmt.hba" 2>"$tmp/gofmt.err"
size=$(wc -c <"$tmp/gofmt.hba" 2>/dev/null || echo 0)
samples=$("$POSTPROC" "$tmp/gofmt.hba" 2>/dev/null | sed -n 's/^Collected \([0-9]*\) total samples.*/\1/p')
if [ "$size" -gt 0 ] && [ "$size" -lt 1572864 ]; then
	ok "v8-wasm-gofmt/run1: its archive is $size bytes (under 1.5 MB; samples: $samples)"
else
	not_ok "v8-wasm-gofmt/run1: its archive is under 1.5 MB ($size bytes)" "$tmp/gofmt.err"
fi
# Its pages, from the archive and in place: a report of an archive allocates
# in another order than one that reads the files, and the pages are the same
# only while Graphviz's layout follows the graph and not the heap (they
# differed by edge routes while its nodes had names: graph-layout.c).
plugin_stream "$top/test-data/v8-wasm-gofmt/run1/perf.data" "$tmp/gofmt.hbs" 2>/dev/null
"$POSTPROC" --archive "$tmp/gofmt-s.hba" <"$tmp/gofmt.hbs" 2>"$tmp/gofmt-s.err"
for opts in "" "--all"; do
	# shellcheck disable=SC2086
	check "v8-wasm-gofmt/run1 --html $opts: the archive's page is the one in place, byte for byte" \
		sh -c '"$1" $4 --html="$2.a.html" <"$3" && "$1" $4 --html="$2.b.html" "$2" && cmp "$2.a.html" "$2.b.html"' \
		sh "$POSTPROC" "$tmp/gofmt-s.hba" "$tmp/gofmt.hbs" "$opts"
done

echo "1..$tap_n"
