#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the callchains-node recording where the tests read it
# (/tmp/hotblocks-rec/callchains-node/perf.data). Its samples are in this
# machine's node and libc, read at report time: when one of them is not the
# build recorded, the program is recorded again (../restore-same-build.sh).
# The last line on stdout says which: "committed" or "recorded afresh".
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../restore-same-build.sh" "$here" callchains-node
