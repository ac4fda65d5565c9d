#!/bin/sh
# SPDX-License-Identifier: MIT
# Debian's stripped programs as they come (test-data/stripped-xz: xz in its
# stripped liblzma; test-data/stripped-python3: the stripped python3.11):
#  - at most 1% of the samples stay unattributed (perf leaves 98% and 48%
#    without a symbol: their READMEs);
#  - every function named by its .eh_frame bounds has exactly the bounds of
#    an FDE readelf --debug-dump=frames lists (an independent .eh_frame
#    reader), in the file's offsets (readelf -l gives the segment's);
#  - those functions get blocks like any other (hotblocks --json --all);
#  - the report's note names the files and says how to get their symbols.
# Per-offset equality with perf where perf has a symbol: plugin-vs-perf.sh.
. "$(dirname "$0")/lib.sh"
need_private_tmp
unset DEBUGINFOD_URLS

for case in stripped-xz stripped-python3; do
	d=$top/test-data/$case
	"$d/restore.sh" >"$tmp/$case.restore" 2>&1 || { not_ok "$case: restore.sh" "$tmp/$case.restore"; continue; }
	echo "# $case: $(tail -n 1 "$tmp/$case.restore")"
	pd=/tmp/hotblocks-rec/$case/perf.data
	plugin_stream "$pd" "$tmp/$case.hbs" 2>"$tmp/$case.err" || { not_ok "$case: the plugin runs" "$tmp/$case.err"; continue; }
	awk '$1 == "total" && $3 == "all" { all += $4 } $1 == "total" && $3 ~ /^unattributed/ { lost += $4 }
		END { printf "%d of %d samples unattributed\n", lost, all; exit !(all > 0 && lost * 100 <= all) }' \
		"$tmp/$case.hbs" >"$tmp/$case.lost"
	check "$case: at most 1% of the samples unattributed ($(cat "$tmp/$case.lost"))" \
		awk '$1 * 100 <= $3 && $3 > 0 { ok = 1 } END { exit !ok }' "$tmp/$case.lost"

	# the FDE-named functions: "dso start end" in file offsets
	awk '$1 == "object" && / source=eh-frame / {
		for (i = 4; i <= NF; i++) { e = index($i, "="); f[substr($i, 1, e - 1)] = substr($i, e + 1) }
		print f["dso"], f["sym-start"], f["size"] }' "$tmp/$case.hbs" | sort -u >"$tmp/$case.fdes"
	n=$(wc -l <"$tmp/$case.fdes")
	: >"$tmp/$case.fde-bad"
	for dso in $(awk '{ print $1 }' "$tmp/$case.fdes" | sort -u); do
		# readelf's FDE ranges (virtual addresses), moved to file offsets by their segment
		readelf -lW "$dso" | awk '$1 == "LOAD" { print $2, $3, $5 }' >"$tmp/segs"
		readelf --debug-dump=frames "$dso" 2>/dev/null | sed -n 's/.* FDE .*pc=\([0-9a-f]*\)\.\.\([0-9a-f]*\)$/\1 \2/p' |
			awk 'function h(s,   v, i) { v = 0; s = tolower(s); sub(/^0x/, "", s)
				for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
			NR == FNR { off[NR] = h($1); va[NR] = h($2); sz[NR] = h($3); nseg = NR; next }
			{ a = h($1); b = h($2)
			  for (k = 1; k <= nseg; k++) if (a >= va[k] && a < va[k] + sz[k]) { a -= va[k] - off[k]; b -= va[k] - off[k]; break }
			  printf "%x %d\n", a, b - a }' "$tmp/segs" - | sort -u >"$tmp/readelf.fdes"
		awk -v dso="$dso" '$1 == dso { s = $2; sub(/^0x/, "", s); print s, $3 }' "$tmp/$case.fdes" | sort -u >"$tmp/ours.fdes"
		comm -23 "$tmp/ours.fdes" "$tmp/readelf.fdes" | sed "s|^|$dso: not an FDE of readelf's: |" >>"$tmp/$case.fde-bad"
	done
	check "$case: the $n functions named by .eh_frame bounds are FDEs as readelf lists them" \
		sh -c "test $n -gt 0 && test ! -s '$tmp/$case.fde-bad'"
	[ -s "$tmp/$case.fde-bad" ] && sed 's/^/# /' "$tmp/$case.fde-bad" | head -5

	"$POSTPROC" --json --all "$tmp/$case.hbs" >"$tmp/$case.json" 2>"$tmp/$case.post.err"
	check "$case: every function named by .eh_frame bounds is disassembled into blocks" node -e '
		const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
		const f = d.functions.filter((f) => f.source === "eh-frame");
		const bad = f.filter((f) => !f.disassembled || !f.blocks.length || f.unaligned_samples || f.outside_code_samples);
		if (!f.length || bad.length) { console.log(f.length + " functions, not in blocks: " + bad.map((f) => f.name).join(", ")); process.exit(1); }' \
		"$tmp/$case.json"
	"$POSTPROC" "$tmp/$case.hbs" >/dev/null 2>"$tmp/$case.notes"
	case $case in
	stripped-xz) file=liblzma.so.5 ;;
	*) file=python3.11 ;;
	esac
	check "$case: the note names $file as stripped and says how to get its symbols" sh -c \
		"grep 'functions without symbols' '$tmp/$case.notes' | grep -q '$file' &&
		 grep -q 'dbgsym' '$tmp/$case.notes' && grep -q 'DEBUGINFOD_URLS' '$tmp/$case.notes'"
done
