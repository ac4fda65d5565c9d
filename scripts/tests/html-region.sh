#!/bin/sh
# SPDX-License-Identifier: MIT
# A function too big for its page gets its hottest region (html-region.h),
# and no page passes its budget, nor sends the reader round in circles:
#  - real: the hottest function of V8 running gofmt compiled to wasm
#    (test-data/v8-wasm-gofmt/run1; JS:(*go/printer.printer).flush-469-
#    turbofan, 753 blocks, a 635 KB page whole) given 100 KiB: the page is at
#    most that, and its region is checked against the page of the function
#    whole (--page-budget 0) by scripts/tests/html-region.js: every sample in
#    the region or the list of the rest, the region its hottest blocks with
#    the whole listing's rows, its stubs one CFG step away (by the whole
#    page's branch links and fall-throughs), no branch out of the region to a
#    block not in the page; then in headless Chromium;
#  - the whole profile of that recording given 150 KiB and 300 KiB (some
#    functions left out, some as commands with --page-budget 0, the table
#    shrunk at 150 KiB):
#    each page at most its budget, and every command it prints (those of the
#    regions, and the first of each kind of the left out), run, writes a page
#    that differs from it and has the function it names in it;
#  - a generated stream (scripts/gen-big-stream: an imitation of a big
#    profile, real code bytes laid out by a generator, not a recording) with
#    huge functions of 100 KB of code, given 400 KiB: the same;
#  - a budget no page fits (8k, less than its script and style): an error
#    naming the output, exit 1, nothing written.
. "$(dirname "$0")/lib.sh"
need_private_tmp

restore_recording v8-wasm-gofmt/run1
plugin_stream "$(recording_data v8-wasm-gofmt/run1)" "$tmp/gofmt.hbs" 2>"$tmp/plugin.err" ||
	not_ok "gofmt: perf script with the plugin" "$tmp/plugin.err"
F='JS:(*go/printer.printer).flush-469-turbofan'

# 1. The region, against the whole.
"$POSTPROC" --html -p 100 --function "$F" --page-budget 100k -o "$tmp/region.html" "$tmp/gofmt.hbs" 2>/dev/null
"$POSTPROC" --html --function "$F" --page-budget 0 -o "$tmp/whole.html" "$tmp/gofmt.hbs" 2>/dev/null
size=$(wc -c <"$tmp/region.html")
check "region: the page of $F given 100 KiB is at most that ($size bytes; whole: $(wc -c <"$tmp/whole.html"))" \
	test "$size" -le 102400
check "region: it is in the page by its hottest region, and says so" \
	sh -c "grep -q '<p class=\"region\"' '$tmp/region.html' && grep -q 'id=\"regions\" data-regions=\"1\"' '$tmp/region.html' && grep -q 'its hottest region</small>' '$tmp/region.html'"
node "$top/scripts/tests/html-region.js" "$tmp/region.html" "$tmp/whole.html" >"$tmp/region.out" 2>&1
tap_relay "$tmp/region.out" "region: " || not_ok "region: html-region.js ran" "$tmp/region.out"
cat >"$tmp/region.spec" <<'SPEC'
{"steps": [
 {"name": "the region's listing: its blocks with rows, its stubs without", "eval": "document.querySelectorAll('section.func tbody.blk:not(.stub) tr:not(.bh)').length > 0 && document.querySelectorAll('section.func tbody.blk.stub').length === Number(document.querySelector('p.region').dataset.stubs) && Array.from(document.querySelectorAll('tbody.blk.stub')).every((b) => b.rows.length === 1)"},
 {"name": "its graph draws the region and its stubs", "eval": "(async () => { document.querySelector('section.func').scrollIntoView(); await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return document.querySelectorAll('section.func svg.cfg g.node').length > 0; })()"},
 {"name": "it opens at its hottest block, which is in the region", "eval": "(() => { const sec = document.querySelector('section.func'); const hot = document.getElementById(sec.dataset.hot); return !!hot && !hot.classList.contains('stub') && hot.rows.length > 1; })()"},
 {"name": "the list of the rest is there, hottest first", "eval": "(() => { const n = Array.from(document.querySelectorAll('table.rest tr[data-samples]'), (r) => Number(r.dataset.samples)); return n.length > 0 && n.every((x, i) => !i || n[i - 1] >= x); })()"}
]}
SPEC
browser_check "$tmp/region.html" "$tmp/region.spec" >"$tmp/region-b.out" 2>&1
tap_relay "$tmp/region-b.out" "region: " || not_ok "region: the browser ran the page" "$tmp/region-b.out"

# follow PAGE NAME: run the commands PAGE prints (those of its regions, and
# of the functions left out the first of each kind: with and without
# --page-budget 0), where the stream is; each must write a page that differs
# from PAGE and has the function it names.
follow() {
	node -e '
	const html = require("fs").readFileSync(process.argv[1], "utf8");
	const un = (s) => s.replace(/&#39;/g, "\x27").replace(/&quot;/g, "\"").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
	const cmds = Array.from(html.matchAll(/<code class="cmd">([^<]*)<\/code>/g), (m) => un(m[1]));
	const region = Array.from(html.matchAll(/<p class="region"[^>]*>[^]*?<code class="cmd">([^<]*)<\/code>/g), (m) => un(m[1]));
	const pick = new Set(region);
	for (const re of [/--page-budget 0 /, /^(?![^]*--page-budget 0 )/])
		{ const c = cmds.find((c) => re.test(c) && !region.includes(c)); if (c) pick.add(c); }
	for (const c of pick) console.log(c.replace(/^hotblocks /, ""));' "$1" >"$tmp/$2.cmds"
	n=0
	while IFS= read -r cmd; do
		n=$((n + 1))
		rm -f "$tmp"/f[0-9]*.html
		if (cd "$tmp" && eval "\"$POSTPROC\" $cmd") 2>"$tmp/cmd.err" && out=$(ls "$tmp"/f[0-9]*.html) &&
			! cmp -s "$out" "$1" && name=$(printf '%s\n' "$cmd" | sed -n "s/.*--function '\(.*\)' .*/\1/p") &&
			node -e '
			const fs = require("fs"), html = fs.readFileSync(process.argv[1], "utf8");
			const esc = process.argv[2].replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\x27/g, "&#39;");
			process.exit(html.includes(`<section class="func" id="f0"`) && html.includes(`data-name="${esc}"`) ? 0 : 1);' "$out" "$name"; then
			ok "$2: its command $n, run, writes another page, with that function in it"
		else
			echo "command: $cmd" >>"$tmp/cmd.err"
			not_ok "$2: its command $n, run, writes another page, with that function in it" "$tmp/cmd.err"
		fi
	done <"$tmp/$2.cmds"
	check "$2: it prints commands to follow ($n)" test "$n" -gt 0
}
follow "$tmp/region.html" region

# 2. The whole profile, small budgets.
for b in 150 300; do
	"$POSTPROC" --html -p 100 --page-budget ${b}k -o "$tmp/p$b.html" "$tmp/gofmt.hbs" 2>/dev/null
	size=$(wc -c <"$tmp/p$b.html")
	check "gofmt at ${b} KiB: the page is at most that ($size bytes)" test "$size" -le $((b * 1024))
	follow "$tmp/p$b.html" "gofmt at ${b} KiB"
done

# 3. A generated stream (an imitation: see the header) with huge functions.
if "$top/scripts/gen-big-stream" --samples 20000 --functions 200 -o "$tmp/gen.hbs" 2>"$tmp/gen.err"; then
	"$POSTPROC" --html --page-budget 400k -o "$tmp/gen.html" "$tmp/gen.hbs" 2>/dev/null
	size=$(wc -c <"$tmp/gen.html")
	check "generated: its page given 400 KiB is at most that ($size bytes)" test "$size" -le 409600
	check "generated: a huge function in by its region" grep -q '<p class="region"' "$tmp/gen.html"
	follow "$tmp/gen.html" generated
else
	not_ok "gen-big-stream writes a stream" "$tmp/gen.err"
fi

# 4. No page fits.
"$POSTPROC" --html --page-budget 8k -o "$tmp/tiny.html" "$tmp/gofmt.hbs" >/dev/null 2>"$tmp/tiny.err"
rc=$?
check "8k: no page fits, an error naming the output (exit $rc), nothing written" \
	sh -c "test $rc -eq 1 && grep -q 'tiny.html: no page fits --page-budget' '$tmp/tiny.err' && ! test -e '$tmp/tiny.html'"
echo "1..$tap_n"
