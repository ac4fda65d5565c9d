#!/bin/sh
# SPDX-License-Identifier: MIT
# A perf map is written by the profiled program: the plugin reads it only
# as perf would let it, and says so when it does not. On the real recording
# test-data/v8-perfmap (node --perf-basic-prof), its map is made a symbolic
# link, given to another user, and given a line whose range wraps past 2^64;
# each time the plugin's warning names the map and why, every sample is still
# counted (the stream's total is the same). perf 6.1 reads both the link and
# another user's map (older perf refused the latter unless -f): the plugin is
# stricter, and this says so by perf's own answer; with perf script -f both
# read another user's map.
. "$(dirname "$0")/lib.sh"

restore_recording v8-perfmap || { not_ok "v8-perfmap is restored" "$tmp/restore-v8-perfmap.out"; exit 0; }
pd=$(recording_data v8-perfmap)
map=$(recording_map v8-perfmap)
cp "$map" "$tmp/orig.map"

# the stream's total of a class (all: every sample), from the plugin's run
total() {	# class
	awk -v c="$1" '$1 == "total" && $3 == c { s += $4 } END { print s + 0 }' "$tmp/s.hbs"
}
ours() {	# [perf script options...]: the stream in s.hbs, the plugin's stderr in s.err
	perf --no-pager script "$@" -i "$pd" --dlfilter "$PLUGIN" --dlarg "out=$tmp/s.hbs" 2>"$tmp/s.err"
}
# perf's samples in the map's functions
perf_named() {	# [perf script options...]
	perf --no-pager script "$@" -i "$pd" -F ip,sym,dso 2>/dev/null | grep -c "JS:.*($map)"
}

ours
all=$(total all) named=$(total perfmap)
check "as written: the plugin names $named of $all samples from the map, without a warning about it" \
	sh -c "test $named -gt 0 && ! grep -q '$map' '$tmp/s.err'"

mv "$map" "$tmp/real.map" && ln -s "$tmp/real.map" "$map"
ours
check "a symbolic link: not read, and said" grep -qF "hotblocks: warning: $map: a symbolic link; not read as a perf map" "$tmp/s.err"
check "a symbolic link: every sample still counted ($all), none from the map" \
	sh -c "test $(total all) -eq $all && test $(total perfmap) -eq 0"
check "a symbolic link: perf 6.1 follows it ($(perf_named) samples): the plugin is stricter" test "$(perf_named)" -gt 0
rm -f "$map" && cp "$tmp/orig.map" "$map"

if chown 4242:4242 "$map" 2>/dev/null; then
	ours
	check "another user's map: not read, and said" grep -qF "hotblocks: warning: $map: owned by uid 4242" "$tmp/s.err"
	check "another user's map: every sample still counted ($all), none from the map" \
		sh -c "test $(total all) -eq $all && test $(total perfmap) -eq 0"
	check "another user's map: perf 6.1 reads it all the same ($(perf_named) samples): the plugin is stricter" \
		test "$(perf_named)" -gt 0
	ours -f
	check "perf script -f: perf names them ($(perf_named -f)) and the plugin reads the map as before" \
		sh -c "test $(perf_named -f) -gt 0 && test $(total perfmap) -eq $named && ! grep -q '$map' '$tmp/s.err'"
	chown 0:0 "$map"
else
	not_ok "another user's map: chown needs root here"
fi

lines=$(wc -l <"$map")
echo "ffffffffffffff00 200 wraps" >>"$map"
ours
check "a line whose range wraps: said with its line number ($((lines + 1)))" \
	grep -qF "hotblocks: warning: $map: line $((lines + 1)): START + SIZE wraps" "$tmp/s.err"
check "a line whose range wraps: the other lines name the same $named samples" test "$(total perfmap)" -eq "$named"
cp "$tmp/orig.map" "$map"
