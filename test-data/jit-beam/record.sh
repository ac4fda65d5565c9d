#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-beam recording: Erlang/OTP 25 (BeamAsm, the JIT) running
# hot.erl with perf support on, in /tmp/hotblocks-rec/jit-beam:
#   erlc hot.erl
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data \
#     erl +JPperf true -noshell -run hot main SECS
# With +JPperf true OTP 25 writes both a jitdump, /tmp/jit-PID.dump, and a
# perf map, /tmp/perf-PID.map (fixed paths: not the working directory). Both
# are moved here beside perf.data; restore.sh puts them back.
# Usage: record.sh [SECONDS]   (default 2; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
rec=/tmp/hotblocks-rec/jit-beam

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/hot.erl" "$rec/"
cd "$rec"
erlc hot.erl
erl -noshell -eval 'io:format("OTP ~s, erts ~s, ~s~n", [erlang:system_info(otp_release), erlang:system_info(version), erlang:system_info(system_version)]), halt().' >erl-version.txt
# -k mono: BeamAsm stamps its jitdump records with CLOCK_MONOTONIC.
perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data \
	erl +JPperf true -noshell -run hot main "$secs" >run.out
pid=$(perf script -i perf.data --show-mmap-events 2>/dev/null |
	awk '/jit-[0-9]+\.dump/ { sub(/.*jit-/, ""); sub(/\.dump.*/, ""); print; exit }')
chmod 644 perf.data "/tmp/jit-$pid.dump" "/tmp/perf-$pid.map"
rm -f "$here"/jit-*.dump "$here"/perf-*.map
mv "/tmp/jit-$pid.dump" "/tmp/perf-$pid.map" "$here/"
cp perf.data run.out erl-version.txt "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid: jit-$pid.dump $(wc -c <"$here/jit-$pid.dump") bytes, perf-$pid.map $(wc -l <"$here/perf-$pid.map") lines"
