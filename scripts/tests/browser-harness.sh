#!/bin/sh
# SPDX-License-Identifier: MIT
# The browser harness itself (scripts/tests/browser-check.mjs: headless
# Debian chromium driven by the pinned playwright-core), on small static pages
# written here, so that the report's browser tests can trust it:
#  1. a page that loads a style sheet and an image from disk and a data: image,
#     with a click handler: every DOM check passes, the click's class change is
#     seen, the page's values are dumped as JSON, and the screenshot is a PNG
#     of the page (build/browser-shots/harness.png, a build artefact);
#  2. the harness fails where it must: a wrong element count, wrong text, a
#     click that changes no class, a class already there before the click, an
#     eval that is not true, a request to the network (an <img> and a fetch(),
#     each named, neither let out), a console.error and an uncaught exception
#     each fail the run, with exit status 1.
. "$(dirname "$0")/lib.sh"

shots=$top/build/browser-shots
mkdir -p "$tmp/page" "$shots"

# 1. A page as a report would be: local files only.
cat >"$tmp/page/style.css" <<'EOF'
body { font-family: sans-serif; margin: 20px; }
.block { padding: 4px; border: 1px solid #888; margin: 2px; width: 300px; }
.block.highlight { background: rgb(255, 221, 0); }
EOF
# A 2x2 red PNG, written byte for byte (no tool needed).
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\2\0\0\0\2\b\2\0\0\0\375\324\232s\0\0\0\026IDATx\234c\370\317\300\360\237\201\341?\003\003\003\0\026\362\003\375\273\371\200\030\0\0\0\0IEND\256B`\202' \
	>"$tmp/page/red.png"
cat >"$tmp/page/good.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>harness page</title>
<link rel="stylesheet" href="style.css"></head>
<body>
<h1 id="title">Two blocks &amp; a picture</h1>
<div class="block" id="b1" data-samples="70">block 1: 70 samples</div>
<div class="block" id="b2" data-samples="30">block 2: 30 samples</div>
<p><img id="local" src="red.png" width="20" height="20" alt="red">
<img id="inline" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" alt="dot"></p>
<script>
for (const b of document.querySelectorAll('.block'))
	b.addEventListener('click', () => {
		for (const o of document.querySelectorAll('.block.highlight')) o.classList.remove('highlight');
		b.classList.add('highlight');
	});
</script>
</body></html>
EOF
cat >"$tmp/good.json" <<'EOF'
{"steps": [
  {"name": "two blocks", "selector": ".block", "count": 2},
  {"name": "the title's text (an entity decoded)", "selector": "#title", "text": "Two blocks & a picture"},
  {"name": "an attribute", "selector": "#b2", "attr": "data-samples", "value": "30"},
  {"name": "the style sheet from disk applies", "eval": "getComputedStyle(document.getElementById('b1')).width === '300px'"},
  {"name": "the image from disk loaded", "eval": "document.getElementById('local').naturalWidth === 2"},
  {"name": "the data: image loaded", "eval": "document.getElementById('inline').naturalWidth === 1"},
  {"name": "clicking block 2 highlights it", "click": "#b2", "selector": "#b2", "hasClass": "highlight"},
  {"name": "clicking block 1 highlights it", "click": "#b1", "selector": "#b1", "hasClass": "highlight"},
  {"name": "... and only it", "eval": "document.querySelectorAll('.highlight').length === 1"}
],
 "dump": "Array.from(document.querySelectorAll('.block'), (b) => ({id: b.id, samples: Number(b.dataset.samples)}))"}
EOF
rm -f "$shots/harness.png"
browser_check --screenshot "$shots/harness.png" --dump "$tmp/good.dump" \
	"$tmp/page/good.html" "$tmp/good.json" >"$tmp/good.out" 2>&1
rc=$?
tap_relay "$tmp/good.out" "good page: " || not_ok "the harness ran on the good page" "$tmp/good.out"
check "good page: exit status 0 (was $rc)" [ "$rc" -eq 0 ]
printf '[\n {\n  "id": "b1",\n  "samples": 70\n },\n {\n  "id": "b2",\n  "samples": 30\n }\n]\n' >"$tmp/want.dump"
check "good page: the dumped values are the page's" cmp "$tmp/want.dump" "$tmp/good.dump"
# A PNG (signature), 1280 pixels wide (the harness's viewport), at least 900 high.
png_ok() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
	w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
	h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
	echo "PNG ${w}x$h"
	[ "$w" -eq 1280 ] && [ "$h" -ge 900 ]
}
check "good page: the screenshot is a 1280-pixel-wide PNG" png_ok "$shots/harness.png"

# 2. What must fail.
cat >"$tmp/page/bad.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>bad page</title></head>
<body>
<p id="p" class="x">one paragraph</p>
<img src="http://example.invalid/pixel.png" alt="">
<script>
console.error('something broke');
fetch('https://example.invalid/api?q=1').catch(() => {});
setTimeout(() => { throw new Error('thrown later'); }, 10);
</script>
</body></html>
EOF
cat >"$tmp/bad.json" <<'EOF'
{"steps": [
  {"name": "count", "selector": "p", "count": 2},
  {"name": "text", "selector": "#p", "text": "two paragraphs"},
  {"name": "no change", "click": "#p", "selector": "#p", "hasClass": "highlight"},
  {"name": "already there", "click": "#p", "selector": "#p", "hasClass": "x"},
  {"name": "eval", "eval": "document.title"}
]}
EOF
browser_check "$tmp/page/bad.html" "$tmp/bad.json" >"$tmp/bad.out" 2>&1
rc=$?
check "bad page: exit status 1 (was $rc)" [ "$rc" -eq 1 ]
fails() {	# description, then grep -F patterns that must all be in the output
	d=$1; shift
	for pat in "$@"; do
		grep -qF -- "$pat" "$tmp/bad.out" || { echo "missing: $pat" >>"$tmp/bad.out"; not_ok "$d" "$tmp/bad.out"; return; }
	done
	ok "$d"
}
fails "a wrong count fails" "not ok - count" "1 elements match p, expected 2"
fails "wrong text fails" "not ok - text" '#p: "one paragraph", expected "two paragraphs"'
fails "a click that changes no class fails" "not ok - no change" '#p has classes [x], not "highlight"'
fails "a class there before the click fails" "not ok - already there" '#p has class "x" before the action'
fails "an eval that is not true fails, showing its value" "not ok - eval" 'document.title gave "bad page"'
fails "requests to the network fail, each named" \
	"not ok - no request leaves the page" "request to http://example.invalid/pixel.png" \
	"request to https://example.invalid/api?q=1"
fails "console.error and an uncaught exception fail" \
	"not ok - no console error, no uncaught exception" "console.error: something broke" \
	"uncaught exception: thrown later"
check "bad page: the page itself loaded" grep -q "^ok - the page loads from file://" "$tmp/bad.out"
echo "1..$tap_n"
