#!/bin/sh
# SPDX-License-Identifier: MIT
# The options are documented in three places (each program's usage text, its
# man page, the README): they must agree, so a new or renamed option cannot be
# documented in one and forgotten in another.
#  1. every long option a usage text names (hotblocks --help and hotblocks
#     diff --help; perf-hotblocks --help and the -h of each subcommand) is in
#     that program's man page;
#  2. every option a man page defines (a .TP term of its option lists) is in
#     the program's usage text (hotblocks diff's list in its own);
#  3. every option of the plugin's usage (--dlarg help) is in the README and in
#     perf-hotblocks(1), which passes them on;
#  4. every long option the README gives to a `hotblocks` command line is one
#     that hotblocks --help lists (hotblocks diff --help for `hotblocks diff`).
. "$(dirname "$0")/lib.sh"

# Long options in a text, one per line, sorted, man-page escapes removed.
longopts() { sed 's/\\-/-/g; s/\\f[BIRP]//g' | grep -o -- '--[a-z][a-z0-9-]*' | sed 's/-*$//' | sort -u; }
# The terms of a man page's option lists: the line after each .TP, in SECTIONS.
man_terms() {	# page section-regex
	awk -v re="$2" '/^\.SH/ { in_s = ($0 ~ re) } in_s && prev == ".TP" { print } { prev = $0 }' "$1" | longopts
}
# missing A B: the lines of file A that are not in file B.
missing() { comm -23 "$1" "$2" | paste -sd' ' -; }

agree() {	# description have-file need-file
	m=$(missing "$2" "$3")
	if [ -z "$m" ]; then ok "$1"; else echo "missing: $m" >"$tmp/agree.out"; not_ok "$1" "$tmp/agree.out"; fi
}

# 1 and 2: hotblocks.
"$POSTPROC" --help | longopts >"$tmp/h.help"
longopts <"$top/postproc/hotblocks.1" >"$tmp/h.man"
man_terms "$top/postproc/hotblocks.1" 'OPTIONS' >"$tmp/h.terms"
check "hotblocks --help lists options" test -s "$tmp/h.help"
check "hotblocks(1) defines options" test -s "$tmp/h.terms"
agree "every option of hotblocks --help is in hotblocks(1)" "$tmp/h.help" "$tmp/h.man"
agree "every option hotblocks(1) defines is in hotblocks --help" "$tmp/h.terms" "$tmp/h.help"

# 1 and 2: hotblocks diff, whose options hotblocks(1) lists in a section of
# their own.
"$POSTPROC" diff --help | longopts >"$tmp/hd.help"
man_terms "$top/postproc/hotblocks.1" 'COMPARING' >"$tmp/hd.terms"
check "hotblocks diff --help lists options" test -s "$tmp/hd.help"
check "hotblocks(1) defines the options of hotblocks diff" test -s "$tmp/hd.terms"
agree "every option of hotblocks diff --help is in hotblocks(1)" "$tmp/hd.help" "$tmp/h.man"
agree "every option hotblocks(1) defines for diff is in hotblocks diff --help" "$tmp/hd.terms" "$tmp/hd.help"

# 1 and 2: perf-hotblocks, its subcommands' usage texts together.
ph=$top/scripts/perf-hotblocks
{ "$ph" --help; for c in record report wasm diff; do "$ph" "$c" -h; done; } 2>&1 | longopts >"$tmp/p.help"
longopts <"$top/scripts/perf-hotblocks.1" >"$tmp/p.man"
man_terms "$top/scripts/perf-hotblocks.1" 'COMMANDS|OPTIONS' >"$tmp/p.terms"
check "perf-hotblocks(1) defines options" test -s "$tmp/p.terms"
agree "every option of the perf hotblocks usage texts is in perf-hotblocks(1)" "$tmp/p.help" "$tmp/p.man"
agree "every option perf-hotblocks(1) defines is in a perf hotblocks usage text" "$tmp/p.terms" "$tmp/p.help"

# 3: the plugin's --dlarg options ("  key=VALUE  text" or "  key  text").
perf --no-pager script -i "$top/test-data/fakejit/perf.data" --dlfilter "$PLUGIN" --dlarg help 2>&1 |
	awk '/^options/ { f = 1; next } f && /^  [a-z]/ { sub(/=.*/, "", $1); print $1 } f && !/^  / { f = 0 }' |
	sort -u >"$tmp/d.help"
check "the plugin's --dlarg help lists options" test -s "$tmp/d.help"
for doc in README.md scripts/perf-hotblocks.1; do
	: >"$tmp/d.missing"
	while read -r k; do
		grep -q -- "$(echo "$k" | sed 's/-/\\\\*-/g')" "$top/$doc" || echo "$k" >>"$tmp/d.missing"
	done <"$tmp/d.help"
	if [ -s "$tmp/d.missing" ]; then
		not_ok "every --dlarg option of the plugin is in $doc" "$tmp/d.missing"
	else
		ok "every --dlarg option of the plugin is in $doc"
	fi
done

# 4: the README's hotblocks command lines (in its code blocks).
awk '/^```/ { f = !f; next } f' "$top/README.md" | grep -E '(^|[|] *)hotblocks ' >"$tmp/r.lines"
grep -v 'hotblocks diff ' "$tmp/r.lines" | sed 's/.*hotblocks //' | longopts >"$tmp/r.used"
grep 'hotblocks diff ' "$tmp/r.lines" | sed 's/.*hotblocks diff //' | longopts >"$tmp/rd.used"
check "the README shows hotblocks command lines" test -s "$tmp/r.used"
check "the README shows hotblocks diff command lines" grep -q 'hotblocks diff ' "$tmp/r.lines"
agree "every option the README gives hotblocks is in hotblocks --help" "$tmp/r.used" "$tmp/h.help"
agree "every option the README gives hotblocks diff is in hotblocks diff --help" "$tmp/rd.used" "$tmp/hd.help"
