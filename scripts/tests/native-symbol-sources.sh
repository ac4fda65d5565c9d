#!/bin/sh
# SPDX-License-Identifier: MIT
# Where the plugin finds the symbols of a file, each way distributions ship
# a library, on the real recording test-data/native-mt-fork. Its libwork.so
# is replaced by copies made from the same build (objcopy keeps the build-id,
# so perf.data's build-id still names them):
#   unstripped       the reference: perf's names of every sample
#   .gnu_debuglink   stripped, its debug file beside it (perf finds it too)
#   build-id cache   stripped, the debug file in perf's build-id cache
#                    (perf --buildid-dir DIR; perf finds it too)
#   MiniDebugInfo    stripped, the functions .dynsym lacks in an xz-compressed
#                    .gnu_debugdata, made as Fedora makes it (perf 6.1 does
#                    not read it: the names must be the unstripped reference's)
#   debuginfod       stripped, the debug file served by a real debuginfod
#                    (Debian's) on loopback (perf 6.1 does not ask: the
#                    reference's names again)
#   stripped         nothing else: perf's answer where perf has a symbol; the
#                    static functions named FILE+0xOFFSET by their .eh_frame
#                    bounds, which must be the reference's function bounds
#   debuglink CRC    the debug file changed since it was linked: refused, as
#                    gdb refuses it (perf 6.1 reads it)
#   another build    a library built otherwise (another build-id): perf
#                    refuses it, and so must the plugin, and say why
# Each case compares the plugin's per-offset counts in libwork.so with the
# expectation above.
. "$(dirname "$0")/lib.sh"
need_private_tmp
unset DEBUGINFOD_URLS

rec=/tmp/hotblocks-rec/native-mt-fork
"$top/test-data/native-mt-fork/restore.sh" >"$tmp/restore.out" 2>&1 ||
	{ not_ok "the native-mt-fork recording is restored" "$tmp/restore.out"; exit 0; }
echo "# native-mt-fork: $(tail -n 1 "$tmp/restore.out")"
lib=$rec/libwork.so
pd=$rec/perf.data
cp "$lib" "$tmp/orig.so"

# perf's libwork.so samples: "name offset count" lines ([unknown]: offset -)
perf_lib() {	# [perf options...]
	perf --no-pager "$@" script -i "$pd" -F ip,sym,symoff,dso 2>/dev/null | awk -v lib="($lib)" '
		$NF == lib { s = $2; off = "-"; if ((j = match(s, /\+0x[0-9a-f]+$/)) > 0) { off = substr(s, j + 1); s = substr(s, 1, j - 1) }
			n[s " " off]++ }
		END { for (k in n) print k, n[k] }' | sort
}

# The plugin's libwork.so samples, the same way; also its objects' sources.
ours_lib() {	# out [perf options...]
	out=$1; shift
	perf --no-pager "$@" script -i "$pd" --dlfilter "$PLUGIN" --dlarg "out=$out.hbs" 2>"$out.err" || return 1
	awk -v lib="dso=$lib" '
		$1 == "object" { in_lib = 0; for (i = 4; i <= NF; i++) { if ($i == lib) in_lib = 1
			if ($i ~ /^name=/) nm = substr($i, 6); if ($i ~ /^source=/) src = substr($i, 8); if ($i ~ /^sym-start=/) st = substr($i, 11) }
			if (in_lib) { name[$2] = nm; source[$2] = src; start[$2] = st } }
		$1 == "sample" && ($2 in name) { n[name[$2] " " $4] += $5 }
		END { for (k in n) print k, n[k] }' "$out.hbs" | sort >"$out"
	awk -v lib="dso=$lib" '$1 == "object" { for (i = 4; i <= NF; i++) if ($i == lib) { print; break } }' "$out.hbs" \
		>"$out.objects"
}

sources_are() {	# out word: every libwork object says source=word (or one of "a|b")
	awk -v w="$2" '{ ok = 0; for (i = 4; i <= NF; i++) if ($i ~ ("^source=(" w ")$")) ok = 1; if (!ok) { print; bad = 1 } }
		END { exit bad }' "$1.objects"
}

perf_lib >"$tmp/ref"
check "reference: perf names the samples of the unstripped libwork.so ($(awk '{ s += $3 } END { print s }' "$tmp/ref") samples)" \
	sh -c "test -s '$tmp/ref' && ! grep -q '^\\[unknown\\]' '$tmp/ref' && grep -q '^mix ' '$tmp/ref'"
ours_lib "$tmp/unstripped" && check "unstripped: the plugin's names and offsets are perf's" diff -u "$tmp/ref" "$tmp/unstripped"

# The copies, all of one build: objcopy keeps the build-id note.
objcopy --only-keep-debug "$tmp/orig.so" "$tmp/libwork.so.debug"
objcopy --strip-all "$tmp/orig.so" "$tmp/stripped.so"
bid=$(readelf -n "$tmp/orig.so" | awk '/Build ID:/ { print $3 }')
check "the stripped copy has no .symtab and the build-id of the recorded file" sh -c \
	"! readelf -S '$tmp/stripped.so' | grep -q symtab && readelf -n '$tmp/stripped.so' | grep -q $bid"

# .gnu_debuglink: perf and the plugin both look beside the file.
objcopy --strip-all --add-gnu-debuglink="$tmp/libwork.so.debug" "$tmp/orig.so" "$lib"
cp "$tmp/libwork.so.debug" "$rec/"
perf_lib >"$tmp/dl.perf"
ours_lib "$tmp/dl"
check ".gnu_debuglink: perf names every sample from the debug file as from the unstripped file" \
	diff -u "$tmp/ref" "$tmp/dl.perf"
check ".gnu_debuglink: the plugin's names and offsets are perf's" diff -u "$tmp/dl.perf" "$tmp/dl"
check ".gnu_debuglink: the plugin says the names are from a .symtab" sources_are "$tmp/dl" symtab
# (that is also the plugin's CRC-32 agreeing with the one objcopy wrote.) A
# debug file changed since it was linked (one byte more: still ELF, same
# build-id): gdb refuses it by the link's CRC, perf 6.1 does not check; the
# plugin refuses it as gdb does, says so, and names by .dynsym and .eh_frame.
printf '\0' >>"$rec/libwork.so.debug"
perf_lib >"$tmp/dlcrc.perf"
ours_lib "$tmp/dlcrc"
check ".gnu_debuglink of another CRC: perf 6.1 still reads it" diff -u "$tmp/ref" "$tmp/dlcrc.perf"
check ".gnu_debuglink of another CRC: the plugin refuses it and says so" \
	grep -q "hotblocks: warning: $rec/libwork.so.debug: CRC-32 0x[0-9a-f]*, not the 0x[0-9a-f]* of $lib's .gnu_debuglink" "$tmp/dlcrc.err"
check ".gnu_debuglink of another CRC: the plugin's names are the .dynsym's and the FDEs'" \
	sources_are "$tmp/dlcrc" "dynsym|eh-frame"
rm -f "$rec/libwork.so.debug"

# perf's build-id cache: DIR/.build-id/xx/rest/debug (perf --buildid-dir DIR).
mkdir -p "$tmp/bid/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-)"
cp "$tmp/libwork.so.debug" "$tmp/bid/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-)/debug"
cp "$tmp/stripped.so" "$lib"
perf_lib --buildid-dir "$tmp/bid" >"$tmp/cache.perf"
ours_lib "$tmp/cache" --buildid-dir "$tmp/bid"
check "build-id cache: perf names every sample as from the unstripped file" diff -u "$tmp/ref" "$tmp/cache.perf"
check "build-id cache: the plugin's names and offsets are perf's" diff -u "$tmp/cache.perf" "$tmp/cache"

# MiniDebugInfo, as Fedora's find-debuginfo makes it: the function symbols
# .dynsym lacks, in an ELF of no sections' bytes, xz-compressed.
nm -D "$tmp/orig.so" --format=posix --defined-only | awk '{ print $1 }' | sort >"$tmp/dynsyms"
nm "$tmp/orig.so" --format=posix --defined-only | awk '$2 ~ /^[Tt]$/ { print $1 }' | sort >"$tmp/funcsyms"
comm -13 "$tmp/dynsyms" "$tmp/funcsyms" >"$tmp/keep"
objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols="$tmp/keep" \
	"$tmp/libwork.so.debug" "$tmp/mini"
xz -k "$tmp/mini"
objcopy --strip-all --add-section .gnu_debugdata="$tmp/mini.xz" "$tmp/orig.so" "$lib"
perf_lib >"$tmp/mini.perf"
ours_lib "$tmp/minidebug"
check "MiniDebugInfo: perf 6.1 does not read it (it names fewer samples than the reference)" \
	sh -c "! diff -q '$tmp/ref' '$tmp/mini.perf' >/dev/null && grep -q '^\\[unknown\\]' '$tmp/mini.perf'"
check "MiniDebugInfo: the plugin names every sample as perf did the unstripped file" \
	diff -u "$tmp/ref" "$tmp/minidebug"
check "MiniDebugInfo: the plugin says which names came from it" sources_are "$tmp/minidebug" "minidebuginfo|dynsym"

# debuginfod: Debian's server on loopback, serving the debug file by build-id.
cp "$tmp/stripped.so" "$lib"
mkdir -p "$tmp/srv" "$tmp/dcache"
cp "$tmp/libwork.so.debug" "$tmp/srv/"
# A port the kernel says is free now (not one from $$, which is the same in
# every run's pid namespace, so that two runs at once met on it); should
# another process take it first, our server dies of it and another is tried.
# Until our server answers or has died, for a minute at most (it took under 2 s).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
for try in 1 2 3 4 5; do
	port=$(free_port)
	debuginfod -F -d "$tmp/db.sqlite" -p "$port" "$tmp/srv" >"$tmp/debuginfod.log" 2>&1 &
	srv=$! i=0
	while [ $i -lt 300 ] && kill -0 "$srv" 2>/dev/null &&
		! curl -sf -o /dev/null "http://127.0.0.1:$port/buildid/$bid/debuginfo"; do
		sleep 0.2
		i=$((i + 1))
	done
	kill -0 "$srv" 2>/dev/null && break
	wait "$srv" 2>/dev/null
done
if curl -sf -o /dev/null "http://127.0.0.1:$port/buildid/$bid/debuginfo"; then
	ok "debuginfod: a real server serves the debug file by its build-id on loopback"
	DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$tmp/dcache ours_lib "$tmp/dinfod"
	check "debuginfod: the plugin names every sample as perf did the unstripped file" \
		diff -u "$tmp/ref" "$tmp/dinfod"
	check "debuginfod: the plugin says the names came from debuginfod" sources_are "$tmp/dinfod" debuginfod
	check "debuginfod: the file was fetched into DEBUGINFOD_CACHE_PATH" \
		test -f "$tmp/dcache/$bid/debuginfo"
else
	not_ok "debuginfod: a real server serves the debug file by its build-id on loopback" "$tmp/debuginfod.log"
fi
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null

# Stripped, nothing else: perf's answer where it has a symbol, FDE bounds elsewhere.
cp "$tmp/stripped.so" "$lib"
perf_lib >"$tmp/strip.perf"
ours_lib "$tmp/strip"
grep -v '^\[unknown\]' "$tmp/strip.perf" >"$tmp/strip.perf.named"
grep -v '^libwork\.so+0x' "$tmp/strip" >"$tmp/strip.named"
check "stripped: where perf has a symbol (.dynsym), the plugin's names and offsets are perf's" \
	diff -u "$tmp/strip.perf.named" "$tmp/strip.named"
# each FDE-named function starts where the reference's symbol does: renamed
# by the unstripped file's symbol at that start, the samples are the reference's
nm --defined-only "$tmp/orig.so" | awk '{ a = $1; sub(/^0+/, "", a); print a, $3 }' >"$tmp/starts"
awk 'NR == FNR { at[$1] = $2; next }
	$1 ~ /^libwork\.so\+0x/ { a = substr($1, 14); sub(/^0+/, "", a); $1 = (a in at) ? at[a] : $1 }
	{ print }' "$tmp/starts" "$tmp/strip" | sort >"$tmp/strip.renamed"
check "stripped: the functions named by their .eh_frame bounds start where the unstripped file's symbols do" \
	diff -u "$tmp/ref" "$tmp/strip.renamed"
check "stripped: those functions say so (source=eh-frame)" sh -c "grep -q 'source=eh-frame name=libwork.so+0x' '$tmp/strip.objects'"

# Another build of the library: perf refuses it (build-id mismatch), so must the plugin.
(cd "$tmp" && cp "$top/test-data/native-mt-fork/libwork.c" . &&
	gcc -O1 -fPIC -shared -Wl,-soname,libwork.so -o "$lib" libwork.c)
perf_lib >"$tmp/other.perf"
ours_lib "$tmp/other"
check "another build: perf names none of its samples" sh -c "! grep -v '^\\[unknown\\]' '$tmp/other.perf' | grep -q ."
check "another build: the plugin names none either" test ! -s "$tmp/other"
check "another build: the plugin says the file is another build" \
	grep -q "libwork.so: .* samples in code no symbol or .eh_frame entry covers (a different build than the one recorded" "$tmp/other.err"
cp "$tmp/orig.so" "$lib"
