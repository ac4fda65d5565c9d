#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the per-thread test recordings: scripts/tools/fakejit under
# `perf record -k mono --per-thread`, once without and once with -T
# (--timestamp), each into its own directory here (no-T/, with-T/) with the
# jitdump fakejit wrote and fakejit's own report (fakejit.out).
# Records in a fresh private directory (mktemp), with fakejit copied there so
# that perf.data names no checkout: the dump path perf.data stores names a
# directory that is gone afterwards, and the plugin finds the dump next to
# perf.data (and says so).
# Usage: record.sh   (needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
make -C "$top" build/tools/fakejit

for t in no-T with-T; do
	rec=$(mktemp -d /tmp/hotblocks-per-thread.XXXXXX)
	flag=
	[ "$t" = with-T ] && flag=-T
	# -N only keeps perf from copying binaries into ~/.debug.
	# shellcheck disable=SC2086
	cp "$top/build/tools/fakejit" "$rec/"
	(cd "$rec" && perf record -N -k mono --per-thread $flag -e cpu-clock -F 999 -o perf.data \
		./fakejit >fakejit.out)
	set -- "$rec"/jit-*.dump
	if [ $# -ne 1 ] || [ ! -f "$1" ]; then
		echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
		exit 1
	fi
	rm -rf "${here:?}/$t"
	mkdir "$here/$t"
	chmod 644 "$rec/perf.data"
	cp "$rec/perf.data" "$1" "$rec/fakejit.out" "$here/$t/"
	rm -rf "$rec"
	echo "$t: $(basename "$1"), perf.data $(wc -c <"$here/$t/perf.data") bytes"
	cat "$here/$t/fakejit.out"
done
