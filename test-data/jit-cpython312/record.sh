#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-cpython312 recording: CPython 3.12 with its perf
# trampolines on (-X perf), which names each Python function's trampoline
# "py::QUALNAME:FILE" in /tmp/perf-PID.map (no jitdump), running hot.py:
#   perf record -N -k mono -e cpu-clock -F 499 --call-graph dwarf,2048 -o perf.data python3.12 -X perf hot.py SECS
# in /tmp/hotblocks-rec/jit-cpython312. The map is moved here beside
# perf.data (restore.sh puts it back).
# Usage: [PYTHON=python3.12] record.sh [SECONDS]   (default 3; PYTHON defaults
# to pyenv's 3.12.1 build, ~/.pyenv/versions/3.12.1/bin/python3.12)
# --call-graph dwarf: with the address alone the trampolines (11 bytes each)
# are almost never sampled; the Python function a sample ran for is the
# innermost py:: frame of its callchain (2 KB of stack reach it in about
# 98% of the samples, 1 KB in 86%). Frame pointers do not get there
# (this libpython is built without them), DWARF unwinding does, as the
# CPython docs for -X perf_jit say.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-3}
py=${PYTHON:-$HOME/.pyenv/versions/3.12.1/bin/python3.12}
rec=/tmp/hotblocks-rec/jit-cpython312

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/hot.py" "$rec/"
cd "$rec"
"$py" -VV >python-version.txt
"$py" -c 'import sysconfig; print("PY_HAVE_PERF_TRAMPOLINE =", sysconfig.get_config_var("PY_HAVE_PERF_TRAMPOLINE")); print("CONFIG_ARGS =", sysconfig.get_config_var("CONFIG_ARGS"))' >>python-version.txt
perf record -q -N -k mono -e cpu-clock -F 499 --call-graph dwarf,2048 -o perf.data "$py" -X perf hot.py "$secs" >run.out
pid=$(perf script -i perf.data -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
chmod 644 perf.data "/tmp/perf-$pid.map"
rm -f "$here"/perf-*.map
mv "/tmp/perf-$pid.map" "$here/"
cp perf.data run.out python-version.txt "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid, map $(wc -l <"$here/perf-$pid.map") lines"
