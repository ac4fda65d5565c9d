#!/bin/sh
# SPDX-License-Identifier: MIT
# perf's own account of a callchain recording, the oracle of
# scripts/tests/callchains.sh: oracle.sh stacks|children PERF.DATA
#   stacks:   every sample's callchain as perf script resolves it
#             (perf script -F ip,sym --no-inline --no-demangle, demangled by
#             c++filt), leaf first, "COUNT<TAB>name;name;...", identical
#             stacks counted, sorted
#   children: perf report --children --stdio -g none --sort sym
#             --no-demangle, each function's "children" (cumulative)
#             percentage, "PERCENT<TAB>name" demangled by c++filt, sorted by
#             name; frames perf cannot name ([unknown], raw addresses) left out
# oracle-stacks.txt and oracle-children.txt beside it are its output for the
# committed perf.data.
set -eu
case $1 in
stacks)
	perf --no-pager script -i "$2" -F ip,sym --no-inline --no-demangle 2>/dev/null | awk '
		/^$/ { if (s != "") n[s]++; s = ""; next }
		{ sub(/^[ \t]*[0-9a-f]+ /, ""); s = s == "" ? $0 : s ";" $0 }
		END { if (s != "") n[s]++; for (k in n) printf "%d\t%s\n", n[k], k }' | c++filt | LC_ALL=C sort
	;;
children)
	perf --no-pager report -i "$2" --children --stdio -g none --sort sym --no-demangle 2>/dev/null | awk '
		/^#/ || NF < 4 || $3 != "[.]" { next }
		$4 ~ /^(0x)?[0-9a-f]+$/ { next }
		{ c = $1; sub(/%$/, "", c); sub(/^ *[0-9.]+% +[0-9.]+% +\[\.\] /, ""); printf "%s\t%s\n", c, $0 }' |
		c++filt | LC_ALL=C sort -t "$(printf '\t')" -k2
	;;
*)
	echo "usage: oracle.sh stacks|children PERF.DATA" >&2
	exit 2
	;;
esac
