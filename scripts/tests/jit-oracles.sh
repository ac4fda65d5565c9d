#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end: hotblocks on the real jitdump recordings of test-data against
# perf's own answer committed beside them (test-data/jit-oracle.sh: `perf
# inject --jit`, then `perf script -F ip,sym,symoff,dso`, counted in
# oracle-symoff.txt). For each recording, from `hotblocks --json --all`:
#  1. every sampled JIT function is disassembled (CPython 3.13's jitdump
#     header names no machine: the plugin takes perf.data's arch), and its
#     per-instruction counts equal perf's per-offset counts of the
#     jitted-<pid>-<code_index>.so of its load, key for key, none unaligned;
#  2. its name is the one perf shows, where perf shows one as its users
#     write it (Java: perf's own demangler); where perf shows the raw name
#     (a Rust module's mangled names inside V8's wasm names), perf's name
#     with its inner part put through binutils' c++filt, run here;
#  3. --raw-names shows each name as the stream has it.
# Nothing here is typed in by hand: both sides are committed or computed.
. "$(dirname "$0")/lib.sh"
need_private_tmp
command -v c++filt >/dev/null 2>&1 || { not_ok "c++filt (binutils) is installed"; exit 0; }

# The warning the plugin gives for a dump that names no machine, once.
machine_note="its header names no machine (e_machine 0); its code is read as perf.data's arch, x86_64 (e_machine 62)"

# CPython 3.13's -X perf_jit, HotSpot through perf's agent, and two Rust
# modules in V8: legacy and v0 manglings, v0 only.
for case in ${JIT_ORACLE_CASES:-jit-cpython313 jit-hotspot jit-node-wasm-rust v8-wasm-dprint-markdown/run1}; do
	restore_recording "$case"
	cdir=$top/test-data/$case
	# a big oracle is kept xz-compressed
	oracle=$cdir/oracle-symoff.txt
	[ -f "$oracle" ] || { xzcat "$oracle.xz" >"$tmp/oracle-symoff.txt" && oracle=$tmp/oracle-symoff.txt; }
	pd=$(recording_data "$case")
	case=$(echo "$case" | tr / -)
	plugin_stream "$pd" "$tmp/$case.hbs" 2>"$tmp/$case.plugin-err" ||
		{ not_ok "$case: perf script --dlfilter hotblocks.so" "$tmp/$case.plugin-err"; continue; }
	"$POSTPROC" --json --all "$tmp/$case.hbs" >"$tmp/$case.json" 2>"$tmp/$case.err" ||
		{ not_ok "$case: hotblocks --json --all" "$tmp/$case.err"; continue; }
	"$POSTPROC" --raw-names --json --all "$tmp/$case.hbs" >"$tmp/$case.raw.json" 2>/dev/null
	if [ "$case" = jit-cpython313 ]; then
		n=$(grep -cF "$machine_note" "$tmp/$case.plugin-err")
		if [ "$n" = 1 ] && grep -q '^warning .*e_machine%2062' "$tmp/$case.hbs"; then
			ok "$case: the plugin says once that the dump's machine is perf.data's (and the stream keeps it)"
		else
			not_ok "$case: the plugin says once that the dump's machine is perf.data's ($n times)" \
				"$tmp/$case.plugin-err"
		fi
	fi

	# perf's per-offset counts of JIT code: "CODE_INDEX HEX-OFFSET COUNT", and
	# perf's name of each code: "CODE_INDEX<TAB>NAME".
	sed -n 's/^ *\([0-9][0-9]*\) \(.*\)+0x\([0-9a-f]*\) (.*\/jitted-[0-9]*-\([0-9]*\)\.so)$/\4 \3 \1/p' \
		"$oracle" | sort >"$tmp/$case.perf-offsets"
	sed -n 's/^ *[0-9][0-9]* \(.*\)+0x[0-9a-f]* (.*\/jitted-[0-9]*-\([0-9]*\)\.so)$/\2	\1/p' \
		"$oracle" | sort -u >"$tmp/$case.perf-names"
	# ours: the same keys from the JSON, what is not disassembled or off an
	# instruction said, and each sampled JIT code's raw and display name
	node -e '
	const fs = require("fs"), [json, raw, base] = process.argv.slice(1);
	const d = JSON.parse(fs.readFileSync(json)), r = JSON.parse(fs.readFileSync(raw));
	const keys = [], names = [], raws = [], bad = [];
	for (const f of d.functions) {
		if (f.kind !== "jit" || !f.samples) continue;
		if (!f.disassembled) bad.push(f.name + ": not disassembled");
		if (f.unaligned_samples || f.outside_code_samples)
			bad.push(f.name + ": " + f.unaligned_samples + " unaligned, " + f.outside_code_samples + " outside");
		for (const i of f.instructions)
			if (i.samples) keys.push(f.code_index + " " + i.offset.toString(16) + " " + i.samples);
		names.push(f.code_index + "\t" + f.display_name);
	}
	for (const f of r.functions)
		if (f.kind === "jit" && f.samples && f.display_name !== f.name)
			raws.push(f.code_index + ": " + f.display_name + " is not " + f.name);
	fs.writeFileSync(base + ".our-offsets", keys.sort().join("\n") + "\n");
	fs.writeFileSync(base + ".our-names", [...new Set(names)].sort().join("\n") + "\n");
	fs.writeFileSync(base + ".bad", bad.join("\n") + (bad.length ? "\n" : ""));
	fs.writeFileSync(base + ".raw-bad", raws.join("\n") + (raws.length ? "\n" : ""));
	' "$tmp/$case.json" "$tmp/$case.raw.json" "$tmp/$case"
	sort -o "$tmp/$case.our-offsets" "$tmp/$case.our-offsets"

	# 1. disassembled, and per offset as perf
	nkeys=$(wc -l <"$tmp/$case.perf-offsets")
	nsamples=$(awk '{ s += $3 } END { print s + 0 }' "$tmp/$case.perf-offsets")
	if [ -s "$tmp/$case.bad" ]; then
		not_ok "$case: every sampled JIT function is disassembled, every sample on an instruction" "$tmp/$case.bad"
	elif [ "$nkeys" -gt 0 ] && diff "$tmp/$case.perf-offsets" "$tmp/$case.our-offsets" >"$tmp/$case.diff"; then
		ok "$case: every sampled JIT function disassembled; per-instruction counts equal perf's ($nkeys offsets, $nsamples samples)"
	else
		echo "< perf (code_index offset samples), > hotblocks" >>"$tmp/$case.diff"
		not_ok "$case: per-instruction counts of JIT code equal perf's per-offset counts ($nkeys offsets)" \
			"$tmp/$case.diff"
	fi

	# 2. names: perf's, with the inner part of V8's wasm names through c++filt
	awk -F'\t' '{
		if (match($2, /^[A-Za-z]+:/) && match(substr($2, RLENGTH + 1), /-[0-9]+-(liftoff|turbofan)$/)) {
			t = index($2, ":"); head = substr($2, 1, t); rest = substr($2, t + 1)
			match(rest, /-[0-9]+-(liftoff|turbofan)$/)
			print $1 "\t" head "\t" substr(rest, 1, RSTART - 1) "\t" substr(rest, RSTART)
		} else {
			print $1 "\t\t" $2 "\t"
		}
	}' "$tmp/$case.perf-names" >"$tmp/$case.parts"
	cut -f3 "$tmp/$case.parts" | c++filt >"$tmp/$case.inner"
	cut -f1,2 "$tmp/$case.parts" | paste - "$tmp/$case.inner" >"$tmp/$case.a"
	cut -f4 "$tmp/$case.parts" | paste -d '' "$tmp/$case.a" - |
		awk -F'\t' '{ print $1 "\t" $2 $3 }' | sort -u >"$tmp/$case.want-names"
	nnames=$(wc -l <"$tmp/$case.want-names")
	changed=$(cut -f2 "$tmp/$case.perf-names" | paste - "$tmp/$case.want-names" | awk -F'\t' '$1 != $3' | wc -l)
	if [ "$nnames" -gt 0 ] && diff "$tmp/$case.want-names" "$tmp/$case.our-names" >"$tmp/$case.ndiff"; then
		ok "$case: the $nnames sampled JIT codes are named as perf names them, c++filt inside V8's wasm names ($changed demangled by c++filt)"
	else
		echo "< perf / c++filt (code_index name), > hotblocks" >>"$tmp/$case.ndiff"
		not_ok "$case: sampled JIT codes named as perf and c++filt name them" "$tmp/$case.ndiff"
	fi

	# 3. --raw-names
	if [ -s "$tmp/$case.raw-bad" ]; then
		not_ok "$case: --raw-names shows the names as the stream has them" "$tmp/$case.raw-bad"
	else
		ok "$case: --raw-names shows the names as the stream has them"
	fi
done
