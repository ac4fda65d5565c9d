# SPDX-License-Identifier: MIT
# Shared helpers of the shell tests: TAP output, a scratch directory, the
# committed recordings. Source it; every test prints "ok N - ..." lines.
set -u
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd)
# Every test runs with a /tmp of its own (scripts/with-private-tmp: a mount
# namespace, as root or in a user namespace), so that the recordings can go
# back to the absolute paths their perf.data names (/tmp/hotblocks-rec/...)
# with nothing shared between runs, checkouts or users. Where no namespace
# can be had, the tests that need those paths skip (need_private_tmp).
if [ -z "${HOTBLOCKS_PRIVATE_TMP:-}" ] && "$top/scripts/with-private-tmp" --check; then
	exec "$top/scripts/with-private-tmp" sh "$0" "$@"
fi
PLUGIN=$top/plugin/hotblocks.so
POSTPROC=$top/postproc/hotblocks
tmp=$(mktemp -d /tmp/hotblocks-test.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
# perf hotblocks wasm keeps what it compiles in a cache: the test's own, not the user's.
export HOTBLOCKS_CACHE_DIR="$tmp/hotblocks-cache"
tap_n=0

# need_private_tmp: this test puts recordings back at the paths perf.data
# names, or needs nothing to be there, which only a private /tmp makes sure
# of; without one it is skipped whole.
need_private_tmp() {
	[ -n "${HOTBLOCKS_PRIVATE_TMP:-}" ] && return 0
	echo "ok 1 # SKIP no private /tmp here (a mount namespace needs root or user namespaces): the recordings cannot go back to the paths their perf.data names"
	exit 0
}

# need_go_pprof WHAT: this test checks its outputs with their client, go tool
# pprof, which runs as `pprof ARGS...` (its stderr into $tmp/pprof.err) with
# HOME, GOCACHE, GOPATH and PPROF_TMPDIR in the test's scratch directory: it
# writes nothing outside it. Without go the test is skipped whole, the line
# saying that WHAT (the rest of its sentence) was not; a private /tmp too.
need_go_pprof() {
	if ! command -v go >/dev/null 2>&1 || ! go tool pprof -h >/dev/null 2>&1; then
		echo "ok 1 # SKIP go tool pprof is NOT INSTALLED (Debian: golang-go; scripts/ensure-deps check installs it): $1"
		exit 0
	fi
	need_private_tmp
	export HOME="$tmp/home" GOCACHE="$tmp/gocache" GOPATH="$tmp/gopath" PPROF_TMPDIR="$tmp/pprof" \
		PPROF_BINARY_PATH="$tmp/no-binaries" GOFLAGS=-mod=mod GOTOOLCHAIN=local
	mkdir -p "$HOME" "$PPROF_TMPDIR"
	pprof() { go tool pprof "$@" 2>>"$tmp/pprof.err"; }
}

ok() {	# description
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}
not_ok() {	# description [detail file]
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $1"
	[ $# -gt 1 ] && [ -f "$2" ] && sed 's/^/# /' "$2" | head -40
	return 0
}
check() {	# description command... : ok when the command succeeds
	d=$1; shift
	if "$@" >"$tmp/check.out" 2>&1; then ok "$d"; else not_ok "$d" "$tmp/check.out"; fi
}

# refused DESCRIPTION DIR INPUT ORIGINAL MESSAGE COMMAND...: an output that
# is an input is refused: COMMAND, run in DIR, exits 2 with MESSAGE (a fixed
# string) on stderr, and INPUT is byte for byte its copy ORIGINAL.
refused() {
	rf_d=$1 rf_in=$3 rf_orig=$4 rf_msg=$5
	(cd "$2" && shift 5 && "$@") >"$tmp/refused.out" 2>"$tmp/refused.err"
	rf_rc=$?
	if [ "$rf_rc" -eq 2 ] && grep -qF -- "$rf_msg" "$tmp/refused.err" && cmp -s "$rf_in" "$rf_orig"; then
		ok "$rf_d"
	else
		echo "exit $rf_rc; wanted 2 and: $rf_msg" >>"$tmp/refused.err"
		cmp "$rf_in" "$rf_orig" >>"$tmp/refused.err" 2>&1
		not_ok "$rf_d" "$tmp/refused.err"
	fi
}

# recording CASE: the dump of test-data/CASE is put back at the absolute path
# perf.data recorded for it (/tmp/hotblocks-rec/CASE/, in this test's private
# /tmp), as on the recording machine.
# A recording of native code only has no dump; one with a restore.sh (glibc-evex)
# puts itself in place, perf.data included (recording_data names it).
restore_recording() {
	need_private_tmp
	if [ -x "$top/test-data/$1/restore.sh" ]; then
		"$top/test-data/$1/restore.sh" >"$tmp/restore-$1.out"
		return
	fi
	mkdir -p "/tmp/hotblocks-rec/$1"
	for d in "$top/test-data/$1"/jit-*.dump; do
		[ -e "$d" ] && cp "$d" "/tmp/hotblocks-rec/$1/"
	done
	return 0
}

# The perf.data of recording CASE, after restore_recording CASE.
recording_data() {
	if [ -x "$top/test-data/$1/restore.sh" ]; then
		echo "/tmp/hotblocks-rec/$1/perf.data"
	else
		echo "$top/test-data/$1/perf.data"
	fi
}

# The perf map of recording CASE where its runtime wrote it (/tmp/perf-PID.map),
# after restore_recording CASE.
recording_map() {
	rm_map=$(ls "$top/test-data/$1"/perf-*.map)
	echo "/tmp/${rm_map##*/}"
}

# perf script with our plugin: plugin_stream PERF_DATA OUT [DLARG...]
plugin_stream() {
	pd=$1 out=$2; shift 2
	args=
	for a in "$@"; do args="$args --dlarg $a"; done
	# shellcheck disable=SC2086
	perf --no-pager script -i "$pd" --dlfilter "$PLUGIN" --dlarg "out=$out" $args
}

# perf_syms PERF_DATA OUT: perf's own attribution of each sample (perf script
# -F ip,sym), counted by symbol into OUT; perf_sym_count OUT SYM: SYM's count.
perf_syms() {
	perf --no-pager script -i "$1" -F ip,sym 2>/dev/null | awk '{ print $2 }' | sort | uniq -c >"$2"
}
perf_sym_count() { awk -v s="$2" '$2 == s { print $1 }' "$1"; }

# diff_stream CASE OUT: the stream of the recording test-data/diff/CASE
# (README.md there) into OUT, its dump and .cwasm put back where it ran
# (/tmp/hotblocks-rec/diff/CASE, in this test's private /tmp); the later
# wasmtime-O2 runs ran wasmtime-O2's .cwasm (kept once).
diff_stream() {
	ds_d=$top/test-data/diff ds_r=/tmp/hotblocks-rec/diff/$1
	mkdir -p "$ds_r"
	cp "$ds_d/$1"/jit-*.dump "$ds_r/"
	case $1 in
	wasmtime-O2-*) cp "$ds_d/wasmtime-O2/module.cwasm" "$ds_r/" ;;
	wasmtime-*) cp "$ds_d/$1/module.cwasm" "$ds_r/" ;;
	esac
	plugin_stream "$ds_d/$1/perf.data" "$2" 2>"$2.plugin-err" ||
		not_ok "perf script --dlfilter hotblocks.so on test-data/diff/$1" "$2.plugin-err"
}

# jco, the pinned wasm-tools (wasmprinter, the wat parser) the tests compare
# with. Sets jco (a command to run, empty when there is none), jco_bin (its
# package's executable, whose directory holds the JavaScript API) and jco_node
# (the node that runs that API in-process). JCO=path overrides; else build/jco
# as scripts/ensure-deps installs it (run by the node 20 of build/test-node,
# which its dependencies require); else jco on PATH.
find_jco() {
	jco=${JCO:-} jco_bin=${JCO:-} jco_node=node
	if [ -z "$jco" ] && [ -x "$top/build/jco/jco" ]; then
		jco=$top/build/jco/jco
		jco_bin=$top/build/jco/node_modules/.bin/jco
		[ -x "$top/build/test-node/bin/node" ] && jco_node=$top/build/test-node/bin/node
	fi
	if [ -z "$jco" ] && command -v jco >/dev/null 2>&1; then
		jco=$(command -v jco) jco_bin=$(command -v jco)
	fi
	return 0
}

# browser_check [--screenshot PNG] [--view PNG] [--window WxH] [--dump JSON] PAGE SPEC: open PAGE in
# headless Chromium and run the checks of SPEC (scripts/tests/browser-check.mjs
# says what it checks and how SPEC reads): the pinned playwright-core of
# build/browser, run by the node 20 of build/test-node (scripts/ensure-deps
# check installs both), on Debian's chromium. Prints its "ok - ..." /
# "not ok - ..." lines; exit 1 when a check failed, 2 when it could not run.
browser_check() {
	bc_node=node
	[ -x "$top/build/test-node/bin/node" ] && bc_node=$top/build/test-node/bin/node
	"$bc_node" "$top/scripts/tests/browser-check.mjs" "$@"
}

# tap_relay FILE [PREFIX]: the "ok - ..." / "not ok - ..." lines of FILE (a
# checker's output) as this test's own numbered lines, each name after PREFIX;
# the "# ..." lines after a failure are its detail. Returns 1 when FILE has
# no such line at all (the checker did not run).
tap_relay() {
	tr_seen=0 tr_fail= tr_detail=$tmp/tap-relay.detail
	tr_flush() {
		[ -n "$tr_fail" ] && not_ok "${2:-}$tr_fail" "$tr_detail"
		tr_fail=
	}
	while IFS= read -r tr_line; do
		case $tr_line in
		"# "*) [ -n "$tr_fail" ] && echo "${tr_line#\# }" >>"$tr_detail" ;;
		"ok - "*) tr_flush "$@"; tr_seen=1; ok "${2:-}${tr_line#ok - }" ;;
		"not ok - "*) tr_flush "$@"; tr_seen=1; tr_fail=${tr_line#not ok - }; : >"$tr_detail" ;;
		*) tr_flush "$@" ;;
		esac
	done <"$1"
	tr_flush "$@"
	[ "$tr_seen" = 1 ]
}

# The [Source] cells of V8's TurboFan `work` in JSON (`hotblocks --json --all`
# of node running test-data/srcline/hot.js or a copy of it): work() spans
# lines 5-10 and mix(), inlined into it, line 4, so every sampled cell must
# name hot.js:4..10. Prints "N BAD [the first bad ones]": N sampled cells.
hot_js_work_lines() {
	node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	let n = 0, bad = [];
	for (const f of d.functions) {
		if (!/^(JS|LazyCompile):\*work /.test(f.name)) continue;
		for (const i of f.instructions) {
			if (!i.samples || !i.source) continue;
			n++;
			const m = i.source.match(/^hot\.js:(\d+):\d+$/);
			if (!m || +m[1] < 4 || +m[1] > 10) bad.push(i.offset + " " + i.source);
		}
	}
	console.log(n + " " + bad.length + (bad.length ? " " + bad.slice(0, 5).join("; ") : ""));' "$1"
}

# checker_line FILE WHAT PREFIX: the line "WHAT ok|FAIL SUMMARY" of a
# wasmtime-real.js output FILE as this test's ok / not ok line "PREFIX: WHAT:
# SUMMARY", with the checker's "  ..." detail lines after a failure. Returns 1,
# printing nothing, when FILE has no such line.
checker_line() {
	cl_line=$(grep "^$2 " "$1" | head -1)
	[ -n "$cl_line" ] || return 1
	sed -n "/^$2 /,/^[a-z]/p" "$1" | grep '^  ' >"$tmp/checker-line.detail"
	case $cl_line in
	"$2 ok "*) ok "$3: $2: ${cl_line#"$2 ok "}" ;;
	*) not_ok "$3: $2: ${cl_line#"$2 FAIL "}" "$tmp/checker-line.detail" ;;
	esac
}

# wasm_source_cells WASM PREFIX JSON...: the [Source] cell of every sampled
# instruction with a wasm offset in hotblocks' JSON reports (--json --all) of
# code compiled from WASM, one "0xOFFSET<TAB>CELL" line per offset in
# PREFIX.ours, and what llvm-symbolizer says of the same offsets (code-section
# relative for it) in the short form srcmap.h gives, "OFFSET FUNCTION
# FILE:LINE:COL" without a zero column (see source-wasm-column.sh), in
# PREFIX.theirs: the two files must be equal.
wasm_source_cells() {
	wsc_wasm=$1 wsc_out=$2
	shift 2
	wsc_sym=llvm-symbolizer-14
	command -v $wsc_sym >/dev/null 2>&1 || wsc_sym=llvm-symbolizer
	wsc_code=0x$(wasm-objdump -h "$wsc_wasm" | sed -n 's/.*Code start=0x\([0-9a-f]*\).*/\1/p')
	node -e '
	for (const j of process.argv.slice(1)) {
		const d = JSON.parse(require("fs").readFileSync(j));
		for (const f of d.functions) if (f.wasm_function)
			for (const i of f.instructions)
				if (i.samples && i.wasm_offset !== null) console.log("0x" + i.wasm_offset.toString(16) + "\t" + (i.source || "-"));
	}' "$@" | sort -u >"$wsc_out.ours"
	cut -f1 "$wsc_out.ours" | while read -r w; do
		printf '%s\t' "$w"
		$wsc_sym --obj="$wsc_wasm" -f -i "$(printf '0x%x' $((w - wsc_code)))" | awk '
			NF == 0 { exit } NR % 2 == 1 { fn[++k] = $0 } NR % 2 == 0 { loc[k] = $0 }
			END { l = loc[1]; sub(/.*\//, "", l); sub(/:0:[0-9]+$/, "", l); sub(/:0$/, "", l)	# line 0, column 0
			      s = fn[1] " " l; if (k > 1) s = s " (inlined into " fn[k] ")"; print s }'
	done | awk -F'\t' '{ print $1 "\t" $1 " " $2 }' >"$wsc_out.theirs"
}
