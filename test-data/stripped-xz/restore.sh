#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the stripped-xz recording where the tests read it
# (/tmp/hotblocks-rec/stripped-xz/perf.data). Its samples are in this
# machine's xz, liblzma and libc, read at report time: when one of them is not
# the build recorded, the program is recorded again
# (../restore-same-build.sh). The last line on stdout says which: "committed"
# or "recorded afresh".
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../restore-same-build.sh" "$here" stripped-xz 100000
