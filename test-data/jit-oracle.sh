#!/bin/sh
# SPDX-License-Identifier: MIT
# jit-oracle.sh DIR: perf's own attribution of the recording DIR/perf.data
# (DIR is test-data/NAME, NAME may have a slash), written into DIR as the oracle
# the hotblocks tests compare with:
#   oracle-sym.txt     perf script -F ip,sym,symoff,dso counted per symbol (dso)
#   oracle-symoff.txt  the same counted per symbol+offset (dso)
#   oracle-report.txt  perf report --stdio --no-children --sort sym, its top lines
#   oracle-jitframe.txt  where perf.data has callchains (the CPython ones):
#                      each sample's innermost frame in JIT code, counted
# (each sorted by count, the hottest first; "[unknown]" is perf's own word).
# A recording with both a jitdump and a perf map (BEAM's +JPperf true) also
# gets oracle-{sym,symoff,report}-map.txt: perf.data without perf inject, so
# perf names the JIT code from /tmp/perf-PID.map.
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
# perf names a [vdso] sample from the build-id cache only (with-private-tmp's
# build/perf-buildid): a perf record puts this kernel's [vdso] there, as the
# recordings made earlier in a make check do.
perf --no-pager record -q -o "$work/vdso.data" -e cpu-clock true 2>/dev/null || true

# oracle DATA SUFFIX VIA: the three files DIR/oracle-*SUFFIX.txt of DATA.
oracle() {
	# -G: the sampled address alone, also where perf.data has callchains.
	perf --no-pager script -i "$1" -G -F ip,sym,symoff,dso >"$work/script" 2>"$work/script.err"
	# A line is "IP SYM+0xOFF (DSO)" (SYM may hold spaces; no +0x for [unknown]).
	sed -e 's/^ *[0-9a-f]* //' "$work/script" >"$work/symoff"
	sed -e 's/+0x[0-9a-f]* (\([^()]*\))$/ (\1)/' "$work/symoff" >"$work/sym"
	total=$(wc -l <"$work/symoff")
	count "$work/sym" "symbol (dso)" "$3" "$here/oracle-sym$2.txt"
	count "$work/symoff" "symbol+offset (dso)" "$3" "$here/oracle-symoff$2.txt"
	# a big one is kept compressed (read it with xzcat)
	rm -f "$here/oracle-symoff$2.txt.xz"
	[ "$(wc -c <"$here/oracle-symoff$2.txt")" -lt 400000 ] || xz -9 "$here/oracle-symoff$2.txt"
	{
		echo "# perf report --stdio --no-children --sort sym${3:+ ($3)}, its top lines"
		perf --no-pager report -i "$1" --stdio --no-children --sort sym -g none 2>/dev/null |
			grep -v '^$' | grep -v '^# *$' | head -48
	} >"$here/oracle-report$2.txt"
	echo "oracle of $1${3:+ ($3)}: $total samples -> $here/oracle-{sym,symoff,report}$2.txt"
	if perf --no-pager evlist -v -i "$1" 2>/dev/null | grep -q "sample_type:.*CALLCHAIN"; then
		frames "$1" "$2" "$3"
	fi
}
# frames DATA SUFFIX VIA: where perf.data has callchains, each sample's
# innermost frame in JIT code (a perf map's or a jitted-PID-N.so's, the
# sampled address itself included), counted per symbol into
# DIR/oracle-jitframe*SUFFIX.txt; "(none)" when no frame of it is JIT code.
frames() {
	perf --no-pager script -i "$1" -F ip,sym,dso 2>/dev/null | awk -v total="$total" -v via="$3" '
		function flush() { if (insample) n[found == "" ? "(none)" : found]++; insample = 0; found = "" }
		/^$/ { flush(); next }
		{
			insample = 1
			if (found == "" && ($NF ~ /^\(\/tmp\/perf-[0-9]+\.map\)$/ || $NF ~ /\/jitted-[0-9]+-[0-9]+\.so\)$/)) {
				line = $0; sub(/^[ \t]*[0-9a-f]+ /, "", line); found = line
			}
		}
		END {
			flush()
			printf "# %d samples: perf script -F ip,sym,dso with callchains%s, each sample counted once, at its innermost frame in JIT code\n", total, via == "" ? "" : " (" via ")"
			for (k in n) printf "%7d %s\n", n[k], k | "sort -k1,1nr -k2"
		}' >"$here/oracle-jitframe$2.txt"
	echo "  and its callchains' innermost JIT frames -> $here/oracle-jitframe$2.txt"
}
# srclines DATA: perf's source line of each sample in JIT code (a
# jitted-PID-N.so, whose .debug_line perf inject made of the dump's
# DEBUG_INFO), counted per "symbol+offset (dso)<TAB>file:line" into
# DIR/oracle-srcline.txt; "(none)" where perf gives no line. Written only
# where some sample has one.
srclines() {
	perf --no-pager script -i "$1" -G -F ip,sym,symoff,srcline,dso 2>/dev/null | awk -v total="$total" '
		function flush() { if (key != "") n[key "\t" (line == "" ? "(none)" : line)]++; key = ""; line = "" }
		/^ *[0-9a-f]+ / {
			flush(); s = $0; sub(/^ *[0-9a-f]+ /, "", s)
			if (s ~ /\/jitted-[0-9]+-[0-9]+\.so\)$/) key = s
			next
		}
		key != "" && line == "" { line = $0; sub(/^ +/, "", line); if (line != "??:0") some = 1 }
		END {
			flush()
			if (!some) exit 1
			printf "# %d samples: perf script -F ip,sym,symoff,srcline,dso (after perf inject --jit), the samples in JIT code counted per symbol+offset (dso) and source line\n", total
			for (k in n) printf "%7d %s\n", n[k], k | "sort -k1,1nr -k2"
		}' >"$work/srcline" && mv "$work/srcline" "$here/oracle-srcline.txt" &&
		echo "  and the source lines of its JIT samples -> $here/oracle-srcline.txt" || true
}
count() {
	{
		echo "# $total samples: perf script -F ip,sym,symoff,dso${3:+ ($3)}, counted per $2"
		sort "$1" | uniq -c | sort -k1,1nr -k2
	} >"$4"
}

# (a big dump is kept xz-compressed; its restore.sh puts it back)
set -- "$here"/*.dump "$here"/*.dump.xz
[ -e "$1" ] || shift
if [ -e "$1" ]; then
	# A build-id cache of its own for inject, which adds every jitted-PID-N.so
	# (and the files perf.data names) to the one it uses.
	perf --no-pager --buildid-dir "$work/bid" inject --jit -i "$data" -o "$work/perf.jit.data"
	oracle "$work/perf.jit.data" "" "after perf inject --jit"
	srclines "$work/perf.jit.data"
	# A runtime that wrote a perf map too (BEAM): what perf makes of the map alone.
	set -- "$here"/perf-*.map "$here"/perf-*.map.xz
	[ -e "$1" ] || shift
	[ ! -e "$1" ] || { m=${1##*/}; oracle "$data" -map "no perf inject: the perf map /tmp/${m%.xz}"; }
else
	oracle "$data" "" ""
fi
