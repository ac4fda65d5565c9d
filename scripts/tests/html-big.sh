#!/bin/sh
# SPDX-License-Identifier: MIT
# Big profiles in the page, in headless Chromium
# (scripts/tests/browser-check.mjs) on real recordings of test-data:
#  - the budget: a page of V8's switch at -p 100 given 300 KiB holds the
#    functions that fit, hottest first, and is at most that; it says how many
#    it left out and why; each left out has its row in the table of
#    functions with the command that shows it (at the same budget, or with
#    none when it would not fit even a page of its own: html-region.sh),
#    and that command, run, writes a page of that function; without a
#    budget every function is in;
#  - built on demand: a page of every function (--all) carries listings and
#    graphs as data that the page builds when a function comes into view;
#    built, a function's graph and listing are the markup a page of its
#    shown blocks has (the same function, -p 100 against --all: the same
#    blocks are shown), element by element;
#  - the hottest block first: Builtins_LoadIC of V8 (test-data/diff/v8-base,
#    1282 rows, its hottest block at row 959) opens with its listing, which
#    scrolls in a box of its own, at that block, and its graph at its box;
#    the same when it is built from data;
#  - the table ranks every sampled function, those without a shown block
#    marked, the long tail told by its count (a generated stream of 5,000
#    functions, scripts/gen-big-stream), and its page given 2 MiB opens with
#    no error.
# How each was checked: the page's own numbers against hotblocks --json of
# the same stream (html-report.sh checks every row of the pages it opens).
. "$(dirname "$0")/lib.sh"
need_private_tmp

stream() {	# RECORDING OUT
	restore_recording "$1"
	plugin_stream "$(recording_data "$1")" "$2" 2>"$tmp/plugin.err" ||
		not_ok "$1: perf script with the plugin" "$tmp/plugin.err"
}
# bcheck NAME PAGE SPEC [DUMP]: the browser's checks as this test's lines.
bcheck() {
	if [ -n "${4:-}" ]; then
		browser_check --dump "$4" "$2" "$3" >"$tmp/$1.out" 2>&1
	else
		browser_check "$2" "$3" >"$tmp/$1.out" 2>&1
	fi
	tap_relay "$tmp/$1.out" "$1: " || not_ok "$1: the browser ran the page" "$tmp/$1.out"
}

stream v8-switch "$tmp/switch.hbs"

# 1. The budget.
b=$tmp/budget.html
"$POSTPROC" --html -p 100 --page-budget 300k -o "$b" "$tmp/switch.hbs" 2>"$tmp/b.err"
"$POSTPROC" --json -p 100 "$tmp/switch.hbs" >"$tmp/b.json" 2>/dev/null
size=$(wc -c <"$b")
listed=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).functions.length)' "$tmp/b.json")
in=$(grep -c '<section class="func' "$b")
out=$(sed -n 's/.*id="budget" data-left-out="\([0-9]*\)".*/\1/p' "$b")
check "budget: the page is at most 300 KiB ($size bytes)" test "$size" -le 307200
check "budget: it holds $in of the $listed functions, and says it left out the other ${out:-?}" \
	test -n "$out" -a "$in" -gt 0 -a "$((in + out))" -eq "$listed" -a "$out" -gt 0
check "budget: a row for each left out, with the command that shows it" \
	test "$(grep -c '<tr class="out">.*<code class="cmd">hotblocks --html=f[0-9]*.html --page-budget \(300k\|0\) --function ' "$b")" -eq "$out"
cat >"$tmp/b.spec" <<'SPEC'
{"steps": [
 {"name": "the page says what it left out and why", "eval": "/would take it past its budget of 300 KiB/.test(document.getElementById('budget').textContent)"},
 {"name": "the rows of the functions left out link to nothing", "eval": "Array.from(document.querySelectorAll('#ftable tr.out')).every((r) => !r.querySelector('a') && r.querySelector('code.cmd'))"},
 {"name": "the filter finds a function left out, in the table", "fill": "#filter", "value": "Builtins_",
  "eval": "Array.from(document.querySelectorAll('#ftable tr.out')).some((r) => !r.hidden)"}
],
 "dump": "Array.from(document.querySelectorAll('#ftable tr.out'), (r) => [r.cells[1].firstChild.textContent, r.querySelector('code.cmd').textContent])"}
SPEC
bcheck budget "$b" "$tmp/b.spec" "$tmp/b.dump"
# The first command left out, run where the stream is: a page of that function.
node -e '
const [name, cmd] = JSON.parse(require("fs").readFileSync(process.argv[1]))[0];
process.stdout.write(JSON.stringify(name) + "\n" + cmd.replace(/^hotblocks /, "") + "\n");' "$tmp/b.dump" >"$tmp/b.cmd" 2>/dev/null
name=$(head -1 "$tmp/b.cmd")
if (cd "$tmp" && eval "\"$POSTPROC\" $(tail -1 "$tmp/b.cmd")") 2>"$tmp/cmd.err" &&
	node -e '
	const fs = require("fs"), name = JSON.parse(process.argv[2]);
	const page = fs.readdirSync(process.argv[1]).filter((f) => /^f[0-9]+\.html$/.test(f))[0];
	const html = fs.readFileSync(process.argv[1] + "/" + page, "utf8");
	const esc = name.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\x27/g, "&#39;");
	process.exit(html.includes(`<section class="func" id="f0"`) && html.includes(`data-name="${esc}"`) ? 0 : 1);' \
	"$tmp" "$name" 2>>"$tmp/cmd.err"; then
	ok "budget: the command of the first left out ($name), run, writes a page of it"
else
	not_ok "budget: the command of the first left out, run, writes a page of it" "$tmp/cmd.err"
fi
"$POSTPROC" --html -p 100 --page-budget 0 "$tmp/switch.hbs" >"$tmp/nob.html" 2>/dev/null
check "no budget (0): every function in the page, nothing said left out" \
	sh -c "test \"\$(grep -c '<section class=\"func' '$tmp/nob.html')\" -eq $listed && ! grep -q 'id=\"budget\"' '$tmp/nob.html'"
check "--page-budget takes k, M, G, not another unit (exit 2)" \
	sh -c "'$POSTPROC' --html --page-budget 8X '$tmp/switch.hbs' >/dev/null 2>'$tmp/e'; test \$? -eq 2 && grep -q 'page-budget takes a size' '$tmp/e'"

# 2. Built on demand: the same function's panes, markup and data.
big=$(node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
const f = d.functions.filter((f) => f.disassembled).sort((a, b) => b.blocks.length - a.blocks.length)[0];
console.log(f.name);' "$tmp/b.json")
"$POSTPROC" --html -p 100 --function "$big" "$tmp/switch.hbs" >"$tmp/markup.html" 2>/dev/null
"$POSTPROC" --html --all --function "$big" "$tmp/switch.hbs" >"$tmp/data.html" 2>/dev/null
# Every element under the panes: its name, its attributes (sorted, but the
# xmlns the parser keeps of markup) and its own text.
cat >"$tmp/panes.spec" <<'SPEC'
{"steps": [
 {"name": "scrolled to, the function is built and drawn", "eval": "(async () => { document.querySelector('section.func').scrollIntoView(); await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return !document.querySelector('script.fdata') && document.querySelectorAll('section.func svg.cfg g.node').length > 0; })()"}
],
 "dump": "Array.from(document.querySelectorAll('section.func .panes, section.func .panes *'), (e) => [e.localName, Array.from(e.attributes).filter((a) => a.name !== 'xmlns').map((a) => a.name + '=' + a.value).sort().join(' '), Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.data).join('').trim()])"}
SPEC
bcheck markup "$tmp/markup.html" "$tmp/panes.spec" "$tmp/markup.dump"
bcheck data "$tmp/data.html" "$tmp/panes.spec" "$tmp/data.dump"
node -e '
const fs = require("fs");
const a = JSON.parse(fs.readFileSync(process.argv[1])), b = JSON.parse(fs.readFileSync(process.argv[2]));
for (let i = 0; i < Math.max(a.length, b.length); i++)
	if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) {
		console.error(`element ${i}: markup ${JSON.stringify(a[i])}\ndata   ${JSON.stringify(b[i])}`);
		process.exit(1);
	}
console.log(a.length);' "$tmp/markup.dump" "$tmp/data.dump" >"$tmp/same.out" 2>"$tmp/same.err"
if [ $? -eq 0 ] && [ "$(cat "$tmp/same.out")" -gt 100 ]; then
	ok "built from data, $big's graph and listing are the markup's: $(cat "$tmp/same.out") elements alike"
else
	not_ok "built from data, $big's graph and listing are the markup's" "$tmp/same.err"
fi

# 3. The hottest block first.
mkdir -p "$tmp/diff"
stream diff/v8-base "$tmp/v8-base.hbs"
cat >"$tmp/hot.spec" <<'SPEC'
{"steps": [
 {"name": "scrolled to, Builtins_LoadIC opens at its hottest block: its listing scrolled to it, its box in view", "eval": "(async () => { const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); const sec = document.querySelector('section.func'); sec.scrollIntoView(); await frame(); await frame(); const hot = document.getElementById(sec.dataset.hot); const pane = sec.querySelector('.panes.tall .listing-pane'); if (!hot || !pane) return 'no hot block or no tall listing'; const r = hot.getBoundingClientRect(), p = pane.getBoundingClientRect(); const rows = Array.from(sec.querySelectorAll('tbody.blk')); const box = document.getElementById(hot.dataset.box), cfg = sec.querySelector('.cfg-box'); const boxIn = !box || !cfg || ((b, c) => b.top >= c.top - 1 && b.bottom <= c.bottom + 1 && b.left >= c.left - 1 && b.right <= c.right + 1)(box.getBoundingClientRect(), cfg.getBoundingClientRect()); return pane.scrollTop > 0 && r.top >= p.top && r.top < p.bottom && rows.indexOf(hot) > 10 && boxIn || JSON.stringify({ scroll: pane.scrollTop, hot: r.top, pane: [p.top, p.bottom], at: rows.indexOf(hot), boxIn }); })()"}
]}
SPEC
for v in "" --all; do
	# shellcheck disable=SC2086
	"$POSTPROC" --html -p 100 $v --function Builtins_LoadIC "$tmp/v8-base.hbs" >"$tmp/hot.html" 2>/dev/null
	bcheck "hot${v}" "$tmp/hot.html" "$tmp/hot.spec"
done

# 4. A generated stream: the table of every sampled function, its tail told.
if "$top/scripts/gen-big-stream" --samples 100000 --functions 5000 -o "$tmp/gen.hbs" 2>"$tmp/gen.err"; then
	"$POSTPROC" --html --page-budget 2M "$tmp/gen.hbs" >"$tmp/gen.html" 2>/dev/null
	"$POSTPROC" --json "$tmp/gen.hbs" >"$tmp/gen.json" 2>/dev/null
	check "generated stream: its page is at most 2 MiB ($(wc -c <"$tmp/gen.html") bytes)" \
		test "$(wc -c <"$tmp/gen.html")" -le 2097152
	n=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).sampled_functions.length)' "$tmp/gen.json")
	cat >"$tmp/gen.spec" <<SPEC
{"steps": [
 {"name": "the table ranks all $n sampled functions, the tail told by its count", "eval": "document.querySelectorAll('#ftable tbody tr:not(.more)').length + Array.from(document.querySelectorAll('#ftable tbody tr.more'), (r) => Number(r.dataset.functions)).reduce((a, b) => a + b, 0) === $n && document.querySelectorAll('#ftable tr.more').length > 0"},
 {"name": "the functions without a shown block are marked", "eval": "document.querySelectorAll('#ftable tr.noshow').length > 0"},
 {"name": "it says what it left out", "eval": "!!document.getElementById('budget')"},
 {"name": "key n marks the hottest block", "press": "n", "eval": "document.querySelector('tbody.blk.hl') !== null && document.querySelector('tbody.blk.hl').dataset.rank === '1'"}
]}
SPEC
	bcheck gen "$tmp/gen.html" "$tmp/gen.spec"
else
	not_ok "gen-big-stream writes a stream" "$tmp/gen.err"
fi
echo "1..$tap_n"
