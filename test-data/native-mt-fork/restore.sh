#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the native-mt-fork recording where the tests read it: /tmp/hotblocks-rec/native-mt-fork/
# with perf.data and the program built again from the sources, or records
# afresh when the build-ids differ (test-data/restore-built.sh).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../restore-built.sh" "$here" native-mt-fork mt libwork.so /usr/lib/x86_64-linux-gnu/libc.so.6
