#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the lbr-propeller recording where the tests read it: perf.data
# (kept xz-compressed) in /tmp/hotblocks-rec/lbr-propeller/, and the program
# it sampled under the --symfs root /tmp/hotblocks-rec/lbr-propeller/sym/ at
# the path perf.data names for it (it was recorded on another machine, whose
# paths this one has not). Report with
#   perf script -i /tmp/hotblocks-rec/lbr-propeller/perf.data --symfs /tmp/hotblocks-rec/lbr-propeller/sym ...
# The last line on stdout is "committed".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/lbr-propeller
# the path perf record saw (perf buildid-list -i perf.data)
bin=/build/work/11ef31a2a8be9640fa8d4c917e76f0db3923/google3/blaze-out/k8-opt/genfiles/devtools/crosstool/autofdo/testdata/propeller_sample_1.bin.gen

rm -rf "$rec"
mkdir -p "$rec/sym${bin%/*}"
xz -dc "$here/perf.data.xz" >"$rec/perf.data.tmp"
mv "$rec/perf.data.tmp" "$rec/perf.data"
cp "$here/propeller_sample_1.bin" "$rec/sym$bin"
echo committed
