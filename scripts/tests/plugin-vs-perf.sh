#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end: the plugin's attribution of every sample of every real
# recording in test-data equals perf's own. perf's answer comes from
# `perf script -F ip,sym,symoff,dso`, after `perf inject --jit` when the
# recording has jitdumps (inject writes one ELF per code load and replays the
# loads as mmaps in time order; samples outside JIT code are taken from the
# plain perf script, which keeps e.g. the [vdso] symbols inject's copy loses);
# ours from `perf script --dlfilter hotblocks.so`, which resolves native code
# itself (plugin/NATIVE.md). Compared per key:
#   jit <code_index> <offset>         (perf: the jitted-<pid>-<code_index>.so DSO)
#   native <dso> <symbol> <offset>    (our names shown as perf shows them:
#                                      scripts/tools/perf-demangle)
#   kernel                            (all kernel samples)
#   nosym-total                       (perf: [unknown] in a file; ours: the
#                                      unattributed.no-symbol class and the
#                                      functions named by their .eh_frame
#                                      bounds, as perf names unknown code)
#   unattributed                      (perf: [unknown] elsewhere; ours: the
#                                      unattributed.* classes)
# plus, for the functions named by .eh_frame bounds, every sample's file
# offset against the address `perf report --sort dso,sym` gives it.
# Then the post-processor's `--json --all` per-instruction counts are compared
# with the same perf keys: every perf sample at an instruction start must be in
# that instruction's count, every other one in the function's unaligned or
# outside-code count (at or past code_end).
# Nothing here is typed in by hand: both sides come from the same perf.data.
# The recordings are put back as on the recording machine: the files perf.data
# names under /tmp/hotblocks-rec/ (jitdumps, .cwasm) from beside it, the real
# wasmtime binaries of build/wasmtime when their build-id is the recorded one,
# and a recording with its own restore.sh (native code of this machine) by it.
. "$(dirname "$0")/lib.sh"
need_private_tmp

demangle=$top/build/tools/perf-demangle
[ -x "$demangle" ] || { not_ok "build/tools/perf-demangle is built (make check builds it)"; exit 0; }
# Only the debug files this machine has: debuginfod would give the plugin
# symbols perf 6.1 does not fetch.
unset DEBUGINFOD_URLS

# The recordings: every perf.data of test-data but the jitdump-marker fixtures
# of test-data/perfdata (their dumps are not kept); PVP_CASES="dir ..." for some.
cases=${PVP_CASES:-$(cd "$top/test-data" && find . -name perf.data ! -path './perfdata/*' | sed 's|^\./||; s|/perf.data$||' | sort)}

# Put back the files case's perf.data names under /tmp (this run's own): a
# committed file of the same name beside perf.data or in its parent, or a
# pinned wasmtime whose build-id is the recorded one.
restore_files() {	# case dir
	d=$1
	perf --no-pager script -i "$d/perf.data" --show-mmap-events 2>/dev/null |
		sed -n 's|.*PERF_RECORD_MMAP2\{0,1\} .*: [r-][w-][x-][ps-] \(/tmp/.*\)$|\1|p' | sort -u |
		while IFS= read -r path; do
			base=${path##*/} src=
			for c in "$d/$base" "$(dirname "$d")/$base"; do
				[ -f "$c" ] && { src=$c; break; }
			done
			if [ -z "$src" ] && [ "$base" = wasmtime ]; then
				want=$(perf buildid-list -i "$d/perf.data" 2>/dev/null | awk -v p="$path" '$2 == p { print $1 }')
				for c in "$top"/build/wasmtime/cli-*/wasmtime; do
					[ -n "$want" ] && [ -f "$c" ] || continue
					[ "$(readelf -n "$c" 2>/dev/null | awk '/Build ID:/ { print $3 }')" = "$want" ] && src=$c
				done
			fi
			[ -n "$src" ] || continue
			# always the committed bytes (another test may have left others there)
			cmp -s "$src" "$path" || { mkdir -p "$(dirname "$path")" && cp "$src" "$path"; }
		done
}

# Our stream -> "key count" lines (native names raw, for perf_names).
stream_keys() {
	awk '
	function hexval(c) { return index("0123456789abcdef", tolower(c)) - 1 }
	function hex(s,   v, i) { v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + hexval(substr(s, i, 1)); return v }
	function unesc(s,   out, i) {
		out = ""
		while ((i = index(s, "%")) > 0) {
			out = out substr(s, 1, i - 1) sprintf("%c", hexval(substr(s, i + 1, 1)) * 16 + hexval(substr(s, i + 2, 1)))
			s = substr(s, i + 3)
		}
		return out s
	}
	$1 == "object" {
		delete f
		for (i = 4; i <= NF; i++) { e = index($i, "="); f[substr($i, 1, e - 1)] = substr($i, e + 1) }
		if ($3 == "jit") key[$2] = "jit\t" f["code-index"]
		else if (f["source"] == "eh-frame") { key[$2] = "nosym\t" unesc(f["dso"]); fde[$2] = 1 }
		else key[$2] = "native\t" unesc(f["dso"]) "\t" unesc(f["name"])
		start[$2] = f["sym-start"]
	}
	$1 == "sample" {
		if ($2 in fde) {
			n[key[$2]] += $5
			# the file offset perf report gives code without a symbol
			printf "addr\t%s\t%x\t%d\n", substr(key[$2], 7), hex(start[$2]) + hex($4), $5 > "/dev/fd/3"
		} else n[key[$2] "\t" $4] += $5
	}
	$1 == "total" && $3 == "kernel" { n["kernel"] += $4 }
	$1 == "total" && $3 ~ /^unattributed\./ && $3 != "unattributed.no-symbol" { n["unattributed"] += $4 }
	$1 == "total" && $3 == "unattributed.no-symbol" { n["nosym-total"] += $4 }
	END { for (k in n) print k "\t" n[k] }' "$1"
}

# Native names shown as perf shows them (a perf map's lines are not demangled).
perf_names() {
	awk -F'\t' '$1 == "native" && $2 !~ /^\/tmp\/perf-[0-9]+\.map$/ { print $3 }' "$1" | "$demangle" >"$1.dm"
	awk -F'\t' -v dm="$1.dm" '
		$1 == "native" && $2 !~ /^\/tmp\/perf-[0-9]+\.map$/ { getline d <dm; $3 = d }
		{ if ($1 == "nosym") { n["nosym-total"] += $3; next }
		  if ($1 == "nosym-total") { n["nosym-total"] += $2; next }
		  k = $1; for (i = 2; i < NF; i++) k = k " " $i; n[k] += $NF }
		END { for (k in n) print k, n[k] }' "$1" | sort
}

# perf script -F ip,sym,symoff,dso -> "key count" lines.
perf_keys() {
	awk '
	{
		line = $0
		sub(/^ *[0-9a-f]+ /, "", line)
		p = 0
		while ((i = index(substr(line, p + 1), " (")) > 0) p += i
		dso = substr(line, p + 2, length(line) - p - 2)
		sym = substr(line, 1, p - 1)
		off = "0x0"
		if ((j = match(sym, /\+0x[0-9a-f]+$/)) > 0) { off = substr(sym, j + 1); sym = substr(sym, 1, j - 1) }
		if (dso ~ /^\[kernel\.kallsyms\]|^\[guest\.kernel/) k = "kernel"
		else if (sym == "[unknown]" && dso != "[unknown]" && dso !~ /^\/tmp\/perf-[0-9]+\.map$|^\/\/anon|^\[anon|^\/memfd:|^\/dev\/zero|^\/anon_hugepage/) {
			k = "nosym-total"
		} else if (sym == "[unknown]") k = "unattributed"
		else if (match(dso, /jitted-[0-9]+-[0-9]+\.so$/)) {
			ci = substr(dso, RSTART, RLENGTH); sub(/^jitted-[0-9]+-/, "", ci); sub(/\.so$/, "", ci)
			k = "jit " ci " " off
		} else k = "native " dso " " sym " " off
		n[k]++
	}
	END { for (k in n) print k, n[k] }' "$1" | sort
}

# The keys differ only by the samples the plugin counts as ambiguous (JIT
# samples where several loads covered the address and nothing tells which ran,
# test-data/per-thread): perf's JIT keys ours lacks sum to n, and (with a
# class key) ours counts n more there.
only_ambiguous() {	# theirs ours n [class-key]
	awk -v n="$3" -v cls="${4:-}" '
		NR == FNR { k = $0; sub(/ [0-9]+$/, "", k); t[k] = $NF; next }
		{ k = $0; sub(/ [0-9]+$/, "", k); o[k] = $NF }
		END {
			for (k in t) if (!(k in o)) { if (k ~ /^jit /) gone += t[k]; else bad = 1 }
				     else if (t[k] != o[k] && k != cls) bad = 1
			for (k in o) if (!(k in t) && k != cls) bad = 1
			if (cls != "" && o[cls] - t[cls] != n) bad = 1
			if (bad || gone != n) { print "not only the " n " ambiguous samples differ (perf JIT keys gone: " gone + 0 ")"; exit 1 }
		}' "$1" "$2"
}

# Every "nosym" sample of ours at a file offset perf report gives its sample.
fde_addresses() {	# perf.data ours-addr-lines
	perf --no-pager report -i "$1" --stdio --sort dso,sym -F sample,dso,sym 2>/dev/null |
		awk '$3 == "[.]" && $4 ~ /^0x/ { sub(/^0x0*/, "", $4); print $2, ($4 == "" ? "0" : $4), $1 }' | sort >"$2.perf"
	awk -F'\t' '{ n[$2 " " $3] += $4 } END { for (k in n) { split(k, a, " "); b = a[1]; sub(/.*\//, "", b); print b, a[2], n[k] } }' "$2" |
		sort >"$2.ours"
	# ours must be among perf's, count for count
	awk 'NR == FNR { p[$1 " " $2] = $3; next } { if (p[$1 " " $2] != $3) { print "ours " $0 ", perf " (p[$1 " " $2] + 0); bad = 1 } }
		END { exit bad }' "$2.perf" "$2.ours"
}

# postproc JSON (--all) + perf keys -> a diff-able list of both sides.
json_vs_perf() {	# json perf-keys
	node -e '
	const fs = require("fs");
	const d = JSON.parse(fs.readFileSync(process.argv[1]));
	const ours = new Map(), theirs = new Map(), insns = new Map();
	const add = (m, k, n) => m.set(k, (m.get(k) || 0) + n);
	const dm = new Map(fs.readFileSync(process.argv[6], "utf8").split("\n").filter(Boolean).map(l => l.split("\t")));
	for (const f of d.functions) {
		if (f.source === "eh-frame") continue;
		const name = f.dso && /^\/tmp\/perf-\d+\.map$/.test(f.dso) ? f.symbol : (dm.get(f.symbol) || f.symbol);
		const fk = f.kind === "jit" ? "jit " + f.code_index : "native " + f.dso + " " + name;
		// a BEAM function: its prologue load joined in front, perf keys of each load
		const j = f.joined || { bytes: 0 }, pk = "jit " + j.code_index;
		const key = (o) => o < j.bytes ? [pk, o] : [fk, o - j.bytes];
		for (const k of j.bytes ? [fk, pk] : [fk])
			if (f.disassembled && !insns.has(k)) insns.set(k, new Set());
		for (const i of f.instructions) {
			const [k, o] = key(i.offset);
			if (i.offset < f.code_end && f.disassembled) insns.get(k).add(o);
			if (i.samples) add(ours, k + " 0x" + o.toString(16), i.samples);
		}
		const lost = f.unaligned_samples + f.outside_code_samples;
		if (lost) add(ours, fk + " not-at-an-instruction", lost);
		if (!f.disassembled && f.offsets && f.offsets.some((o) => o.symbol)) {
			// a perf map BEAM function: offsets in its prologue carry the name perf gives them
			for (const o of f.offsets)
				add(ours, (o.symbol ? "native " + f.dso + " " + o.symbol : fk) + " not-disassembled", o.samples);
		} else if (!f.disassembled) add(ours, fk + " not-disassembled", f.samples);
	}
	for (const line of fs.readFileSync(process.argv[2], "utf8").split("\n")) {
		const t = line.split(" ");
		if (t[0] !== "jit" && t[0] !== "native") continue;
		const n = Number(t.pop()), off = t.pop(), fk = t.join(" ");
		const set = insns.get(fk);
		if (!set) add(theirs, fk + " not-disassembled", n);
		else if (set.has(parseInt(off, 16))) add(theirs, fk + " " + off, n);
		else add(theirs, fk + " not-at-an-instruction", n);
	}
	const dump = (m) => [...m].map(([k, n]) => k + " " + n).sort();
	fs.writeFileSync(process.argv[3], dump(theirs).join("\n") + "\n");
	fs.writeFileSync(process.argv[4], dump(ours).join("\n") + "\n");
	// per function: the samples on its instruction rows against its samples
	const sums = [];
	for (const f of d.functions.filter((f) => f.disassembled)) {
		const rows = f.instructions.reduce((a, i) => a + i.samples, 0);
		if (rows !== f.samples)
			sums.push(`${f.name}: ${rows} on instructions, ${f.samples} samples`);
	}
	fs.writeFileSync(process.argv[5], sums.join("\n") + (sums.length ? "\n" : ""));
	' "$1" "$2" "$3.theirs" "$3.ours" "$3.sums" "$4"
}

for case in $cases; do
	d=$top/test-data/$case
	t=$tmp/$(echo "$case" | tr / _)
	if [ -x "$d/restore.sh" ]; then
		"$d/restore.sh" >"$t.restore" 2>&1 || { not_ok "$case: restore.sh puts the recording back" "$t.restore"; continue; }
		pd=/tmp/hotblocks-rec/$case/perf.data
		echo "# $case: $(tail -n 1 "$t.restore")"
	else
		restore_files "$d"
		pd=$d/perf.data
	fi
	if ! plugin_stream "$pd" "$t.hbs" 2>"$t.err"; then
		not_ok "$case: perf script --dlfilter hotblocks.so exits 0" "$t.err"
		continue
	fi
	# JIT samples as perf inject resolves them; every other sample as plain perf
	# script resolves it. Both list the same samples in the same order; the ips
	# must agree line by line. -G: the sampled address alone where perf.data has
	# callchains too (the CPython recordings).
	perf --no-pager script -i "$pd" -G -F ip,sym,symoff,dso >"$t.orig" 2>"$t.perr" ||
		{ not_ok "$case: perf script runs" "$t.perr"; continue; }
	if grep -q '^jitdump ' "$t.hbs"; then
		perf --buildid-dir "$t.bid" inject --jit -i "$pd" -o "$t.jit.data" 2>>"$t.perr" &&
			perf --no-pager --buildid-dir "$t.bid" script -i "$t.jit.data" -G -F ip,sym,symoff,dso \
				>"$t.inj" 2>>"$t.perr" || { not_ok "$case: perf inject --jit and perf script run" "$t.perr"; continue; }
		if ! paste -d '\n' "$t.inj" "$t.orig" | awk '
			NR % 2 == 1 { inj = $0; ip = $1; next }
			$1 != ip { print "sample " NR / 2 ": ip " ip " vs " $1 > "/dev/stderr"; bad = 1; exit 1 }
			{ print (inj ~ /jitted-[0-9]+-[0-9]+\.so\)$/) ? inj : $0 }
			END { exit bad }' >"$t.perf" 2>"$t.align"; then
			not_ok "$case: perf inject keeps the samples in order" "$t.align"
			continue
		fi
		rm -rf "$t.jit.data" "$t.bid"
	else
		cp "$t.orig" "$t.perf"
	fi
	stream_keys "$t.hbs" >"$t.raw" 3>"$t.addr"
	perf_names "$t.raw" >"$t.ours"
	perf_keys "$t.perf" >"$t.theirs"
	all=$(awk '$1 == "total" && $3 == "all" { s += $4 } END { print s + 0 }' "$t.hbs")
	lines=$(wc -l <"$t.perf")
	if [ "$all" -eq "$lines" ] && [ "$all" -gt 0 ]; then
		ok "$case: total samples equal perf's ($all)"
	else
		echo "ours $all, perf $lines" >"$t.n"; not_ok "$case: total samples equal perf's" "$t.n"
	fi
	# something to compare: perf's named offsets, or its samples without a symbol
	keyed=$(grep -c -e '^jit ' -e '^native ' "$t.theirs")
	amb=$(awk '$1 == "total" && $3 == "unattributed.ambiguous" { s += $4 } END { print s + 0 }' "$t.hbs")
	if diff -u "$t.theirs" "$t.ours" >"$t.diff" && [ "$keyed" -gt 0 -o -s "$t.addr" ]; then
		ok "$case: per-offset counts of $(wc -l <"$t.ours") keys ($keyed JIT/native offsets) equal perf's"
	elif [ "$amb" -gt 0 ] && only_ambiguous "$t.theirs" "$t.ours" "$amb" unattributed >>"$t.diff"; then
		ok "$case: per-offset counts equal perf's but for the $amb samples perf gives the last of several loads and the plugin calls ambiguous (no sample times)"
	else
		not_ok "$case: per-offset counts equal perf's" "$t.diff"
	fi
	if [ -s "$t.addr" ]; then
		check "$case: $(awk -F'\t' '{ s += $4 } END { print s }' "$t.addr") samples without a symbol are at the file offsets perf report gives them" \
			fde_addresses "$pd" "$t.addr"
	fi
	# names as perf shows them, for the JSON's symbols
	awk -F'\t' '$1 == "native" { print $3 }' "$t.raw" | sort -u >"$t.names"
	"$demangle" <"$t.names" | paste "$t.names" - >"$t.dmap"
	set -- "$t.hbs"
	if "$POSTPROC" --json --all "$@" >"$t.json" 2>"$t.post.err" &&
		json_vs_perf "$t.json" "$t.theirs" "$t.insn" "$t.dmap" 2>>"$t.post.err" &&
		{ diff -u "$t.insn.theirs" "$t.insn.ours" >"$t.insn.diff" 2>&1 ||
		  { [ "$amb" -gt 0 ] && only_ambiguous "$t.insn.theirs" "$t.insn.ours" "$amb" >>"$t.insn.diff"; }; }; then
		but=
		[ "$amb" -gt 0 ] && but=" but for the $amb ambiguous samples"
		ok "$case: hotblocks --json --all per-instruction counts ($(wc -l <"$t.insn.ours") keys) equal perf's$but"
	else
		cat "$t.post.err" >>"$t.insn.diff"
		not_ok "$case: hotblocks --json --all per-instruction counts equal perf's" "$t.insn.diff"
	fi
done
