#!/bin/sh
# SPDX-License-Identifier: MIT
# A V8 wasm function's tiers together (report/report-tiers.c), end to end on
# the real self-reruns of test-data (node 20 running the same work twice:
# v8-wasm-gofmt, Go by TinyGo; v8-wasm-dprint-markdown, Rust), each run's
# perf.data through the plugin:
#  1. hotblocks diff run1 run2 marks no function beyond noise; with
#     --tiers-apart (Liftoff and TurboFan code paired tier by tier, as before)
#     it marked those whose tier-up came at another moment: the count is
#     printed, and the function pairs then are more (one per tier);
#  2. the split: each tiered function's samples are the sum of its tiers'
#     (JSON tiered_functions, and the --functions text's "tiers:" line), and
#     each tier's samples are perf's own count of that symbol after `perf
#     inject --jit` (the oracle-sym.txt committed beside each run,
#     test-data/jit-oracle.sh), every wasm tier symbol perf counts in one;
#  3. --tiers-apart lists every code load as a function, as perf does (no
#     "tiers:" line, no tiered_functions, no table in the page); by default
#     the page has its table of wasm functions.
. "$(dirname "$0")/lib.sh"
need_private_tmp
command -v node >/dev/null 2>&1 || { not_ok "node is installed (the JSON checks)"; exit 0; }

for rec in v8-wasm-gofmt v8-wasm-dprint-markdown; do
	for r in run1 run2; do
		restore_recording "$rec/$r"
		plugin_stream "$top/test-data/$rec/$r/perf.data" "$tmp/$rec-$r.hbs" 2>"$tmp/$rec-$r.err" ||
			not_ok "$rec/$r: perf script --dlfilter hotblocks.so" "$tmp/$rec-$r.err"
	done
	a=$tmp/$rec-run1.hbs b=$tmp/$rec-run2.hbs

	# 1. the self-rerun
	"$POSTPROC" diff --json "$a" "$b" >"$tmp/$rec.diff.json" 2>/dev/null
	"$POSTPROC" diff --json --tiers-apart "$a" "$b" >"$tmp/$rec.apart.json" 2>/dev/null
	sig() { node -e "const d = JSON.parse(require('fs').readFileSync('$1'));
		console.log(d.noise.significant.functions + ' ' + d.functions.length)"; }
	set -- $(sig "$tmp/$rec.diff.json") $(sig "$tmp/$rec.apart.json")
	if [ "${1:-x}" = 0 ] && [ "${2:-0}" -gt 0 ] && [ "${4:-0}" -gt "${2:-0}" ]; then
		ok "$rec: run1 vs run2 marks no function beyond noise (0 of $2 pairs; tiers apart: $3 of $4)"
	else
		echo "tiers together: ${1:-?} of ${2:-?} beyond noise; apart: ${3:-?} of ${4:-?}" >"$tmp/$rec.sig"
		not_ok "$rec: run1 vs run2 marks no function beyond noise" "$tmp/$rec.sig"
	fi
	check "$rec: the diff's tiers of a function sum to its samples, each side" node -e "
	const d = JSON.parse(require('fs').readFileSync('$tmp/$rec.diff.json'));
	let n = 0;
	for (const f of d.functions) for (const s of ['base', 'new']) {
		if (!f[s] || !f[s].tiers) continue;
		n++;
		if (f[s].tiers.reduce((x, t) => x + t.samples, 0) !== f[s].samples ||
		    !f[s].tiers.some((t) => t.tier === f[s].blocks_tier)) {
			console.log(JSON.stringify(f[s])); process.exit(1);
		}
	}
	if (n < 100) { console.log('only', n); process.exit(1); }"

	# 2. the split against perf's per-symbol counts
	for r in run1 run2; do
		s=$tmp/$rec-$r.hbs
		"$POSTPROC" --json "$s" >"$tmp/$rec-$r.json" 2>/dev/null
		"$POSTPROC" --functions --all "$s" >"$tmp/$rec-$r.functions" 2>/dev/null
		# perf: "COUNT SYMBOL (DSO)", the wasm tiers' symbols summed by name
		sed -n 's/^ *\([0-9][0-9]*\) \(JS:.*-[0-9][0-9]*-\(liftoff\|turbofan\)\) ([^()]*)$/\2	\1/p' \
			"$top/test-data/$rec/$r/oracle-sym.txt" |
			awk -F'\t' '{ n[$1] += $2 } END { for (k in n) print k "\t" n[k] }' | sort >"$tmp/$rec-$r.perf"
		node -e "
		const fs = require('fs'), d = JSON.parse(fs.readFileSync('$tmp/$rec-$r.json'));
		const out = {}, bad = [];
		for (const f of d.tiered_functions) {
			const sum = f.tiers.reduce((x, t) => x + t.samples, 0);
			if (sum !== f.samples) bad.push(f.name + ': tiers ' + sum + ', function ' + f.samples);
			for (const t of f.tiers) {
				const sf = d.sampled_functions[t.sampled_function];
				if (sf.name !== f.name + '-' + t.tier || sf.samples !== t.samples)
					bad.push(f.name + ': tier ' + t.tier + ' is ' + JSON.stringify(sf));
				out[sf.name] = (out[sf.name] || 0) + t.samples;
			}
		}
		fs.writeFileSync('$tmp/$rec-$r.ours', Object.keys(out).map((k) => k + '\t' + out[k]).sort().join('\n') + '\n');
		fs.writeFileSync('$tmp/$rec-$r.bad', bad.join('\n'));
		"
		LC_ALL=C sort -o "$tmp/$rec-$r.ours" "$tmp/$rec-$r.ours"
		LC_ALL=C sort -o "$tmp/$rec-$r.perf" "$tmp/$rec-$r.perf"
		n=$(wc -l <"$tmp/$rec-$r.perf")
		if [ -s "$tmp/$rec-$r.bad" ]; then
			not_ok "$rec/$r: each tiered function's samples are its tiers'" "$tmp/$rec-$r.bad"
		elif [ "$n" -gt 100 ] && diff "$tmp/$rec-$r.perf" "$tmp/$rec-$r.ours" >"$tmp/$rec-$r.pdiff"; then
			ok "$rec/$r: tiered functions sum their tiers, and each tier's samples are perf's count of its symbol ($n symbols)"
		else
			echo "< perf inject --jit + perf script (symbol, samples), > hotblocks tiered_functions" >>"$tmp/$rec-$r.pdiff"
			not_ok "$rec/$r: each tier's samples are perf's count of its symbol ($n symbols)" "$tmp/$rec-$r.pdiff"
		fi
		# the text: "  P%  N  JS:NAME-F (dump)" then "tiers: turbofan A (P%), liftoff B (P%)"
		awk '
		/^ *tiers: / { rows++; s = 0; line = $0; sub(/^ *tiers: /, "", line)
			k = split(line, t, ", "); for (i = 1; i <= k; i++) { split(t[i], w, " "); s += w[2] }
			if (s != last) { print "row " last ": tiers sum to " s; bad++ } next }
		/^ *[0-9.<]+%/ { last = $2 }
		END { if (!rows) print "no tiers line"; exit !(rows && !bad) }' "$tmp/$rec-$r.functions" >"$tmp/$rec-$r.tbad"
		check "$rec/$r: --functions: under each wasm function a tiers line whose counts sum to its row's" \
			test ! -s "$tmp/$rec-$r.tbad"
	done

	# 3. --tiers-apart: every code load its own function
	s=$tmp/$rec-run1.hbs
	"$POSTPROC" --functions --all --tiers-apart "$s" >"$tmp/$rec.apart.functions" 2>/dev/null
	"$POSTPROC" --json --tiers-apart "$s" >"$tmp/$rec.apart-r.json" 2>/dev/null
	rows=$(grep -c '^ *[0-9.<]*% ' "$tmp/$rec.apart.functions")
	want=$(node -e "console.log(JSON.parse(require('fs').readFileSync('$tmp/$rec.apart-r.json')).sampled_functions.length)")
	check "$rec: --tiers-apart: a row for each of the $want sampled code objects, no tiers line, no tiered_functions" \
		sh -c "[ '$rows' = '$want' ] && ! grep -q 'tiers:' '$tmp/$rec.apart.functions' &&
		       ! grep -q tiered_functions '$tmp/$rec.apart-r.json' &&
		       grep -q -- '-[0-9]*-turbofan (' '$tmp/$rec.apart.functions'"
	"$POSTPROC" --html="$tmp/$rec.html" "$s" 2>/dev/null
	"$POSTPROC" --html="$tmp/$rec.apart.html" --tiers-apart "$s" 2>/dev/null
	check "$rec: the page has its table of wasm functions with their tiers, not with --tiers-apart" \
		sh -c "grep -q '<section id=\"tiers\">' '$tmp/$rec.html' &&
		       grep -q '<a href=\"#f0\">turbofan</a>' '$tmp/$rec.html' &&
		       ! grep -q '<section id=\"tiers\">' '$tmp/$rec.apart.html'"
done
echo "1..$tap_n"
