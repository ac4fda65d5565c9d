#!/bin/sh
# SPDX-License-Identifier: MIT
# The plugin against a hostile debuginfod server, on the real recording
# test-data/native-mt-fork with its libwork.so stripped (so the plugin asks
# debuginfod for its debug file). The server (debuginfod-hostile-server.py,
# on 127.0.0.1) imitates debuginfod's one URL and answers: garbage, a body
# without end, one byte a second, a redirect to itself, a real debug file of
# another build. Each must end within its bound, with one note naming the
# server and the build-id, the samples still counted (by .dynsym and
# .eh_frame, as without debuginfod), and nothing wrong left in the cache.
# Then the cache directory: made 0700 when missing; a symbolic link, or one
# others may write, refused before asking; an entry in it that is a link not used.
. "$(dirname "$0")/lib.sh"
need_private_tmp
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH DEBUGINFOD_MAXSIZE DEBUGINFOD_MAXTIME XDG_CACHE_HOME

rec=/tmp/hotblocks-rec/native-mt-fork
"$top/test-data/native-mt-fork/restore.sh" >"$tmp/restore.out" 2>&1 ||
	{ not_ok "the native-mt-fork recording is restored" "$tmp/restore.out"; exit 0; }
lib=$rec/libwork.so
pd=$rec/perf.data
cp "$lib" "$tmp/orig.so"
bid=$(readelf -n "$lib" | awk '/Build ID:/ { print $3 }')
objcopy --strip-all "$tmp/orig.so" "$lib"
# a real debug file of another build of the same source (another build-id)
(cd "$tmp" && cp "$top/test-data/native-mt-fork/libwork.c" . &&
	gcc -O2 -fPIC -shared -Wl,-soname,libwork.so -o other.so libwork.c &&
	objcopy --only-keep-debug other.so other.debug)

# The plugin's samples of the stripped libwork.so with no debuginfod: the
# answer every hostile case must still give.
run() {	# out [env...]
	out=$1; shift
	env "$@" perf --no-pager script -i "$pd" --dlfilter "$PLUGIN" --dlarg "out=$out.hbs" 2>"$out.err"
	awk '$1 == "object" { in_lib = 0; for (i = 4; i <= NF; i++) if ($i == "dso='"$lib"'") in_lib = 1; lib[$2] = in_lib }
		$1 == "sample" && lib[$2] { n[$2 " " $4] += $5 }
		END { for (k in n) print k, n[k] }' "$out.hbs" | sort >"$out"
}
run "$tmp/plain"
check "stripped, no debuginfod: the plugin counts libwork.so's samples ($(awk '{ s += $3 } END { print s }' "$tmp/plain"))" \
	test -s "$tmp/plain"

serve() {	# mode [file]: starts the server, sets url
	rm -f "$tmp/port" "$tmp/port.log"
	python3 "$top/scripts/tests/debuginfod-hostile-server.py" "$@" "$tmp/port" "$tmp/srv.body" &
	srv=$!
	i=0
	while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	url=http://127.0.0.1:$(cat "$tmp/port")
}
stop() { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; }

# Each hostile answer: within its bound, one note, the samples as without it.
hostile() {	# mode note-pattern bound-seconds [env...]
	mode=$1 pat=$2 bound=$3; shift 3
	serve "$mode"
	t0=$(date +%s)
	run "$tmp/$mode" DEBUGINFOD_URLS="$url" DEBUGINFOD_CACHE_PATH="$tmp/cache-$mode" "$@"
	took=$(($(date +%s) - t0))
	stop
	check "$mode: the run ends within its bound (${took} s, bound $bound s)" test "$took" -le "$bound"
	check "$mode: the plugin says what the server did, naming it and the build-id" \
		grep -q "hotblocks: warning: debuginfod $url[^ ]*: build-id $bid: $pat" "$tmp/$mode.err"
	check "$mode: every libwork.so sample still counted, as without debuginfod" diff -u "$tmp/plain" "$tmp/$mode"
	check "$mode: no name taken from it" sh -c "! grep -q 'source=debuginfod' '$tmp/$mode.hbs'"
	# (libdebuginfod may leave an empty file: its negative cache, asking again after 10 minutes)
	check "$mode: nothing the server sent is left in the cache" \
		sh -c "! find '$tmp/cache-$mode' -type f -size +0 ! -name cache_clean_interval_s | grep -q ."
	check "$mode: the cache directory is the user's alone (0700)" \
		sh -c "[ \"\$(stat -c %a '$tmp/cache-$mode')\" = 700 ]"
}

printf '<html>not found, but 200</html>\n' >"$tmp/srv.body"
hostile garbage "the file it gave (2048 bytes) is not an ELF file: not used, dropped from its cache" 30
cp "$tmp/other.debug" "$tmp/srv.body"
hostile wrongid "the file it gave ([0-9]* bytes) is of another build-id: not used, dropped from its cache" 30
# a body without end: stopped past DEBUGINFOD_MAXSIZE (the default, 1 GiB, takes too long here)
hostile huge "stopped past the bytes a debug file may take (bound: DEBUGINFOD_MAXSIZE, else 8388608 bytes)" 30 \
	DEBUGINFOD_MAXSIZE=8388608
# one byte a second: DEBUGINFOD_TIMEOUT (100 bytes/s for 90 s) would never stop a faster drip
hostile drip "stopped after the time a query may take (bound: DEBUGINFOD_MAXTIME, else 3 s)" 30 DEBUGINFOD_MAXTIME=3
# a redirect to itself: libcurl follows it without end
hostile redirect "stopped after the time a query may take (bound: DEBUGINFOD_MAXTIME, else 3 s)" 30 DEBUGINFOD_MAXTIME=3
check "redirect: the server was asked again and again (a loop, $(wc -l <"$tmp/port.log") requests)" \
	test "$(wc -l <"$tmp/port.log")" -gt 50

# The cache directory: another's placed link, or one others may write, is not used.
mkdir -p "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$tmp/cache-link"
serve good
run "$tmp/link" DEBUGINFOD_URLS="$url" DEBUGINFOD_CACHE_PATH="$tmp/cache-link"
check "cache a symbolic link: refused before asking, and said" \
	grep -q "hotblocks: warning: debuginfod: cache directory $tmp/cache-link is not a directory (a symbolic link?): not asked" "$tmp/link.err"
check "cache a symbolic link: nothing written where it points" sh -c "[ -z \"\$(ls -A '$tmp/elsewhere')\" ]"
mkdir -p "$tmp/cache-open"
chmod 0777 "$tmp/cache-open"
run "$tmp/open" DEBUGINFOD_URLS="$url" DEBUGINFOD_CACHE_PATH="$tmp/cache-open"
check "cache writable by others: refused before asking, and said" \
	grep -q "hotblocks: warning: debuginfod: cache directory $tmp/cache-open is writable by others: not asked" "$tmp/open.err"
check "cache refused: the server was never asked" test ! -s "$tmp/port.log"
# a cache of ours holding a link for the build-id (to a real debug file of
# it): libdebuginfod opens it as cached; the plugin takes no link
mkdir -p "$tmp/cache-linked/$bid"
objcopy --only-keep-debug "$tmp/orig.so" "$tmp/linked.debug"
ln -s "$tmp/linked.debug" "$tmp/cache-linked/$bid/debuginfo"
run "$tmp/linked" DEBUGINFOD_URLS="$url" DEBUGINFOD_CACHE_PATH="$tmp/cache-linked"
check "cache entry a symbolic link: not used, and said" \
	grep -q "hotblocks: warning: debuginfod its cache: build-id $bid: $tmp/cache-linked/$bid/debuginfo is not a regular file of this user's: not used" "$tmp/linked.err"
check "cache entry a symbolic link: no name taken from it" sh -c "! grep -q 'source=debuginfod' '$tmp/linked.hbs'"
# XDG_CACHE_HOME, as libdebuginfod chooses it: made 0700, the good file kept there
objcopy --only-keep-debug "$tmp/orig.so" "$tmp/srv.body"
stop
serve good
run "$tmp/good" DEBUGINFOD_URLS="$url" XDG_CACHE_HOME="$tmp/xdg"
stop
check "good answer: cached under \$XDG_CACHE_HOME/debuginfod_client/BUILD-ID/debuginfo" \
	test -f "$tmp/xdg/debuginfod_client/$bid/debuginfo"
check "good answer: \$XDG_CACHE_HOME and its debuginfod_client made 0700" \
	sh -c "[ \"\$(stat -c %a '$tmp/xdg') \$(stat -c %a '$tmp/xdg/debuginfod_client')\" = '700 700' ]"
check "good answer: the names came from debuginfod" grep -q 'source=debuginfod' "$tmp/good.hbs"
check "good answer: no warning about debuginfod" sh -c "! grep -q debuginfod '$tmp/good.err'"
cp "$tmp/orig.so" "$lib"
