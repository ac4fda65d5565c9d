#!/bin/sh
# SPDX-License-Identifier: MIT
# The options have one home, the option table (postproc/cli/options.def),
# which hotblocks --list-options gives: the usage texts of hotblocks,
# hotblocks diff and perf hotblocks are made from it, and perf hotblocks
# parses with it. What is written by hand must agree with it:
#  1. every marked entry of the man pages' option lists has the term the
#     table gives (scripts/gen-man --check);
#  2. every option of a command is in its man page: hotblocks and hotblocks
#     diff in hotblocks(1), every subcommand of perf hotblocks in
#     perf-hotblocks(1);
#  3. every option of the plugin's usage (--dlarg help) is in hotblocks(1),
#     which lists them, and in perf-hotblocks(1), which passes them on;
#  4. every long option the README gives to a `hotblocks` command line is one
#     the table has for hotblocks (for hotblocks diff: for `hotblocks diff`).
. "$(dirname "$0")/lib.sh"

"$POSTPROC" --list-options >"$tmp/table"
check "hotblocks --list-options gives the option table" test -s "$tmp/table"

# 1. The terms of the man pages' option lists.
check "hotblocks(1)'s option terms are the table's (scripts/gen-man --check)" \
	env HOTBLOCKS_BIN="$POSTPROC" "$top/scripts/gen-man" --check "$top/postproc/hotblocks.1"
check "perf-hotblocks(1)'s option terms are the table's (scripts/gen-man --check)" \
	env HOTBLOCKS_BIN="$POSTPROC" "$top/scripts/gen-man" --check "$top/scripts/perf-hotblocks.1"
check "hotblocks(1) marks its option entries" grep -q '^\.\\" options hotblocks: ' "$top/postproc/hotblocks.1"
check "perf-hotblocks(1) marks its option entries" grep -q '^\.\\" options perf-report: ' \
	"$top/scripts/perf-hotblocks.1"

# The long options of the commands matching a regex (scripts' own left out).
options_of() {	# command-regex
	awk -F'\t' -v re="(^|,)($1)(,|\$)" '$1 ~ re && $3 != "list-options" && $3 != "usage-of" { print $3 }' \
		"$tmp/table" | sort -u
}
# Long options in a text, one per line, sorted, man-page escapes removed.
longopts() { sed 's/\\-/-/g; s/\\f[BIRP]//g' | grep -o -- '--[a-z][a-z0-9-]*' | sed 's/-*$//' | sort -u; }
# missing A B: the lines of file A that are not in file B.
missing() { comm -23 "$1" "$2" | paste -sd' ' -; }
agree() {	# description have-file need-file
	m=$(missing "$2" "$3")
	if [ -z "$m" ]; then ok "$1"; else echo "missing: $m" >"$tmp/agree.out"; not_ok "$1" "$tmp/agree.out"; fi
}

# 2. Every option of each command is in its man page (outside roff comments).
grep -v '^\.\\"' "$top/postproc/hotblocks.1" | longopts >"$tmp/h.man"
grep -v '^\.\\"' "$top/scripts/perf-hotblocks.1" | longopts >"$tmp/p.man"
options_of hotblocks | sed 's/^/--/' >"$tmp/h.opts"
options_of diff | sed 's/^/--/' >"$tmp/hd.opts"
options_of 'perf[a-z-]*' | sed 's/^/--/' >"$tmp/p.opts"
check "the table has options of hotblocks, hotblocks diff and perf hotblocks" \
	test -s "$tmp/h.opts" -a -s "$tmp/hd.opts" -a -s "$tmp/p.opts"
agree "every option of hotblocks is in hotblocks(1)" "$tmp/h.opts" "$tmp/h.man"
agree "every option of hotblocks diff is in hotblocks(1)" "$tmp/hd.opts" "$tmp/h.man"
agree "every option of perf hotblocks' subcommands is in perf-hotblocks(1)" "$tmp/p.opts" "$tmp/p.man"

# 3. The plugin's --dlarg options ("  key=VALUE  text" or "  key  text").
perf --no-pager script -i "$top/test-data/fakejit/perf.data" --dlfilter "$PLUGIN" --dlarg help 2>&1 |
	awk '/^options/ { f = 1; next } f && /^  [a-z]/ { k = $1; sub(/=.*/, "", k); print k; next } f && !/^  / { f = 0 }' |
	sort -u >"$tmp/d.help"
check "the plugin's --dlarg help lists options" test -s "$tmp/d.help"
for doc in postproc/hotblocks.1 scripts/perf-hotblocks.1; do
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

# 4. The README's hotblocks command lines (in its code blocks).
awk '/^```/ { f = !f; next } f' "$top/README.md" | grep -E '(^|[|] *)hotblocks ' >"$tmp/r.lines"
grep -v 'hotblocks diff ' "$tmp/r.lines" | sed 's/.*hotblocks //' | longopts >"$tmp/r.used"
grep 'hotblocks diff ' "$tmp/r.lines" | sed 's/.*hotblocks diff //' | longopts >"$tmp/rd.used"
check "the README shows hotblocks command lines" test -s "$tmp/r.used"
check "the README shows hotblocks diff command lines" grep -q 'hotblocks diff ' "$tmp/r.lines"
agree "every option the README gives hotblocks is in the table" "$tmp/r.used" "$tmp/h.opts"
agree "every option the README gives hotblocks diff is in the table" "$tmp/rd.used" "$tmp/hd.opts"

# 5. Every option of hotblocks is one of each perf hotblocks form that
# reports (COMMAND, report, wasm), and every option of hotblocks diff one of
# perf hotblocks diff, passed on to it as given (-h: the form's own help);
# but where the form gives the name a meaning of its own or sets the option
# itself, as listed here (options.def says why): FORM:OPTION.
taken='perf:event perf:output perf-wasm:event perf-wasm:cwasm perf-wasm:clif perf-wasm:wasm
perf-diff:base-stream-name perf-diff:new-stream-name perf:archive perf-report:archive perf-wasm:archive
perf:clif-module perf-report:clif-module perf-wasm:clif-module perf:clif-known perf-report:clif-known perf-wasm:clif-known'
# route FORM OPTION: where the form sends the option, or nothing.
route() {
	awk -F'\t' -v c="$1" -v o="$2" '$3 == o && ("," $1 ",") ~ ("," c ",") { print $6 }' "$tmp/table"
}
passes() {	# command forms...
	cmd=$1
	shift
	: >"$tmp/pass.out"
	for o in $(options_of "$cmd" | grep -vx help); do
		for form; do
			r=$(route "$form" "$o")
			case " $(echo $taken) " in
			*" $form:$o "*) [ "$r" != hotblocks ] ||
				echo "--$o of $form: listed as taken, but passed on to hotblocks" >>"$tmp/pass.out"
				continue ;;
			esac
			[ "$r" = hotblocks ] || echo "--$o of $cmd: ${r:-not an option} in $form" >>"$tmp/pass.out"
		done
	done
	test ! -s "$tmp/pass.out"
}
if passes hotblocks perf perf-report perf-wasm; then
	ok "every option of hotblocks passes through perf hotblocks COMMAND, report and wasm"
else
	not_ok "every option of hotblocks passes through perf hotblocks COMMAND, report and wasm" "$tmp/pass.out"
fi
if passes diff perf-diff; then
	ok "every option of hotblocks diff passes through perf hotblocks diff"
else
	not_ok "every option of hotblocks diff passes through perf hotblocks diff" "$tmp/pass.out"
fi
