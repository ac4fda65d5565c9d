# SPDX-License-Identifier: MIT
# Shared helpers of the shell tests: TAP output, a scratch directory, the
# committed recordings. Source it; every test prints "ok N - ..." lines.
set -u
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd)
PLUGIN=$top/plugin/hotblocks.so
POSTPROC=$top/postproc/hotblocks
tmp=$(mktemp -d /tmp/hotblocks-test.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
tap_n=0
# The recordings are put back at the fixed paths perf.data names
# (/tmp/hotblocks-rec/...): two test runs on one machine (two checkouts) must
# not do that at the same time, so the shell tests of all checkouts take turns.
exec 9>/tmp/hotblocks-tests.lock
flock 9

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

# recording CASE: the dump of test-data/CASE is put back at the absolute path
# perf.data recorded for it (/tmp/hotblocks-rec/CASE/), as on the recording machine.
# A recording of native code only has no dump; one with a restore.sh (glibc-evex)
# puts itself in place, perf.data included (recording_data names it).
restore_recording() {
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

# perf script with our plugin: plugin_stream PERF_DATA OUT [DLARG...]
plugin_stream() {
	pd=$1 out=$2; shift 2
	args=
	for a in "$@"; do args="$args --dlarg $a"; done
	# shellcheck disable=SC2086
	perf --no-pager script -i "$pd" --dlfilter "$PLUGIN" --dlarg "out=$out" $args
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
