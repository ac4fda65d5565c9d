#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-beam-perfmap recording: Erlang/OTP 25 (BeamAsm, the JIT)
# running ../jit-beam/hot.erl with the perf map alone, in
# /tmp/hotblocks-rec/jit-beam-perfmap:
#   erlc hot.erl
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data \
#     erl +JPperf map -noshell -run hot main SECS
# +JPperf map writes /tmp/perf-PID.map (no jitdump). The map is moved here,
# xz-compressed, beside perf.data; restore.sh puts it back.
# Usage: record.sh [SECONDS]   (default 2; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
rec=/tmp/hotblocks-rec/jit-beam-perfmap

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/../jit-beam/hot.erl" "$rec/"
cd "$rec"
erlc hot.erl
erl -noshell -eval 'io:format("OTP ~s, erts ~s, ~s~n", [erlang:system_info(otp_release), erlang:system_info(version), erlang:system_info(system_version)]), halt().' >erl-version.txt
perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data \
	erl +JPperf map -noshell -run hot main "$secs" >run.out
# erl execs erlexec and then beam.smp: one pid, that of most samples (its
# dirname and erl_child_setup are others)
pid=$(perf script -i perf.data -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
chmod 644 perf.data "/tmp/perf-$pid.map"
rm -f "$here"/perf-*.map.xz
xz -9 -c "/tmp/perf-$pid.map" >"$here/perf-$pid.map.xz"
rm -f "/tmp/perf-$pid.map"
cp perf.data run.out erl-version.txt "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid: perf-$pid.map $(xz -dc "$here/perf-$pid.map.xz" | wc -l) lines"
