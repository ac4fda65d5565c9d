#!/bin/sh
# SPDX-License-Identifier: MIT
# A function a perf map names has no code bytes, but it is in the report like
# any other: the real recordings of runtimes that write only a perf map
# (test-data/jit-hotspot-perfmap: HotSpot -XX:+DumpPerfMapAtExit; jit-mono:
# mono --jitmap; jit-node-perfmap: node --perf-basic-prof; jit-cpython312:
# python3.12 -X perf), each put back in this test's private /tmp and run
# through the plugin, against perf's own attribution, committed beside each
# (../jit-oracle.sh made it with the real perf on the recording machine):
# * `hotblocks --functions --all`'s top 5 are perf report's top 5 (its
#   oracle-report.txt), each share within 0.1 points, each name perf's (or,
#   for C++, perf's name inside hotblocks' demangled one with its parameters);
#   a function of perf's top 5 in a file this machine lacks (Mono's AOT image
#   of mscorlib, made when mono was installed) cannot be named here, which
#   the plugin said: that is checked instead;
# * the hottest perf-map function's text entry (`--function NAME`): its
#   samples by offset, NAME+0xOFF, are perf script's per-offset counts
#   (oracle-symoff.txt), its share perf report's, and the one line that says
#   why it has no instructions names its runtime's jitdump flag;
# * the notes on stderr are the same under -p 1, 50 and 100.
. "$(dirname "$0")/lib.sh"
need_private_tmp

# top5 ORACLE: perf report's first five rows as "SHARE|NAME".
top5() {
	sed -n 's/^ *\([0-9.]*\)%  \[[^]]*\] \(.*[^ ]\) *$/\1|\2/p' "$1" | head -5
}

# ours STREAM: hotblocks --functions --all as "SHARE|NAME (FILE)".
ours() {
	"$POSTPROC" --functions --all "$1" 2>/dev/null |
		sed -n 's/^ *\([0-9.]*\)%  *[0-9][0-9]*   \(.*\)$/\1|\2/p'
}

# The oracle's file of a perf symbol NAME (oracle-sym.txt: "COUNT NAME (FILE)").
sym_file() {
	awk -v n="$2" '{ line = $0; sub(/^ *[0-9]+ /, "", line); f = line; sub(/ \([^()]*\)$/, "", line)
		sub(/^.* \(/, "", f); sub(/\)$/, "", f); if (line == n) { print f; exit } }' "$1"
}

for rec in jit-hotspot-perfmap jit-mono jit-node-perfmap jit-cpython312; do
	d=$top/test-data/$rec
	restore_recording "$rec"
	s=$tmp/$rec.hbs
	if ! plugin_stream "$(recording_data "$rec")" "$s" 2>"$tmp/$rec.plugin-err"; then
		not_ok "$rec: perf script --dlfilter hotblocks.so" "$tmp/$rec.plugin-err"
		continue
	fi
	top5 "$d/oracle-report.txt" >"$tmp/$rec.perf"
	ours "$s" >"$tmp/$rec.ours"
	# Each of perf's top 5 in ours at its place (a function perf names and
	# this machine cannot: the next of ours), its share within 0.1 points.
	: >"$tmp/$rec.bad"
	k=0 absent=0
	while IFS='|' read -r share name; do
		file=$(sym_file "$d/oracle-sym.txt" "$name")
		if [ -n "$file" ] && [ "${file#/tmp/}" = "$file" ] && [ "${file#[}" = "$file" ] && [ ! -e "$file" ]; then
			# not on this machine: the plugin must have said so, naming the file
			if grep -qF "$file: " "$tmp/$rec.plugin-err" && grep -qF "not found" "$tmp/$rec.plugin-err"; then
				absent=$((absent + 1))
			else
				echo "perf's $name ($file): not on this machine, and the plugin did not say so" >>"$tmp/$rec.bad"
			fi
			continue
		fi
		k=$((k + 1))
		line=$(sed -n "${k}p" "$tmp/$rec.ours")
		o_share=${line%%|*} o_name=${line#*|}
		awk -v a="$share" -v b="$o_share" 'BEGIN { d = a - b; exit !(b != "" && d <= 0.1 && d >= -0.1) }' ||
			echo "#$k: perf $share% $name; ours $o_share% $o_name" >>"$tmp/$rec.bad"
		case $o_name in
		"$name ("*|*" $name("*|"$name("*) ;;
		*) echo "#$k: perf names $name; ours $o_name" >>"$tmp/$rec.bad" ;;
		esac
	done <"$tmp/$rec.perf"
	if [ -s "$tmp/$rec.perf" ] && [ ! -s "$tmp/$rec.bad" ]; then
		ok "$rec: --functions' top 5 are perf report's, shares within 0.1 points$([ "$absent" -gt 0 ] && echo " ($absent of perf's in a file not on this machine, as the plugin said)")"
	else
		cat "$tmp/$rec.perf" "$tmp/$rec.ours" >>"$tmp/$rec.bad"
		not_ok "$rec: --functions' top 5 are perf report's" "$tmp/$rec.bad"
	fi

	# The hottest function of the perf map, by perf's count.
	map=$(recording_map "$rec")
	hot=$(awk -v m="($map)" '$NF == m { s = $0; sub(/^ *[0-9]+ /, "", s); sub(/ \([^()]*\)$/, "", s); print s; exit }' "$d/oracle-sym.txt")
	if [ -z "$hot" ]; then
		# CPython 3.12: no sample lands in a trampoline (its README)
		check "$rec: no sample in the perf map, none in a whole-function entry" \
			sh -c "! '$POSTPROC' --all '$s' 2>/dev/null | grep -q 'whole function, no code'"
	else
		"$POSTPROC" --all --function "$hot" "$s" >"$tmp/$rec.fn" 2>"$tmp/$rec.fn.err"
		# ours: every NAME+0xOFF row summed over the codes of that name, as perf's text key does
		awk -v n="$hot" 'index($0, n "+0x") { c = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); k[$0] += c }
			END { for (x in k) print k[x], x }' "$tmp/$rec.fn" | sort >"$tmp/$rec.off.ours"
		xzcat -f "$d/oracle-symoff.txt"* | awk -v n="$hot" -v m="($map)" '$NF == m {
			c = $1; s = $0; sub(/^ *[0-9]+ /, "", s); sub(/ \([^()]*\)$/, "", s)
			if (substr(s, 1, length(n) + 3) == n "+0x") print c, s }' | sort >"$tmp/$rec.off.perf"
		n=$(awk '{ s += $1 } END { print s + 0 }' "$tmp/$rec.off.perf")
		check "$rec: --function '$hot': its samples by offset are perf script's ($n samples, $(wc -l <"$tmp/$rec.off.perf") offsets)" \
			sh -c "test $n -gt 0 && diff -u '$tmp/$rec.off.perf' '$tmp/$rec.off.ours'"
		case $rec in
		jit-hotspot-perfmap) flag='-agentpath:/path/to/libperf-jvmti.so' ;;
		jit-node-perfmap) flag='node --perf-prof' ;;
		jit-mono) flag='Mono has no jitdump option known here' ;;
		esac
		check "$rec: its entry says why it has no instructions and how its runtime writes a jitdump ($flag)" \
			sh -c "grep -q '^no instructions: a perf map ($map) names this code' '$tmp/$rec.fn' &&
				grep '^no instructions' '$tmp/$rec.fn' | grep -qF -- '$flag'"
	fi

	# notes: the same counts under any -p (the plugin's own lines aside)
	for p in 1 50 100; do
		"$POSTPROC" -p "$p" "$s" 2>&1 >/dev/null | grep -v "names .* different codes" >"$tmp/$rec.notes.$p"
	done
	check "$rec: the notes are the same under -p 1, 50 and 100, and none ends in ', ...'" \
		sh -c "cmp '$tmp/$rec.notes.1' '$tmp/$rec.notes.50' && cmp '$tmp/$rec.notes.1' '$tmp/$rec.notes.100' &&
			! '$POSTPROC' -p 100 '$s' 2>&1 >/dev/null | grep -q ', \.\.\.\$'"
	# no row with samples prints as none
	check "$rec: no row with samples prints 0.00%" \
		sh -c "! '$POSTPROC' --all '$s' 2>/dev/null | grep -q '^ *0\.00%'"
done

# The page shows a perf map's function as the text does: why, then its
# samples by offset (HotSpot's two hottest, -p 40: the rows of the text's
# first entry, and at most perf's offsets of the second's name, which two
# codes share), in headless Chromium.
rec=jit-hotspot-perfmap
if [ -s "$tmp/$rec.hbs" ]; then
	"$POSTPROC" --html="$tmp/$rec.html" -p 40 "$tmp/$rec.hbs" 2>/dev/null
	second='void java.util.DualPivotQuicksort.mixedInsertionSort(int[], int, int, int)'
	n1=$("$POSTPROC" -p 40 "$tmp/$rec.hbs" 2>/dev/null | awk '/^`/ { e++ } e == 1 && /\+0x[0-9a-f]+$/' | wc -l)
	n2=$(awk -v n="$second" '{ s = $0; sub(/^ *[0-9]+ /, "", s) } index(s, n "+0x") == 1 && / \(\/tmp\/perf-28629\.map\)$/' \
		"$top/test-data/$rec/oracle-symoff.txt" | wc -l)
	cat >"$tmp/$rec.spec.json" <<SPEC
{"steps": [
 {"name": "two sections", "selector": "section.func", "count": 2},
 {"name": "each says why it has no instructions", "eval": "[...document.querySelectorAll('section.func p.nocode')].filter(p => p.textContent.startsWith('no instructions: a perf map (/tmp/perf-28629.map) names this code of HotSpot')).length === 2"},
 {"name": "the first lists the $n1 offsets of the text's first entry", "selector": "#f0 table.listing tbody tr", "count": $n1},
 {"name": "the second at most perf's $n2 (its other code's are its own)", "eval": "document.querySelectorAll('#f1 table.listing tbody tr').length > 0 && document.querySelectorAll('#f1 table.listing tbody tr').length <= $n2"},
 {"name": "its share is perf report's", "selector": "#f0 h2 .pct", "text": "32.43%"}
]}
SPEC
	browser_check "$tmp/$rec.html" "$tmp/$rec.spec.json" >"$tmp/$rec.browser.out" 2>&1
	tap_relay "$tmp/$rec.browser.out" "$rec page: " || not_ok "$rec page: the browser ran the page" "$tmp/$rec.browser.out"
fi
