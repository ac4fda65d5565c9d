#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-cpython313 recording: CPython 3.13 with its perf
# trampolines written as a jitdump (-X perf_jit): one CODE_LOAD per Python
# function's trampoline, "py::QUALNAME:FILE", in /tmp/jit-PID.dump (a fixed
# path, not the working directory; no perf map), running ../jit-cpython312/hot.py:
#   perf record -N -k mono -e cpu-clock -F 499 --call-graph dwarf,2048 -o perf.data python3.13 -X perf_jit hot.py SECS
# in /tmp/hotblocks-rec/jit-cpython313. The dump is moved here beside
# perf.data (restore.sh puts it back).
# Usage: [PYTHON=python3.13] record.sh [SECONDS]   (default 3; PYTHON defaults
# to pyenv's 3.13.0 build, ~/.pyenv/versions/3.13.0/bin/python3.13)
# --call-graph dwarf: with the address alone the trampolines (11 bytes each)
# are almost never sampled; the Python function a sample ran for is the
# innermost py:: frame of its callchain (2 KB of stack reach it in about
# 98% of the samples, 1 KB in 86%). Frame pointers do not get there
# (this libpython is built without them), DWARF unwinding does, as the
# CPython docs for -X perf_jit say.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-3}
py=${PYTHON:-$HOME/.pyenv/versions/3.13.0/bin/python3.13}
rec=/tmp/hotblocks-rec/jit-cpython313

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/../jit-cpython312/hot.py" "$rec/"
cd "$rec"
"$py" -VV >python-version.txt
"$py" -c 'import sysconfig; print("PY_HAVE_PERF_TRAMPOLINE =", sysconfig.get_config_var("PY_HAVE_PERF_TRAMPOLINE")); print("CONFIG_ARGS =", sysconfig.get_config_var("CONFIG_ARGS"))' >>python-version.txt
perf record -q -N -k mono -e cpu-clock -F 499 --call-graph dwarf,2048 -o perf.data "$py" -X perf_jit hot.py "$secs" >run.out
pid=$(perf script -i perf.data --show-mmap-events 2>/dev/null |
	awk '/jit-[0-9]+\.dump/ { sub(/.*jit-/, ""); sub(/\.dump.*/, ""); print; exit }')
chmod 644 perf.data "/tmp/jit-$pid.dump"
rm -f "$here"/jit-*.dump
mv "/tmp/jit-$pid.dump" "$here/"
cp perf.data run.out python-version.txt "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid, jit-$pid.dump $(wc -c <"$here/jit-$pid.dump") bytes"
