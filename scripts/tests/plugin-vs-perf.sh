#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end: the plugin's attribution of every sample of the committed real
# recordings equals perf's own. perf's answer comes from `perf inject --jit`
# (which writes one ELF per jitdump code load and replays the loads as mmaps in
# time order) followed by `perf script -F ip,sym,symoff,dso`; ours from
# `perf script --dlfilter hotblocks.so`. Compared per key:
#   jit <code_index> <offset>        (perf: the jitted-<pid>-<code_index>.so DSO)
#   native <dso> <symbol> <offset>
#   kernel                           (all kernel samples)
#   unattributed                     (perf: [unknown] symbol; ours: unattributed.*)
# Then the post-processor's `--json --all` per-instruction counts are compared
# with the same perf keys: every perf sample at an instruction start must be in
# that instruction's count, every other one in the function's unaligned or
# outside-code count (at or past code_end). In every disassembled function of
# these real recordings the per-instruction counts add up to the function's
# samples: a sampled address is an instruction start, so none is lost.
# Nothing here is typed in by hand: both sides come from the same perf.data.
# Recordings (test-data/*/README.md): fakejit, v8-wasm, v8-osr (V8 OSR code),
# v8-switch (a TurboFan jump table), glibc-evex (glibc's AVX-512 string code).
. "$(dirname "$0")/lib.sh"
need_private_tmp

# Our stream -> "key count" lines.
stream_keys() {
	awk '
	function hexval(c) { return index("0123456789abcdef", tolower(c)) - 1 }
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
		key[$2] = ($3 == "jit") ? "jit " f["code-index"] : "native " unesc(f["dso"]) " " unesc(f["name"])
	}
	$1 == "sample" { n[key[$2] " " $4] += $5 }
	$1 == "total" && $3 == "kernel" { n["kernel"] += $4 }
	$1 == "total" && $3 ~ /^unattributed\./ { n["unattributed"] += $4 }
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
		else if (sym == "[unknown]") k = "unattributed"
		else if (match(dso, /jitted-[0-9]+-[0-9]+\.so$/)) {
			ci = substr(dso, RSTART, RLENGTH); sub(/^jitted-[0-9]+-/, "", ci); sub(/\.so$/, "", ci)
			k = "jit " ci " " off
		} else k = "native " dso " " sym " " off
		n[k]++
	}
	END { for (k in n) print k, n[k] }' "$1" | sort
}

# postproc JSON (--all) + perf keys -> a diff-able list of both sides.
json_vs_perf() {	# json perf-keys
	node -e '
	const fs = require("fs");
	const d = JSON.parse(fs.readFileSync(process.argv[1]));
	const ours = new Map(), theirs = new Map(), insns = new Map();
	const add = (m, k, n) => m.set(k, (m.get(k) || 0) + n);
	for (const f of d.functions) {
		const fk = f.kind === "jit" ? "jit " + f.code_index : "native " + f.dso + " " + f.symbol;
		if (!insns.has(fk)) insns.set(fk, new Set());
		for (const i of f.instructions) {
			if (i.offset < f.code_end) insns.get(fk).add(i.offset);
			if (i.samples) add(ours, fk + " 0x" + i.offset.toString(16), i.samples);
		}
		const lost = f.unaligned_samples + f.outside_code_samples;
		if (lost) add(ours, fk + " not-at-an-instruction", lost);
		if (!f.disassembled) add(ours, fk + " not-disassembled", f.samples);
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
	' "$1" "$2" "$3.theirs" "$3.ours" "$3.sums"
}

for case in fakejit v8-wasm v8-osr v8-switch glibc-evex; do
	restore_recording "$case"
	pd=$(recording_data "$case")
	[ -f "$tmp/restore-$case.out" ] && echo "# $case: $(tail -n 1 "$tmp/restore-$case.out")"
	if ! plugin_stream "$pd" "$tmp/$case.hbs" 2>"$tmp/$case.err"; then
		not_ok "$case: perf script --dlfilter hotblocks.so exits 0" "$tmp/$case.err"
		continue
	fi
	ok "$case: perf script --dlfilter hotblocks.so exits 0"
	perf --buildid-dir "$tmp/bid" inject --jit -i "$pd" -o "$tmp/$case.jit.data" 2>"$tmp/inject.err" &&
		perf --no-pager --buildid-dir "$tmp/bid" script -i "$tmp/$case.jit.data" -F ip,sym,symoff,dso \
			>"$tmp/$case.inj" 2>>"$tmp/inject.err" &&
		perf --no-pager script -i "$pd" -F ip,sym,symoff,dso >"$tmp/$case.orig" 2>>"$tmp/inject.err" ||
		{ not_ok "$case: perf inject --jit and perf script run" "$tmp/inject.err"; continue; }
	# JIT samples as perf inject resolves them; every other sample as plain perf
	# script resolves it (inject's copy loses e.g. the [vdso] symbols). Both list
	# the same samples in the same order; the ips must agree line by line.
	if ! paste -d '\n' "$tmp/$case.inj" "$tmp/$case.orig" | awk '
		NR % 2 == 1 { inj = $0; ip = $1; next }
		$1 != ip { print "sample " NR / 2 ": ip " ip " vs " $1 > "/dev/stderr"; bad = 1; exit 1 }
		{ print (inj ~ /jitted-[0-9]+-[0-9]+\.so\)$/) ? inj : $0 }
		END { exit bad }' >"$tmp/$case.perf" 2>"$tmp/align.err"; then
		not_ok "$case: perf inject keeps the samples in order" "$tmp/align.err"
		continue
	fi
	stream_keys "$tmp/$case.hbs" >"$tmp/$case.ours"
	perf_keys "$tmp/$case.perf" >"$tmp/$case.theirs"
	all=$(awk '$1 == "total" && $3 == "all" { s += $4 } END { print s + 0 }' "$tmp/$case.hbs")
	lines=$(wc -l <"$tmp/$case.perf")
	if [ "$all" -eq "$lines" ] && [ "$all" -gt 0 ]; then
		ok "$case: total samples equal perf's ($all)"
	else
		echo "ours $all, perf $lines" >"$tmp/n"; not_ok "$case: total samples equal perf's" "$tmp/n"
	fi
	jit=$(grep -c '^jit ' "$tmp/$case.theirs")
	# glibc-evex is native code only: its keys are libc's offsets
	[ "$case" = glibc-evex ] && jit=$(grep -c '^native .*libc\.so' "$tmp/$case.theirs")
	if diff -u "$tmp/$case.theirs" "$tmp/$case.ours" >"$tmp/$case.diff" && [ "$jit" -gt 0 ]; then
		ok "$case: per-offset counts of $(wc -l <"$tmp/$case.ours") keys ($jit JIT/libc offsets) equal perf inject's"
	else
		not_ok "$case: per-offset counts equal perf inject's" "$tmp/$case.diff"
	fi
	if "$POSTPROC" --json --all "$tmp/$case.hbs" >"$tmp/$case.json" 2>"$tmp/post.err" &&
		json_vs_perf "$tmp/$case.json" "$tmp/$case.theirs" "$tmp/$case.insn" 2>>"$tmp/post.err" &&
		diff -u "$tmp/$case.insn.theirs" "$tmp/$case.insn.ours" >"$tmp/$case.insn.diff" 2>&1; then
		ok "$case: hotblocks --json --all per-instruction counts ($(wc -l <"$tmp/$case.insn.ours") keys) equal perf's"
	else
		cat "$tmp/post.err" >>"$tmp/$case.insn.diff"
		not_ok "$case: hotblocks --json --all per-instruction counts equal perf's" "$tmp/$case.insn.diff"
	fi
	if [ -f "$tmp/$case.insn.sums" ] && [ ! -s "$tmp/$case.insn.sums" ] &&
		! grep -q 'not-at-an-instruction' "$tmp/$case.insn.ours"; then
		ok "$case: every sample is on an instruction row: per-function sums equal the function's samples"
	else
		not_ok "$case: every sample is on an instruction row" "$tmp/$case.insn.sums"
	fi
done
